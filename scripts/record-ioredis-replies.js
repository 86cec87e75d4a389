#!/usr/bin/env node
/**
 * Dev-only recorder of ground truth for RESP3: what REAL ioredis delivers for every stream
 * command shape and a sample of built-ins, against a real redis-server (7.0.15 expected), in
 * every protocol / reply-mapping combination a user can choose, through every way of calling.
 *
 *   REDIS_URL=redis://127.0.0.1:6399 node scripts/record-ioredis-replies.js [out.json]
 *
 * (default out: __tests__/ioredis-replies/recorded.json; database 11 of the server is flushed
 * before every recorded call, so point it at a server reserved for tests.)
 *
 * Clients: ioredis 6.0.0 (`ioredis`) with protocol 2, protocol 3 + replyMapping legacy (its
 * default), protocol 3 + replyMapping resp3, the two protocol 3 ones again with stringNumbers;
 * ioredis 5.11.1 (`ioredis5`, RESP2 only) for comparison, with and without stringNumbers.
 * Forms: the method (`xreadgroup`), its Buffer twin, `call('XREADGROUP', …)` (name as users
 * write it), `call('xreadgroup', …)` (lowercase: ioredis looks its reply transformers up by the
 * exact name), `callBuffer`, `pipeline()`, `multi()`, and Lua `EVAL` returning `redis.call(…)`
 * with the script's default RESP2 and after `redis.setresp(3)`.
 *
 * Values are stored JSON-safe: Buffer → {"$buffer": base64}, bigint → {"$bigint": "…"},
 * non-finite numbers → {"$number": "NaN" | "Infinity" | "-Infinity"}, Error → {"$error": message},
 * plain object (resp3 maps) → {"$object": [[key, value], …]} (key order kept), undefined →
 * {"$undefined": true}. Every case starts from FLUSHDB + its setup commands, run through a
 * separate RESP2 connection; explicit IDs everywhere, so only idle times vary between runs
 * (tests mask them).
 */
'use strict';
const fs = require('fs');
const path = require('path');

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) {
  console.error('REDIS_URL is required (e.g. redis://127.0.0.1:6399)');
  process.exit(2);
}
const OUT = path.resolve(process.argv[2] ?? path.join(__dirname, '..', '__tests__', 'ioredis-replies', 'recorded.json'));
const DB = 11;

const IORedis6 = require('ioredis');
const IORedis5 = require('ioredis5');

const CLIENTS = [
  { id: 'ioredis6-p2', lib: IORedis6, options: { protocol: 2 } },
  { id: 'ioredis6-p3-legacy', lib: IORedis6, options: {} },
  { id: 'ioredis6-p3-resp3', lib: IORedis6, options: { protocol: 3, replyMapping: 'resp3' } },
  { id: 'ioredis6-p3-legacy-sn', lib: IORedis6, options: { stringNumbers: true } },
  { id: 'ioredis6-p3-resp3-sn', lib: IORedis6, options: { protocol: 3, replyMapping: 'resp3', stringNumbers: true } },
  { id: 'ioredis5', lib: IORedis5, options: {} },
  { id: 'ioredis5-sn', lib: IORedis5, options: { stringNumbers: true } },
];

const FORMS = ['method', 'methodBuffer', 'call', 'callLower', 'callBuffer', 'pipeline', 'multi', 'eval', 'eval3'];

