/**
 * The configuration of one keyspace (what CONFIG GET/SET read and write), with Redis's value
 * parsing, validation and normalisation (src/config.c, util.c `memtoull`, notify.c). Pure: the
 * command module (lib/commands/config.ts) parses argv and shapes replies; the keyspace owns one
 * instance, shared by every client of it, and `reset()` restores the defaults.
 */
import { NodeLimits, defaultApproxTrimLimit } from '../model/stream-entries';
import { DEFAULT_COLLECTION_LIMITS, type CollectionLimits } from '../rdb/collection-limits';
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

/** The configuration at one moment (ServerConfig.snapshot): restored by ServerConfig.restore. */
export interface ConfigSnapshot {
  readonly values: ReadonlyMap<string, string>;
  readonly notifySet: boolean;
  readonly notifyEffective: string;
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
  /** `latency-monitor-threshold` (ms; 0: the latency monitor is off), read after every command. */
  latencyMonitorThreshold = 0;
  /** Called after CONFIG SET stored new values (the server evicts when `maxmemory` was set). */
  afterSet: ((names: ReadonlySet<string>) => void) | null = null;
  /** The stream node limits, shared by reference with every stream of the keyspace. */
  readonly nodeLimits: NodeLimits = { maxEntries: 100, maxBytes: 4096, approxTrimLimit: 10_000 };
  private streamNodeMaxEntriesValue = 100n;
  private rdbCompressionValue = true;
  private listMaxListpackSizeValue = -2;
  /** True once CONFIG SET has set `notify-keyspace-events` (since the last reset). */
  private notifySet = false;
  /**
   * The classes in force: CONFIG GET's value, plus `n` when it was set along with `A` (notify.c
   * keeps NOTIFY_NEW in the flags but keyspaceEventsFlagsToString does not show it next to `A`).
   */
  private notifyEffective = '';

  /**
   * Bumped by every change of the values (CONFIG SET, reset, restore, a server default): a
   * snapshot taken at one count still describes the configuration while the count is the same.
   */
  changes = 0;

  /** Defaults of this server that differ from the table's (`port`: the server's port). */
  private readonly serverDefaults = new Map<string, string>();

  constructor() {
    // config.c getConfigDirOption: the working directory (protected: CONFIG SET cannot change it)
    this.computed.set('dir', () => process.cwd());
    this.reset();
  }

  /**
   * A default of this server (kept by reset()): the owner sets `port` to the port the server
   * answers on (a real server's port). Sets the current value too.
   */
  setServerDefault(name: string, value: string): void {
    this.serverDefaults.set(name, value);
    this.values.set(name, value);
    this.changes++;
    this.computeCollectionLimits();
  }

  /** Called after CONFIG SET with each parameter set (name, normalised value), and after reset() (name null). */
  readonly listeners = new Set<(name: string | null, value: string) => void>();

  /** Back to the compiled-in defaults. */
  reset(): void {
    for (const def of PARAMS) this.values.set(def.name, this.serverDefaults?.get(def.name) ?? def.default);
    this.notifySet = false;
    this.changes++;
    this.applyHonoured();
    if (this.listeners) for (const l of this.listeners) l(null, '');
  }

  /** A copy of the values (for `restore`): what CONFIG GET answers now. */
  snapshot(): ConfigSnapshot {
    return { values: new Map(this.values), notifySet: this.notifySet, notifyEffective: this.notifyEffective };
  }

  /**
   * Back to the values of `snapshot`, as CONFIG SET of each parameter that differs would set them
   * (the honoured values recomputed, the listeners told of each one, `afterSet` called): the
   * per-test reset of the test-runner entries gives back what the configuration was when a test
   * started. Nothing happens when no value differs.
   */
  restore(snapshot: ConfigSnapshot): void {
    const changed = new Map<string, string>();
    for (const [name, value] of snapshot.values) if (this.values.get(name) !== value) changed.set(name, value);
    if (this.notifySet !== snapshot.notifySet || this.notifyEffective !== snapshot.notifyEffective) {
      changed.set('notify-keyspace-events', snapshot.values.get('notify-keyspace-events') ?? '');
    }
    if (changed.size === 0) return;
    for (const [name, value] of changed) this.values.set(name, value);
    this.notifySet = snapshot.notifySet;
    this.notifyEffective = snapshot.notifyEffective;
    this.changes++;
    this.applyHonoured();
    for (const l of this.listeners) for (const [name, value] of changed) l(name, value);
    this.afterSet?.(new Set(changed.keys()));
  }

