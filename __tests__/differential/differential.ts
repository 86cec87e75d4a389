/**
 * Differential testing of the streams fake against a real redis-server: a seeded random
 * command generator, the two sides (fake keyspace with a frozen fake clock; real server
 * through real ioredis), reply normalisation for wall-clock values, a replayer and a
 * shrinker that cuts a failing step list down to a small reproduction.
 *
 * Used by random-commands.test.ts. Everything here is deterministic given the seed and the
 * servers' replies: the generator may look at earlier replies (the real server's, which equal
 * the fake's up to the first mismatch), but only at their normalised form, so it never feeds a
 * wall-clock value or a `*`-generated ID back into a command.
 */
import IORedis from 'ioredis';
import FakeRedis, { REDIS_VERSIONS, createFakeClock, streamsKeyspace } from 'ioredis-mock-streams';
import { ERR_XADD_ID_SMALLER, ERR_XADD_TOO_LARGE } from '../../lib/errors';

// ---------------------------------------------------------------------------------------------
// PRNG

/** mulberry32: a tiny 32-bit seeded PRNG; returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Rng {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  /** Picks a key of `weights` with probability proportional to its weight. */
  weighted<K extends string>(weights: Record<K, number>): K {
    const entries = Object.entries(weights) as [K, number][];
    const total = entries.reduce((s, [, w]) => s + w, 0);
    let x = this.next() * total;
    for (const [k, w] of entries) {
      x -= w;
      if (x < 0) return k;
    }
    return entries[entries.length - 1][0];
  }
}

// ---------------------------------------------------------------------------------------------
// Outcomes and their normalisation

export type Outcome = { ok: true; value: unknown } | { ok: false; error: string };

/** Canonical text of a reply: keeps the difference between 1 and "1", null and "", etc. */
export function show(v: unknown): string {
  if (v === null) return 'nil';
  if (v === undefined) return 'undefined';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : `(float)${v}`;
  if (Array.isArray(v)) return `[${v.map(show).join(',')}]`;
  if (Buffer.isBuffer(v)) return `<Buffer ${JSON.stringify(v.toString('latin1'))}>`;
  // An error inside an EXEC reply.
  if (v instanceof Error) return `(error ${v.name}) ${v.message}`;
  return `<${typeof v} ${String(v)}>`;
}

export function showOutcome(o: Outcome): string {
  return o.ok ? show(o.value) : `(error) ${o.error}`;
}

function errorText(e: unknown): string {
  if (e instanceof Error) return e.name === 'ReplyError' ? e.message : `[${e.name}] ${e.message}`;
  return `[thrown non-Error] ${String(e)}`;
}

const TIME = '<time>';
const upper = (s: string | undefined) => (s ?? '').toUpperCase();

/** In a flat name/value array (a RESP2 map), replace the values named in `names` by `f(value)`. */
function mapFields(flat: unknown, f: (name: string, value: unknown) => unknown): unknown {
  if (!Array.isArray(flat)) return flat;
  const out = [...flat];
  for (let i = 0; i + 1 < out.length; i += 2) {
    if (typeof out[i] === 'string') out[i + 1] = f(out[i] as string, out[i + 1]);
  }
  return out;
}

/**
 * A wall-clock number becomes a placeholder; anything else (a type mismatch) stays visible, and
 * so does -1, Redis's "never" (`active-time`/`inactive` of a consumer that never got an entry,
 * 7.2+), which no clock reading can equal.
 */
const clockValue = (v: unknown) => (typeof v === 'number' && v !== -1 ? TIME : v);

function mapRows(rows: unknown, f: (row: unknown[]) => unknown[]): unknown {
  return Array.isArray(rows) ? rows.map((r) => (Array.isArray(r) ? f([...r]) : r)) : rows;
}

/**
 * Per-run normalisation of one side's replies.
 *
 * Wall clock: the real server's clock runs while the fake's stands still, so every value that
 * is a time or a duration is replaced by `<time>`: XPENDING (extended) idle, XINFO CONSUMERS
 * `idle`/`inactive`, XINFO STREAM FULL delivery times, `seen-time` and `active-time`. Nothing
 * else is touched.
 *
 * `*` IDs: an XADD with `*` gets its ID from the clock, so each side's auto-generated IDs are
 * mapped, in order of appearance, to `<auto#n>` wherever they show up later in a reply about the
 * same stream (exact string match). The mapping is per stream because the two clocks make
 * different collisions: two `*` XADDs to different streams get the same ID on the frozen fake
 * clock but usually different ones on the running real clock (or the other way round).
 */
export class Normaliser {
  /** stream key → (auto-generated ID → placeholder). */
  private readonly auto = new Map<string, Map<string, string>>();
  private autoCount = 0;
  /** Commands queued since MULTI (undefined outside a transaction). */
  private multi: string[][] | undefined;

  /**
   * `staleXaddErrno` (redis-server 7.0): an `XADD k ms-*` whose ms has used up its sequence
   * numbers fails with whatever errno was left by an earlier call — "equal or smaller" right
   * after another XADD failed that way, else usually "too large" (redis #11424, fixed in 7.2;
   * the server's errno also changes with connections and ID parsing, which the fake does not
   * model). Both texts count as the same error for such an XADD.
   */
  constructor(private readonly opts: { staleXaddErrno?: boolean } = {}) {}

  private errorText(argv: string[], text: string): string {
    if (!this.opts.staleXaddErrno || upper(argv[0]) !== 'XADD' || !argv.some((a) => /^[^-]+-\*$/.test(a))) return text;
    for (const known of [ERR_XADD_TOO_LARGE, ERR_XADD_ID_SMALLER]) {
      if (text.startsWith(known)) return `<7.0 stale errno: too large or equal-or-smaller>${text.slice(known.length)}`;
    }
    return text;
  }

  apply(argv: string[], o: Outcome): Outcome {
    const cmd = upper(argv[0]);
    // A script's reply is its command's (EVAL <script> 0 <command…>).
    if (cmd === 'EVAL') return this.apply(argv.slice(3), o);
    if (cmd === 'MULTI') {
      if (o.ok) this.multi = [];
      return o;
    }
    if (this.multi) {
      if (cmd !== 'EXEC' && cmd !== 'DISCARD') {
        if (o.ok && o.value === 'QUEUED') this.multi.push(argv);
        return o;
      }
      const queued = this.multi;
      this.multi = undefined;
      if (cmd !== 'EXEC' || !o.ok || !Array.isArray(o.value)) return o;
      // Each element of EXEC's reply in the context of its command.
      const value = o.value.map((v, i) => {
        if (!queued[i]) return v;
        if (v instanceof Error) {
          const e = new Error(this.errorText(queued[i], v.message));
          e.name = v.name;
          return e;
        }
        const n = this.apply(queued[i], { ok: true, value: v });
        return n.ok ? n.value : v;
      });
      return { ok: true, value };
    }
    if (!o.ok) return { ok: false, error: this.errorText(argv, o.error) };
    let value = o.value;
    if (cmd === 'XADD' && argv.includes('*') && typeof value === 'string' && /^\d+-\d+$/.test(value)) {
      const ids = this.auto.get(argv[1]) ?? new Map<string, string>();
      this.auto.set(argv[1], ids);
      // Always a new entry: an ID seen before in this stream (the stream was deleted and made
      // again, on one clock and maybe not the other) gets a fresh placeholder.
      ids.set(value, `<auto#${++this.autoCount}>`);
    }
    value = this.times(argv, value);
    if (this.autoCount > 0) {
      if ((cmd === 'XREAD' || cmd === 'XREADGROUP') && Array.isArray(value)) {
        // [[key, entries], …]: each stream's entries in that stream's context.
        value = value.map((pair) =>
          Array.isArray(pair) && typeof pair[0] === 'string' ? [pair[0], ...pair.slice(1).map((x) => this.replaceAuto(x, pair[0]))] : pair,
        );
      } else {
        value = this.replaceAuto(value, cmd === 'XINFO' ? argv[2] : argv[1]);
      }
    }
    return { ok: true, value };
  }