/** Setups (run before the recorded command, on a RESP2 connection). */
const S = {
  stream: [['XADD', 's', '1-1', 'f', 'v'], ['XADD', 's', '2-1', 'f2', 'v2'], ['XADD', 's', '3-1', 'f3', 'v3']],
  group: [['XADD', 's', '1-1', 'f', 'v'], ['XADD', 's', '2-1', 'f2', 'v2'], ['XADD', 's', '3-1', 'f3', 'v3'], ['XGROUP', 'CREATE', 's', 'g', '0']],
  pending: [
    ['XADD', 's', '1-1', 'f', 'v'], ['XADD', 's', '2-1', 'f2', 'v2'], ['XADD', 's', '3-1', 'f3', 'v3'],
    ['XGROUP', 'CREATE', 's', 'g', '0'], ['XREADGROUP', 'GROUP', 'g', 'alice', 'COUNT', '2', 'STREAMS', 's', '>'],
  ],
  deleted: [
    ['XADD', 's', '1-1', 'f', 'v'], ['XADD', 's', '2-1', 'f2', 'v2'], ['XGROUP', 'CREATE', 's', 'g', '0'],
    ['XREADGROUP', 'GROUP', 'g', 'alice', 'STREAMS', 's', '>'], ['XDEL', 's', '1-1'],
  ],
  two: [['XADD', 's', '1-1', 'f', 'v'], ['XADD', 't', '5-1', 'a', 'b']],
  builtins: [
    ['HSET', 'h', 'a', '1', 'b', '2'], ['ZADD', 'z', '1', 'a', '2.5', 'b', '-3', 'c'], ['SADD', 'set', 'x'],
    ['SET', 'n', '10.5'], ['SET', 'str', 'hello'], ['RPUSH', 'l', 'a', 'b', 'a'],
  ],
};

/**
 * Cases: [name, setup, command argv]. `method`: the client method name (lowercase command) —
 * the forms that need one skip it when the client lacks it.
 */