  /**
   * `notify-keyspace-events` (normalised, e.g. `AKE`) once CONFIG SET has set it, for every
   * connection of the server; undefined while it has not (then each connection's own
   * `notifyKeyspaceEvents` option decides, as ioredis-mock's per-client option did).
   */
  get notifyKeyspaceEvents(): string | undefined {
    return this.notifySet ? this.notifyEffective : undefined;
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

  /**
   * The limits that decide list, set, sorted-set and hash encodings (DUMP), read by every write of
   * a collection: computed when a parameter changes (reset, CONFIG SET, a server default), frozen.
   */
  get collectionLimits(): CollectionLimits {
    return this.collectionLimitsValue;
  }

  private collectionLimitsValue: CollectionLimits = DEFAULT_COLLECTION_LIMITS;

  private computeCollectionLimits(): void {
    const n = (name: string) => Number(this.values.get(name));
    this.collectionLimitsValue = Object.freeze({
      listMaxListpackSize: n('list-max-listpack-size'),
      hashMaxListpackEntries: n('hash-max-listpack-entries'),
      hashMaxListpackValue: n('hash-max-listpack-value'),
      setMaxIntsetEntries: n('set-max-intset-entries'),
      setMaxListpackEntries: n('set-max-listpack-entries'),
      setMaxListpackValue: n('set-max-listpack-value'),
      zsetMaxListpackEntries: n('zset-max-listpack-entries'),
      zsetMaxListpackValue: n('zset-max-listpack-value'),
    });
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
    this.computeCollectionLimits();
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
    this.latencyMonitorThreshold = Number(this.values.get('latency-monitor-threshold') ?? '0');
    this.replicasLacking = this.values.get('min-replicas-to-write') !== '0' && this.values.get('min-replicas-max-lag') !== '0';
    this.access.lfu = (this.values.get('maxmemory-policy') ?? '').endsWith('-lfu');
    this.access.logFactor = Number(this.values.get('lfu-log-factor') ?? '10');
    this.access.decayTime = Number(this.values.get('lfu-decay-time') ?? '1');
  }

  /** Known names in this version. */
  private static available(n: ParamName, version: RedisVersion): boolean {
    if (n.def.nameSince && n.name === n.def.name && versionIndex(version) < versionIndex(n.def.nameSince)) return false;
    return !n.def.since || versionIndex(version) >= versionIndex(n.def.since);
  }

  private static hidden(def: ParamDef, version: RedisVersion): boolean {
    return def.hidden === true || (def.hiddenSince !== undefined && versionIndex(version) >= versionIndex(def.hiddenSince));
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
        if (!ServerConfig.available(n, version) || seen.has(n.name) || ServerConfig.hidden(n.def, version)) continue;
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
   * `startup`: the server's start-up configuration (redis-server's config file and `--name value`
   * arguments), where immutable and protected parameters are set too.
   * @throws ConfigSetError
   */
  set(pairs: readonly [string, string][], version: RedisVersion, startup = false): void {
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
      if ((n.def.immutable || n.def.protected) && !startup) {
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
    // %s: the name up to a NUL byte
    if (unknown !== undefined) throw new ConfigSetError(`ERR Unknown option or number of arguments for CONFIG SET - '${unknown.split('\0')[0]}'`);
    if (error) throw error;
    const staged = new Map<string, string>();
    pairs.forEach(([, value], i) => {
      const n = found[i];
      const normalised = ServerConfig.parseValue(n.def, value, version, staged.get(n.def.name) ?? this.values.get(n.def.name) ?? n.def.default);
      if (typeof normalised !== 'string') throw configSetFailed(n.name, normalised.error);
      staged.set(n.def.name, normalised);
    });
    for (const [name, value] of staged) this.values.set(name, value);
    this.changes++;
    const notify = staged.get('notify-keyspace-events');
    if (notify !== undefined) {
      this.notifySet = true;
      const raw = pairs.find(([name]) => lookupParam(name)?.def.name === 'notify-keyspace-events')?.[1] ?? '';
      this.notifyEffective = notify.startsWith('A') && raw.includes('n') ? `n${notify}` : notify;
    }
    this.applyHonoured();
    for (const l of this.listeners) for (const [name, value] of staged) l(name, value);
    this.afterSet?.(new Set(staged.keys()));
  }

  /** The normalised value, or the reason Redis gives for rejecting it. */
  private static parseValue(def: ParamDef, value: string, version: RedisVersion, current: string): string | { error: string } {
    const t = def.type;
    switch (t.kind) {
      case 'bool': {
        const v = value.toLowerCase();
        if (v === 'yes' && t.refuseYes !== undefined) return { error: t.refuseYes };
        if (v === 'yes' || v === 'no') return v;
        return { error: "argument must be 'yes' or 'no'" };
      }
      case 'enum': {
        const allowed = t.values.filter((v) => {
          const since = t.valuesSince?.[v];
          return !since || versionIndex(version) >= versionIndex(since);
        });
        const v = allowed.find((a) => a === value.toLowerCase());
        if (v !== undefined) return t.synonyms?.[v] ?? v;
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
        return checkString(t.check, value);
      case 'special': {
        // performInterfaceSet: sdssplitlen on single spaces ("" is no argument)
        const args = value === '' ? [] : value.split(' ');
        switch (t.format) {
          case 'obuf':
            return parseObufLimits(args, current);
          case 'oom-values':
            return parseOomValues(args);
          case 'percentiles':
            return parsePercentiles(args);
          case 'shutdown':
            return parseShutdownFlags(args);
        }
      }
    }
  }
}

/** The checks config.c runs on some string parameters (isValidAnnouncedHostname, ...). */
function checkString(check: 'hostname' | 'nodename' | 'locale' | 'proctitle' | undefined, value: string): string | { error: string } {
  switch (check) {
    case undefined:
      return value;
    case 'hostname':
      if (Buffer.byteLength(value, 'latin1') >= 256) return { error: 'Hostnames must be less than 256 characters' };
      if (!/^[A-Za-z0-9.-]*$/.test(value)) return { error: 'Hostnames may only contain alphanumeric characters, hyphens or dots' };
      return value;
    case 'nodename':
      // cluster.c isValidAuxChar
      if (/[!#$%&()*+:;<>?@[\]^{|}~]/.test(value)) return { error: 'Announced human node name contained invalid character' };
      return value;
    case 'locale':
      // setlocale(LC_COLLATE, value): the fake knows the locales every C library has
      if (!['', 'C', 'POSIX', 'C.UTF-8', 'C.utf8'].includes(value)) return { error: 'Invalid locale name' };
      return value;
    case 'proctitle':
      return validProcTitleTemplate(value) ? value : { error: 'template format is invalid or contains unknown variables' };
  }
}

/** server.c validateProcTitleTemplate: sds.c sdstemplate with the known variables, then non-blank. */
function validProcTitleTemplate(template: string): boolean {
  const vars: Record<string, string> = {
    title: '',
    'listen-addr': '*:6379',
    'server-mode': '',
    'config-file': '',
    port: '6379',
    'tls-port': '0',
    unixsocket: '',
  };
  let out = '';
  let p = 0;
  while (p < template.length) {
    const sv = template.indexOf('{', p);
    if (sv < 0) {
      out += template.slice(p);
      break;
    }
    out += template.slice(p, sv);
    if (sv + 1 >= template.length) return false;
    if (template[sv + 1] === '{') {
      out += '{';
      p = sv + 2;
      continue;
    }
    const ev = template.indexOf('}', sv + 1);
    if (ev < 0) return false;
    const v = vars[template.slice(sv + 1, ev)];
    if (v === undefined) return false;
    out += v;
    p = ev + 1;
  }
  return out.replace(/^ +| +$/g, '') !== '';
}

const OBUF_CLASSES = ['normal', 'slave', 'pubsub'] as const;

/** config.c updateClientOutputBufferLimit + getConfigClientOutputBufferLimitOption. */
function parseObufLimits(args: readonly string[], current: string): string | { error: string } {
  if (args.length % 4) return { error: 'Wrong number of arguments in buffer limit configuration.' };
  const limits = new Map<string, string>();
  const cur = current.split(' ');
  for (let j = 0; j + 3 < cur.length; j += 4) limits.set(cur[j], `${cur[j + 1]} ${cur[j + 2]} ${cur[j + 3]}`);
  const staged = new Map<string, string>();
  for (let j = 0; j < args.length; j += 4) {
    const name = args[j].toLowerCase();
    const cls = name === 'replica' ? 'slave' : name;
    if (!(OBUF_CLASSES as readonly string[]).includes(cls)) return { error: 'Invalid client class specified in buffer limit configuration.' };
    const hard = memtoll(args[j + 1]);
    const soft = memtoll(args[j + 2]);
    const secs = strtollStrict(args[j + 3]);
    const seconds = secs === null ? null : BigInt.asIntN(32, secs);
    if (hard === null || soft === null || seconds === null || seconds < 0n) {
      return { error: 'Error in hard, soft or soft_seconds setting in buffer limit configuration.' };
    }
    staged.set(cls, `${BigInt.asUintN(64, hard)} ${BigInt.asUintN(64, soft)} ${seconds}`);
  }
  for (const [cls, v] of staged) limits.set(cls, v);
  return OBUF_CLASSES.map((c) => `${c} ${limits.get(c) ?? '0 0 0'}`).join(' ');
}

/** config.c setConfigOOMScoreAdjValuesOption: three integers in -2000..2000. */
function parseOomValues(args: readonly string[]): string | { error: string } {
  if (args.length !== 3) return { error: 'wrong number of arguments' };
  const out: string[] = [];
  for (const a of args) {
    const v = strtollStrict(a);
    if (v === null || v < -2000n || v > 2000n) return { error: 'Invalid oom-score-adj-values, elements must be between -2000 and 2000.' };
    out.push(v.toString());
  }
  return out.join(' ');
}

/** config.c setConfigLatencyTrackingInfoPercentilesOutputOption; shown as "%f" with trailing zeros trimmed. */
function parsePercentiles(args: readonly string[]): string | { error: string } {
  const list = args.length === 1 && args[0] === '' ? [] : args;
  const out: string[] = [];
  for (const a of list) {
    // util.c string2d: strtod over the whole string, no leading space, not NaN
    if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$|^[+-]?inf(inity)?$/i.test(a)) {
      return { error: 'Invalid latency-tracking-info-percentiles parameters' };
    }
    const d = /inf/i.test(a) ? (a.startsWith('-') ? -Infinity : Infinity) : Number(a);
    if (d > 100 || d < 0) return { error: 'latency-tracking-info-percentiles parameters should sit between [0.0,100.0]' };
    out.push(d.toFixed(6).replace(/\.?0+$/, ''));
  }
  return out.join(' ');
}

const SHUTDOWN_FLAGS: readonly [string, number][] = [
  ['default', 0],
  ['save', 1],
  ['nosave', 2],
  ['now', 4],
  ['force', 8],
];

/** config.c enumConfigSet with bitflags (shutdown_on_sig_enum) + isValidShutdownOnSigFlags. */
function parseShutdownFlags(args: readonly string[]): string | { error: string } {
  if (args.length === 0) return { error: `argument(s) must be one of the following: ${SHUTDOWN_FLAGS.map((f) => f[0]).join(', ')}` };
  let bits = 0;
  for (const a of args) {
    const f = SHUTDOWN_FLAGS.find(([n]) => n === a.toLowerCase());
    if (!f) return { error: `argument(s) must be one of the following: ${SHUTDOWN_FLAGS.map((x) => x[0]).join(', ')}` };
    bits |= f[1];
  }
  if (bits & 1 && bits & 2) return { error: "shutdown options SAVE and NOSAVE can't be used simultaneously" };
  if (bits === 0) return 'default';
  return SHUTDOWN_FLAGS.filter(([, b]) => b !== 0 && (bits & b) === b)
    .map(([n]) => n)
    .join(' ');
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