  private replaceAuto(v: unknown, key: string | undefined): unknown {
    const ids = key === undefined ? undefined : this.auto.get(key);
    if (!ids) return v;
    const walk = (x: unknown): unknown => (typeof x === 'string' ? ids.get(x) ?? x : Array.isArray(x) ? x.map(walk) : x);
    return walk(v);
  }

  private times(argv: string[], value: unknown): unknown {
    const cmd = upper(argv[0]);
    if (cmd === 'XPENDING' && argv.length > 3) {
      // Extended form: [id, consumer, idle-ms, delivery-count] rows.
      return mapRows(value, (row) => {
        row[2] = clockValue(row[2]);
        return row;
      });
    }
    if (cmd === 'XINFO' && upper(argv[1]) === 'CONSUMERS' && Array.isArray(value)) {
      return value.map((c) => mapFields(c, (name, v) => (name === 'idle' || name === 'inactive' ? clockValue(v) : v)));
    }
    if (cmd === 'XINFO' && upper(argv[1]) === 'STREAM' && argv.length > 3) {
      return mapFields(value, (name, groups) =>
        name !== 'groups' || !Array.isArray(groups)
          ? groups
          : groups.map((g) =>
              mapFields(g, (gname, gv) => {
                if (gname === 'pending') {
                  // [id, consumer, delivery-time, delivery-count]
                  return mapRows(gv, (row) => {
                    row[2] = clockValue(row[2]);
                    return row;
                  });
                }
                if (gname === 'consumers' && Array.isArray(gv)) {
                  return gv.map((c) =>
                    mapFields(c, (cname, cv) => {
                      if (cname === 'seen-time' || cname === 'active-time') return clockValue(cv);
                      if (cname === 'pending') {
                        // [id, delivery-time, delivery-count]
                        return mapRows(cv, (row) => {
                          row[1] = clockValue(row[1]);
                          return row;
                        });
                      }
                      return cv;
                    }),
                  );
                }
                return gv;
              }),
            ),
      );
    }
    return value;
  }
}

// ---------------------------------------------------------------------------------------------
// The two sides

