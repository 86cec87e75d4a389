/**
 * The core fuzzer through the client (issue 19; "clients are truth too"): the generator's
 * commands (./generator.ts) sent with ioredis's `call` or `callBuffer` to the package's client
 * (in-process, no server between) and to real ioredis (the version the suite runs on) on a real
 * server, and what each hands the caller compared: strings decoded as ioredis decodes them or
 * Buffers, integers, null, nested arrays, RESP3 maps and sets as ioredis 6 delivers them,
 * ReplyError texts and their `command`. The wire fuzzer (./fuzz.ts) checks the bytes; this one
 * checks the ioredis front end's translation of every family, binary values included.
 *
 * Arguments: an ASCII byte string is passed as a string; another one as a Buffer of its bytes,
 * or now and then as a JS string (ioredis sends it UTF-8 encoded: both clients must). Seeds
 * alternate `call` and `callBuffer`, and by twos the client's default protocol (ioredis 6: RESP3)
 * and `protocol: 2`. What Redis leaves to chance is normalised as the wire fuzzer
 * does (unordered replies sorted, random picks by shape and size, positive TTLs as "positive").
 */
import Redis from 'ioredis-mock-streams';
import { showArgv, withBusyRetries } from './fuzz';
import { DIST_KEY, type Family, Generator, Rng, isLexRange } from './generator';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Client = Record<string, any>;

/** Database of the real server this fuzzer uses (FLUSHDB before every seed): one no other test uses (13 was expiry-after-deadline's). */
export const IOREDIS_FUZZ_DB = 6;

export interface ClientDivergence {
  seed: number;
  step: number;
  argv: string[];
  via: 'call' | 'callBuffer';
  fake: string;
  real: string;
  history: string[][];
}

export interface ClientFuzzResult {
  commands: number;
  skipped: number;
  knownEnded: number;
  divergences: ClientDivergence[];
}

export interface ClientFuzzOptions {
  /** redis:// URL of the real server. */
  url: string;
  /** The version the fake emulates ('7.0' for 7.0.15, '8.0' for the post-7.4 build). */
  redisVersion: string;
  families: readonly Family[];
  seeds: readonly number[];
  steps: number;
  /** The fake client's port (its keyspace of its own). */
  port: number;
}

/** A value as ioredis handed it over, in a form two runs compare by text. */
type Canon = { t: 's' | 'b' | 'n' | 'nil' | 'e' | 'x'; v: string } | { t: 'a' | 'set'; v: Canon[] } | { t: 'o' | 'map'; v: [string, Canon][] };

function canon(v: unknown): Canon {
  if (v === null || v === undefined) return { t: 'nil', v: '' };
  if (typeof v === 'string') return { t: 's', v };
  if (Buffer.isBuffer(v)) return { t: 'b', v: v.toString('latin1') };
  if (typeof v === 'number' || typeof v === 'bigint') return { t: 'n', v: String(v) };
  if (v instanceof Error) return { t: 'e', v: `${v.name}: ${v.message}` };
  if (Array.isArray(v)) return { t: 'a', v: v.map(canon) };
  if (v instanceof Set) return { t: 'set', v: [...v].map(canon) };
  if (v instanceof Map) return { t: 'map', v: [...v].map(([k, x]) => [show(canon(k)), canon(x)] as [string, Canon]) };
  if (typeof v === 'object') return { t: 'o', v: Object.keys(v).map((k) => [k, canon((v as Record<string, unknown>)[k])] as [string, Canon]) };
  return { t: 'x', v: `${typeof v}:${String(v)}` };
}

/** The canonical form as one line (bytes past ASCII as \xNN). */
function show(c: Canon): string {
  const esc = (s: string) => JSON.stringify(s).replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
  switch (c.t) {
    case 'a':
    case 'set':
      return `${c.t}[${c.v.map(show).join(', ')}]`;
    case 'o':
    case 'map':
      return `${c.t}{${c.v.map(([k, x]) => `${esc(k)}: ${show(x)}`).join(', ')}}`;
    default:
      return `${c.t}:${esc(c.v)}`;
  }
}

const UNORDERED = new Set(['SMEMBERS', 'SINTER', 'SUNION', 'SDIFF', 'HKEYS', 'HVALS', 'KEYS']);
const RANDOM = new Set(['SRANDMEMBER', 'HRANDFIELD', 'ZRANDMEMBER']);
const TTLS = new Set(['TTL', 'PTTL', 'EXPIRETIME', 'PEXPIRETIME']);

