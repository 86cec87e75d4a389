/**
 * The configuration of one keyspace (what CONFIG GET/SET read and write), with Redis's value
 * parsing, validation and normalisation (src/config.c, util.c `memtoull`, notify.c). Pure: the
 * command module (lib/commands/config.ts) parses argv and shapes replies; the keyspace owns one
 * instance, shared by every client of it, and `reset()` restores the defaults.
 */
import { NodeLimits, defaultApproxTrimLimit } from '../model/stream-entries';
import type { CollectionLimits } from '../rdb/collections';
import { RedisVersion, versionIndex } from '../version';
import { PARAMS, PARAM_NAMES, ParamDef, ParamName, lookupParam } from './params';

const LLONG_MIN = -9223372036854775808n;
const LLONG_MAX = 9223372036854775807n;

/** util.c `string2ll`: canonical signed 64-bit decimal, else null. */
function string2ll(s: string): bigint | null {
  if (!/^(0|-?[1-9][0-9]*)$/.test(s) || s.length > 20) return null;
  const v = BigInt(s);
  return v < LLONG_MIN || v > LLONG_MAX ? null : v;
}

const MEMORY_UNITS: Record<string, bigint> = {
  '': 1n,
  b: 1n,
  k: 1000n,
  kb: 1024n,
  m: 1000n * 1000n,
  mb: 1024n * 1024n,
  g: 1000n * 1000n * 1000n,
  gb: 1024n * 1024n * 1024n,
};

/** util.c `memtoull`, read back as the `long long` config.c keeps; null on a parse error. */
function memtoll(s: string): bigint | null {
  if (s.startsWith('-')) return null;
  let i = 0;
  while (i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
  const mul = MEMORY_UNITS[s.slice(i).toLowerCase()];
  if (mul === undefined || i >= 128) return null;
  // strtoull: no digits is 0; overflow saturates at ULLONG_MAX (ERANGE is not checked)
  let val = i === 0 ? 0n : BigInt(s.slice(0, i));
  if (val > 18446744073709551615n) val = 18446744073709551615n;
  return BigInt.asIntN(64, val * mul);
}

/** notify.c `keyspaceEventsStringToFlags` → `keyspaceEventsFlagsToString`; null on a bad class. */
export function normaliseNotifyFlags(classes: string): string | null {
  const all = 'g$lshzxetd';
  const set = new Set<string>();
  for (const c of classes) {
    if (c === 'A') for (const a of all) set.add(a);
    else if ('g$lshzxeKEtmdn'.includes(c)) set.add(c);
    else return null;
  }
  let out = '';
  // With every class of A set Redis shows 'A' alone: 'n' (not part of A) is then not shown.
  if ([...all].every((c) => set.has(c))) out += 'A';
  else for (const c of 'g$lshzxetdn') if (set.has(c)) out += c;
  for (const c of 'KEm') if (set.has(c)) out += c;
  return out;
}

/** The error of a failed CONFIG SET (Redis `configSetCommand`). */
export class ConfigSetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigSetError';
  }
}

function configSetFailed(name: string, reason?: string): ConfigSetError {
  return new ConfigSetError(
    reason === undefined
      ? `ERR CONFIG SET failed (possibly related to argument '${name}')`
      : `ERR CONFIG SET failed (possibly related to argument '${name}') - ${reason}`,
  );
}

/** Redis `stringmatchlen` with nocase: `*`, `?`, `[...]` (with `^` and ranges) and `\` escapes. */
export function globMatch(pattern: string, str: string): boolean {
  const p = pattern.toLowerCase();
  const s = str.toLowerCase();
  const match = (pi: number, si: number): boolean => {
    while (pi < p.length) {
      const c = p[pi];
      if (c === '*') {
        while (p[pi + 1] === '*') pi++;
        if (pi + 1 === p.length) return true;
        for (let k = si; k <= s.length; k++) if (match(pi + 1, k)) return true;
        return false;
      }
      if (si >= s.length) return false;
      if (c === '?') {
        pi++;
        si++;
        continue;
      }
      if (c === '[') {
        let q = pi + 1;
        const not = p[q] === '^';
        if (not) q++;
        let matched = false;
        for (;;) {
          if (q >= p.length) {
            q--; // Redis: a missing ']' ends the class at the pattern end
            break;
          }
          if (p[q] === '\\' && q + 2 <= p.length) {
            q++;
            if (p[q] === s[si]) matched = true;
          } else if (p[q] === ']') {
            break;
          } else if (p[q + 1] === '-' && q + 2 < p.length) {
            let lo = p.charCodeAt(q);
            let hi = p.charCodeAt(q + 2);
            if (lo > hi) [lo, hi] = [hi, lo];
            const x = s.charCodeAt(si);
            if (x >= lo && x <= hi) matched = true;
            q += 2;
          } else if (p[q] === s[si]) {
            matched = true;
          }
          q++;
        }
        if (not) matched = !matched;
        if (!matched) return false;
        pi = q + 1;
        si++;
        continue;
      }
      if (c === '\\' && pi + 1 < p.length) {
        pi++;
      }
      if (p[pi] !== s[si]) return false;
      pi++;
      si++;
    }
    return si === s.length;
  };
  return match(0, 0);
}

