/**
 * The CONFIG parameters the fake knows, kept as data (Redis src/config.c `static_configs`).
 *
 * Each row gives the name, the alias Redis registers for it (an alias is a parameter of its own
 * in CONFIG GET/SET, sharing the value), how a value is parsed and shown, the compiled-in default
 * (what a redis-server started without a config file answers: checked on 7.0.15 and on the
 * post-7.4 unstable build), and what the fake does with it:
 *
 * - honoured: `stream-node-max-entries` and `stream-node-max-bytes` (macro-node splitting and the
 *   default `~` trim work limit, at the next XADD/XTRIM of any stream of the keyspace),
 *   `rdbcompression` (LZF in DUMP payloads) and the encoding limits `list-max-listpack-size`,
 *   `hash-max-listpack-*`, `set-max-intset-entries`, `set-max-listpack-*`, `zset-max-listpack-*`
 *   (the encoding DUMP gives a list, hash, set or sorted set: lib/rdb/collections.ts),
 *   `hll-sparse-max-bytes` (when PFADD/PFMERGE promote a sparse HyperLogLog to dense);
 * - stored only: every other row. CONFIG SET validates and normalises the value exactly as Redis
 *   does and CONFIG GET answers it, but nothing else changes (no eviction, persistence, Lua time
 *   limit, keyspace notifications — those follow ioredis-mock's own options —, or hz).
 *
 * Parameters missing here answer "Unknown option" on SET and nothing on GET. Redis 8.x defaults
 * of stored-only rows are assumed equal to the unstable build's (not checked on an 8.x server).
 */
import type { RedisVersion } from '../version';

export type ParamType =
  | { kind: 'bool' }
  /**
   * A numeric parameter. `unsigned`: a C unsigned type (bounds checked and printed unsigned);
   * `memory`: accepts memory units (k, kb, m, mb, g, gb) and prints unsigned; `clamp`: the apply
   * function clamps the stored value (hz: 1..500); `percent`: also `N%` (PERCENT_CONFIG: kept as
   * -N, so `min` -100 bounds it at 100%).
   */
  | { kind: 'int'; min: bigint; max: bigint; unsigned?: boolean; memory?: boolean; percent?: boolean; clamp?: [bigint, bigint] }
  | { kind: 'enum'; values: readonly string[]; valuesSince?: Partial<Record<string, RedisVersion>> }
  | { kind: 'save' }
  | { kind: 'notify' }
  | { kind: 'string' };

export interface ParamDef {
  readonly name: string;
  readonly alias?: string;
  readonly type: ParamType;
  /** Default value as CONFIG GET shows it. */
  readonly default: string;
  /** IMMUTABLE_CONFIG: "can't set immutable config". */
  readonly immutable?: boolean;
  /** PROTECTED_CONFIG with enable-protected-configs no: "can't set protected config". */
  readonly protected?: boolean;
  /** HIDDEN_CONFIG: CONFIG GET answers it only when named, not for a pattern. */
  readonly hidden?: boolean;
  /** First Redis version that has the parameter. */
  readonly since?: RedisVersion;
  /** What the fake does with the value (documentation; absent = stored only). */
  readonly honoured?: string;
}

const LLONG_MAX = 9223372036854775807n;
const LONG_MAX = LLONG_MAX;
const ULLONG_MAX = 18446744073709551615n;
const INT_MAX = 2147483647n;
const INT_MIN = -2147483648n;
const UINT_MAX = 4294967295n;

const bool = { kind: 'bool' } as const;
const int = (min: bigint, max: bigint, extra: Partial<Extract<ParamType, { kind: 'int' }>> = {}): ParamType => ({
  kind: 'int',
  min,
  max,
  ...extra,
});
const size = (extra: Partial<Extract<ParamType, { kind: 'int' }>> = {}) => int(0n, LONG_MAX, { unsigned: true, ...extra });

