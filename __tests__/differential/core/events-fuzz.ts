/**
 * The keyspace-events differential fuzzer: the core fuzzer's seeded random commands
 * (./generator.ts) on the fake's RESP server (lib/server, in-process) and on a real redis-server,
 * with `notify-keyspace-events` set (a flag set per seed, FLAG_SETS) and a second connection on
 * each side subscribed to `PSUBSCRIBE __key*@<db>__:*` (RESP3: events arrive as pushes). After
 * every command the events that arrived are collected (a real server publishes them
 * synchronously, before the command's reply; a PING round-trip on the subscriber then has them
 * all in) and compared as a sequence of (pattern, channel, payload), exactly. The replies are
 * compared too, normalised as ./fuzz.ts does (the states must not part).
 *
 * What Redis leaves to chance and how it is normalised:
 * - `expired` events (the keyspace `expired` payload and the `__keyevent@<db>__:expired` channel):
 *   a key whose time has passed (`SET k v EXAT 1` keeps one until looked up) is deleted either by
 *   the first command that looks it up (lazy expiry: deterministic) or by the real server's active
 *   expire cycle, on wall time, whenever it samples it. Each `expired` event is therefore taken out
 *   of the per-command comparison and counted; at the end of a seed both sides look every key up
 *   (SCAN: expireIfNeeded on each key) and the multisets of `expired` events are compared. Every
 *   key that expires produces exactly one such event on either path (the command that would have
 *   met it lazily meets no key after the active cycle: same events otherwise).
 * - The generator's TTLs are long (≥ 100 s) or already passed, so nothing else expires by wall time.
 * - A key left with a time already passed (`SET k v EXAT 1`, PXAT …) is reclaimed on both sides
 *   (SCAN) right after the command that set it: the fake expires it before the next command
 *   (lib/keyspace: its active expiry is exact), the real server within ~100 ms (hz 10) or on
 *   lookup, and a command that deletes the target without looking it up (BITOP, SUNIONSTORE …
 *   with an empty result: dbDelete) publishes `del` in that window where the fake publishes
 *   `expired` before it (seed 118 of all families, BITOP OR right after SET a -0 EXAT 1).
 * - Lex ranges over a skiplist of mixed scores are skipped as in fuzz.ts (their probe, OBJECT
 *   ENCODING, is mirrored on the fake: it lazily expires the key on both sides alike).
 */
import { serve, type RedisServer } from '../../../lib/server/index';
import { type FuzzOptions, callWhileBusy, configChanged, knownDifference, lexRangeUndefined, normalisePair, showArgv, withBusyRetries } from './fuzz';
import { type Family, Generator, KEYS, Rng, isLexRange } from './generator';
import { RespClient, type Wire, showWire } from './resp';

/**
 * The core generator plus, now and then (EXTRA_SHARE of the commands, when `extra` is on), commands
 * the core fuzzer does not send, with events of their own: streams (explicit, growing IDs: `*`
 * would take each side's clock), consumer groups, hash field expiry (long TTLs or times already
 * passed only; HTTL would answer the milliseconds between commands and is not sent), SORT … STORE,
 * GETDEL, LMOVE/BLMOVE/BLMPOP/BRPOPLPUSH/BZPOPMIN/BZMPOP with short timeouts. Drawn from their own
 * Rng (the core generator's Rng is its own): the core draws stay the same.
 */
export class EventsGenerator extends Generator {
  private readonly x: Rng;
  private nextId = 1;
  constructor(seed: number, families: readonly Family[], private readonly extra: boolean, private readonly otherDb = false) {
    super(new Rng(seed), families);
    this.x = new Rng(seed + 1_000_003);
  }

  override command(): string[] {
    if (this.extra && this.x.chance(EXTRA_SHARE)) return this.extraCommand();
    return super.command();
  }