export interface Side {
  call(argv: string[]): Promise<Outcome>;
  /**
   * Sends `argv` on the side's second connection (the reader) without waiting for the reply;
   * resolves once the reader is blocked ('blocked') or has its reply ('answered').
   */
  start(argv: string[]): Promise<'blocked' | 'answered'>;
  /** The reader's reply; a reader still blocked after the wait is released and gives `<still blocked>`. */
  finish(): Promise<Outcome>;
  /** Empty keyspace for a new run. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

async function settle(p: Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: true, value: await p };
  } catch (e) {
    return { ok: false, error: errorText(e) };
  }
}

const STILL_BLOCKED: Outcome = { ok: false, error: '<still blocked>' };

/** A key no generated command names, set at each reset of the real side. */
const MARKER = 'differential:marker';

/** A reply in flight, with a flag that says whether it has arrived. */
class InFlight {
  settled = false;
  readonly outcome: Promise<Outcome>;
  constructor(p: Promise<unknown>) {
    this.outcome = settle(p).then((o) => {
      this.settled = true;
      return o;
    });
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function connectOptions(db: number, name: string) {
  return {
    db,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
    connectionName: name,
    // The fake answers a RESP2 client here: ioredis 6 speaks RESP3 by default (ioredis 5 ignores this).
    ...({ protocol: 2 } as object),
  };
}

/**
 * The real server: one ioredis connection to a dedicated database, emptied with FLUSHDB, and a
 * second one (the reader) for blocking reads.
 */
export class RealSide implements Side {
  private reading: InFlight | undefined;

  private constructor(
    private readonly conn: IORedis,
    private readonly reader: IORedis,
    private readonly readerId: number,
  ) {}

  /** Connects to `url` on database `db` (any database in the URL's path is ignored). */
  static async connect(url: string, db: number): Promise<RealSide> {
    const u = new URL(url);
    u.pathname = '';
    const open = async (name: string) => {
      const conn = new IORedis(u.toString(), connectOptions(db, name));
      let lastError: Error | undefined;
      conn.on('error', (e: Error) => {
        lastError = e;
      });
      try {
        await conn.connect();
      } catch (e) {
        conn.disconnect();
        throw new Error(`cannot connect to ${url}: ${lastError?.message ?? (e as Error).message}`);
      }
      return conn;
    };
    const conn = await open('differential-test');
    const reader = await open('differential-reader').catch((e) => {
      conn.disconnect();
      throw e;
    });
    return new RealSide(conn, reader, Number(await reader.call('CLIENT', 'ID')));
  }

  /** `redis_version` from INFO server, e.g. "7.0.15". */
  async serverVersion(): Promise<string> {
    const info = String(await this.conn.call('INFO', 'server'));
    const m = /^redis_version:(\S+)/m.exec(info);
    if (!m) throw new Error('INFO server has no redis_version');
    return m[1];
  }

  call(argv: string[]): Promise<Outcome> {
    return settle(this.conn.call(argv[0], ...argv.slice(1)));
  }

  async start(argv: string[]): Promise<'blocked' | 'answered'> {
    const reading = new InFlight(this.reader.call(argv[0], ...argv.slice(1)));
    this.reading = reading;
    // Wait (at most 2 s) until the server lists the reader as blocked, or its reply came.
    for (let waited = 0; waited < 2000; waited += 1) {
      if (reading.settled) return 'answered';
      const line = String(await this.conn.call('CLIENT', 'LIST', 'ID', String(this.readerId)));
      if ((/\bflags=(\S*)/.exec(line)?.[1] ?? '').includes('b')) return 'blocked';
      await sleep(1);
    }
    return reading.settled ? 'answered' : 'blocked';
  }

  async finish(): Promise<Outcome> {
    const reading = this.reading;
    this.reading = undefined;
    if (!reading) throw new Error('RealSide: finish() without start()');
    for (let waited = 0; waited < 2000 && !reading.settled; waited += 1) await sleep(1);
    if (reading.settled) return reading.outcome;
    await this.conn.call('CLIENT', 'UNBLOCK', String(this.readerId));
    await reading.outcome;
    return STILL_BLOCKED;
  }

  async reset(): Promise<void> {
    if (this.reading) await this.finish();
    // A run (or a shrunk replay) may stop inside MULTI: leave it, or FLUSHDB would be queued.
    await this.conn.call('DISCARD').catch(() => undefined);
    await this.conn.call('FLUSHDB');
    await this.conn.call('SET', MARKER, '1');
  }

  /**
   * True if something outside the run emptied the database since `reset()` (another test file
   * on the same server running FLUSHALL, e.g. the FLUSHALL fixture): the run proves nothing.
   */
  async disturbed(): Promise<boolean> {
    return Number(await this.conn.call('EXISTS', MARKER)) === 0;
  }

  async close(): Promise<void> {
    this.conn.disconnect();
    this.reader.disconnect();
  }
}

/** Start of the fake clock; it never moves during a run. */
export const FAKE_NOW = Date.UTC(2024, 0, 1);

const realSetImmediate = globalThis.setImmediate;

/** Lets promise chains and queued callbacks run (no clock moves). */
async function drain(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
  await new Promise<void>((resolve) => realSetImmediate(resolve));
}

/**
 * The fake: a fresh ioredis-mock keyspace (own port) per run, fake clock, given Redis version;
 * the reader is a `duplicate()` of the client (same keyspace, own connection).
 */
export class FakeSide implements Side {
  private static nextPort = 41_000;
  private client: InstanceType<typeof FakeRedis> | undefined;
  private reader: InstanceType<typeof FakeRedis> | undefined;
  private reading: InFlight | undefined;

  constructor(readonly redisVersion: string) {}

  call(argv: string[]): Promise<Outcome> {
    if (!this.client) throw new Error('FakeSide: reset() first');
    const c = this.client;
    // A synchronous throw is an outcome too.
    return settle(Promise.resolve().then(() => c.call(argv[0], ...argv.slice(1))));
  }

  async start(argv: string[]): Promise<'blocked' | 'answered'> {
    if (!this.client || !this.reader) throw new Error('FakeSide: reset() first');
    const keyspace = streamsKeyspace(this.client);
    const before = keyspace.blockedCount;
    const r = this.reader;
    const reading = new InFlight(Promise.resolve().then(() => r.call(argv[0], ...argv.slice(1))));
    this.reading = reading;
    for (let i = 0; i < 50 && !reading.settled && keyspace.blockedCount <= before; i++) await drain();
    return reading.settled ? 'answered' : 'blocked';
  }

  async finish(): Promise<Outcome> {
    const reading = this.reading;
    this.reading = undefined;
    if (!reading) throw new Error('FakeSide: finish() without start()');
    for (let i = 0; i < 50 && !reading.settled; i++) await drain();
    if (reading.settled) return reading.outcome;
    // Nothing wakes it on a frozen clock: close its connection (the call rejects), open another.
    this.reader?.disconnect();
    await reading.outcome;
    this.reader = this.client?.duplicate();
    return STILL_BLOCKED;
  }

  async reset(): Promise<void> {
    await this.close();
    const clock = createFakeClock({ now: FAKE_NOW });
    this.client = new FakeRedis({
      host: 'differential',
      port: FakeSide.nextPort++,
      db: 0,
      protocol: 2, // compared with a protocol-2 real client
      streams: { clock, redisVersion: this.redisVersion },
    } as never);
    this.reader = this.client.duplicate();
  }

  async close(): Promise<void> {
    this.reading = undefined;
    if (this.client) {
      streamsKeyspace(this.client).reset();
      this.reader?.disconnect();
      this.client.disconnect();
      this.client = undefined;
      this.reader = undefined;
    }
  }
}

/**
 * The fake's mode for the redis/redis development tree at 4f8cdc2a (2024-10-18, after 7.4, before
 * 8.0), whose INFO says 255.255.255. Its t_stream.c has every FEATURE_SINCE entry up to '8.0'
 * (#13338 tombstones-from-last-id, #13473 lag rules, #13474 `'+'` in the unbalanced text, #12596
 * BLOCK from scripts, the 7.2/7.4 items) and none of 8.2+ (no XDELEX/XACKDEL/ref policies, no
 * ENTRIESREAD clamp, no CLAIM/XNACK/MAXCOUNT), so it is the fake's '8.0'.
 */
export const UNSTABLE_FAKE_VERSION = '8.0';

/**
 * The fake's version for a server version ("7.0.15" → "7.0"), or null if the library lacks it.
 * A development build (255.255.255) says nothing about its age: it maps to `unstable` when given.
 */
export function fakeVersionFor(serverVersion: string, opts: { unstable?: string } = {}): string | null {
  if (/^255\.255\.255/.test(serverVersion)) return opts.unstable ?? null;
  const m = /^(\d+)\.(\d+)/.exec(serverVersion);
  const v = m ? `${m[1]}.${m[2]}` : '';
  return (REDIS_VERSIONS as readonly string[]).includes(v) ? v : null;
}

// ---------------------------------------------------------------------------------------------
// The command generator

export const KEYS = ['sa', 'sb', 'sc'] as const;
/**
 * Prefix of the streams the generator's blocked reads also wait on (a new one per read, so a
 * group on it has nothing old to deliver); an XADD to it ends the wait.
 */
const WAKE = 'wake';
export const GROUPS = ['g1', 'g2'] as const;
export const CONSUMERS = ['c1', 'c2', 'c3'] as const;

const U64_MAX = '18446744073709551615';
/** An idle-time threshold (ms) that only entries with a delivery time set hours back reach. */
const HOUR = '3600000';
const BAD_IDS = ['abc', '1-x', '-1', '1-', '1--1', '18446744073709551616', '1.5', '', '1-18446744073709551616', ' 1'];
const BAD_INTS = ['x', '1.5', '', '9223372036854775808', '2x'];

interface GroupShadow {
  /** IDs believed pending in the group (delivered and not acknowledged). */
  pending: string[];
  /** Last XAUTOCLAIM cursor. */
  cursor?: string;
}

interface Shadow {
  /** Greatest ID this generator believes the stream has had (ms, seq). */
  top: [number, number];
  /** IDs seen added (most recent last; may be stale after trims, on purpose). */
  ids: string[];
  /** Groups believed to exist. */
  groups: Map<string, GroupShadow>;
  /** The key got an ID no small explicit ID can follow (`*`, 2^64-1) or holds a string. */
  poisoned: boolean;
}

export type GeneratorProfile = 'default' | 'long';

const newShadow = (): Shadow => ({ top: [0, 0], ids: [], groups: new Map(), poisoned: false });

const idStr = (ms: number, seq: number) => `${ms}-${seq}`;

function parseId(s: string): [number, number] | null {
  const m = /^(\d+)(?:-(\d+))?$/.exec(s);
  if (!m || m[1].length > 12 || (m[2] ?? '').length > 12) return null;
  return [Number(m[1]), Number(m[2] ?? 0)];
}

const idGreater = (a: [number, number], b: [number, number]) => a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);

/** Adds a plain explicit ID (never a `<auto#n>` placeholder) to a bounded list. */
function pushCapped(list: string[], id: string, cap = 16): void {
  if (list.includes(id) || !parseId(id)) return;
  list.push(id);
  if (list.length > cap) list.shift();
}

/** Entry IDs in an XREADGROUP/XCLAIM/XAUTOCLAIM entry list (entries or bare IDs). */
function entryIds(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((e) => (typeof e === 'string' ? [e] : Array.isArray(e) && typeof e[0] === 'string' ? [e[0]] : []));
}

/**
 * Produces one random command at a time. Mostly well-formed commands on 3 keys, 2 groups and 3
 * consumers with small explicit IDs, plus a share of malformed variants (bad integers, bad IDs,
 * wrong arity, unknown options) so error texts and the order of checks are compared too.
 *
 * A shadow of what the generator believes the server holds (IDs added, groups, pending IDs,
 * XAUTOCLAIM cursors), learnt from the agreed replies, steers it towards commands that do
 * something: group commands mostly name existing groups, XACK/XCLAIM mostly name pending IDs,
 * XADD IDs mostly grow. The shadow may be wrong (trims, deletions); that is fine and adds cases.
 */
export class Generator {
  private readonly r: Rng;
  private readonly shadow = new Map<string, Shadow>();
  /** Probability that a command is a malformed variant. */
  private readonly pBad = 0.1;
  private readonly long: boolean;

  /**
   * `profile` 'long' grows one stream past several 100-entry macro nodes (more XADDs, fewer
   * deletions, trim thresholds scaled to the length), so `~` trimming, LIMIT and
   * `radix-tree-keys`/`radix-tree-nodes` meet node boundaries; 'default' keeps streams short.
   */
  constructor(seed: number, profile: GeneratorProfile = 'default') {
    this.long = profile === 'long';
    this.r = new Rng(seed);
    for (const k of KEYS) this.shadow.set(k, newShadow());
  }

  // ---- small pieces

