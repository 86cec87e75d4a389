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
 * Parameters missing here answer "Unknown option" on SET and nothing on GET. The table holds
 * every name `CONFIG GET *` answers on 7.0.15 and on the post-7.4 build (both compared in
 * __tests__/config/params-real-server.test.ts). Redis 8.x defaults of stored-only rows are
 * assumed equal to the unstable build's (not checked on an 8.x server). For rows 7.0.15 lacks,
 * `since` / `nameSince` / `hiddenSince` between 7.2 and 7.4 were not checked on a 7.2 or 7.4
 * server (the version that added them, from memory of the release notes).
 */
import type { RedisVersion } from '../version';

export type ParamType =
  /** `refuseYes`: the reason Redis gives for refusing `yes` (a build without the feature). */
  | { kind: 'bool'; refuseYes?: string }
  /**
   * A numeric parameter. `unsigned`: a C unsigned type (bounds checked and printed unsigned);
   * `memory`: accepts memory units (k, kb, m, mb, g, gb) and prints unsigned; `clamp`: the apply
   * function clamps the stored value (hz: 1..500); `percent`: also `N%` (PERCENT_CONFIG: kept as
   * -N, so `min` -100 bounds it at 100%).
   */
  | { kind: 'int'; min: bigint; max: bigint; unsigned?: boolean; memory?: boolean; percent?: boolean; clamp?: [bigint, bigint] }
  /** `synonyms`: a value CONFIG GET shows as another (oom-score-adj `relative` is `yes`). */
  | { kind: 'enum'; values: readonly string[]; valuesSince?: Partial<Record<string, RedisVersion>>; synonyms?: Readonly<Record<string, string>> }
  | { kind: 'save' }
  | { kind: 'notify' }
  /**
   * A string, checked as Redis checks it: `hostname` (cluster-announce-hostname), `nodename`
   * (isValidAuxString), `locale` (setlocale: the fake knows C, POSIX and C.UTF-8 only),
   * `proctitle` (the proc-title-template variables).
   */
  | { kind: 'string'; check?: 'hostname' | 'nodename' | 'locale' | 'proctitle' }
  /**
   * SPECIAL_CONFIG / MULTI_ARG_CONFIG values, split on single spaces: `obuf`
   * (client-output-buffer-limit), `oom-values` (oom-score-adj-values), `percentiles`
   * (latency-tracking-info-percentiles), `shutdown` (shutdown-on-sig*: flags).
   */
  | { kind: 'special'; format: 'obuf' | 'oom-values' | 'percentiles' | 'shutdown' };

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
  /** HIDDEN_CONFIG only since that version (7.0 lists it for a pattern). */
  readonly hiddenSince?: RedisVersion;
  /** First Redis version that has the parameter. */
  readonly since?: RedisVersion;
  /**
   * First version that knows the parameter's own name; before it only the alias exists (7.0's
   * `server_cpulist` became `server-cpulist` with the old name as alias).
   */
  readonly nameSince?: RedisVersion;
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
  // 8.6 (Redis's stream.tcl: 1–86400 and 1–10000, "must be between" on CONFIG SET)
  {
    name: 'stream-idmp-duration',
    type: int(1n, 86400n),
    default: '100',
    since: '8.6',
    honoured: "IDMP-DURATION of a stream's first XADD IDMP/IDMPAUTO or XCFGSET",
  },
  {
    name: 'stream-idmp-maxsize',
    type: int(1n, 10000n),
    default: '100',
    since: '8.6',
    honoured: "IDMP-MAXSIZE of a stream's first XADD IDMP/IDMPAUTO or XCFGSET",
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
  { name: 'timeout', type: int(0n, INT_MAX), default: '0', honoured: 'idle clients closed (lib/engine/idle-timeout.ts)' },
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
  // Stored only, added from the real servers' CONFIG GET * (7.0.15 and the post-7.4 build) and
  // config.c `static_configs`. Per server (ServerConfig): `port` (the server's port), `dir` (the
  // process's working directory; PROTECTED_CONFIG, so CONFIG SET never changes it).
  { name: 'port', type: int(0n, 65535n), default: '6379' },
  { name: 'dir', type: { kind: 'string' }, default: '', protected: true },
  { name: 'pidfile', type: { kind: 'string' }, default: '', immutable: true },
  { name: 'logfile', type: { kind: 'string' }, default: '', immutable: true },
  { name: 'unixsocket', type: { kind: 'string' }, default: '', immutable: true },
  { name: 'unixsocketperm', type: int(0n, 0o777n, { unsigned: true }), default: '0', immutable: true },
  { name: 'tcp-backlog', type: int(0n, INT_MAX), default: '511', immutable: true },
  { name: 'socket-mark-id', type: int(0n, UINT_MAX, { unsigned: true }), default: '0', immutable: true },
  { name: 'bind-source-addr', type: { kind: 'string' }, default: '' },
  { name: 'max-new-connections-per-cycle', type: int(1n, 1000n, { unsigned: true }), default: '10', since: '7.4' },
  { name: 'max-new-tls-connections-per-cycle', type: int(1n, 1000n, { unsigned: true }), default: '1', since: '7.4' },
  {
    name: 'client-output-buffer-limit',
    type: { kind: 'special', format: 'obuf' },
    default: 'normal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60',
  },
  { name: 'latency-tracking-info-percentiles', type: { kind: 'special', format: 'percentiles' }, default: '50 99 99.9' },
  { name: 'oom-score-adj', type: { kind: 'enum', values: ['no', 'yes', 'relative', 'absolute'], synonyms: { relative: 'yes' } }, default: 'no' },
  { name: 'oom-score-adj-values', type: { kind: 'special', format: 'oom-values' }, default: '0 200 800' },
  { name: 'shutdown-on-sigint', type: { kind: 'special', format: 'shutdown' }, default: 'default' },
  { name: 'shutdown-on-sigterm', type: { kind: 'special', format: 'shutdown' }, default: 'default' },
  { name: 'shutdown-timeout', type: int(0n, INT_MAX), default: '10' },
  { name: 'supervised', type: { kind: 'enum', values: ['upstart', 'systemd', 'auto', 'no'] }, default: 'no', immutable: true },
  { name: 'syslog-enabled', type: bool, default: 'no', immutable: true },
  {
    name: 'syslog-facility',
    type: { kind: 'enum', values: ['user', 'local0', 'local1', 'local2', 'local3', 'local4', 'local5', 'local6', 'local7'] },
    default: 'local0',
    immutable: true,
  },
  { name: 'syslog-ident', type: { kind: 'string' }, default: 'redis', immutable: true },
  { name: 'always-show-logo', type: bool, default: 'no', immutable: true },
  { name: 'set-proc-title', type: bool, default: 'yes', immutable: true },
  { name: 'proc-title-template', type: { kind: 'string', check: 'proctitle' }, default: '{title} {listen-addr} {server-mode}' },
  { name: 'locale-collate', type: { kind: 'string', check: 'locale' }, default: '', since: '7.2' },
  { name: 'hide-user-data-from-log', type: bool, default: 'no', since: '7.4' },
  { name: 'crash-log-enabled', type: bool, default: 'yes' },
  { name: 'crash-memcheck-enabled', type: bool, default: 'yes' },
  { name: 'disable-thp', type: bool, default: 'yes', immutable: true },
  { name: 'jemalloc-bg-thread', type: bool, default: 'yes' },
  { name: 'ignore-warnings', type: { kind: 'string' }, default: '' },
  { name: 'io-threads-do-reads', type: bool, default: 'no', immutable: true },
  { name: 'server-cpulist', alias: 'server_cpulist', type: { kind: 'string' }, default: '', immutable: true, nameSince: '7.2' },
  { name: 'bio-cpulist', alias: 'bio_cpulist', type: { kind: 'string' }, default: '', immutable: true, nameSince: '7.2' },
  { name: 'aof-rewrite-cpulist', alias: 'aof_rewrite_cpulist', type: { kind: 'string' }, default: '', immutable: true, nameSince: '7.2' },
  { name: 'bgsave-cpulist', alias: 'bgsave_cpulist', type: { kind: 'string' }, default: '', immutable: true, nameSince: '7.2' },
  // persistence
  { name: 'aof-load-truncated', type: bool, default: 'yes' },
  { name: 'aof-rewrite-incremental-fsync', type: bool, default: 'yes' },
  { name: 'aof-timestamp-enabled', type: bool, default: 'no' },
  { name: 'aof-disable-auto-gc', type: bool, default: 'no', hiddenSince: '7.2' },
  { name: 'no-appendfsync-on-rewrite', type: bool, default: 'no' },
  { name: 'rdb-del-sync-files', type: bool, default: 'no' },
  { name: 'rdb-save-incremental-fsync', type: bool, default: 'yes' },
  // active defragmentation (the real servers were built without it: `activedefrag yes` is refused)
  {
    name: 'activedefrag',
    type: {
      kind: 'bool',
      refuseYes:
        'Active defragmentation cannot be enabled: it requires a Redis server compiled with a modified Jemalloc like the one shipped by default with the Redis source distribution',
    },
    default: 'no',
  },
  { name: 'active-defrag-cycle-min', type: int(1n, 99n), default: '1' },
  { name: 'active-defrag-cycle-max', type: int(1n, 99n), default: '25' },
  { name: 'active-defrag-threshold-lower', type: int(0n, 1000n), default: '10' },
  { name: 'active-defrag-threshold-upper', type: int(0n, 1000n), default: '100' },
  { name: 'active-defrag-ignore-bytes', type: size({ min: 1n, memory: true }), default: '104857600' },
  { name: 'active-defrag-max-scan-fields', type: int(1n, LONG_MAX, { unsigned: true }), default: '1000' },
  // replication
  { name: 'replica-announce-ip', alias: 'slave-announce-ip', type: { kind: 'string' }, default: '' },
  { name: 'replica-announce-port', alias: 'slave-announce-port', type: int(0n, 65535n), default: '0' },
  { name: 'replica-announced', type: bool, default: 'yes' },
  { name: 'replica-ignore-disk-write-errors', type: bool, default: 'no' },
  { name: 'replica-ignore-maxmemory', alias: 'slave-ignore-maxmemory', type: bool, default: 'yes' },
  { name: 'replica-priority', alias: 'slave-priority', type: int(0n, INT_MAX), default: '100' },
  {
    name: 'propagation-error-behavior',
    type: { kind: 'enum', values: ['ignore', 'panic', 'panic-on-replicas'] },
    default: 'ignore',
  },
  // cluster (the fake's CLUSTER commands follow lib/engine/cluster.ts, not these)
  { name: 'cluster-enabled', type: bool, default: 'no', immutable: true },
  { name: 'cluster-config-file', type: { kind: 'string' }, default: 'nodes.conf', immutable: true },
  { name: 'cluster-port', type: int(0n, 65535n), default: '0', immutable: true },
  { name: 'cluster-node-timeout', type: int(0n, LLONG_MAX), default: '15000' },
  { name: 'cluster-announce-ip', type: { kind: 'string' }, default: '' },
  { name: 'cluster-announce-hostname', type: { kind: 'string', check: 'hostname' }, default: '' },
  { name: 'cluster-announce-human-nodename', type: { kind: 'string', check: 'nodename' }, default: '', since: '7.2' },
  { name: 'cluster-announce-port', type: int(0n, 65535n), default: '0' },
  { name: 'cluster-announce-bus-port', type: int(0n, 65535n), default: '0' },
  { name: 'cluster-announce-tls-port', type: int(0n, 65535n), default: '0' },
  { name: 'cluster-require-full-coverage', type: bool, default: 'yes' },
  { name: 'cluster-allow-reads-when-down', type: bool, default: 'no' },
  { name: 'cluster-allow-pubsubshard-when-down', type: bool, default: 'yes' },
  { name: 'cluster-allow-replica-migration', type: bool, default: 'yes' },
  { name: 'cluster-migration-barrier', type: int(0n, INT_MAX), default: '1' },
  { name: 'cluster-replica-no-failover', alias: 'cluster-slave-no-failover', type: bool, default: 'no' },
  { name: 'cluster-replica-validity-factor', alias: 'cluster-slave-validity-factor', type: int(0n, INT_MAX), default: '10' },
  { name: 'cluster-link-sendbuf-limit', type: int(0n, ULLONG_MAX, { unsigned: true, memory: true }), default: '0' },
  {
    name: 'cluster-preferred-endpoint-type',
    type: { kind: 'enum', values: ['ip', 'hostname', 'unknown-endpoint'] },
    default: 'ip',
  },
  // TLS (the fake serves no TLS: stored only)
  { name: 'tls-port', type: int(0n, 65535n), default: '0' },
  { name: 'tls-cert-file', type: { kind: 'string' }, default: '' },
  { name: 'tls-key-file', type: { kind: 'string' }, default: '' },
  { name: 'tls-client-cert-file', type: { kind: 'string' }, default: '' },
  { name: 'tls-client-key-file', type: { kind: 'string' }, default: '' },
  { name: 'tls-dh-params-file', type: { kind: 'string' }, default: '' },
  { name: 'tls-ca-cert-file', type: { kind: 'string' }, default: '' },
  { name: 'tls-ca-cert-dir', type: { kind: 'string' }, default: '' },
  { name: 'tls-protocols', type: { kind: 'string' }, default: '' },
  { name: 'tls-ciphers', type: { kind: 'string' }, default: '' },
  { name: 'tls-ciphersuites', type: { kind: 'string' }, default: '' },
  { name: 'tls-auth-clients', type: { kind: 'enum', values: ['no', 'yes', 'optional'] }, default: 'yes' },
  { name: 'tls-cluster', type: bool, default: 'no' },
  { name: 'tls-replication', type: bool, default: 'no' },
  { name: 'tls-prefer-server-ciphers', type: bool, default: 'no' },
  { name: 'tls-session-caching', type: bool, default: 'yes' },
  { name: 'tls-session-cache-size', type: int(0n, INT_MAX), default: '20480' },
  { name: 'tls-session-cache-timeout', type: int(0n, INT_MAX), default: '300' },
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