  private extraCommand(): string[] {
    const r = this.x;
    const k = r.pick(KEYS);
    const k2 = () => r.pick(KEYS);
    const id = () => `${this.nextId++}-${r.int(0, 1)}`;
    const old = () => `${r.int(0, this.nextId)}-${r.int(0, 1)}`;
    const group = () => r.pick(['g', 'h']);
    const consumer = () => r.pick(['c1', 'c2']);
    const field = () => r.pick(['f', 'g', 'h', '']);
    const fields = () => {
      const n = r.int(1, 3);
      return ['FIELDS', String(r.chance(0.95) ? n : n + 1), ...r.some(n, field)];
    };
    switch (r.int(0, 35)) {
      case 0: case 1: case 2: return ['XADD', k, ...(r.chance(0.2) ? ['NOMKSTREAM'] : []), ...(r.chance(0.2) ? ['MAXLEN', r.pick(['0', '1', '2', '=', '~']), ...(r.chance(0.3) ? ['1'] : [])] : []), id(), 'f', r.pick(['v', '1', ''])];
      case 3: return ['XTRIM', k, r.pick(['MAXLEN', 'MINID']), r.pick(['0', '1', '2', '3-0', '~', '=', 'x'])];
      case 4: return ['XDEL', k, old(), ...(r.chance(0.3) ? [old()] : [])];
      case 5: return ['XGROUP', 'CREATE', k, group(), r.pick(['$', '0', old()]), ...(r.chance(0.4) ? ['MKSTREAM'] : [])];
      case 6: return ['XGROUP', r.pick(['CREATECONSUMER', 'DELCONSUMER']), k, group(), consumer()];
      case 7: return ['XGROUP', 'DESTROY', k, group()];
      case 8: return ['XGROUP', 'SETID', k, group(), r.pick(['$', '0', old()])];
      case 9: case 10: return ['XREADGROUP', 'GROUP', group(), consumer(), 'COUNT', r.pick(['1', '2', '10']), ...(r.chance(0.2) ? ['NOACK'] : []), 'STREAMS', k, r.pick(['>', '>', '0'])];
      case 11: return ['XACK', k, group(), old(), ...(r.chance(0.3) ? [old()] : [])];
      case 12: return ['XCLAIM', k, group(), consumer(), '0', old(), ...(r.chance(0.3) ? ['JUSTID'] : [])];
      case 13: return ['XAUTOCLAIM', k, group(), consumer(), '0', '0', ...(r.chance(0.3) ? ['COUNT', '1'] : [])];
      case 14: return ['XSETID', k, r.pick([`${this.nextId + 5}-0`, '0-1', 'x'])];
      case 15: return ['XRANGE', k, '-', '+'];
      case 16: return [r.pick(['HEXPIRE', 'HPEXPIRE']), k, r.pick(['100000', '200000', '0', '-1']), ...(r.chance(0.3) ? [r.pick(['NX', 'XX', 'GT', 'LT'])] : []), ...fields()];
      case 17: return [r.pick(['HEXPIREAT', 'HPEXPIREAT']), k, r.pick(['1', '4102444800', '7258118400', '0']), ...(r.chance(0.3) ? [r.pick(['NX', 'XX', 'GT', 'LT'])] : []), ...fields()];
      case 18: return ['HPERSIST', k, ...fields()];
      case 19: return ['HSET', k, field(), r.pick(['v', '1'])];
      case 20: return ['SORT', k, ...(r.chance(0.6) ? ['ALPHA'] : []), ...(r.chance(0.3) ? ['LIMIT', '0', '2'] : []), 'STORE', k2()];
      case 21: return ['GETDEL', k];
      case 22: return ['LMOVE', k, k2(), r.pick(['LEFT', 'RIGHT']), r.pick(['LEFT', 'RIGHT'])];
      case 23: return ['BLMOVE', k, k2(), r.pick(['LEFT', 'RIGHT']), r.pick(['LEFT', 'RIGHT']), '0.01'];
      case 24: return ['BLMPOP', '0.01', '2', k, k2(), r.pick(['LEFT', 'RIGHT']), ...(r.chance(0.5) ? ['COUNT', r.pick(['1', '3'])] : [])];
      case 25: return ['BRPOPLPUSH', k, k2(), '0.01'];
      case 26: return [r.pick(['BZPOPMIN', 'BZPOPMAX']), k, k2(), '0.01'];
      case 27: return ['BZMPOP', '0.01', '1', k, r.pick(['MIN', 'MAX']), ...(r.chance(0.5) ? ['COUNT', '2'] : [])];
      case 28: return [r.pick(['RPUSH', 'ZADD']), k, ...(r.chance(0.5) ? ['1', 'b'] : ['2', 'a'])];
      case 29: return ['RENAME', k, k2()];
      case 31: return ['EVAL', r.pick(SCRIPTS), '2', k, k2(), r.pick(['v', '1', '3'])];
      case 32: return ['RESTORE', k, r.pick(['0', '0', '100000000']), r.pick(DUMPS), ...(r.chance(0.5) ? ['REPLACE'] : []), ...(r.chance(0.2) ? ['ABSTTL'] : [])];
      case 33: return this.otherDb ? ['MOVE', k, OTHER_DB] : ['EXISTS', k];
      case 34: return this.otherDb ? ['COPY', k, k2(), 'DB', OTHER_DB, ...(r.chance(0.5) ? ['REPLACE'] : [])] : ['EXISTS', k];
      default: return ['XLEN', k];
    }
  }
}