  /** An option token, sometimes in lower case (options are case-insensitive). */
  private tok(s: string): string {
    return this.r.chance(0.12) ? s.toLowerCase() : s;
  }
  private key(): string {
    if (this.long && this.r.chance(0.85)) return KEYS[0];
    return this.r.chance(0.03) ? 'nokey' : this.r.pick(KEYS);
  }
  private sh(key: string): Shadow {
    return this.shadow.get(key) ?? newShadow();
  }
  /** A key for a group command: mostly one with a group. */
  private groupKey(): string {
    const withGroups = KEYS.filter((k) => this.sh(k).groups.size > 0);
    return withGroups.length > 0 && this.r.chance(0.8) ? this.r.pick(withGroups) : this.key();
  }
  /** A group of `key`: mostly an existing one. */
  private group(key: string): string {
    const existing = [...this.sh(key).groups.keys()];
    if (existing.length > 0 && this.r.chance(0.85)) return this.r.pick(existing);
    return this.r.chance(0.1) ? 'gx' : this.r.pick(GROUPS);
  }
  /** A group to create: mostly a missing one. */
  private newGroup(key: string): string {
    const missing = GROUPS.filter((g) => !this.sh(key).groups.has(g));
    return missing.length > 0 && this.r.chance(0.8) ? this.r.pick(missing) : this.r.pick(GROUPS);
  }
  private consumer(): string {
    return this.r.pick(CONSUMERS);
  }
  private badId(): string {
    return this.r.pick(BAD_IDS);
  }
  private badInt(): string {
    return this.r.pick(BAD_INTS);
  }
  /** An ID near the stream's range, maybe without sequence part. */
  private nearId(key: string): string {
    const [ms] = this.sh(key).top;
    const m = this.r.int(Math.max(0, ms - 6), ms + 2);
    return this.r.chance(0.25) ? String(m) : idStr(m, this.r.int(0, 3));
  }
  /** An ID the stream (probably) has or had. */
  private knownId(key: string): string {
    const ids = this.sh(key).ids;
    return ids.length > 0 && this.r.chance(0.85) ? this.r.pick(this.long ? ids : ids.slice(-10)) : this.nearId(key);
  }
  /** An ID (probably) pending in the group. */
  private pendingId(key: string, group: string): string {
    const pending = this.sh(key).groups.get(group)?.pending ?? [];
    return pending.length > 0 && this.r.chance(0.8) ? this.r.pick(pending) : this.knownId(key);
  }
  private someIds(max: number, one: () => string): string[] {
    return Array.from({ length: this.r.int(1, max) }, one);
  }
  private fields(): string[] {
    const out = ['f', `v${this.r.int(0, 9)}`];
    if (this.r.chance(0.3)) out.push(this.r.pick(['g', 'f']), `w${this.r.int(0, 9)}`);
    return out;
  }
  /** A range bound: `-`/`+`, a known or nearby ID, sometimes exclusive. */
  private bound(key: string, which: 'start' | 'end', known = () => this.knownId(key)): string {
    const x = this.r.int(0, 99);
    if (x < 25) return which === 'start' ? '-' : '+';
    if (x < 60) return known();
    if (x < 85) return this.nearId(key);
    if (x < 97) return `(${this.r.chance(0.7) ? known() : this.nearId(key)}`;
    return this.r.pick(['(-', '(+', '(0-0', `(${U64_MAX}-${U64_MAX}`, 'zz', '(']);
  }
  private count(): string {
    return String(this.r.chance(0.1) ? this.r.pick([0, -1, 10]) : this.r.int(1, 4));
  }
  /** A group start ID for CREATE / SETID. */
  private groupId(key: string): string {
    const x = this.r.int(0, 99);
    if (x < 25) return '$';
    if (x < 45) return this.r.pick(['0', '0-0']);
    if (x < 80) return this.knownId(key);
    if (x < 95) return this.nearId(key);
    return this.r.chance(0.5) ? this.badId() : this.r.pick(['-', '+', '>']);
  }
  private entriesRead(): string[] {
    if (!this.r.chance(0.3)) return [];
    const v = this.r.chance(0.85) ? String(this.r.int(-1, 8)) : this.r.pick(['-2', 'x', U64_MAX]);
    return [this.tok('ENTRIESREAD'), v];
  }
  private trim(key: string): string[] {
    const strategy = this.r.chance(0.55) ? 'MAXLEN' : 'MINID';
    const out = [this.tok(strategy)];
    const op = this.r.pick(['', '', '=', '~', '~']);
    if (op) out.push(op);
    if (this.long) {
      const len = this.sh(key).ids.length;
      const maxlen = this.r.chance(0.8) ? this.r.int(Math.max(0, len - 40), len + 10) : this.r.int(0, len);
      const ids = this.sh(key).ids;
      const minid = ids.length > 0 ? ids[this.r.int(0, Math.floor(ids.length / 3))] : this.nearId(key);
      out.push(strategy === 'MAXLEN' ? String(maxlen) : minid);
      if (this.r.chance(0.3)) out.push(this.tok('LIMIT'), String(this.r.pick([0, 1, 50, 99, 100, 101, 150, 250])));
      return out;
    }
    out.push(strategy === 'MAXLEN' ? String(this.r.int(0, 6)) : this.nearId(key));
    if (this.r.chance(0.25)) out.push(this.tok('LIMIT'), String(this.r.int(0, 3)));
    return out;
  }
  /** A malformed trim clause. */
  private badTrim(key: string): string[] {
    return this.r.pick([
      () => ['MAXLEN', this.badInt()],
      () => ['MAXLEN', '-1'],
      () => ['MAXLEN', '=', '2', 'LIMIT', '1'],
      () => ['MAXLEN', '2', 'LIMIT', '1'],
      () => ['MAXLEN', '~', '2', 'LIMIT', '-1'],
      () => ['MAXLEN', '~', '2', 'LIMIT', 'x'],
      () => ['MINID', this.badId()],
      () => ['MINID', '~'],
      () => ['MAXLEN', '1', 'MINID', this.nearId(key)],
      () => ['LIMIT', '2'],
      () => ['MAXLEN'],
    ])();
  }
  private shuffled(opts: string[][]): string[][] {
    for (let i = opts.length - 1; i > 0; i--) {
      const j = this.r.int(0, i);
      [opts[i], opts[j]] = [opts[j], opts[i]];
    }
    return opts;
  }

  // ---- one command per family

  private xadd(key = this.key()): string[] {
    const s = this.sh(key);
    const argv = ['XADD', key];
    if (this.r.chance(0.12)) argv.push(this.tok('NOMKSTREAM'));
    const bad = this.r.chance(this.pBad);
    if (bad && this.r.chance(0.35)) argv.push(...this.badTrim(key));
    else if (this.r.chance(this.long ? 0.06 : 0.25)) argv.push(...this.trim(key));
    const x = this.r.int(0, 999);
    const [ms, seq] = s.top;
    let id: string;
    if (bad && x < 500) id = this.r.chance(0.8) ? this.badId() : '0-0';
    else if (x < 780) id = this.r.chance(0.65) || (ms === 0 && seq === 0) ? idStr(ms + this.r.int(1, 2), this.r.int(0, 2)) : idStr(ms, seq + this.r.int(1, 2));
    else if (x < 870) id = this.r.chance(0.6) ? this.knownId(key) : idStr(ms, seq);
    else if (x < 975 || this.long) id = `${this.r.chance(0.6) ? ms : ms + this.r.int(-2, 1)}-*`; // long: no `*` (it would end the stream)
    else if (x < 990) id = '*';
    else id = this.r.pick(['0-1', '0-*', `${U64_MAX}-${U64_MAX}`, `${U64_MAX}-*`, `${ms + 1}-${U64_MAX}`, `${ms}-${U64_MAX}`]);
    argv.push(id);
    if (bad && x >= 500) {
      // Wrong arity (odd field/value list) or no fields at all.
      argv.push(...(this.r.chance(0.5) ? ['f'] : ['f', 'v', 'g']));
    } else if (!bad || x < 500) argv.push(...this.fields());
    return argv;
  }

  private xdel(): string[] {
    const key = this.key();
    if (this.r.chance(this.pBad)) return this.r.chance(0.5) ? ['XDEL', key] : ['XDEL', key, this.knownId(key), this.badId()];
    return ['XDEL', key, ...this.someIds(3, () => (this.r.chance(0.8) ? this.knownId(key) : this.nearId(key)))];
  }

  private xtrim(): string[] {
    const key = this.key();
    if (this.r.chance(this.pBad * 2)) {
      return this.r.pick([
        () => ['XTRIM', key, ...this.badTrim(key)],
        () => ['XTRIM', key],
        () => ['XTRIM', key, 'FOO', '1'],
        () => ['XTRIM', key, ...this.trim(key), 'FOO'],
      ])();
    }
    return ['XTRIM', key, ...this.trim(key)];
  }

  private xlen(): string[] {
    if (this.r.chance(this.pBad)) return this.r.chance(0.5) ? ['XLEN'] : ['XLEN', this.key(), 'extra'];
    return ['XLEN', this.key()];
  }