/**
 * How keys record their accesses (object.c / evict.c): `lfu` while `maxmemory-policy` is an LFU
 * policy (each key then keeps an LFU counter and its last decrement minute instead of its last
 * access time), with `lfu-log-factor` and `lfu-decay-time`. Shared by reference with every key
 * store of the server (as `nodeLimits`); read on every key access.
 */
export interface AccessPolicy {
  lfu: boolean;
  logFactor: number;
  decayTime: number;
}

export class ServerConfig {
  /** Current values by parameter name (CONFIG GET text). */
  private readonly values = new Map<string, string>();
  /** LRU / LFU bookkeeping of key accesses (see AccessPolicy). */
  readonly access: AccessPolicy = { lfu: false, logFactor: 10, decayTime: 1 };
  /** `maxmemory` in bytes as a number (0: no limit), read before every command. */
  maxmemory = 0;
  /**
   * server.c checkGoodReplicasStatus fails: `min-replicas-to-write` and `min-replicas-max-lag`
   * are both set, and the fake has no replica. Write commands then answer NOREPLICAS.
   */
  replicasLacking = false;
  /** `slowlog-log-slower-than` (µs) and `slowlog-max-len`, read after every command. */
  slowlogSlowerThan = 10000;
  slowlogMaxLen = 128;
  /** Called after CONFIG SET stored new values (the server evicts when `maxmemory` was set). */
  afterSet: ((names: ReadonlySet<string>) => void) | null = null;
  /** The stream node limits, shared by reference with every stream of the keyspace. */
  readonly nodeLimits: NodeLimits = { maxEntries: 100, maxBytes: 4096, approxTrimLimit: 10_000 };
  private streamNodeMaxEntriesValue = 100n;
  private rdbCompressionValue = true;
  private listMaxListpackSizeValue = -2;
  /** True once CONFIG SET has set `notify-keyspace-events` (since the last reset). */
  private notifySet = false;

  constructor() {
    this.reset();
  }

  /** Called after CONFIG SET with each parameter set (name, normalised value), and after reset() (name null). */
  readonly listeners = new Set<(name: string | null, value: string) => void>();

  /** Back to the compiled-in defaults. */
  reset(): void {
    for (const def of PARAMS) this.values.set(def.name, def.default);
    this.notifySet = false;
    this.applyHonoured();
    if (this.listeners) for (const l of this.listeners) l(null, '');
  }

  /**
   * `notify-keyspace-events` (normalised, e.g. `AKE`) once CONFIG SET has set it, for every
   * connection of the server; undefined while it has not (then each connection's own
   * `notifyKeyspaceEvents` option decides, as ioredis-mock's per-client option did).
   */
  get notifyKeyspaceEvents(): string | undefined {
    return this.notifySet ? this.values.get('notify-keyspace-events') : undefined;
  }

  /** `stream-node-max-entries` as Redis's long long. */
  get streamNodeMaxEntries(): bigint {
    return this.streamNodeMaxEntriesValue;
  }

  /** `rdbcompression`. */
  get rdbCompression(): boolean {
    return this.rdbCompressionValue;
  }

  /**
   * `list-max-listpack-size` (alias `list-max-ziplist-size`), the quicklist `fill` every list
   * push and pop reads (kept as a number: read per command).
   */
  get listMaxListpackSize(): number {
    return this.listMaxListpackSizeValue;
  }

  /** The limits that decide list, set, sorted-set and hash encodings (DUMP). */
  get collectionLimits(): CollectionLimits {
    const n = (name: string) => Number(this.values.get(name));
    return {
      listMaxListpackSize: n('list-max-listpack-size'),
      hashMaxListpackEntries: n('hash-max-listpack-entries'),
      hashMaxListpackValue: n('hash-max-listpack-value'),
      setMaxIntsetEntries: n('set-max-intset-entries'),
      setMaxListpackEntries: n('set-max-listpack-entries'),
      setMaxListpackValue: n('set-max-listpack-value'),
      zsetMaxListpackEntries: n('zset-max-listpack-entries'),
      zsetMaxListpackValue: n('zset-max-listpack-value'),
    };
  }