/** Scripts (EVAL … 2 key1 key2 value): writes inside a script publish as the commands do. */
const SCRIPTS = [
  "redis.call('SET', KEYS[1], ARGV[1]) return redis.call('INCR', KEYS[1])",
  "redis.call('DEL', KEYS[1]) return redis.call('RPUSH', KEYS[2], ARGV[1])",
  "return redis.pcall('HSET', KEYS[1], 'f', ARGV[1])",
  "redis.call('EXPIRE', KEYS[1], 100000) return redis.pcall('LPOP', KEYS[2])",
  "return redis.pcall('SADD', KEYS[2], ARGV[1], 'x')",
];

/** DUMP payloads of 7.0.15 (RDB 10, accepted by both builds): the string "hello", the list [a, b] (listpack). */
const DUMPS = ['\x00\x05hello\n\x00cr\xdfve4 \n', '\x12\x01\x02\r\r\x00\x00\x00\x02\x00\x81a\x02\x81b\x02\xff\n\x00h\xeb\n\x89\x13A\xbb\xb1'];

/** Share of blocked steps (blockedStep) when extra commands are on. */
const BLOCKED_SHARE = 0.04;

/**
 * A command that blocks (timeout 0.3 s) and one from another client that may serve it: pushes
 * into the key (or a wrong type, or another key), in a transaction or a script now and then.
 */
function blockedStep(r: Rng): [string[], string[]] {
  const k = r.pick(KEYS);
  const other = r.pick(KEYS);
  const blocked = r.pick([
    ['BLPOP', k, other, '0.3'],
    ['BRPOP', k, '0.3'],
    ['BLMOVE', k, other, r.pick(['LEFT', 'RIGHT']), r.pick(['LEFT', 'RIGHT']), '0.3'],
    ['BRPOPLPUSH', k, k, '0.3'],
    ['BLMPOP', '0.3', '1', k, r.pick(['LEFT', 'RIGHT']), 'COUNT', r.pick(['1', '3'])],
    ['BZPOPMIN', k, '0.3'],
    ['BZPOPMAX', k, other, '0.3'],
    ['BZMPOP', '0.3', '1', k, 'MIN', 'COUNT', '2'],
    ['XREADGROUP', 'GROUP', 'g', 'c1', 'BLOCK', '300', 'COUNT', '2', 'STREAMS', k, '>'],
    ['XREADGROUP', 'GROUP', 'g', 'c3', 'BLOCK', '300', 'NOACK', 'STREAMS', k, '>'],
    ['XREAD', 'BLOCK', '300', 'STREAMS', k, '$'],
  ]);
  const target = r.chance(0.85) ? k : other;
  const push = r.pick([
    ['RPUSH', target, 'a', 'b'],
    ['LPUSH', target, 'x'],
    ['LMOVE', other, target, 'LEFT', 'RIGHT'],
    ['ZADD', target, '1', 'a', '2', 'b'],
    ['ZINCRBY', target, '1', 'm'],
    ['XADD', target, `${99_999_000 + r.int(0, 999)}-0`, 'f', 'v'],
    ['EVAL', "redis.call('RPUSH', KEYS[1], 'e') return redis.call('ZADD', KEYS[2], 1, 'e')", '2', target, target],
    ['SET', target, 'v'],
    ['RENAME', other, target],
    ['DEL', target],
  ]);
  return [blocked, push];
}