const CASES = [
  // XADD / XRANGE / XLEN / XDEL / XTRIM
  ['xadd', S.stream, ['XADD', 's', '9-1', 'k', 'v']],
  ['xadd nomkstream missing', [], ['XADD', 'nope', 'NOMKSTREAM', '*', 'k', 'v']],
  ['xrange', S.stream, ['XRANGE', 's', '-', '+']],
  ['xrange empty', [], ['XRANGE', 'nope', '-', '+']],
  ['xrevrange count', S.stream, ['XREVRANGE', 's', '+', '-', 'COUNT', '2']],
  ['xlen', S.stream, ['XLEN', 's']],
  ['xdel', S.stream, ['XDEL', 's', '1-1', '9-9']],
  ['xtrim', S.stream, ['XTRIM', 's', 'MAXLEN', '1']],
  // XREAD
  ['xread', S.two, ['XREAD', 'STREAMS', 's', 't', '0', '0']],
  ['xread one stream count', S.stream, ['XREAD', 'COUNT', '1', 'STREAMS', 's', '0']],
  ['xread nothing', S.stream, ['XREAD', 'STREAMS', 's', '$']],
  ['xread block timeout nil', S.stream, ['XREAD', 'BLOCK', '10', 'STREAMS', 's', '$']],
  // XREADGROUP
  ['xreadgroup new', S.group, ['XREADGROUP', 'GROUP', 'g', 'bob', 'COUNT', '2', 'STREAMS', 's', '>']],
  ['xreadgroup two streams', [...S.two, ['XGROUP', 'CREATE', 's', 'g', '0'], ['XGROUP', 'CREATE', 't', 'g', '0']], ['XREADGROUP', 'GROUP', 'g', 'bob', 'STREAMS', 's', 't', '>', '>']],
  ['xreadgroup history with deleted entry', S.deleted, ['XREADGROUP', 'GROUP', 'g', 'alice', 'STREAMS', 's', '0']],
  ['xreadgroup history empty', S.group, ['XREADGROUP', 'GROUP', 'g', 'nobody', 'STREAMS', 's', '0']],
  ['xreadgroup nothing new', S.pending.concat([['XREADGROUP', 'GROUP', 'g', 'alice', 'STREAMS', 's', '>']]), ['XREADGROUP', 'GROUP', 'g', 'alice', 'STREAMS', 's', '>']],
  ['xreadgroup block timeout nil', S.pending.concat([['XREADGROUP', 'GROUP', 'g', 'alice', 'STREAMS', 's', '>']]), ['XREADGROUP', 'GROUP', 'g', 'alice', 'BLOCK', '10', 'STREAMS', 's', '>']],
  ['xreadgroup nogroup error', S.stream, ['XREADGROUP', 'GROUP', 'nope', 'c', 'STREAMS', 's', '>']],
  // XACK / XPENDING
  ['xack', S.pending, ['XACK', 's', 'g', '1-1', '9-9']],
  ['xpending summary', S.pending, ['XPENDING', 's', 'g']],
  ['xpending summary empty', S.group, ['XPENDING', 's', 'g']],
  ['xpending extended', S.pending, ['XPENDING', 's', 'g', '-', '+', '10']],
  ['xpending extended consumer', S.pending, ['XPENDING', 's', 'g', '-', '+', '10', 'alice']],
  ['xpending extended empty', S.group, ['XPENDING', 's', 'g', '-', '+', '10']],
  // XCLAIM / XAUTOCLAIM
  ['xclaim', S.pending, ['XCLAIM', 's', 'g', 'bob', '0', '1-1', '2-1']],
  ['xclaim justid', S.pending, ['XCLAIM', 's', 'g', 'bob', '0', '1-1', 'JUSTID']],
  ['xclaim deleted', S.deleted, ['XCLAIM', 's', 'g', 'bob', '0', '1-1', '2-1']],
  ['xautoclaim', S.pending, ['XAUTOCLAIM', 's', 'g', 'bob', '0', '0-0', 'COUNT', '1']],
  ['xautoclaim justid', S.pending, ['XAUTOCLAIM', 's', 'g', 'bob', '0', '0-0', 'JUSTID']],
  ['xautoclaim deleted', S.deleted, ['XAUTOCLAIM', 's', 'g', 'bob', '0', '0-0']],
  // XGROUP
  ['xgroup create', S.stream, ['XGROUP', 'CREATE', 's', 'g2', '$']],
  ['xgroup create mkstream', [], ['XGROUP', 'CREATE', 'new', 'g', '$', 'MKSTREAM']],
  ['xgroup create busygroup', S.group, ['XGROUP', 'CREATE', 's', 'g', '$']],
  ['xgroup create no key', [], ['XGROUP', 'CREATE', 'nope', 'g', '$']],
  ['xgroup setid', S.group, ['XGROUP', 'SETID', 's', 'g', '0', 'ENTRIESREAD', '0']],
  ['xgroup createconsumer', S.group, ['XGROUP', 'CREATECONSUMER', 's', 'g', 'carol']],
  ['xgroup delconsumer', S.pending, ['XGROUP', 'DELCONSUMER', 's', 'g', 'alice']],
  ['xgroup destroy', S.group, ['XGROUP', 'DESTROY', 's', 'g']],
  ['xgroup help', [], ['XGROUP', 'HELP']],
  ['xgroup unknown subcommand', [], ['XGROUP', 'FOO']],
  // XSETID
  ['xsetid', S.stream, ['XSETID', 's', '10-0', 'ENTRIESADDED', '5', 'MAXDELETEDID', '9-0']],
  ['xsetid smaller error', S.stream, ['XSETID', 's', '1-0']],
  // XINFO
  ['xinfo stream', S.pending, ['XINFO', 'STREAM', 's']],
  ['xinfo stream empty', [['XADD', 's', '1-1', 'f', 'v'], ['XDEL', 's', '1-1']], ['XINFO', 'STREAM', 's']],
  ['xinfo stream full', S.pending, ['XINFO', 'STREAM', 's', 'FULL']],
  ['xinfo stream full count', S.pending, ['XINFO', 'STREAM', 's', 'FULL', 'COUNT', '1']],
  ['xinfo groups', S.pending, ['XINFO', 'GROUPS', 's']],
  ['xinfo groups none', S.stream, ['XINFO', 'GROUPS', 's']],
  ['xinfo consumers', S.pending, ['XINFO', 'CONSUMERS', 's', 'g']],
  ['xinfo help', [], ['XINFO', 'HELP']],
  ['xinfo no key', [], ['XINFO', 'STREAM', 'nope']],
  // errors
  ['wrongtype', [['SET', 'str', 'x']], ['XADD', 'str', '*', 'f', 'v']],
  ['syntax error', S.stream, ['XREAD', 'COUNT', 'x', 'STREAMS', 's', '0']],
  ['wrong arity', [], ['XADD', 's']],
  // built-ins
  ['hgetall', S.builtins, ['HGETALL', 'h']],
  ['hgetall missing', [], ['HGETALL', 'nope']],
  ['zrange withscores', S.builtins, ['ZRANGE', 'z', '0', '-1', 'WITHSCORES']],
  ['zrange', S.builtins, ['ZRANGE', 'z', '0', '-1']],
  ['zrangebyscore withscores', S.builtins, ['ZRANGEBYSCORE', 'z', '-inf', '+inf', 'WITHSCORES']],
  ['zpopmin', S.builtins, ['ZPOPMIN', 'z', '2']],
  ['zscore', S.builtins, ['ZSCORE', 'z', 'b']],
  ['zscore missing', S.builtins, ['ZSCORE', 'z', 'nope']],
  ['zincrby', S.builtins, ['ZINCRBY', 'z', '0.5', 'a']],
  ['zmscore', S.builtins, ['ZMSCORE', 'z', 'a', 'nope']],
  ['zrandmember withscores', [['ZADD', 'z1', '7', 'only']], ['ZRANDMEMBER', 'z1', '1', 'WITHSCORES']],
  ['hrandfield withvalues', [['HSET', 'h1', 'k', 'v']], ['HRANDFIELD', 'h1', '1', 'WITHVALUES']],
  ['smembers', S.builtins, ['SMEMBERS', 'set']],
  ['smismember', S.builtins, ['SMISMEMBER', 'set', 'x', 'y']],
  ['sismember', S.builtins, ['SISMEMBER', 'set', 'x']],
  ['incrbyfloat', S.builtins, ['INCRBYFLOAT', 'n', '0.25']],
  ['incr', [['SET', 'i', '41']], ['INCR', 'i']],
  ['incr big', [['SET', 'i', '9007199254740993']], ['INCR', 'i']],
  ['get', S.builtins, ['GET', 'str']],
  ['get missing', [], ['GET', 'nope']],
  ['set', [], ['SET', 'k', 'v']],
  ['type', S.builtins, ['TYPE', 'z']],
  ['type stream', S.stream, ['TYPE', 's']],
  ['lpos', S.builtins, ['LPOS', 'l', 'a', 'COUNT', '0']],
  ['config get', [], ['CONFIG', 'GET', 'maxmemory-policy']],
  ['info server', [], ['INFO', 'server']],
  ['object encoding', S.stream, ['OBJECT', 'ENCODING', 's']],
  ['ping', [], ['PING']],
  ['echo', [], ['ECHO', 'hi']],
  ['hello 3', [], ['HELLO', '3']],
  ['hello 2', [], ['HELLO', '2']],
];