  private xrange(cmd: 'XRANGE' | 'XREVRANGE'): string[] {
    const key = this.key();
    let a = this.bound(key, 'start');
    let b = this.bound(key, 'end');
    if (cmd === 'XREVRANGE') [a, b] = [b, a];
    const argv = [cmd, key, a, b];
    if (this.r.chance(0.4)) argv.push(this.tok('COUNT'), this.count());
    if (this.r.chance(this.pBad)) {
      return this.r.pick([
        () => [cmd, key, a],
        () => [cmd, key, a, b, 'COUNT'],
        () => [cmd, key, a, b, 'COUNT', this.badInt()],
        () => [cmd, key, a, b, 'FOO', '1'],
        () => [cmd, key, this.badId(), b],
      ])();
    }
    return argv;
  }

  private xgroup(): string[] {
    const noGroups = KEYS.every((k) => this.sh(k).groups.size === 0);
    const sub = this.r.weighted({ CREATE: noGroups ? 12 : 4, SETID: 2.5, DESTROY: 0.8, CREATECONSUMER: 1.5, DELCONSUMER: 1.5 });
    const key = sub === 'CREATE' ? this.key() : this.groupKey();
    if (this.r.chance(this.pBad)) {
      return this.r.pick([
        () => ['XGROUP', 'FOO', key],
        () => ['XGROUP', sub, key],
        () => ['XGROUP', 'CREATE', key, this.newGroup(key), this.groupId(key), 'FOO'],
        () => ['XGROUP', 'CREATE', key, this.newGroup(key), this.badId()],
        () => ['XGROUP', 'SETID', key, this.group(key), this.groupId(key), 'MKSTREAM'],
        () => ['XGROUP', 'SETID', key, this.group(key), this.groupId(key), 'ENTRIESREAD'],
        () => ['XGROUP', 'DESTROY', key, this.group(key), 'extra'],
        () => ['XGROUP', 'CREATECONSUMER', key, this.group(key)],
        () => ['XGROUP', 'DELCONSUMER', key, this.group(key), this.consumer(), 'extra'],
        () => ['XGROUP'],
      ])();
    }
    const s = this.tok(sub);
    switch (sub) {
      case 'CREATE': {
        const argv = ['XGROUP', s, key, this.newGroup(key), this.groupId(key)];
        const opts: string[][] = [];
        if (this.r.chance(0.35)) opts.push([this.tok('MKSTREAM')]);
        const er = this.entriesRead();
        if (er.length) opts.push(er);
        return argv.concat(...this.shuffled(opts));
      }
      case 'SETID':
        return ['XGROUP', s, key, this.group(key), this.groupId(key), ...this.entriesRead()];
      case 'DESTROY':
        return ['XGROUP', s, key, this.group(key)];
      default:
        return ['XGROUP', s, key, this.group(key), this.r.chance(0.9) ? this.consumer() : 'c9'];
    }
  }

  /** `STREAMS k1 [k2] id1 [id2]`; `id` makes the per-key ID; a second key preferably has `group`. */
  private streams(k1: string, id: (key: string) => string, group?: string): string[] {
    const keys = [k1];
    if (this.r.chance(0.3)) {
      const others = KEYS.filter((k) => k !== k1);
      const withGroup = others.filter((k) => group !== undefined && this.sh(k).groups.has(group));
      keys.push(this.r.chance(0.05) ? k1 : withGroup.length > 0 && this.r.chance(0.7) ? this.r.pick(withGroup) : this.r.pick(others));
    }
    return [this.tok('STREAMS'), ...keys, ...keys.map(id)];
  }

  /**
   * `block`: the call runs where it cannot block (inside MULTI or a script), so a BLOCK option
   * may be added: it must answer at once (7.4+ scripts and every MULTI) or fail (7.0/7.2 scripts).
   */
  private xreadgroup(block = false): string[] {
    const key = this.groupKey();
    const g = this.group(key);
    const argv = ['XREADGROUP', this.tok('GROUP'), g, this.consumer()];
    const opts: string[][] = [];
    if (this.r.chance(0.55)) opts.push([this.tok('COUNT'), this.count()]);
    if (this.r.chance(0.15)) opts.push([this.tok('NOACK')]);
    if (block && this.r.chance(0.6)) opts.push([this.tok('BLOCK'), this.r.pick(['0', '100'])]);
    const streams = this.streams(key, (k) => {
      const x = this.r.int(0, 99);
      if (x < 70) return '>';
      if (x < 85) return this.r.pick(['0', '0-0']);
      return this.r.chance(0.5) ? this.pendingId(k, g) : this.knownId(k);
    }, g);
    if (this.r.chance(this.pBad)) {
      return this.r.pick([
        () => [...argv, ...streams.slice(0, -1)],
        () => [...argv, this.tok('COUNT'), this.badInt(), ...streams],
        () => [...argv, 'BLOCK', this.r.pick(['x', '-1'])],
        () => [...argv, 'FOO', ...streams],
        () => [...argv],
        () => ['XREADGROUP', 'GROUP', g, ...streams],
        () => ['XREADGROUP', ...streams],
        () => [...argv, 'STREAMS', key, this.r.pick(['$', '+', '-', this.badId()])],
      ])();
    }
    return argv.concat(...this.shuffled(opts), streams);
  }

  /** `block`: as for xreadgroup. */
  private xread(block = false): string[] {
    const argv = ['XREAD'];
    if (this.r.chance(0.5)) argv.push(this.tok('COUNT'), this.count());
    if (block && this.r.chance(0.6)) argv.push(this.tok('BLOCK'), this.r.pick(['0', '100']));
    const streams = this.streams(this.key(), (key) => {
      const x = this.r.int(0, 99);
      if (x < 30) return this.r.pick(['0', '0-0']);
      if (x < 65) return this.knownId(key);
      if (x < 75) return '$';
      if (x < 85) return '+'; // 7.4: the last entry; before, an invalid ID
      return this.nearId(key);
    });
    if (this.r.chance(this.pBad)) {
      return this.r.pick([
        () => [...argv, ...streams.slice(0, -1)],
        () => ['XREAD', 'COUNT', this.badInt(), ...streams],
        () => ['XREAD', 'STREAMS', this.key(), this.r.pick(['>', '+', this.badId()])],
        () => ['XREAD', 'NOACK', ...streams],
        () => ['XREAD', 'GROUP', 'g1', 'c1', ...streams],
        () => ['XREAD', 'BLOCK', 'x', ...streams],
        () => ['XREAD'],
      ])();
    }
    return argv.concat(streams);
  }

  private xack(): string[] {
    const key = this.groupKey();
    const g = this.group(key);
    if (this.r.chance(this.pBad)) {
      return this.r.chance(0.5) ? ['XACK', key, g] : ['XACK', key, g, this.pendingId(key, g), this.badId()];
    }
    return ['XACK', key, g, ...this.someIds(3, () => this.pendingId(key, g))];
  }

  private xpending(): string[] {
    const key = this.groupKey();
    const g = this.group(key);
    if (this.r.chance(this.pBad)) {
      return this.r.pick([
        () => ['XPENDING', key],
        () => ['XPENDING', key, g, '-'],
        () => ['XPENDING', key, g, '-', '+'],
        () => ['XPENDING', key, g, '-', '+', this.badInt()],
        () => ['XPENDING', key, g, this.badId(), '+', '5'],
        () => ['XPENDING', key, g, 'IDLE', this.badInt(), '-', '+', '5'],
        () => ['XPENDING', key, g, 'IDLE', '0', '-', '+'],
        () => ['XPENDING', key, g, '-', '+', '5', this.consumer(), 'extra'],
        () => ['XPENDING', key, g, 'IDLE', '0', '-', '+', '5', this.consumer(), 'extra', 'more'],
      ])();
    }
    if (this.r.chance(0.35)) return ['XPENDING', key, g];
    const argv = ['XPENDING', key, g];
    // IDLE 0 (no filter) or an hour: a threshold between would compare against the running wall
    // clock; an hour is reached only by entries given an old delivery time (XCLAIM IDLE/TIME).
    if (this.r.chance(0.2)) argv.push(this.tok('IDLE'), this.r.chance(0.7) ? '0' : HOUR);
    const known = () => this.pendingId(key, g);
    argv.push(this.bound(key, 'start', known), this.bound(key, 'end', known), this.r.chance(0.1) ? this.r.pick(['0', '-1']) : String(this.r.int(1, 6)));
    if (this.r.chance(0.4)) argv.push(this.consumer());
    return argv;
  }