/** Share of extra commands (EventsGenerator) when they are on (EVENTS_FUZZ_EXTRA_SHARE: another, for runs focused on them). */
export const EXTRA_SHARE = Number(process.env.EVENTS_FUZZ_EXTRA_SHARE ?? 0.25);

/** The database the events fuzzer uses on each side (FLUSHDB before every seed). */
export const EVENTS_DB = process.env.EVENTS_FUZZ_DB ?? '10';
/** EVENTS_FUZZ_TRACE=1: every command and the real server's events after it, on stdout. */
const TRACE = process.env.EVENTS_FUZZ_TRACE === '1';
/** The database MOVE and COPY … DB write to (EventsFuzzOptions.otherDb: private servers only). */
export const OTHER_DB = String((Number(EVENTS_DB) + 1) % 16);

/**
 * The `notify-keyspace-events` values tried, one per seed (seed modulo their count). Both 7.0.15
 * and the post-7.4 build accept exactly `Ag$lshzxeKEtmdn` (notify.c keyspaceEventsStringToFlags;
 * `o`, `c` … are refused by both). `n` (new) and `m` (keymiss) are not part of `A`.
 */
export const FLAG_SETS = ['KEA', 'Kg$', 'Exe', 'KEAnm', 'KEAm', 'Kl$', 'Eshz', 'KEgxn', 'AK', 'Ezm', 'KEA$lshzxetgd', 'Kn'];
/**
 * More values for the CLI's runs (EVENTS_FUZZ_MORE_FLAGS=1): shown forms (`KEg$lshzxetmdn` shows
 * as `AKEm`), classes that publish nothing here (`A` without K/E, `Kt`, `Ed`), and values both
 * refuse (`KEAo`, ` KEA`, `kea`: the error, and the previous seed's flags stay on both sides).
 */
export const MORE_FLAG_SETS = [...FLAG_SETS, 'A', 'KEg$lshzxetmdn', 'Kt', 'Ed', 'KAK', 'KEAo', ' KEA', 'kea', 'KEAn', 'Kx', 'Eg'];

export interface EventsDivergence {
  seed: number;
  step: number;
  flags: string;
  argv: string[];
  /** What differed: the reply, the events after the command, or the expired events of the seed. */
  what: 'reply' | 'events' | 'expired' | 'config';
  fake: string;
  real: string;
  history: string[][];
}

export interface EventsFuzzResult {
  commands: number;
  /** Events compared (expired ones included). */
  events: number;
  skipped: number;
  knownEnded: number;
  divergences: EventsDivergence[];
}

/** The core fuzzer's options (url, redisVersion, families, seeds, steps, resp3) and the events fuzzer's own. */
export interface EventsFuzzOptions extends FuzzOptions {
  /** One flag set for every seed instead of FLAG_SETS. */
  flags?: string;
  /** EventsGenerator's extra commands (streams, hash field expiry, SORT STORE, blocking pops …). */
  extra?: boolean;
  /**
   * MOVE and COPY … DB to OTHER_DB too, with the subscribers on every database (`__key*@*__:*`):
   * for private servers only (a shared server's other databases publish other tests' events).
   */
  otherDb?: boolean;
  /** The expiry epilogue of each seed (see runSeed; default on). */
  epilogue?: boolean;
}

interface Side {
  cmd: RespClient;
  /** A third connection for blocked commands (blockedStep). */
  blocker: RespClient;
  /** RESP3 subscriber (events as `>` pushes). */
  sub: RespClient;
  pushes: Wire[];
  /** RESP2 subscriber (events as `*` arrays): must see the same events. */
  sub2: RespClient;
  pushes2: Wire[];
}