const byText = (a: Canon, b: Canon) => (show(a) < show(b) ? -1 : show(a) > show(b) ? 1 : 0);
function sortPairs(items: Canon[]): Canon[] {
  const pairs: Canon[] = [];
  for (let i = 0; i + 1 < items.length; i += 2) pairs.push({ t: 'a', v: [items[i], items[i + 1]] });
  return pairs.sort(byText).flatMap((p) => (p as { v: Canon[] }).v);
}
/** A collection's items in text order (arrays, sets; maps and objects by key). */
function sorted(c: Canon): Canon {
  if (c.t === 'a' || c.t === 'set') return { t: c.t, v: [...c.v].sort(byText) };
  if (c.t === 'o' || c.t === 'map') return { t: c.t, v: [...c.v].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)) };
  return c;
}
function roundScore(c: Canon): Canon {
  if ((c.t === 's' || c.t === 'b' || c.t === 'n') && /^-?[\d.e+-]+$/.test(c.v)) return { t: c.t, v: Number(Number(c.v).toPrecision(12)).toString() };
  return c;
}

/** The reply with what Redis leaves to chance taken out (as ./fuzz.ts normalise does on the wire). */
function normalise(argv: readonly string[], c: Canon): Canon {
  const name = argv[0].toUpperCase();
  if (c.t === 'e' || c.t === 'nil') return c;
  if (name === 'ZRANGE' && argv[1] === DIST_KEY && argv.some((a) => /^withscores$/i.test(a)) && c.t === 'a') {
    return { t: 'a', v: c.v.map((x, i) => (x.t === 'a' ? { t: 'a', v: [x.v[0], ...x.v.slice(1).map(roundScore)] } : i % 2 === 1 ? roundScore(x) : x)) };
  }
  if (UNORDERED.has(name) || name === 'SPOP') return sorted(c);
  if (name === 'HGETALL') return c.t === 'a' ? { t: 'a', v: sortPairs(c.v) } : sorted(c);
  if ((name === 'SCAN' || name === 'HSCAN' || name === 'ZSCAN' || name === 'SSCAN') && c.t === 'a' && c.v[1]?.t === 'a') {
    return { t: 'a', v: [c.v[0], name === 'SCAN' || name === 'SSCAN' ? sorted(c.v[1]) : { t: 'a', v: sortPairs(c.v[1].v) }] };
  }
  if (RANDOM.has(name)) {
    if (c.t === 'a' || c.t === 'set' || c.t === 'o' || c.t === 'map') return { t: 'x', v: `random ${c.t}(${c.v.length})` };
    if (c.t === 's' || c.t === 'b') return { t: 'x', v: 'random bulk' };
  }
  if (TTLS.has(name) && c.t === 'n' && Number(c.v) > 0) return { t: 'n', v: 'positive' };
  return c;
}

/** What the call resolved to, or the error it rejected with (with its `command`, as ioredis sets it). */
async function outcome(p: Promise<unknown>): Promise<Canon> {
  try {
    return canon(await p);
  } catch (err) {
    const e = err as Error & { command?: { name: string; args: unknown[] } };
    const c = canon(e);
    return e.command ? { t: 'a', v: [c, canon(e.command.name), canon(e.command.args)] } : c;
  }
}

/** The generator's byte strings as arguments: strings when ASCII, else a Buffer or (now and then) a JS string. */
function argsOf(argv: readonly string[], rng: Rng): unknown[] {
  return argv.slice(1).map((a) => {
    if (/^[\x00-\x7f]*$/.test(a)) return a;
    return rng.chance(0.2) ? a : Buffer.from(a, 'latin1');
  });
}

const isBusy = (c: Canon) => c.t === 'e' && /^ReplyError: (BUSY |EXECABORT .*: BUSY )/.test(c.v);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `call` on the real client, waited out while another client's script keeps the server BUSY. */
async function realCall(real: Client, via: 'call' | 'callBuffer', argv: readonly string[], args: unknown[]): Promise<Canon> {
  for (let tries = 0; ; tries++) {
    const c = await outcome(real[via](argv[0], ...args));
    if (!isBusy(c) || tries >= 600) return c;
    await sleep(100);
  }
}

/** Whether the real server leaves this lex range's answer to chance (see ./fuzz.ts lexRangeUndefined). */
async function lexRangeUndefined(real: Client, argv: readonly string[]): Promise<boolean> {
  const key = argv[0].toUpperCase() === 'ZRANGESTORE' ? argv[2] : argv[1];
  if (key === undefined) return false;
  const k = Buffer.from(key, 'latin1');
  if ((await outcome(real.call('OBJECT', 'ENCODING', k))).v !== 'skiplist') return false;
  const score = async (rank: number) => {
    const r = canon(await real.call('ZRANGE', k, rank, rank, 'WITHSCORES').catch(() => []));
    return r.t === 'a' && r.v.length === 2 && (r.v[1].t === 's' || r.v[1].t === 'n') ? r.v[1].v.replace(/^-0$/, '0') : '?';
  };
  return (await score(0)) !== (await score(-1));
}