  /**
   * Values the server keeps elsewhere, read when CONFIG GET asks (`replicaof`: the master set by
   * REPLICAOF), by canonical name.
   */
  readonly computed = new Map<string, () => string>();

  private valueOf(name: string): string {
    const read = this.computed.get(name);
    return read !== undefined ? read() : (this.values.get(name) as string);
  }

  /** The value of a parameter (canonical name), as CONFIG GET shows it. */
  get(name: string): string | undefined {
    return this.values.get(name);
  }

  private applyHonoured(): void {
    const entries = BigInt(this.values.get('stream-node-max-entries') ?? '100');
    this.streamNodeMaxEntriesValue = entries;
    this.nodeLimits.maxEntries = Number(entries);
    this.nodeLimits.approxTrimLimit = defaultApproxTrimLimit(entries);
    this.nodeLimits.maxBytes = Number(BigInt(this.values.get('stream-node-max-bytes') ?? '4096'));
    this.rdbCompressionValue = this.values.get('rdbcompression') !== 'no';
    this.listMaxListpackSizeValue = Number(this.values.get('list-max-listpack-size') ?? '-2');
    this.maxmemory = Number(this.values.get('maxmemory') ?? '0');
    this.slowlogSlowerThan = Number(this.values.get('slowlog-log-slower-than') ?? '10000');
    this.slowlogMaxLen = Number(this.values.get('slowlog-max-len') ?? '128');
    this.replicasLacking = this.values.get('min-replicas-to-write') !== '0' && this.values.get('min-replicas-max-lag') !== '0';
    this.access.lfu = (this.values.get('maxmemory-policy') ?? '').endsWith('-lfu');
    this.access.logFactor = Number(this.values.get('lfu-log-factor') ?? '10');
    this.access.decayTime = Number(this.values.get('lfu-decay-time') ?? '1');
  }

  /** Known names in this version. */
  private static available(n: ParamName, version: RedisVersion): boolean {
    return !n.def.since || versionIndex(version) >= versionIndex(n.def.since);
  }