  private xclaim(): string[] {
    const key = this.groupKey();
    const g = this.group(key);
    const argv = ['XCLAIM', key, g, this.consumer()];
    const id = () => (this.r.chance(0.7) ? this.pendingId(key, g) : this.knownId(key));
    if (this.r.chance(this.pBad)) {
      return this.r.pick([
        () => [...argv, this.badInt(), id()],
        () => [...argv, '0'],
        () => [...argv, '0', this.badId()],
        () => [...argv, '0', id(), 'FOO'],
        () => [...argv, '0', id(), 'RETRYCOUNT', this.r.pick(['x', '-1'])],
        () => [...argv, '0', id(), 'RETRYCOUNT'],
        () => [...argv, '0', id(), 'IDLE', 'x'],
        () => [...argv, '0', id(), 'TIME', 'x'],
        () => [...argv, '0', id(), 'LASTID', this.badId()],
        () => [...argv, '0', id(), 'JUSTID', id()],
        () => ['XCLAIM', key, g],
      ])();
    }
    // min-idle-time 0 (or negative, which Redis treats as 0) or an hour (see xpending); IDLE
    // and TIME only with values that put the delivery time hours back (or at 0).
    const x = this.r.int(0, 99);
    argv.push(x < 80 ? '0' : x < 88 ? '-5' : HOUR, ...this.someIds(3, id));
    const opts: string[][] = [];
    if (this.r.chance(0.1)) opts.push([this.tok('IDLE'), '7200000']);
    if (this.r.chance(0.05)) opts.push([this.tok('TIME'), this.r.pick(['0', '1000'])]);
    if (this.r.chance(0.2)) opts.push([this.tok('RETRYCOUNT'), String(this.r.int(0, 5))]);
    if (this.r.chance(0.25)) opts.push([this.tok('FORCE')]);
    if (this.r.chance(0.3)) opts.push([this.tok('JUSTID')]);
    if (this.r.chance(0.2)) opts.push([this.tok('LASTID'), this.knownId(key)]);
    return argv.concat(...this.shuffled(opts));
  }

  private xautoclaim(): string[] {
    const key = this.groupKey();
    const g = this.group(key);
    const argv = ['XAUTOCLAIM', key, g, this.consumer()];
    if (this.r.chance(this.pBad)) {
      return this.r.pick([
        () => [...argv, this.badInt(), '0-0'],
        () => [...argv, '-1', '0-0'],
        () => [...argv, '0'],
        () => [...argv, '0', this.badId()],
        () => [...argv, '0', '0-0', 'COUNT', this.r.pick(['0', '-1', 'x'])],
        () => [...argv, '0', '0-0', 'COUNT'],
        () => [...argv, '0', '0-0', 'FOO'],
        () => [...argv, '0', '0-0', 'JUSTID', 'extra'],
      ])();
    }
    const cursor = this.sh(key).groups.get(g)?.cursor;
    const x = this.r.int(0, 99);
    const start =
      x < 35 && cursor
        ? cursor
        : x < 60
          ? this.r.pick(['0', '0-0', '-'])
          : this.r.chance(0.2)
            ? `(${this.pendingId(key, g)}`
            : this.pendingId(key, g);
    // min-idle-time 0 or an hour, as for XCLAIM (an hour also spends the COUNT × 10 attempts).
    argv.push(this.r.chance(0.75) ? '0' : HOUR, start);
    const opts: string[][] = [];
    if (this.r.chance(0.5)) opts.push([this.tok('COUNT'), String(this.r.int(1, 3))]);
    if (this.r.chance(0.3)) opts.push([this.tok('JUSTID')]);
    return argv.concat(...this.shuffled(opts));
  }

  private xsetid(): string[] {
    const key = this.key();
    const s = this.sh(key);
    if (this.r.chance(this.pBad * 2)) {
      return this.r.pick([
        () => ['XSETID', key],
        () => ['XSETID', key, this.badId()],
        () => ['XSETID', key, idStr(s.top[0] + 1, 0), 'ENTRIESADDED', this.r.pick(['x', '-1'])],
        () => ['XSETID', key, idStr(s.top[0] + 1, 0), 'MAXDELETEDID', this.badId()],
        () => ['XSETID', key, idStr(s.top[0] + 1, 0), 'ENTRIESADDED'],
        () => ['XSETID', key, idStr(s.top[0] + 1, 0), 'FOO', '1'],
        () => ['XSETID', key, '0-0'],
      ])();
    }
    const x = this.r.int(0, 99);
    const id = x < 40 ? idStr(s.top[0], s.top[1]) : x < 75 ? idStr(s.top[0] + this.r.int(0, 3), this.r.int(0, 3)) : this.knownId(key);
    const argv = ['XSETID', key, id];
    if (this.r.chance(0.3)) argv.push(this.tok('ENTRIESADDED'), String(this.r.int(0, 12)));
    if (this.r.chance(0.3)) argv.push(this.tok('MAXDELETEDID'), this.nearId(key));
    return argv;
  }

  private xinfo(): string[] {
    const key = this.r.chance(0.6) ? this.groupKey() : this.key();
    if (this.r.chance(this.pBad)) {
      return this.r.pick([
        () => ['XINFO', 'FOO', key],
        () => ['XINFO', 'STREAM'],
        () => ['XINFO', 'STREAM', key, 'FOO'],
        () => ['XINFO', 'STREAM', key, 'FULL', 'COUNT'],
        () => ['XINFO', 'STREAM', key, 'FULL', 'COUNT', this.badInt()],
        () => ['XINFO', 'STREAM', key, 'FULL', 'FOO', '1'],
        () => ['XINFO', 'GROUPS'],
        () => ['XINFO', 'GROUPS', key, 'extra'],
        () => ['XINFO', 'CONSUMERS', key],
        () => ['XINFO'],
      ])();
    }
    switch (this.r.weighted({ STREAM: 2, FULL: 2.5, GROUPS: 1.5, CONSUMERS: 1.5 })) {
      case 'STREAM':
        return ['XINFO', this.tok('STREAM'), key];
      case 'FULL': {
        const argv = ['XINFO', 'STREAM', key, this.tok('FULL')];
        if (this.r.chance(0.4)) argv.push(this.tok('COUNT'), String(this.r.int(-1, 3)));
        return argv;
      }
      case 'GROUPS':
        return ['XINFO', this.tok('GROUPS'), key];
      default:
        return ['XINFO', this.tok('CONSUMERS'), key, this.group(key)];
    }
  }

  private keyspace(): string[] {
    switch (this.r.weighted({ TYPE: 1, EXISTS: 1, DEL: 1.2, SET: 0.3, BAD: 0.3 })) {
      case 'TYPE':
        return ['TYPE', this.key()];
      case 'EXISTS':
        return ['EXISTS', ...this.someIds(3, () => this.key())];
      case 'DEL':
        return ['DEL', ...this.someIds(2, () => this.key())];
      case 'SET':
        // A string under a stream key: WRONGTYPE paths of every command.
        return ['SET', this.key(), 'str'];
      default:
        return this.r.pick([['TYPE'], ['TYPE', 'sa', 'sb'], ['EXISTS'], ['DEL']]);
    }
  }

  /** Commands already chosen, sent before anything new (the rest of a MULTI … EXEC block). */
  private readonly queue: string[][] = [];

  /** The next command. */
  next(): string[] {
    const queued = this.queue.shift();
    if (queued) return queued;
    // A key that only errors (string, or IDs beyond what the generator makes) is deleted soon.
    const poisoned = KEYS.filter((k) => this.sh(k).poisoned);
    if (poisoned.length > 0 && this.r.chance(0.06)) return ['DEL', this.r.pick(poisoned)];
    const x = this.r.int(0, 999);
    if (x < (this.long ? 10 : 30)) return this.script();
    if (x < (this.long ? 20 : 55)) {
      // MULTI, 1–4 commands, EXEC (sometimes DISCARD): one time snapshot, BLOCK answers nil,
      // a queue-time error (arity) aborts the whole block.
      const body = Array.from({ length: this.r.int(1, 4) }, () => this.one(true));
      this.queue.push(...body, [this.r.chance(0.9) ? 'EXEC' : 'DISCARD']);
      return ['MULTI'];
    }
    if (x < (this.long ? 25 : 80)) return this.blocking();
    return this.one();
  }

