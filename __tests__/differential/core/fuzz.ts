/**
 * The differential fuzzer of the core types: the same seeded random commands (./generator.ts) on
 * the fake's RESP server (lib/server, in-process) and on a real redis-server, compared reply by
 * reply on the wire (./resp.ts). Replies whose content Redis leaves to chance are normalised:
 * unordered collections (SMEMBERS, SUNION …, HGETALL of a hashtable, KEYS, SCAN) are sorted,
 * random picks (SRANDMEMBER, HRANDFIELD, ZRANDMEMBER) compared by shape and size, positive TTLs
 * compared as "positive". Everything else must be identical, error texts included.
 */
import { serve, type RedisServer } from '../../../lib/server/index';
import { DIST_KEY, type Family, Generator, KEYS, Rng, isLexRange } from './generator';
import { RespClient, type Wire, showWire } from './resp';

/**
 * Database of each server the fuzzer uses (FLUSHDB before every seed; never db 0). FUZZ_DB picks
 * another for runs side by side on one server (cli.ts).
 */
export const FUZZ_DB = process.env.FUZZ_DB ?? '11';

export interface Divergence {
  seed: number;
  step: number;
  argv: string[];
  fake: string;
  real: string;
  /** The commands of the seed up to the divergence (the last one diverged). */
  history: string[][];
}

export interface FuzzResult {
  commands: number;
  /** Lex ranges sent to neither side: their answer is left to chance (lexRangeUndefined). */
  skipped: number;
  /** Seeds ended at a difference the emulation keeps on purpose (knownDifference). */
  knownEnded: number;
  divergences: Divergence[];
}

const UNORDERED = new Set(['SMEMBERS', 'SINTER', 'SUNION', 'SDIFF', 'HKEYS', 'HVALS', 'KEYS']);
const PAIRS_UNORDERED = new Set(['HGETALL']);
const RANDOM = new Set(['SRANDMEMBER', 'HRANDFIELD', 'ZRANDMEMBER']);
const TTLS = new Set(['TTL', 'PTTL', 'EXPIRETIME', 'PEXPIRETIME']);

const text = (w: Wire) => showWire(w);
const sortItems = (items: Wire[]) => [...items].sort((a, b) => (text(a) < text(b) ? -1 : text(a) > text(b) ? 1 : 0));
function sortPairs(items: Wire[]): Wire[] {
  const pairs: [Wire, Wire][] = [];
  for (let i = 0; i + 1 < items.length; i += 2) pairs.push([items[i], items[i + 1]]);
  pairs.sort((a, b) => (text(a[0]) < text(b[0]) ? -1 : text(a[0]) > text(b[0]) ? 1 : 0));
  return pairs.flat();
}

/**
 * The scores of `ZRANGE dist … WITHSCORES` rounded to 12 significant digits: distances stored by
 * STOREDIST (geohashGetDistance: asin/sin/cos/sqrt) may differ in their last bit between glibc's
 * libm and JavaScript's Math, a known difference the emulation does not chase.
 */
function roundDistances(w: Wire): Wire {
  const round = (x: Wire): Wire => {
    if ((x.t === '$' || x.t === ',') && x.v !== null && /^-?[\d.e+-]+$/.test(x.v)) return { ...x, v: Number(Number(x.v).toPrecision(12)).toString() };
    return x;
  };
  if (w.t !== '*' || !w.v) return w;
  // RESP3: [[member, score], …]; RESP2: [member, score, …]
  return { t: '*', v: w.v.map((x, i) => (x.t === '*' && x.v ? { t: '*', v: [x.v[0], ...x.v.slice(1).map(round)] } : i % 2 === 1 ? round(x) : x)) };
}

/** The reply with what Redis leaves to chance taken out (see the module doc). */
/**
 * Both sides' replies to `argv` normalised: an EXEC's array element by element, each with the
 * command `queued` in the transaction (when both sides answered one reply per queued command).
 */
export function normalisePair(argv: readonly string[], queued: readonly string[][], f: Wire, r: Wire): [Wire, Wire] {
  if (argv[0].toUpperCase() === 'EXEC' && f.t === '*' && r.t === '*' && f.v && r.v && f.v.length === queued.length && r.v.length === queued.length) {
    return [{ t: '*', v: f.v.map((x, i) => normalise(queued[i], x)) }, { t: '*', v: r.v.map((x, i) => normalise(queued[i], x)) }];
  }
  return [normalise(argv, f), normalise(argv, r)];
}