/** Fields of replies that are wall-clock dependent; tests mask them (recorded as is). */
const NOTE =
  'Recorded by scripts/record-ioredis-replies.js. Time-dependent values (idle, seen-time, active-time, inactive, ' +
  'XPENDING idle, HELLO id) vary between runs; INFO is cut to its first line.';

function encode(v) {
  if (v === undefined) return { $undefined: true };
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : { $number: String(v) };
  if (typeof v === 'bigint') return { $bigint: v.toString() };
  if (Buffer.isBuffer(v)) return { $buffer: v.toString('base64') };
  if (v instanceof Error) return { $error: v.message };
  if (Array.isArray(v)) return v.map(encode);
  if (v instanceof Map) return { $map: [...v.entries()].map(([k, x]) => [encode(k), encode(x)]) };
  if (typeof v === 'object') {
    const ctor = v.constructor && v.constructor !== Object ? v.constructor.name : undefined;
    const out = { $object: Object.entries(v).map(([k, x]) => [k, encode(x)]) };
    return ctor ? { ...out, $class: ctor } : out;
  }
  return { $unknown: String(v) };
}

function projectInfo(name, v) {
  if (name !== 'INFO') return v;
  const cut = (s) => (typeof s === 'string' ? s.split('\r\n')[0] : Buffer.isBuffer(s) ? Buffer.from(s.toString().split('\r\n')[0]) : s);
  if (Array.isArray(v)) return v.map((x) => (Array.isArray(x) ? [x[0], cut(x[1])] : cut(x)));
  return cut(v);
}

function settle(p) {
  return Promise.resolve()
    .then(() => p())
    .then((reply) => ({ reply }), (error) => ({ error }));
}

