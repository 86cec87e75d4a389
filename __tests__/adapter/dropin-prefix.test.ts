/**
 * keyPrefix as real ioredis applies it, client-side, from its own command table:
 * - EVAL/EVALSHA/FCALL (numkeys) and defineCommand scripts (numberOfKeys): the KEYS are sent
 *   prefixed, so a script sees full keys, and `redis.call` inside it prefixes nothing (a full key
 *   given in ARGV is used as is);
 * - every built-in follows the installed table too: OBJECT has no key in ioredis 5.11.1's
 *   @ioredis/commands 1.10 (sent as written) but one in ioredis 6's 2.0.
 * Truth: real ioredis 6.0.0 and 5.11.1 against redis-server (REDIS_URL); the fake is checked
 * for the same values, with its command table pointed at each major in turn.
 */
import { dirname } from 'node:path';
import Redis from 'ioredis-mock-streams';
import { commandTableAt, useCommandTable } from '../../lib/adapter/command-table';

type AnyClient = Record<string, any>;
const MAJORS = ['ioredis', 'ioredis5'].map((name) => {
  const dir = dirname(require.resolve(`${name}/package.json`));
  return { name, table: commandTableAt(dir), Client: require(name) as new (...a: unknown[]) => AnyClient };
});

const SCRIPT = "return {KEYS[1], redis.call('xlen', KEYS[1]), redis.call('xlen', ARGV[1])}";
const SHA = require('crypto').createHash('sha1').update(SCRIPT).digest('hex');

/** What every script path answers for key `s` and ARGV `<prefix>s` after one XADD to `s`. */
async function scriptPaths(r: AnyClient, prefix: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const settle = (p: Promise<unknown>) => p.then((v) => v, (e: Error) => ({ error: e.message }));
  r.defineCommand('fixedKeys', { numberOfKeys: 1, lua: SCRIPT });
  r.defineCommand('dynamicKeys', { lua: SCRIPT });
  out.eval = await settle(r.eval(SCRIPT, 1, 's', `${prefix}s`));
  out.evalsha = await settle(r.evalsha(SHA, 1, 's', `${prefix}s`));
  out.evalBuffer = await settle(r.evalBuffer(SCRIPT, 1, 's', `${prefix}s`).then((v: Buffer[]) => [String(v[0]), v[1], v[2]]));
  out.callEval = await settle(r.call('EVAL', SCRIPT, 1, 's', `${prefix}s`));
  out.callEvalsha = await settle(r.call('evalsha', SHA, '1', 's', `${prefix}s`));
  out.fixedKeys = await settle(r.fixedKeys('s', `${prefix}s`));
  out.dynamicKeys = await settle(r.dynamicKeys(1, 's', `${prefix}s`));
  out.pipeline = await r.pipeline().eval(SCRIPT, 1, 's', `${prefix}s`).fixedKeys('s', `${prefix}s`).dynamicKeys(1, 's', `${prefix}s`).exec();
  out.multi = await r.multi().eval(SCRIPT, 1, 's', `${prefix}s`).fixedKeys('s', `${prefix}s`).exec();
  out.onlyArgv = await settle(r.eval("return redis.call('xlen', ARGV[1])", 0, `${prefix}s`));
  out.noGroupText = await settle(r.eval("return redis.call('xpending', KEYS[1], 'h')", 1, 's'));
  out.objectEncoding = await settle(r.object('ENCODING', 's'));
  out.objectEncodingFull = await settle(r.object('ENCODING', `${prefix}s`));
  out.existsMulti = await settle(r.exists('s', 'missing', 's'));
  out.typeOf = await settle(r.type('s'));
  return out;
}

function expected(prefix: string, major: 5 | 6): Record<string, unknown> {
  const row = [`${prefix}s`, 1, 1];
  const noGroup = `NOGROUP No such key '${prefix}s' or consumer group 'h' script: `;
  return {
    eval: row,
    evalsha: row,
    evalBuffer: row,
    callEval: row,
    callEvalsha: row,
    fixedKeys: row,
    dynamicKeys: row,
    pipeline: [[null, row], [null, row], [null, row]],
    multi: [[null, row], [null, row]],
    onlyArgv: 1,
    noGroupText: { error: expect.stringContaining(noGroup) },
    // OBJECT: ioredis 5.11.1 sends the key unprefixed, ioredis 6 prefixes it
    objectEncoding: major === 6 ? 'stream' : null,
    objectEncodingFull: major === 6 ? null : 'stream',
    existsMulti: 2,
    typeOf: 'stream',
  };
}

afterEach(() => useCommandTable(undefined));

describe.each(MAJORS)('keyPrefix in scripts and built-ins on the fake, command table of $name', ({ table }) => {
  const major = Number(table.ioredisVersion.split('.')[0]) >= 6 ? 6 : 5;
  it('prefixes EVAL/EVALSHA/FCALL/defineCommand KEYS on the client side and nothing inside redis.call (every path)', async () => {
    useCommandTable(table);
    const r = new Redis({ port: 36_901 + major, keyPrefix: 'app:' }) as unknown as AnyClient;
    await r.flushall();
    await r.xadd('s', '1-1', 'a', '1');
    expect(await scriptPaths(r, 'app:')).toEqual(expected('app:', major));
    r.disconnect();
  });

  it('prefixes the keys of built-ins exactly where the installed ioredis table marks them (OBJECT, DEL, LMOVE, SUNIONSTORE, KEYS)', async () => {
    useCommandTable(table);
    const r = new Redis({ port: 36_911 + major, keyPrefix: 'app:' }) as unknown as AnyClient;
    await r.flushall();
    await r.rpush('l', '3', '1', '2');
    expect(await r.lmove('l', 'dst', 'LEFT', 'RIGHT')).toBe('3');
    await r.sadd('a', 'x');
    expect(await r.sunionstore('u', 'a', 'b')).toBe(1);
    // KEYS takes a pattern, not a key: not prefixed, full keys answered
    expect((await r.keys('*')).sort()).toEqual(['app:a', 'app:dst', 'app:l', 'app:u']);
    expect((await r.object('ENCODING', 'a')) === null).toBe(major === 5);
    expect((await r.object('ENCODING', 'app:a')) === null).toBe(major === 6);
    expect(await r.del('l', 'dst', 'a', 'u', 'app:l')).toBe(4);
    r.disconnect();
  });
});

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) console.warn('REDIS_URL not set: keyPrefix-in-scripts checks against real ioredis skipped');

// skip: dist/ not built (npm test builds it first)
(REDIS_URL ? describe.each(MAJORS) : describe.skip.each(MAJORS))('keyPrefix in scripts and built-ins: real $name on redis-server', ({ table, Client }) => {
  const major = Number(table.ioredisVersion.split('.')[0]) >= 6 ? 6 : 5;
  it('answers what the fake answers', async () => {
    const prefix = `dropin:${process.pid}:${major}:`;
    const r = new Client(REDIS_URL, { keyPrefix: prefix, db: 12, lazyConnect: true });
    await r.connect();
    try {
      await r.del('s');
      await r.xadd('s', '1-1', 'a', '1');
      expect(await scriptPaths(r, prefix)).toEqual(expected(prefix, major));
    } finally {
      await r.del('s');
      r.disconnect();
    }
  });
});