/** A pmessage push as `pattern channel payload`; other pushes (the psubscribe confirmation) as undefined. */
function eventText(w: Wire): string | undefined {
  if ((w.t !== '>' && w.t !== '*') || !w.v || w.v.length !== 4 || w.v[0].t !== '$' || w.v[0].v !== 'pmessage') return undefined;
  return w.v.slice(1).map(showWire).join(' ');
}

const isExpired = (e: string) => / "__keyevent@\d+__:expired" | "expired"$/.test(e);
/** An event active expiry publishes (the expiry epilogue): expired, hexpired, del. */
const isExpiry = (e: string) => / "__keyevent@\d+__:h?expired" | "h?expired"$| "__keyevent@\d+__:del" | "del"$/.test(e);

/** The events that reached `side`'s subscriber so far (a PING round-trip first). */
async function drain(side: Side): Promise<string[]> {
  await Promise.all([side.sub.call(['PING']), side.sub2.call(['PING'])]);
  const out = side.pushes.splice(0).map(eventText).filter((e): e is string => e !== undefined);
  const out2 = side.pushes2.splice(0).map(eventText).filter((e): e is string => e !== undefined);
  // the RESP2 subscriber's events differ: shown as one event the comparison cannot match
  if (out.join('\n') !== out2.join('\n')) out.push(`RESP2 subscriber saw [${out2.join(', ')}]`);
  return out;
}

async function openSide(port: number, host: string, allDbs: boolean): Promise<Side> {
  const cmd = await RespClient.connect(port, host);
  const sub = await RespClient.connect(port, host);
  const sub2 = await RespClient.connect(port, host);
  const blocker = await RespClient.connect(port, host);
  await blocker.call(['SELECT', EVENTS_DB]);
  const side: Side = { cmd, blocker, sub, pushes: [], sub2, pushes2: [] };
  sub.onPush = (w) => side.pushes.push(w);
  sub2.onPush = (w) => side.pushes2.push(w);
  sub2.resp2Pushes = true;
  await cmd.call(['SELECT', EVENTS_DB]);
  await sub.call(['HELLO', '3']);
  const pattern = allDbs ? '__key*@*__:*' : `__key*@${EVENTS_DB}__:*`;
  sub.send(['PSUBSCRIBE', pattern]);
  sub2.send(['PSUBSCRIBE', pattern]);
  await drain(side);
  return side;
}