async function connect(lib, options) {
  const url = new URL(REDIS_URL);
  url.pathname = `/${DB}`;
  const client = new lib(url.toString(), { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, ...options });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

const LUA = 'return redis.call(unpack(ARGV))';
const LUA3 = 'redis.setresp(3); return redis.call(unpack(ARGV))';

function runForm(client, form, argv) {
  const [name, ...args] = argv;
  const lower = name.toLowerCase();
  switch (form) {
    case 'method':
      if (typeof client[lower] !== 'function') return undefined;
      return () => client[lower](...args);
    case 'methodBuffer':
      if (typeof client[`${lower}Buffer`] !== 'function') return undefined;
      return () => client[`${lower}Buffer`](...args);
    case 'call':
      return () => client.call(name, ...args);
    case 'callLower':
      return () => client.call(lower, ...args);
    case 'callBuffer':
      return () => client.callBuffer(name, ...args);
    case 'pipeline':
      if (typeof client[lower] !== 'function') return undefined;
      return () => client.pipeline()[lower](...args).exec();
    case 'multi':
      if (typeof client[lower] !== 'function') return undefined;
      return () => client.multi()[lower](...args).exec();
    case 'eval':
      return () => client.eval(LUA, 0, name, ...args);
    case 'eval3':
      return () => client.eval(LUA3, 0, name, ...args);
    default:
      throw new Error(form);
  }
}

/** JSON with one line per case header and per (client, form) reply: diffable, not bloated. */
function format(doc) {
  const j = JSON.stringify;
  const cases = doc.cases.map((c) => {
    const clients = Object.entries(c.results).map(([id, forms]) => {
      const lines = Object.entries(forms).map(([form, out]) => `        ${j(form)}: ${j(out)}`);
      return `      ${j(id)}: {\n${lines.join(',\n')}\n      }`;
    });
    return `    {\n      "name": ${j(c.name)}, "setup": ${j(c.setup)}, "argv": ${j(c.argv)},\n      "results": {\n${clients.join(',\n')}\n    }}`;
  });
  const head = ['note', 'serverVersion', 'clients', 'forms'].map((k) => `  ${j(k)}: ${j(doc[k])}`).join(',\n');
  return `{\n${head},\n  "cases": [\n${cases.join(',\n')}\n  ]\n}\n`;
}

async function main() {
  const admin = await connect(IORedis5, {});
  const info = String(await admin.call('INFO', 'server'));
  const serverVersion = /redis_version:(\S+)/.exec(info)[1];
  const clients = [];
  for (const c of CLIENTS) clients.push({ ...c, client: await connect(c.lib, c.options), version: require(c.lib === IORedis6 ? 'ioredis/package.json' : 'ioredis5/package.json').version });
  const cases = [];
  for (const [name, setup, argv] of CASES) {
    const results = {};
    for (const c of clients) {
      const perForm = {};
      for (const form of FORMS) {
        const fn = runForm(c.client, form, argv);
        if (!fn) continue;
        await admin.call('FLUSHDB');
        for (const cmd of setup) await admin.call(cmd[0], ...cmd.slice(1));
        // HELLO changes the connection's protocol (and ioredis 5 cannot read RESP3): a fresh
        // connection per form, closed afterwards.
        const own = argv[0] === 'HELLO' ? await connect(c.lib, c.options) : undefined;
        const out = await settle(own ? runForm(own, form, argv) : fn);
        own?.disconnect();
        perForm[form] = out.error ? { error: encode(out.error) } : { reply: encode(projectInfo(argv[0], out.reply)) };
      }
      results[c.id] = perForm;
    }
    cases.push({ name, setup, argv, results });
    process.stderr.write('.');
  }
  process.stderr.write('\n');
  for (const c of clients) c.client.disconnect();
  await admin.call('FLUSHDB');
  admin.disconnect();
  const doc = {
    note: NOTE,
    serverVersion,
    clients: CLIENTS.map((c) => ({ id: c.id, ioredis: clients.find((x) => x.id === c.id).version, options: c.options })),
    forms: FORMS,
    cases,
  };
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, format(doc));
  console.error(`${cases.length} cases × ${CLIENTS.length} clients × ${FORMS.length} forms → ${path.relative(process.cwd(), OUT)} (redis ${serverVersion})`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