export const PARAMS: readonly ParamDef[] = [
  // Honoured
  {
    name: 'stream-node-max-entries',
    type: int(0n, LLONG_MAX),
    default: '100',
    honoured: 'entries per stream macro node (0 = no limit); default `~` trim work limit = 100 × this',
  },
  {
    name: 'stream-node-max-bytes',
    type: size({ memory: true }),
    default: '4096',
    honoured: 'listpack bytes per stream macro node (0 = 1 GiB, the listpack maximum)',
  },
  { name: 'rdbcompression', type: bool, default: 'yes', honoured: 'LZF compression of strings in DUMP payloads' },
  // Stored only
  { name: 'maxmemory', type: int(0n, ULLONG_MAX, { unsigned: true, memory: true }), default: '0' },
  { name: 'min-replicas-to-write', alias: 'min-slaves-to-write', type: int(0n, INT_MAX), default: '0' },
  { name: 'min-replicas-max-lag', alias: 'min-slaves-max-lag', type: int(0n, INT_MAX), default: '10' },
  {
    name: 'maxmemory-policy',
    type: {
      kind: 'enum',
      values: ['volatile-lru', 'volatile-lfu', 'volatile-random', 'volatile-ttl', 'allkeys-lru', 'allkeys-lfu', 'allkeys-random', 'noeviction'],
    },
    default: 'noeviction',
  },
  { name: 'maxmemory-samples', type: int(1n, 64n), default: '5' },
  { name: 'maxmemory-clients', type: int(-100n, LLONG_MAX, { memory: true, percent: true }), default: '0', since: '7.0' },
  { name: 'maxmemory-eviction-tenacity', type: int(0n, 100n), default: '10' },
  { name: 'appendonly', type: bool, default: 'no' },
  { name: 'appendfsync', type: { kind: 'enum', values: ['everysec', 'always', 'no'] }, default: 'everysec' },
  { name: 'appendfilename', type: { kind: 'string' }, default: 'appendonly.aof', immutable: true },
  { name: 'appenddirname', type: { kind: 'string' }, default: 'appendonlydir', immutable: true },
  { name: 'aof-use-rdb-preamble', type: bool, default: 'yes' },
  { name: 'auto-aof-rewrite-percentage', type: int(0n, INT_MAX), default: '100' },
  { name: 'auto-aof-rewrite-min-size', type: int(0n, LLONG_MAX, { memory: true }), default: '67108864' },
  { name: 'save', type: { kind: 'save' }, default: '3600 1 300 100 60 10000' },
  { name: 'rdbchecksum', type: bool, default: 'yes', immutable: true },
  { name: 'stop-writes-on-bgsave-error', type: bool, default: 'yes' },
  { name: 'dbfilename', type: { kind: 'string' }, default: 'dump.rdb', protected: true },
  { name: 'sanitize-dump-payload', type: { kind: 'enum', values: ['no', 'yes', 'clients'] }, default: 'no' },
  { name: 'notify-keyspace-events', type: { kind: 'notify' }, default: '' },
  { name: 'requirepass', type: { kind: 'string' }, default: '', honoured: "the default user's password (ACL; empty: nopass)" },
  // secrets SLOWLOG and MONITOR show redacted (lib/engine/slowlog.ts)
  { name: 'masteruser', type: { kind: 'string' }, default: '' },
  { name: 'masterauth', type: { kind: 'string' }, default: '' },
  { name: 'tls-key-file-pass', type: { kind: 'string' }, default: '' },
  { name: 'tls-client-key-file-pass', type: { kind: 'string' }, default: '' },
  { name: 'acllog-max-len', type: int(0n, LONG_MAX), default: '128', honoured: 'ACL LOG length' },
  { name: 'acl-pubsub-default', type: { kind: 'enum', values: ['allchannels', 'resetchannels'] }, default: 'resetchannels', honoured: 'channels of new users (ACL SETUSER)' },
  { name: 'aclfile', type: { kind: 'string' }, default: '', immutable: true },
  { name: 'lazyfree-lazy-eviction', type: bool, default: 'no' },
  { name: 'lazyfree-lazy-expire', type: bool, default: 'no' },
  { name: 'lazyfree-lazy-server-del', type: bool, default: 'no' },
  { name: 'lazyfree-lazy-user-del', type: bool, default: 'no' },
  { name: 'lazyfree-lazy-user-flush', type: bool, default: 'no' },
  { name: 'replica-lazy-flush', alias: 'slave-lazy-flush', type: bool, default: 'no' },
  // replication (a master's side: replicas attach with SYNC, lib/engine/replication.ts)
  { name: 'repl-ping-replica-period', alias: 'repl-ping-slave-period', type: int(1n, INT_MAX), default: '10', honoured: 'a PING to attached replicas every that many seconds' },
  { name: 'repl-timeout', type: int(1n, INT_MAX), default: '60' },
  { name: 'repl-backlog-size', type: int(1n, LLONG_MAX, { memory: true, clamp: [16384n, LLONG_MAX] }), default: '1048576' },
  { name: 'repl-backlog-ttl', type: int(0n, LONG_MAX), default: '3600' },
  { name: 'repl-diskless-sync', type: bool, default: 'yes' },
  { name: 'repl-diskless-sync-delay', type: int(0n, INT_MAX), default: '5' },
  { name: 'repl-diskless-sync-max-replicas', type: int(0n, INT_MAX), default: '0' },
  { name: 'repl-diskless-load', type: { kind: 'enum', values: ['disabled', 'on-empty-db', 'swapdb'] }, default: 'disabled' },
  { name: 'repl-disable-tcp-nodelay', type: bool, default: 'no' },
  { name: 'replica-read-only', alias: 'slave-read-only', type: bool, default: 'yes', honoured: 'after REPLICAOF host port, write commands answer READONLY' },
  { name: 'replica-serve-stale-data', alias: 'slave-serve-stale-data', type: bool, default: 'yes' },
  { name: 'busy-reply-threshold', alias: 'lua-time-limit', type: int(0n, LONG_MAX), default: '5000' },
  { name: 'hz', type: int(0n, INT_MAX, { clamp: [1n, 500n] }), default: '10' },
  { name: 'dynamic-hz', type: bool, default: 'yes' },
  { name: 'active-expire-effort', type: int(1n, 10n), default: '1' },
  { name: 'activerehashing', type: bool, default: 'yes' },
  { name: 'timeout', type: int(0n, INT_MAX), default: '0' },
  { name: 'tcp-keepalive', type: int(0n, INT_MAX), default: '300' },
  { name: 'maxclients', type: int(1n, UINT_MAX, { unsigned: true }), default: '10000' },
  { name: 'databases', type: int(1n, INT_MAX), default: '16', immutable: true },
  { name: 'io-threads', type: int(1n, 128n), default: '1', immutable: true },
  {
    name: 'loglevel',
    type: { kind: 'enum', values: ['debug', 'verbose', 'notice', 'warning', 'nothing'], valuesSince: { nothing: '7.2' } },
    default: 'notice',
  },
  { name: 'slowlog-log-slower-than', type: int(-1n, LLONG_MAX), default: '10000' },
  { name: 'slowlog-max-len', type: int(0n, LONG_MAX, { unsigned: true }), default: '128' },
  { name: 'latency-monitor-threshold', type: int(0n, LLONG_MAX), default: '0' },
  { name: 'latency-tracking', type: bool, default: 'yes' },
  { name: 'lfu-log-factor', type: int(0n, INT_MAX), default: '10' },
  { name: 'lfu-decay-time', type: int(0n, INT_MAX), default: '1' },
  { name: 'proto-max-bulk-len', type: int(1048576n, LONG_MAX, { memory: true }), default: '536870912' },
  { name: 'client-query-buffer-limit', type: size({ min: 1048576n, memory: true }), default: '1073741824' },
  { name: 'tracking-table-max-keys', type: size(), default: '1000000' },
  // Honoured by DUMP's choice of encoding (lib/rdb/collections.ts)
  { name: 'list-max-listpack-size', alias: 'list-max-ziplist-size', type: int(INT_MIN, INT_MAX), default: '-2', honoured: 'DUMP: list node size' },
  { name: 'list-compress-depth', type: int(0n, INT_MAX), default: '0' },
  { name: 'hash-max-listpack-entries', alias: 'hash-max-ziplist-entries', type: size(), default: '512', honoured: 'DUMP: hash encoding' },
  { name: 'hash-max-listpack-value', alias: 'hash-max-ziplist-value', type: size({ memory: true }), default: '64', honoured: 'DUMP: hash encoding' },
  { name: 'set-max-intset-entries', type: size(), default: '512', honoured: 'DUMP: set encoding' },
  { name: 'set-max-listpack-entries', type: size(), default: '128', since: '7.2', honoured: 'DUMP: set encoding' },
  { name: 'set-max-listpack-value', type: size(), default: '64', since: '7.2', honoured: 'DUMP: set encoding' },
  { name: 'zset-max-listpack-entries', alias: 'zset-max-ziplist-entries', type: size(), default: '128', honoured: 'DUMP: sorted-set encoding' },
  { name: 'zset-max-listpack-value', alias: 'zset-max-ziplist-value', type: size({ memory: true }), default: '64', honoured: 'DUMP: sorted-set encoding' },
  { name: 'hll-sparse-max-bytes', type: size({ memory: true }), default: '3000', honoured: 'HyperLogLog sparse → dense promotion (hyperloglog.c)' },
  { name: 'protected-mode', type: bool, default: 'yes' },
  { name: 'daemonize', type: bool, default: 'no', immutable: true },
  // MULTI_ARG_CONFIG, stored as given (the fake listens where `serve` was told to)
  { name: 'bind', type: { kind: 'string' }, default: '* -::*' },
  // IMMUTABLE_CONFIG | MULTI_ARG_CONFIG: "host port" after REPLICAOF host port, else empty
  { name: 'replicaof', alias: 'slaveof', type: { kind: 'string' }, default: '', immutable: true },
  // HIDDEN_CONFIG (tests' knobs: CONFIG GET shows them only by name)
  { name: 'key-load-delay', type: int(INT_MIN, INT_MAX), default: '0', hidden: true },
  { name: 'rdb-key-save-delay', type: int(INT_MIN, INT_MAX), default: '0', hidden: true },
  { name: 'enable-debug-command', type: { kind: 'enum', values: ['no', 'yes', 'local'] }, default: 'no', immutable: true },
  { name: 'enable-protected-configs', type: { kind: 'enum', values: ['no', 'yes', 'local'] }, default: 'no', immutable: true },
  { name: 'enable-module-command', type: { kind: 'enum', values: ['no', 'yes', 'local'] }, default: 'no', immutable: true },
];

/** One CONFIG name (a parameter or an alias) and the parameter it refers to. */
export interface ParamName {
  readonly name: string;
  readonly def: ParamDef;
}

/** Every name (parameters, then aliases right after their parameter), in table order. */
export const PARAM_NAMES: readonly ParamName[] = PARAMS.flatMap((def) =>
  def.alias ? [{ name: def.name, def }, { name: def.alias, def }] : [{ name: def.name, def }],
);

const BY_NAME = new Map(PARAM_NAMES.map((n) => [n.name, n] as const));

/** Case-insensitive lookup of a parameter or alias name (Redis `lookupConfig`). */
export function lookupParam(name: string): ParamName | undefined {
  return BY_NAME.get(name.toLowerCase());
}