const configValue = async (c: RespClient) => {
  const w = await callWhileBusy(c, ['CONFIG', 'GET', 'notify-keyspace-events']);
  const l = w.t === '*' || w.t === '%' ? (w.v ?? []) : [];
  return l.length === 2 && l[1].t === '$' ? (l[1].v ?? '') : '';
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sortedText = (items: string[]) => `[${[...items].sort().join(', ')}]`;

async function runSeed(fake: Side, real: Side, options: EventsFuzzOptions, seed: number, result: EventsFuzzResult, retried: boolean): Promise<EventsDivergence | undefined | 'busy'> {
  const resp = options.resp3 && seed % 2 === 1 ? '3' : '2';
  const sets = process.env.EVENTS_FUZZ_MORE_FLAGS === '1' ? MORE_FLAG_SETS : FLAG_SETS;
  const flags = options.flags ?? sets[seed % sets.length];
  const history: string[][] = [];
  const diverge = (step: number, argv: string[], what: EventsDivergence['what'], f: string, r: string): EventsDivergence => ({ seed, step, flags, argv, what, fake: f, real: r, history: [...history] });
  for (const s of [fake, real]) {
    await callWhileBusy(s.cmd, ['HELLO', resp]);
    if (options.otherDb) {
      await callWhileBusy(s.cmd, ['SELECT', OTHER_DB]);
      await callWhileBusy(s.cmd, ['FLUSHDB']);
      await callWhileBusy(s.cmd, ['SELECT', EVENTS_DB]);
    }
    await callWhileBusy(s.cmd, ['FLUSHDB']);
  }
  // the config reply and the flags as shown are compared first
  const set = await Promise.all([fake.cmd.call(['CONFIG', 'SET', 'notify-keyspace-events', flags]), callWhileBusy(real.cmd, ['CONFIG', 'SET', 'notify-keyspace-events', flags])]);
  const shown = await Promise.all([configValue(fake.cmd), configValue(real.cmd)]);
  if (showWire(set[0]) !== showWire(set[1]) || shown[0] !== shown[1]) return diverge(0, ['CONFIG', 'SET', 'notify-keyspace-events', flags], 'config', `${showWire(set[0])} ${shown[0]}`, `${showWire(set[1])} ${shown[1]}`);
  await Promise.all([drain(fake), drain(real)]);

  const gen = new EventsGenerator(seed, options.families, options.extra ?? true, options.otherDb ?? false);
  const blockRng = new Rng(seed + 3_000_017);
  const expired: [string[], string[]] = [[], []];
  let step = 0;
  let busy = false;
  // a divergence, or 'busy' when another client of the shared server may have caused it
  const settle = async (d: EventsDivergence): Promise<EventsDivergence | 'busy'> => {
    await Promise.all([fake.cmd.call(['DISCARD']), callWhileBusy(real.cmd, ['DISCARD'])]);
    if (!retried && (busy || (await configValue(real.cmd)) !== shown[1] || (await configChanged(fake.cmd, real.cmd)))) return 'busy';
    return d;
  };
  while (step < options.steps) {
    const block = gen.next();
    if (block.length === 1 && isLexRange(block[0])) {
      const key = block[0][0].toUpperCase() === 'ZRANGESTORE' ? block[0][2] : block[0][1];
      if (key !== undefined) await fake.cmd.call(['OBJECT', 'ENCODING', key]);
      if (await lexRangeUndefined(real.cmd, block[0])) {
        step++;
        result.skipped++;
        continue;
      }
    }
    if (block.length === 1 && block[0][0].toUpperCase() === 'DBSIZE') {
      await Promise.all([fake.cmd.call(['SCAN', '0', 'COUNT', '1000']), callWhileBusy(real.cmd, ['SCAN', '0', 'COUNT', '1000'])]);
    }
    if (blockRng.chance(BLOCKED_SHARE)) {
      // a client blocked on a key, served by the next command (or timed out): the events of the
      // push and of serving it, in order, and the blocked client's reply
      const [blocked, push] = blockedStep(blockRng);
      step += 2;
      history.push([`(blocked) ${showArgv(blocked)}`], push);
      const replies = [fake, real].map((side) => side.blocker.call(blocked));
      // time for both servers to block the client (a reply meanwhile: the key was ready)
      await sleep(40);
      const [f, r] = await Promise.all([fake.cmd.call(push), real.cmd.call(push)]);
      const [bf, br] = await Promise.all(replies);
      result.commands += 2;
      if (showWire(f) !== showWire(r)) return settle(diverge(step, push, 'reply', showWire(f), showWire(r)));
      if (showWire(bf) !== showWire(br)) return settle(diverge(step, blocked, 'reply', showWire(bf), showWire(br)));
      const [fe, re] = await Promise.all([drain(fake), drain(real)]);
      result.events += re.length;
      if (TRACE) console.log(`(blocked) ${showArgv(blocked)} then ${showArgv(push)}\n    ${re.join('\n    ')}`);
      expired[0].push(...fe.filter(isExpired));
      expired[1].push(...re.filter(isExpired));
      const fk = fe.filter((e) => !isExpired(e));
      const rk = re.filter((e) => !isExpired(e));
      if (fk.join('\n') !== rk.join('\n')) return settle(diverge(step, push, 'events', `[${fk.join(', ')}]`, `[${rk.join(', ')}]`));
      continue;
    }
    const queued: string[][] = [];
    for (const argv of block) {
      step++;
      history.push(argv);
      const [f, r] = await Promise.all([fake.cmd.call(argv), real.cmd.call(argv)]);
      result.commands++;
      busy ||= r.t === '-' && /^(BUSY |EXECABORT .*: BUSY )/.test(r.v);
      const upper = argv[0].toUpperCase();
      const [fn, rn] = normalisePair(argv, queued, f, r);
      if (upper !== 'MULTI' && upper !== 'EXEC') queued.push(argv);
      if (showWire(fn) !== showWire(rn)) {
        if (knownDifference(options.redisVersion, f, r)) {
          result.knownEnded++;
          return undefined;
        }
        return settle(diverge(step, argv, 'reply', showWire(f), showWire(r)));
      }
      const [fe, re] = await Promise.all([drain(fake), drain(real)]);
      result.events += re.length;
      if (TRACE) console.log(`${showArgv(argv)}\n    ${re.join('\n    ')}`);
      expired[0].push(...fe.filter(isExpired));
      expired[1].push(...re.filter(isExpired));
      const fk = fe.filter((e) => !isExpired(e));
      const rk = re.filter((e) => !isExpired(e));
      if (fk.join('\n') !== rk.join('\n')) return settle(diverge(step, argv, 'events', `[${fk.join(', ')}]`, `[${rk.join(', ')}]`));
    }
    if (block.some((argv) => argv.some((a) => /^(EXAT|PXAT)$/i.test(a)))) {
      // a time already passed: reclaimed now on both sides (see the module doc)
      await Promise.all([fake.cmd.call(['SCAN', '0', 'COUNT', '1000']), callWhileBusy(real.cmd, ['SCAN', '0', 'COUNT', '1000'])]);
      const [fe2, re2] = await Promise.all([drain(fake), drain(real)]);
      result.events += re2.length;
      expired[0].push(...fe2.filter(isExpired));
      expired[1].push(...re2.filter(isExpired));
      const rest = [fe2.filter((e) => !isExpired(e)), re2.filter((e) => !isExpired(e))];
      if (rest[0].join() !== rest[1].join()) return settle(diverge(step, ['SCAN', '0', 'COUNT', '1000'], 'events', rest[0].join(', '), rest[1].join(', ')));
    }
  }
  // the expiry epilogue: every key (and some hash fields) given a few milliseconds in one
  // MULTI/EXEC, the events of setting them compared as usual; then, with no command sent, both sides' active expiry (the
  // fake's timers; the real server's cycle, hz 10) publishes `expired`, `hexpired` and the `del`
  // of a hash left empty: compared as multisets after 400 ms (the real cycle samples the keys in
  // dict order, which is left to chance)
  if (options.epilogue ?? true) {
    const ex = new Rng(seed + 2_000_003);
    const sets: string[][] = [];
    const fpool: string[] = [];
    const rpool: string[] = [];
    for (const key of KEYS) {
      // fields before keys: when a key's time comes first and its fields' later, a real server
      // whose cycle (every 100 ms) finds both passed expires the fields first (hexpired, then the
      // key's expired: activeExpireHashFieldCycle runs before the keys), where exact timers (the
      // fake) expire the key alone: left to chance, so field times are 1-15 ms, key times 16-30
      if (ex.chance(0.5)) sets.push(['HPEXPIRE', key, String(ex.int(1, 15)), 'FIELDS', '2', ex.pick(['f', 'g', '']), ex.pick(['h', 'a', '__proto__'])]);
      if (ex.chance(0.7)) sets.push(['PEXPIRE', key, String(ex.int(16, 30)), ...(ex.chance(0.2) ? ['NX'] : [])]);
    }
    // in one transaction: each side sets every time at one instant (time is frozen inside EXEC),
    // or a field given 2 ms could empty its hash on the fake (exact timers) before the next
    // command, where the real server's cycle has not run yet (seed 7006: PEXPIRE c 18 answered 0 / 1)
    for (const argv of [['MULTI'], ...sets, ['EXEC']]) {
      step++;
      history.push(argv);
      const [f, r] = await Promise.all([fake.cmd.call(argv), real.cmd.call(argv)]);
      result.commands++;
      if (showWire(f) !== showWire(r)) return settle(diverge(step, argv, 'reply', showWire(f), showWire(r)));
      const [fe, re] = await Promise.all([drain(fake), drain(real)]);
      result.events += re.length;
      if (TRACE) console.log(`${showArgv(argv)}\n    ${re.join('\n    ')}`);
      // a field or key given 1 ms may expire before the next command of the epilogue on one side
      // only (the fake's timers are exact): expiry events (expired, hexpired, the del of a hash
      // left empty: HPEXPIRE/PEXPIRE with a future time delete nothing) join the pool below
      fpool.push(...fe.filter(isExpiry));
      rpool.push(...re.filter(isExpiry));
      const fk = fe.filter((e) => !isExpiry(e));
      const rk = re.filter((e) => !isExpiry(e));
      if (fk.join('\n') !== rk.join('\n')) return settle(diverge(step, argv, 'events', `[${fk.join(', ')}]`, `[${rk.join(', ')}]`));
    }
    await sleep(400);
    const [fe0, re0] = await Promise.all([drain(fake), drain(real)]);
    const fe = [...fpool, ...fe0];
    const re = [...rpool, ...re0];
    result.events += re.length;
    history.push(['(400 ms of active expiry)']);
    if (sortedText(fe) !== sortedText(re)) return settle(diverge(step, ['(400 ms of active expiry)'], 'expired', sortedText(fe), sortedText(re)));
  }
  // every key whose time has passed is looked up (and expired) on both sides
  await Promise.all([fake.cmd.call(['SCAN', '0', 'COUNT', '1000']), callWhileBusy(real.cmd, ['SCAN', '0', 'COUNT', '1000'])]);
  const [fe, re] = await Promise.all([drain(fake), drain(real)]);
  result.events += re.length;
  expired[0].push(...fe.filter(isExpired));
  expired[1].push(...re.filter(isExpired));
  const rest = [fe.filter((e) => !isExpired(e)), re.filter((e) => !isExpired(e))];
  if (sortedText(expired[0]) !== sortedText(expired[1]) || rest[0].join() !== rest[1].join()) {
    return settle(diverge(step, ['SCAN', '0', 'COUNT', '1000'], 'expired', `${sortedText(expired[0])} ${rest[0].join(', ')}`, `${sortedText(expired[1])} ${rest[1].join(', ')}`));
  }
  return undefined;
}

/**
 * Every seed, each stopping at its first divergence. The real server's `notify-keyspace-events`
 * is read first and restored at the end (other test files share the server).
 */
export async function eventsFuzz(options: EventsFuzzOptions): Promise<EventsFuzzResult> {
  const server: RedisServer = await serve({ port: 0, redisVersion: options.redisVersion, clockCommand: false });
  const u = new URL(options.url);
  const fake = await openSide(server.port, '127.0.0.1', options.otherDb ?? false);
  const real = await openSide(Number(u.port || 6379), u.hostname, options.otherDb ?? false);
  const previous = await configValue(real.cmd);
  const result: EventsFuzzResult = { commands: 0, events: 0, skipped: 0, knownEnded: 0, divergences: [] };
  try {
    for (const seed of options.seeds) {
      const outcome = await withBusyRetries((retried) => runSeed(fake, real, options, seed, result, retried));
      if (outcome !== undefined) result.divergences.push(outcome);
    }
  } finally {
    await callWhileBusy(real.cmd, ['CONFIG', 'SET', 'notify-keyspace-events', previous]).catch(() => undefined);
    await callWhileBusy(real.cmd, ['FLUSHDB']).catch(() => undefined);
    for (const s of [fake, real]) {
      s.cmd.close();
      s.sub.close();
      s.sub2.close();
      s.blocker.close();
    }
    await server.close();
  }
  return result;
}

/** A divergence report: what differed, both sides, and the seed's history before it. */
export function describeEvents(d: EventsDivergence, historyLines = 15): string {
  const before = d.history.slice(-historyLines - 1, -1).map((a) => `    ${showArgv(a)}`);
  return [`seed ${d.seed} step ${d.step} (flags ${d.flags}) ${d.what}: ${showArgv(d.argv)}`, `  fake: ${d.fake}`, `  real: ${d.real}`, '  after:', ...before].join('\n');
}