export function normalise(argv: readonly string[], w: Wire): Wire {
  const name = argv[0].toUpperCase();
  if (w.t === '-' || w.t === '$' && w.v === null) return w;
  if (name === 'ZRANGE' && argv[1] === DIST_KEY && argv.some((a) => /^withscores$/i.test(a))) return roundDistances(w);
  if (UNORDERED.has(name) && (w.t === '*' || w.t === '~') && w.v) return { ...w, v: sortItems(w.v) } as Wire;
  if (PAIRS_UNORDERED.has(name) && (w.t === '*' || w.t === '%') && w.v) return { ...w, v: sortPairs(w.v) } as Wire;
  if (name === 'SCAN' && w.t === '*' && w.v && w.v[1].t === '*' && w.v[1].v) return { t: '*', v: [w.v[0], { t: '*', v: sortItems(w.v[1].v) }] };
  if ((name === 'HSCAN' || name === 'ZSCAN' || name === 'SSCAN') && w.t === '*' && w.v && w.v[1].t === '*' && w.v[1].v) {
    return { t: '*', v: [w.v[0], { t: '*', v: name === 'SSCAN' ? sortItems(w.v[1].v) : sortPairs(w.v[1].v) }] };
  }
  if (RANDOM.has(name)) {
    if ((w.t === '*' || w.t === '~') && w.v) return { t: '+', v: `${w.t}random(${w.v.length})` };
    if (w.t === '$') return { t: '+', v: 'random-bulk' };
  }
  if (TTLS.has(name) && w.t === ':' && Number(w.v) > 0) return { t: ':', v: 'positive' };
  if (name === 'SPOP' && (w.t === '*' || w.t === '~') && w.v) return { ...w, v: sortItems(w.v) } as Wire;
  return w;
}

/** A real server at `url` (redis://host:port), in db FUZZ_DB. */
async function connectReal(url: string): Promise<RespClient> {
  const u = new URL(url);
  const c = await RespClient.connect(Number(u.port || 6379), u.hostname);
  await c.call(['SELECT', FUZZ_DB]);
  return c;
}

export interface FuzzOptions {
  /** redis:// URL of the real server. */
  url: string;
  /** The version the fake emulates for this server ('7.0' for 7.0.15, '8.0' for the post-7.4 build). */
  redisVersion: string;
  families: readonly Family[];
  seeds: readonly number[];
  /** Commands per seed. */
  steps: number;
  /** RESP3 (HELLO 3) on both sides for odd seeds when true. */
  resp3?: boolean;
}

// BUSY, or an EXEC refused for it (execCommandAbort: "EXECABORT Transaction discarded because of: BUSY …")
const isBusy = (w: Wire) => w.t === '-' && /^(BUSY |EXECABORT .*: BUSY )/.test(w.v);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A command on the real server, waited out while another client's script keeps it BUSY. */
export async function callWhileBusy(c: RespClient, argv: string[]): Promise<Wire> {
  for (let tries = 0; ; tries++) {
    const w = await c.call(argv);
    if (!isBusy(w) || tries >= 600) return w;
    await sleep(100);
  }
}

/** The strings at the leaves of a reply, in order. */
export function leaves(w: Wire): string[] {
  if (w.t === '*' || w.t === '%' || w.t === '~' || w.t === '>') return (w.v ?? []).flatMap(leaves);
  return 'v' in w && typeof w.v === 'string' ? [w.v] : [];
}

/**
 * Whether Redis leaves a lex range's answer to chance (asked of the real server, outside any
 * transaction): a skiplist whose scores are not all equal. A lex range is defined by member order
 * only when every score is equal; otherwise zslFirstInLexRange/zslLastInLexRange descend the
 * skiplist's levels, random in Redis, and land on different nodes from one build of the same set
 * to another (a listpack is walked linearly: defined, and emulated). Then the command is sent to
 * neither side (see Generator.next for transactions).
 */
export async function lexRangeUndefined(real: RespClient, argv: readonly string[]): Promise<boolean> {
  const key = argv[0].toUpperCase() === 'ZRANGESTORE' ? argv[2] : argv[1];
  if (key === undefined) return false;
  const encoding = await callWhileBusy(real, ['OBJECT', 'ENCODING', key]);
  if (encoding.t !== '$' || encoding.v !== 'skiplist') return false;
  const score = async (rank: string) => {
    const l = leaves(await callWhileBusy(real, ['ZRANGE', key, rank, rank, 'WITHSCORES']));
    return l.length === 2 ? l[1].replace(/^-0$/, '0') : '?';
  };
  return (await score('0')) !== (await score('-1'));
}

/** CONFIG GET's pairs as a map. */
function configMap(w: Wire): Map<string, string> {
  const l = leaves(w);
  const m = new Map<string, string>();
  for (let i = 0; i + 1 < l.length; i += 2) m.set(l[i], l[i + 1]);
  return m;
}

/**
 * Whether the real server's encoding limits (zset-max-listpack-entries …) differ from the fake's
 * defaults: other tests run in parallel against the same server change them for a moment
 * (__tests__/differential/zset-real-server.test.ts sets zset-max-listpack-entries to 0 and 1), and
 * the seed then runs again, as for BUSY.
 */
export async function configChanged(fake: RespClient, real: RespClient): Promise<boolean> {
  const [f, r] = await Promise.all([fake.call(['CONFIG', 'GET', '*max-*']), callWhileBusy(real, ['CONFIG', 'GET', '*max-*'])]);
  const rm = configMap(r);
  for (const [k, v] of configMap(f)) if (rm.has(k) && rm.get(k) !== v) return true;
  return false;
}