  /**
   * CONFIG GET: `[name, value]` pairs for the given names/patterns. Exact names answer with the
   * name as given; patterns (with `*`, `?` or `[`) match every parameter and alias, case-insensitive.
   * A name is answered once (case-insensitive). Redis answers in hash-table order; the fake in
   * argument order, then table order.
   */
  getMatching(patterns: readonly string[], version: RedisVersion): [string, string][] {
    const out: [string, string][] = [];
    const seen = new Set<string>();
    for (const pattern of patterns) {
      if (!/[[*?]/.test(pattern)) {
        if (seen.has(pattern.toLowerCase())) continue;
        const n = lookupParam(pattern);
        if (n && ServerConfig.available(n, version)) {
          seen.add(pattern.toLowerCase());
          out.push([pattern, this.valueOf(n.def.name)]);
        }
        continue;
      }
      for (const n of PARAM_NAMES) {
        if (!ServerConfig.available(n, version) || seen.has(n.name) || n.def.hidden) continue;
        if (globMatch(pattern, n.name)) {
          seen.add(n.name);
          out.push([n.name, this.valueOf(n.def.name)]);
        }
      }
    }
    return out;
  }

  /**
   * CONFIG SET name value [name value ...], atomically: every name is looked up, then every
   * value parsed and validated, and only then are all stored. Errors as Redis words them.
   * @throws ConfigSetError
   */
  set(pairs: readonly [string, string][], version: RedisVersion): void {
    let unknown: string | undefined;
    let invalid = false;
    let error: ConfigSetError | undefined;
    const found: ParamName[] = [];
    for (const [name] of pairs) {
      const n = lookupParam(name);
      if (!n || !ServerConfig.available(n, version)) {
        if (!invalid) {
          unknown = name;
          invalid = true;
        }
        continue;
      }
      if (invalid) continue;
      if (n.def.immutable || n.def.protected) {
        error = configSetFailed(name, n.def.immutable ? "can't set immutable config" : "can't set protected config");
        invalid = true;
        continue;
      }
      if (found.some((f) => f.name === n.name)) {
        error = configSetFailed(name, 'duplicate parameter');
        invalid = true;
      }
      found.push(n);
    }
    if (unknown !== undefined) throw new ConfigSetError(`ERR Unknown option or number of arguments for CONFIG SET - '${unknown}'`);
    if (error) throw error;
    const staged = new Map<string, string>();
    pairs.forEach(([, value], i) => {
      const n = found[i];
      const normalised = ServerConfig.parseValue(n.def, value, version);
      if (typeof normalised !== 'string') throw configSetFailed(n.name, normalised.error);
      staged.set(n.def.name, normalised);
    });
    for (const [name, value] of staged) this.values.set(name, value);
    if (staged.has('notify-keyspace-events')) this.notifySet = true;
    this.applyHonoured();
    for (const l of this.listeners) for (const [name, value] of staged) l(name, value);
    this.afterSet?.(new Set(staged.keys()));
  }

  /** The normalised value, or the reason Redis gives for rejecting it. */
  private static parseValue(def: ParamDef, value: string, version: RedisVersion): string | { error: string } {
    const t = def.type;
    switch (t.kind) {
      case 'bool': {
        const v = value.toLowerCase();
        if (v === 'yes' || v === 'no') return v;
        return { error: "argument must be 'yes' or 'no'" };
      }
      case 'enum': {
        const allowed = t.values.filter((v) => {
          const since = t.valuesSince?.[v];
          return !since || versionIndex(version) >= versionIndex(since);
        });
        const v = allowed.find((a) => a === value.toLowerCase());
        if (v !== undefined) return v;
        return { error: `argument(s) must be one of the following: ${allowed.join(', ')}` };
      }
      case 'int': {
        let ll = t.memory ? memtoll(value) : string2ll(value);
        if (ll === null && t.percent && value.length > 1 && value.endsWith('%')) {
          const pct = string2ll(value.slice(0, -1));
          if (pct !== null && pct >= 0n) ll = -pct;
        }
        if (ll === null) {
          if (t.percent) return { error: 'argument must be a memory or percent value' };
          return { error: t.memory ? 'argument must be a memory value' : "argument couldn't be parsed into an integer" };
        }
        if (t.percent && ll < 0n) {
          if (ll < t.min) return { error: `percentage argument must be less or equal to ${-t.min}` };
          return `${-ll}%`;
        }
        if (t.unsigned) {
          const ull = BigInt.asUintN(64, ll);
          if (ull > t.max || ull < t.min) return { error: `argument must be between ${t.min} and ${t.max} inclusive` };
        } else if (ll > t.max || ll < t.min) {
          return { error: `argument must be between ${t.min} and ${t.max} inclusive` };
        }
        let v = ll;
        if (t.clamp) v = v < t.clamp[0] ? t.clamp[0] : v > t.clamp[1] ? t.clamp[1] : v;
        return t.memory || t.unsigned ? BigInt.asUintN(64, v).toString() : v.toString();
      }
      case 'save':
        return parseSave(value);
      case 'notify': {
        const flags = normaliseNotifyFlags(value);
        return flags ?? { error: "Invalid event class character. Use 'Ag$lshzxeKEtmdn'." };
      }
      case 'string':
        return value;
    }
  }
}

/** C `strtoll` with a full-string check: optional spaces, sign, digits; clamps on overflow. */
function strtollStrict(s: string): bigint | null {
  const m = /^[ \t\n\v\f\r]*([+-]?)([0-9]+)$/.exec(s);
  if (!m) return s === '' ? 0n : null;
  let v = BigInt(m[2]);
  if (m[1] === '-') v = -v;
  if (v > LLONG_MAX) v = LLONG_MAX;
  if (v < LLONG_MIN) v = LLONG_MIN;
  return v;
}

/** config.c `setConfigSaveOption` + `getConfigSaveOption`: "seconds changes ..." pairs. */
function parseSave(value: string): string | { error: string } {
  const invalid = { error: 'Invalid save parameters' };
  const args = value === '' ? [] : value.split(' ');
  if (args.length & 1) return invalid;
  const nums: bigint[] = [];
  for (let j = 0; j < args.length; j++) {
    const v = strtollStrict(args[j]);
    if (v === null || ((j & 1) === 0 && v < 1n) || ((j & 1) === 1 && v < 0n)) return invalid;
    nums.push(v);
  }
  const parts: string[] = [];
  for (let j = 0; j < nums.length; j += 2) parts.push(`${nums[j]} ${BigInt.asIntN(32, nums[j + 1])}`);
  return parts.join(' ');
}