  /** Number of blocked reads so far (names their `wake` streams). */
  private wakeSeq = 0;

  /**
   * A read blocked on the reader connection (`<ASYNC>` XREAD/XREADGROUP … BLOCK 0 … key wake …),
   * 1–3 commands that may wake it (XADD, DEL, SET, XGROUP DESTROY/CREATE on its key, or any
   * other), an XADD to the `wake` stream it also waits on, then `<AWAIT>` its reply: which
   * signals re-run it, what the re-run answers (entries, NOGROUP, WRONGTYPE), `$` pinning.
   */
  private blocking(): string[] {
    const key = this.groupKey();
    const g = this.group(key);
    const wake = `${WAKE}${++this.wakeSeq}`;
    let reader: string[];
    if (this.r.chance(0.65)) {
      this.queue.push(['XGROUP', 'CREATE', wake, g, '$', 'MKSTREAM']);
      reader = ['XREADGROUP', 'GROUP', g, this.consumer()];
      if (this.r.chance(0.3)) reader.push(this.tok('COUNT'), String(this.r.int(1, 3)));
      if (this.r.chance(0.1)) reader.push(this.tok('NOACK'));
      const id = this.r.chance(0.9) ? '>' : this.r.pick(['0', this.pendingId(key, g)]);
      reader.push(this.tok('BLOCK'), '0', 'STREAMS', key, wake, id, '>');
    } else {
      reader = ['XREAD'];
      if (this.r.chance(0.3)) reader.push(this.tok('COUNT'), String(this.r.int(1, 3)));
      const id = this.r.pick(['$', '$', '$', '+', this.knownId(key)]);
      reader.push(this.tok('BLOCK'), '0', 'STREAMS', key, wake, id, '$');
    }
    this.queue.push([ASYNC, ...reader]);
    for (let n = this.r.int(1, 3); n > 0; n--) this.queue.push(this.waker(key, g));
    this.queue.push(['XADD', wake, '1-1', 'f', 'v'], [AWAIT]);
    return this.queue.shift() as string[];
  }

  /** A command likely to signal `key` (or any command). */
  private waker(key: string, g: string): string[] {
    switch (this.r.weighted({ XADD: 4, DEL: 1, SET: 0.5, DESTROY: 1, CREATE: 1, MKSTREAM: 0.5, OTHER: 3 })) {
      case 'XADD':
        return this.xadd(key);
      case 'DEL':
        return ['DEL', key];
      case 'SET':
        return ['SET', key, 'str'];
      case 'DESTROY':
        return ['XGROUP', 'DESTROY', key, g];
      case 'CREATE':
        return ['XGROUP', 'CREATE', key, g, '$'];
      case 'MKSTREAM':
        return ['XGROUP', 'CREATE', key, this.newGroup(key), '$', 'MKSTREAM'];
      default:
        return this.one();
    }
  }

  /** Lua bodies that run their ARGV as one command and return what it returns. */
  static readonly SCRIPTS = ['return redis.pcall(unpack(ARGV))', 'return redis.call(unpack(ARGV))'] as const;

  /**
   * `EVAL <script> 0 <command>`: a stream command run from a script (reply conversion, error
   * texts raised from a script, frozen time, BLOCK from scripts: nil on 7.4+, an error before).
   */
  private script(): string[] {
    return ['EVAL', this.r.pick(Generator.SCRIPTS), '0', ...this.one(true)];
  }

  /** One plain command; `block`: where it cannot block (MULTI, script), so reads may carry BLOCK. */
  private one(block = false): string[] {
    const family = this.r.weighted({
      XADD: this.long ? 150 : 22,
      XDEL: 5,
      XTRIM: this.long ? 1.5 : 4,
      XLEN: 2,
      XRANGE: 5,
      XREVRANGE: 4,
      XGROUP: 9,
      XREADGROUP: 13,
      XREAD: 4,
      XACK: 6,
      XPENDING: 6,
      XCLAIM: 6,
      XAUTOCLAIM: 5,
      XSETID: 2.5,
      XINFO: 7,
      KEYSPACE: this.long ? 0.15 : 4,
    });
    switch (family) {
      case 'XADD':
        return this.xadd();
      case 'XDEL':
        return this.xdel();
      case 'XTRIM':
        return this.xtrim();
      case 'XLEN':
        return this.xlen();
      case 'XRANGE':
      case 'XREVRANGE':
        return this.xrange(family);
      case 'XGROUP':
        return this.xgroup();
      case 'XREADGROUP':
        return this.xreadgroup(block);
      case 'XREAD':
        return this.xread(block);
      case 'XACK':
        return this.xack();
      case 'XPENDING':
        return this.xpending();
      case 'XCLAIM':
        return this.xclaim();
      case 'XAUTOCLAIM':
        return this.xautoclaim();
      case 'XSETID':
        return this.xsetid();
      case 'XINFO':
        return this.xinfo();
      default:
        return this.keyspace();
    }
  }

  /** Commands queued since MULTI (undefined outside a transaction). */
  private multi: string[][] | undefined;