/**
 * A difference from the post-7.4 build the emulation keeps on purpose, which ends the seed
 * without counting: that build predates the CVE-2025-32023 fix and accepts a sparse HyperLogLog
 * whose ZERO/XZERO opcodes run past register 16384 in PFCOUNT of several keys and PFMERGE
 * (hyperloglog.c hllMerge, checked in its source), where every release since the fix (8.0.3 …)
 * and the fake answer INVALIDOBJ (lib/model/hyperloglog.ts). A damaged HLL string comes from
 * APPEND/SETRANGE on one (seed 224 of all families).
 */
export function knownDifference(version: string, fake: Wire, real: Wire): boolean {
  return version === '8.0' && fake.t === '-' && fake.v.startsWith('INVALIDOBJ Corrupted HLL') && real.t !== '-';
}

/**
 * One seed from an empty db: its divergence, undefined when none, or 'busy' when the real server
 * answered BUSY (another client's script — the servers are shared) or another client changed its
 * encoding limits (configChanged): the seed is then run again,
 * up to 5 times (`retried`: the last run reports the divergence whatever the cause).
 */
async function runSeed(fake: RespClient, real: RespClient, options: FuzzOptions, seed: number, result: FuzzResult, retried: boolean): Promise<Divergence | undefined | 'busy'> {
  const resp = options.resp3 && seed % 2 === 1 ? '3' : '2';
  for (const c of [fake, real]) {
    await callWhileBusy(c, ['HELLO', resp]);
    await callWhileBusy(c, ['FLUSHDB']);
  }
  const gen = new Generator(new Rng(seed), options.families);
  const history: string[][] = [];
  let step = 0;
  while (step < options.steps) {
    const block = gen.next();
    if (block.length === 1 && isLexRange(block[0]) && (await lexRangeUndefined(real, block[0]))) {
      step++;
      result.skipped++;
      continue;
    }
    if (block.length === 1 && block[0][0].toUpperCase() === 'DBSIZE') {
      // reclaim keys already expired on both sides (see notInTransaction in generator.ts)
      await Promise.all([fake.call(['SCAN', '0', 'COUNT', '1000']), callWhileBusy(real, ['SCAN', '0', 'COUNT', '1000'])]);
    }
    const queued: string[][] = [];
    let busy = false;
    for (const argv of block) {
      step++;
      history.push(argv);
      const [f, r] = await Promise.all([fake.call(argv), real.call(argv)]);
      result.commands++;
      busy ||= isBusy(r);
      const upper = argv[0].toUpperCase();
      const [fn, rn] = normalisePair(argv, queued, f, r);
      if (upper !== 'MULTI' && upper !== 'EXEC') queued.push(argv);
      if (text(fn) !== text(rn)) {
        // leave a MULTI open on neither side
        await Promise.all([fake.call(['DISCARD']), callWhileBusy(real, ['DISCARD'])]);
        const divergence = { seed, step, argv, fake: text(f), real: text(r), history: [...history] };
        if ((busy || (await configChanged(fake, real))) && !retried) return 'busy';
        if (knownDifference(options.redisVersion, f, r)) {
          result.knownEnded++;
          return undefined;
        }
        return divergence;
      }
    }
  }
  return undefined;
}

/** Run every seed; each stops at its first divergence (the states differ from there on). */
export async function fuzz(options: FuzzOptions): Promise<FuzzResult> {
  const server: RedisServer = await serve({ port: 0, redisVersion: options.redisVersion, clockCommand: false });
  const fake = await RespClient.connect(server.port);
  await fake.call(['SELECT', FUZZ_DB]);
  const real = await connectReal(options.url);
  const result: FuzzResult = { commands: 0, skipped: 0, knownEnded: 0, divergences: [] };
  try {
    for (const seed of options.seeds) {
      const outcome = await withBusyRetries((retried) => runSeed(fake, real, options, seed, result, retried));
      if (outcome !== undefined) result.divergences.push(outcome);
    }
  } finally {
    await callWhileBusy(real, ['FLUSHDB']).catch(() => undefined);
    fake.close();
    real.close();
    await server.close();
  }
  return result;
}

/**
 * A seed's run, again while it ends 'busy' (another client kept the shared server BUSY or changed
 * its encoding limits), half a second apart; the sixth run is `retried` and reports what it finds.
 */
export async function withBusyRetries<T>(run: (retried: boolean) => Promise<T | 'busy'>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const outcome = await run(attempt >= 5);
    if (outcome !== 'busy') return outcome;
    await sleep(500);
  }
}

/** Byte strings shown with \xNN escapes, one command per line. */
export function showArgv(argv: readonly string[]): string {
  return argv.map((a) => (/^[\x21-\x7e]+$/.test(a) ? a : JSON.stringify(a).replace(/[\u007f-\u00ff]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`))).join(' ');
}

/** A divergence report: the command, both replies, and the seed's history before it. */
export function describe(d: Divergence, historyLines = 15): string {
  const before = d.history.slice(-historyLines - 1, -1).map((a) => `    ${showArgv(a)}`);
  return [`seed ${d.seed} step ${d.step}: ${showArgv(d.argv)}`, `  fake: ${d.fake}`, `  real: ${d.real}`, '  after:', ...before].join('\n');
}

export { KEYS };