/** Whether another test changed the real server's encoding limits (the seed then runs again). */
async function configChanged(fake: Client, real: Client): Promise<boolean> {
  const [f, r] = (await Promise.all([fake.call('CONFIG', 'GET', '*max-*'), real.call('CONFIG', 'GET', '*max-*')])) as unknown[];
  const pairs = (x: unknown) => {
    const m = new Map<string, string>();
    if (Array.isArray(x)) for (let i = 0; i + 1 < x.length; i += 2) m.set(String(x[i]), String(x[i + 1]));
    else if (x && typeof x === 'object') for (const [k, v] of Object.entries(x)) m.set(k, String(v));
    return m;
  };
  const rm = pairs(r);
  for (const [k, v] of pairs(f)) if (rm.has(k) && rm.get(k) !== v) return true;
  return false;
}

/** As ./fuzz.ts knownDifference: the post-7.4 build predates the CVE-2025-32023 fix. */
function knownDifference(version: string, fake: Canon, real: Canon): boolean {
  const first = (c: Canon) => (c.t === 'a' && c.v[0]?.t === 'e' ? c.v[0] : c);
  const f = first(fake);
  return version === '8.0' && f.t === 'e' && f.v.startsWith('ReplyError: INVALIDOBJ Corrupted HLL') && first(real).t !== 'e';
}

async function runSeed(fake: Client, real: Client, options: ClientFuzzOptions, seed: number, result: ClientFuzzResult, retried: boolean): Promise<ClientDivergence | undefined | 'busy'> {
  const via = seed % 2 === 0 ? 'callBuffer' : 'call';
  await Promise.all([fake.flushdb(), realCall(real, 'call', ['FLUSHDB'], [])]);
  const gen = new Generator(new Rng(seed), options.families);
  const argRng = new Rng(seed ^ 0x5eed);
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
      // keys already expired are reclaimed on both sides first (generator.ts notInTransaction)
      await Promise.all([fake.call('SCAN', '0', 'COUNT', '1000'), real.call('SCAN', '0', 'COUNT', '1000')]);
    }
    const queued: string[][] = [];
    let busy = false;
    for (const argv of block) {
      step++;
      history.push(argv);
      const args = argsOf(argv, argRng);
      const [f, r] = await Promise.all([outcome(fake[via](argv[0], ...args)), realCall(real, via, argv, args)]);
      result.commands++;
      busy ||= isBusy(r);
      const upper = argv[0].toUpperCase();
      let fn: Canon;
      let rn: Canon;
      if (upper === 'EXEC' && f.t === 'a' && r.t === 'a' && f.v.length === queued.length && r.v.length === queued.length) {
        fn = { t: 'a', v: f.v.map((x, i) => normalise(queued[i], x)) };
        rn = { t: 'a', v: r.v.map((x, i) => normalise(queued[i], x)) };
      } else {
        fn = normalise(argv, f);
        rn = normalise(argv, r);
      }
      if (upper !== 'MULTI' && upper !== 'EXEC') queued.push(argv);
      if (show(fn) !== show(rn)) {
        // leave a MULTI open on neither side
        await Promise.all([outcome(fake.call('DISCARD')), outcome(real.call('DISCARD'))]);
        if ((busy || (await configChanged(fake, real))) && !retried) return 'busy';
        if (knownDifference(options.redisVersion, f, r)) {
          result.knownEnded++;
          return undefined;
        }
        return { seed, step, argv, via, fake: show(f), real: show(r), history: [...history] };
      }
    }
  }
  return undefined;
}

/**
 * Run every seed on the package's client and on real ioredis (`RealRedis`, the class) at
 * `options.url`; each seed stops at its first divergence.
 */
export async function fuzzThroughIoredis(RealRedis: new (...args: any[]) => Client, options: ClientFuzzOptions): Promise<ClientFuzzResult> {
  // the client's default protocol (ioredis 6: RESP3) and `protocol: 2`, seeds alternating by twos
  const pairs = [{}, { protocol: 2 }].map((own) => ({
    fake: new Redis({ port: options.port, db: IOREDIS_FUZZ_DB, streams: { redisVersion: options.redisVersion }, ...own } as never) as unknown as Client,
    real: new RealRedis(options.url, { db: IOREDIS_FUZZ_DB, maxRetriesPerRequest: 1, ...own }) as Client,
  }));
  const result: ClientFuzzResult = { commands: 0, skipped: 0, knownEnded: 0, divergences: [] };
  try {
    for (const seed of options.seeds) {
      const { fake, real } = pairs[(seed >> 1) % 2];
      const o = await withBusyRetries((retried) => runSeed(fake, real, options, seed, result, retried));
      if (o !== undefined) result.divergences.push(o);
    }
  } finally {
    await pairs[0].real.flushdb().catch(() => undefined);
    for (const { fake, real } of pairs) {
      fake.disconnect();
      real.disconnect();
    }
  }
  return result;
}

/** A divergence report: the command, both outcomes, and the seed's commands before it. */
export function describeClientDivergence(d: ClientDivergence, historyLines = 15): string {
  const before = d.history.slice(-historyLines - 1, -1).map((a) => `    ${showArgv(a)}`);
  return [`seed ${d.seed} step ${d.step} (${d.via}): ${showArgv(d.argv)}`, `  fake: ${d.fake}`, `  real: ${d.real}`, '  after:', ...before].join('\n');
}