  /** Learns from an (agreed, normalised) outcome. Never sees a clock value or a `*` ID. */
  observe(argv: string[], o: Outcome): void {
    const cmd = upper(argv[0]);
    if (cmd === 'MULTI') {
      this.multi = o.ok ? [] : this.multi;
      return;
    }
    if (this.multi) {
      if (cmd === 'EXEC' || cmd === 'DISCARD') {
        const commands = this.multi;
        this.multi = undefined;
        if (cmd === 'EXEC' && o.ok && Array.isArray(o.value)) {
          o.value.forEach((v, i) => {
            if (commands[i]) this.observe(commands[i], v instanceof Error ? { ok: false, error: v.message } : { ok: true, value: v });
          });
        }
      } else if (o.ok && o.value === 'QUEUED') this.multi.push(argv);
      return;
    }
    if (cmd === 'EVAL') {
      this.observe(argv.slice(3), o);
      return;
    }
    if (!o.ok) {
      // A NOGROUP from a one-key command: the group is gone.
      if (o.error.startsWith('NOGROUP') && cmd !== 'XREADGROUP') {
        const [key, g] = cmd === 'XGROUP' || cmd === 'XINFO' ? [argv[2], argv[3]] : [argv[1], argv[2]];
        this.shadow.get(key)?.groups.delete(g);
      }
      return;
    }
    const v = o.value;
    if (cmd === 'DEL' || cmd === 'SET') {
      for (const k of argv.slice(1, cmd === 'SET' ? 2 : undefined)) {
        const d = this.shadow.get(k);
        if (d) this.shadow.set(k, { ...newShadow(), top: d.top, poisoned: cmd === 'SET' });
      }
      return;
    }
    if (cmd === 'XREADGROUP') {
      const g = argv[2];
      const noack = argv.some((a) => upper(a) === 'NOACK');
      if (noack || !Array.isArray(v)) return;
      for (const pair of v) {
        if (!Array.isArray(pair) || typeof pair[0] !== 'string') continue;
        const pending = this.shadow.get(pair[0])?.groups.get(g)?.pending;
        if (pending) for (const id of entryIds(pair[1])) pushCapped(pending, id);
      }
      return;
    }
    const s = this.shadow.get(argv[1]);
    const sub = upper(argv[1]);
    if (cmd === 'XGROUP' && (sub === 'CREATE' || sub === 'DESTROY')) {
      const gs = this.shadow.get(argv[2]);
      if (!gs) return;
      if (sub === 'CREATE' && v === 'OK') gs.groups.set(argv[3], { pending: [] });
      if (sub === 'DESTROY' && v === 1) gs.groups.delete(argv[3]);
      return;
    }
    if (!s) return;
    if (cmd === 'XADD' && typeof v === 'string') {
      const id = parseId(v);
      if (!id) {
        s.poisoned = true; // a `*` ID or one near 2^64
        return;
      }
      pushCapped(s.ids, v, this.long ? 1000 : 16);
      if (idGreater(id, s.top)) s.top = id;
    } else if (cmd === 'XSETID' && v === 'OK') {
      const id = parseId(argv[2]);
      if (id && idGreater(id, s.top)) s.top = id;
      if (!id) s.poisoned = true;
    } else if (cmd === 'XDEL' && typeof v === 'number' && v > 0) {
      s.ids = s.ids.filter((id) => !argv.slice(2).includes(id));
    } else if (cmd === 'XACK' && typeof v === 'number' && v > 0) {
      const gs = s.groups.get(argv[2]);
      if (gs) gs.pending = gs.pending.filter((id) => !argv.slice(3).includes(id));
    } else if (cmd === 'XCLAIM' && Array.isArray(v)) {
      const gs = s.groups.get(argv[2]);
      if (gs) for (const id of entryIds(v)) pushCapped(gs.pending, id);
    } else if (cmd === 'XAUTOCLAIM' && Array.isArray(v)) {
      const gs = s.groups.get(argv[2]);
      if (!gs) return;
      if (typeof v[0] === 'string' && parseId(v[0])) gs.cursor = v[0];
      for (const id of entryIds(v[1])) pushCapped(gs.pending, id);
      const gone = entryIds(v[2]);
      gs.pending = gs.pending.filter((id) => !gone.includes(id));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Running, replaying, shrinking, reporting

export interface StepRecord {
  argv: string[];
  real: Outcome;
  fake: Outcome;
}

export interface RunResult {
  records: StepRecord[];
  /** Index of the first step whose replies differ, or null. */
  mismatchAt: number | null;
}

const same = (a: Outcome, b: Outcome) => showOutcome(a) === showOutcome(b);

/** Pseudo-commands of a step list: start the rest of the argv on the reader connection; its reply. */
export const ASYNC = '<ASYNC>';
export const AWAIT = '<AWAIT>';

/**
 * Runs `next()`'s commands on both sides (after emptying them) until a mismatch or `steps`.
 * `[ASYNC, …command]` starts a (blocking) read on the reader connection, `[AWAIT]` compares its reply.
 */
async function drive(
  real: Side,
  fake: Side,
  steps: number,
  next: (i: number) => string[],
  observe: (argv: string[], o: Outcome) => void = () => undefined,
): Promise<RunResult> {
  await Promise.all([real.reset(), fake.reset()]);
  const opts = { staleXaddErrno: fake instanceof FakeSide && fake.redisVersion === '7.0' };
  const nr = new Normaliser(opts);
  const nf = new Normaliser(opts);
  const records: StepRecord[] = [];
  let readerArgv: string[] | undefined;
  for (let i = 0; i < steps; i++) {
    const argv = next(i);
    let r: Outcome;
    let f: Outcome;
    let command = argv;
    if (argv[0] === ASYNC) {
      // Started on the reader connection: was it blocked, or did it answer at once?
      readerArgv = argv.slice(1);
      r = { ok: true, value: `<${await real.start(readerArgv)}>` };
      f = { ok: true, value: `<${await fake.start(readerArgv)}>` };
    } else if (argv[0] === AWAIT) {
      if (!readerArgv) throw new Error(`${AWAIT} without ${ASYNC}`);
      command = readerArgv;
      readerArgv = undefined;
      r = nr.apply(command, await real.finish());
      f = nf.apply(command, await fake.finish());
    } else {
      r = nr.apply(argv, await real.call(argv));
      f = nf.apply(argv, await fake.call(argv));
    }
    records.push({ argv, real: r, fake: f });
    if (!same(r, f)) return { records, mismatchAt: i };
    if (argv[0] !== ASYNC) observe(command, r);
  }
  return { records, mismatchAt: null };
}

/**
 * Commands that read back the whole state at the end of a run, so a difference no random read
 * happened to see still shows: per key its type, every entry, group, PEL entry and consumer.
 */
export const AUDIT: readonly string[][] = KEYS.flatMap((k) => [
  ['TYPE', k],
  ['XINFO', 'STREAM', k, 'FULL', 'COUNT', '0'],
  ['XINFO', 'GROUPS', k],
  ...GROUPS.map((g) => ['XINFO', 'CONSUMERS', k, g]),
]);

/** A random run of `steps` commands from `seed`, then the AUDIT commands. */
export function runSeed(seed: number, steps: number, real: Side, fake: Side, profile: GeneratorProfile = 'default'): Promise<RunResult> {
  const gen = new Generator(seed, profile);
  return drive(
    real,
    fake,
    steps + AUDIT.length,
    (i) => (i < steps ? gen.next() : [...AUDIT[i - steps]]),
    (argv, o) => gen.observe(argv, o),
  );
}

/** Replays a fixed command list. */
export function replay(argvs: string[][], real: Side, fake: Side): Promise<RunResult> {
  return drive(real, fake, argvs.length, (i) => argvs[i]);
}

/**
 * Groups steps into units the shrinker keeps or drops whole: a MULTI with its queued commands
 * and its EXEC/DISCARD, an ASYNC read with the steps up to its AWAIT, or a single step.
 */
function units(argvs: string[][]): string[][][] {
  const out: string[][][] = [];
  let open: string[][] | undefined;
  let closers: string[] = [];
  for (const argv of argvs) {
    const cmd = upper(argv[0]);
    if (open) {
      open.push(argv);
      if (closers.includes(cmd)) open = undefined;
    } else if (cmd === 'MULTI' || cmd === ASYNC) {
      closers = cmd === 'MULTI' ? ['EXEC', 'DISCARD'] : [AWAIT];
      open = [argv];
      out.push(open);
    } else out.push([argv]);
  }
  return out;
}

/**
 * Cuts the commands before the failing one down while the replay still fails first at the
 * (kept) failing command: removes chunks of 32, 8, 2, then single units (a whole MULTI … EXEC
 * or ASYNC … AWAIT block is one unit; a failing step inside a block keeps the block's start), from the end
 * backwards. Stops refining when `budgetMs` is spent.
 */
export async function shrink(argvs: string[][], failing: number, real: Side, fake: Side, budgetMs: number): Promise<RunResult> {
  const deadline = Date.now() + budgetMs;
  // The failing step and, if it is inside a MULTI block, the block's earlier steps stay.
  let tailStart = failing;
  const blocks = units(argvs.slice(0, failing + 1));
  const lastUnit = blocks[blocks.length - 1];
  if (lastUnit.length > 1) tailStart = failing + 1 - lastUnit.length;
  const tail = argvs.slice(tailStart, failing + 1);
  let prefix = units(argvs.slice(0, tailStart));
  const flat = (u: string[][][]) => u.flat();
  const failsLast = async (p: string[][][]) => {
    const list = [...flat(p), ...tail];
    return (await replay(list, real, fake)).mismatchAt === list.length - 1;
  };
  for (const chunk of [32, 8, 2, 1, 1]) {
    for (let end = prefix.length; end > 0 && Date.now() < deadline; end -= chunk) {
      const start = Math.max(0, end - chunk);
      const candidate = [...prefix.slice(0, start), ...prefix.slice(end)];
      if (await failsLast(candidate)) prefix = candidate;
    }
  }
  return replay([...flat(prefix), ...tail], real, fake);
}

const quote = (a: string) => (a === '' || /[\s"'\\]/.test(a) ? JSON.stringify(a) : a);
export const formatArgv = (argv: string[]) => argv.map(quote).join(' ');

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);

/** Readable listing of a run: one line per step; the mismatching step shows both replies. */
export function formatRecords(res: RunResult, replyWidth = 160): string {
  return res.records
    .map((rec, i) => {
      const head = `  #${String(i).padStart(3)} ${formatArgv(rec.argv)}`;
      if (i === res.mismatchAt) {
        return `${head}\n        real: ${showOutcome(rec.real)}\n        fake: ${showOutcome(rec.fake)}`;
      }
      return `${head}  →  ${clip(showOutcome(rec.real), replyWidth)}`;
    })
    .join('\n');
}
