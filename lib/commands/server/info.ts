/**
 * INFO [section [section ...]]
 *
 * The server report as Redis writes it (server.c `genRedisInfoString`): sections `# Name`, one
 * `field:value` per line, CRLF line ends, a blank line between sections; RESP3 sends it as a
 * verbatim string (`txt`), RESP2 as a bulk string. Without arguments (or `default`) the default
 * sections; `all` adds commandstats and latencystats; `everything` is `all` (no modules); section
 * names are case-insensitive and several may be given (7.0+); an unknown section yields nothing.
 *
 * Fields follow the emulated version: the field list and order are those of redis-server 7.0.15
 * for '7.0', with the fields later releases added (7.2: total_blocking_keys,
 * total_blocking_keys_on_nokey, eventloop and ACL counters; 7.4: pubsub_clients,
 * watching_clients, total_watched_keys, listener0, expired_subkeys, subexpiry …, as a build of
 * the 7.4+ tree prints them). `redis_version` is the emulated version (7.0 → 7.0.15).
 * The counters a test can observe are live: connected/blocked clients, blocking keys (and those
 * with a client that a deletion wakes: XREADGROUP), watched keys, `rdb_changes_since_last_save`
 * (every command's `server.dirty` increments), commands processed, error replies, commandstats
 * (calls, usec, rejected_calls, failed_calls), errorstats and the keyspace lines. Memory, CPU and
 * machine fields are plausible constants (a fake has no allocator to report).
 *
 * The engine's INFO command (lib/engine/commands/server.ts) gathers the data as an `InfoSource`.
 */
import { BASE_MEMORY, KEY_OVERHEAD, usedMemoryFor } from '../../stats/memory-model';
import * as os from 'os';
import type { ServerStats } from '../../stats/server-stats';
import { type RedisVersion, SERVER_VERSION, versionIndex } from '../../version';

/** What INFO reports, gathered by the front end at the time of the command. */
export interface InfoSource {
  readonly version: RedisVersion;
  /** Server clock time (ms): server_time_usec, uptime. */
  readonly nowMs: number;
  /** Server start on the same clock (ms). */
  readonly startMs: number;
  readonly tcpPort: number;
  /** 40 hex characters. */
  readonly runId: string;
  readonly replId: string;
  readonly processId: number;
  readonly executable: string;
  readonly clients: {
    readonly connected: number;
    readonly blocked: number;
    readonly pubsub: number;
    readonly watching: number;
    readonly totalWatchedKeys: number;
    readonly totalBlockingKeys: number;
    readonly totalBlockingKeysOnNokey: number;
    readonly maxclients: number;
  };
  readonly stats: ServerStats;
  /** ACL denials (INFO acl_access_denied_*). */
  readonly aclDenied?: { readonly auth: number; readonly cmd: number; readonly key: number; readonly channel: number };
  /** pubsub_channels, pubsub_patterns, pubsubshard_channels (the node's own in a cluster). */
  readonly pubsub: { readonly channels: number; readonly patterns: number; readonly shardChannels: number };
  /** Non-empty databases in index order; avgTtl in ms. */
  readonly keyspace: readonly { db: number; keys: number; expires: number; avgTtl: number; subexpiry?: number }[];
  /** used_memory (lib/engine/maxmemory.ts usedMemory); without it, KEY_OVERHEAD per key. */
  readonly usedMemory?: number;
  /** Cached scripts (EVAL / SCRIPT LOAD). */
  readonly scripts: number;
  /** Their bodies' total length (bytes), for the Lua memory estimate. */
  readonly scriptBytes?: number;
  /** FUNCTION libraries of the server (number_of_libraries / number_of_functions). */
  readonly functionLibraries?: { readonly libraries: { readonly size: number }; readonly functions: { readonly size: number }; readonly codeBytes: number };
  /** CONFIG values (hz, maxmemory, maxmemory-policy, appendonly). */
  readonly config: { get(name: string): string | undefined };
  /** Cluster mode (INFO cluster_enabled). */
  readonly clusterEnabled?: boolean;
  /** Cluster mode: how many nodes the cluster has (cluster_connections). */
  readonly clusterNodes?: number;
  /** Replicas attached with SYNC/PSYNC (INFO connected_slaves). */
  readonly connectedReplicas?: number;
  /** Client-side caching: tracking_clients, tracking_total_keys/items/prefixes (absent: all 0). */
  readonly tracking?: { readonly clients: number; readonly keys: number; readonly items: number; readonly prefixes: number };
}


type Value = string | number | bigint | ((s: InfoSource) => string | number | bigint);
type Field = [name: string, value: Value, since?: RedisVersion];

/**
 * The Lua heaps, estimated: the empty VM as redis-server reports it, plus for each cached script
 * (EVAL VM) or library (functions VM) its text and a per-item cost fitted on the real servers:
 * 5000 SCRIPT LOADs of 26 bytes add 1855488 bytes on 7.0.15 and 1731584 on the post-7.4 build
 * (which collects the compiler's garbage after loading), 2000 one-function libraries of ~95
 * bytes 853 KB and 543 KB. The GC after loading is redis#13407 (July 2024), taken as 8.0's; 7.2 and
 * 7.4 are taken as 7.0 (not checked on those builds).
 */
function evalVmMemory(s: InfoSource): number {
  const old = versionIndex(s.version) < versionIndex('8.0');
  return (old ? 32768 : 31744) + (s.scriptBytes ?? 0) + (old ? 345 : 320) * s.scripts;
}
function functionsVmMemory(s: InfoSource): number {
  const old = versionIndex(s.version) < versionIndex('8.0');
  const libs = s.functionLibraries;
  return (old ? 33792 : 32768) + (libs ? libs.codeBytes + (old ? 330 : 176) * libs.functions.size : 0);
}

const RSS_EXTRA = 6000000;

/** used_memory: lib/stats/memory-model.ts (the baseline plus each key's and value's bytes). */
function memory(s: InfoSource): number {
  return s.usedMemory ?? usedMemoryFor(KEY_OVERHEAD * s.keyspace.reduce((n, d) => n + d.keys, 0));
}

function uptime(s: InfoSource): number {
  return Math.max(0, Math.floor((s.nowMs - s.startMs) / 1000));
}

/** Redis bytesToHuman: B, K, M, G with two decimals. */
export function bytesHuman(n: number): string {
  if (n < 1024) return `${n}B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(2)}K`;
  if (n < 1024 * 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(2)}M`;
  return `${(n / (1024 * 1024 * 1024)).toFixed(2)}G`;
}

function cpu(): { sys: string; user: string } {
  const u = process.cpuUsage();
  return { sys: (u.system / 1e6).toFixed(6), user: (u.user / 1e6).toFixed(6) };
}

const SECTIONS: Record<string, Field[]> = {
  server: [
    ['redis_version', (s) => SERVER_VERSION[s.version]],
    ['redis_git_sha1', '00000000'],
    ['redis_git_dirty', '0'],
    ['redis_build_id', '0000000000000000'],
    ['redis_mode', (s) => (s.clusterEnabled ? 'cluster' : 'standalone')],
    ['os', () => `${os.type()} ${os.release()} ${os.arch() === 'x64' ? 'x86_64' : os.arch()}`],
    ['arch_bits', '64'],
    ['monotonic_clock', 'POSIX clock_gettime'],
    ['multiplexing_api', 'epoll'],
    ['atomicvar_api', 'c11-builtin'],
    ['gcc_version', '0.0.0'],
    ['process_id', (s) => s.processId],
    ['process_supervised', 'no'],
    ['run_id', (s) => s.runId],
    ['tcp_port', (s) => s.tcpPort],
    ['server_time_usec', (s) => BigInt(s.nowMs) * 1000n],
    ['uptime_in_seconds', (s) => uptime(s)],
    ['uptime_in_days', (s) => Math.floor(uptime(s) / 86400)],
    ['hz', (s) => s.config.get('hz') ?? '10'],
    ['configured_hz', (s) => s.config.get('hz') ?? '10'],
    ['lru_clock', (s) => Math.floor(s.nowMs / 1000) & 0xffffff],
    ['executable', (s) => s.executable],
    ['config_file', ''],
    ['io_threads_active', '0'],
    ['listener0', (s) => `name=tcp,bind=127.0.0.1,port=${s.tcpPort}`, '7.4'],
  ],
  clients: [
    ['connected_clients', (s) => s.clients.connected],
    // getClusterConnectionsCount: a link to and from each other node
    ['cluster_connections', (s) => 2 * Math.max(0, (s.clusterNodes ?? 1) - 1)],
    ['maxclients', (s) => s.clients.maxclients],
    ['client_recent_max_input_buffer', '0'],
    ['client_recent_max_output_buffer', '0'],
    ['blocked_clients', (s) => s.clients.blocked],
    ['tracking_clients', (s) => s.tracking?.clients ?? 0],
    ['pubsub_clients', (s) => s.clients.pubsub, '7.4'],
    ['watching_clients', (s) => s.clients.watching, '7.4'],
    ['clients_in_timeout_table', '0'],
    ['total_watched_keys', (s) => s.clients.totalWatchedKeys, '7.4'],
    ['total_blocking_keys', (s) => s.clients.totalBlockingKeys, '7.2'],
    ['total_blocking_keys_on_nokey', (s) => s.clients.totalBlockingKeysOnNokey, '7.2'],
  ],
  memory: [
    ['used_memory', (s) => memory(s)],
    ['used_memory_human', (s) => bytesHuman(memory(s))],
    ['used_memory_rss', (s) => memory(s) + RSS_EXTRA],
    ['used_memory_rss_human', (s) => bytesHuman(memory(s) + RSS_EXTRA)],
    ['used_memory_peak', (s) => memory(s)],
    ['used_memory_peak_human', (s) => bytesHuman(memory(s))],
    ['used_memory_peak_perc', '100.00%'],
    ['used_memory_overhead', BASE_MEMORY],
    ['used_memory_startup', BASE_MEMORY],
    ['used_memory_dataset', (s) => memory(s) - BASE_MEMORY],
    ['used_memory_dataset_perc', (s) => `${((100 * (memory(s) - BASE_MEMORY)) / Math.max(1, memory(s))).toFixed(2)}%`],
    ['allocator_allocated', (s) => memory(s)],
    ['allocator_active', (s) => memory(s) + RSS_EXTRA],
    ['allocator_resident', (s) => memory(s) + RSS_EXTRA],
    ['allocator_muzzy', '0', '7.4'],
    ['total_system_memory', () => os.totalmem()],
    ['total_system_memory_human', () => bytesHuman(os.totalmem())],
    ['used_memory_lua', (s) => evalVmMemory(s)],
    ['used_memory_vm_eval', (s) => evalVmMemory(s)],
    ['used_memory_lua_human', (s) => bytesHuman(evalVmMemory(s))],
    ['used_memory_scripts_eval', '0'],
    ['number_of_cached_scripts', (s) => s.scripts],
    ['number_of_functions', (s) => s.functionLibraries?.functions.size ?? 0],
    ['number_of_libraries', (s) => s.functionLibraries?.libraries.size ?? 0],
    ['used_memory_vm_functions', (s) => functionsVmMemory(s)],
    ['used_memory_vm_total', (s) => evalVmMemory(s) + functionsVmMemory(s)],
    ['used_memory_vm_total_human', (s) => bytesHuman(evalVmMemory(s) + functionsVmMemory(s))],
    ['used_memory_functions', '0'],
    ['used_memory_scripts', '0'],
    ['used_memory_scripts_human', '0B'],
    ['maxmemory', (s) => s.config.get('maxmemory') ?? '0'],
    ['maxmemory_human', (s) => bytesHuman(Number(s.config.get('maxmemory') ?? 0))],
    ['maxmemory_policy', (s) => s.config.get('maxmemory-policy') ?? 'noeviction'],
    ['allocator_frag_ratio', '1.00'],
    ['allocator_frag_bytes', '0'],
    ['allocator_rss_ratio', '1.00'],
    ['allocator_rss_bytes', '0'],
    ['rss_overhead_ratio', '1.00'],
    ['rss_overhead_bytes', '0'],
    ['mem_fragmentation_ratio', '1.00'],
    ['mem_fragmentation_bytes', RSS_EXTRA],
    ['mem_not_counted_for_evict', '0'],
    ['mem_replication_backlog', '0'],
    ['mem_total_replication_buffers', '0'],
    ['mem_clients_slaves', '0'],
    ['mem_clients_normal', '0'],
    ['mem_cluster_links', '0'],
    ['mem_aof_buffer', '0'],
    // Debian's redis-server 7.0.15 is linked with jemalloc 5.3.0; the post-7.4 build here with libc
    // (Redis's suites gate their allocator-specific tests on this field)
    ['mem_allocator', (s) => (versionIndex(s.version) < versionIndex('7.2') ? 'jemalloc-5.3.0' : 'libc')],
    ['mem_overhead_db_hashtable_rehashing', '0', '7.4'],
    ['active_defrag_running', '0'],
    ['lazyfree_pending_objects', '0'],
    ['lazyfreed_objects', (s) => s.stats.lazyfreedObjects],
  ],
  persistence: [
    ['loading', '0'],
    ['async_loading', '0'],
    ['current_cow_peak', '0'],
    ['current_cow_size', '0'],
    ['current_cow_size_age', '0'],
    ['current_fork_perc', '0.00'],
    ['current_save_keys_processed', '0'],
    ['current_save_keys_total', '0'],
    ['rdb_changes_since_last_save', (s) => s.stats.dirty],
    ['rdb_bgsave_in_progress', (s) => (s.stats.bgsaveInProgress(s.nowMs) ? 1 : 0)],
    ['rdb_last_save_time', (s) => (s.stats.bgsaveInProgress(s.nowMs), Math.floor(s.stats.lastSaveMs / 1000))],
    ['rdb_last_bgsave_status', 'ok'],
    ['rdb_last_bgsave_time_sec', '-1'],
    ['rdb_current_bgsave_time_sec', '-1'],
    ['rdb_saves', '0'],
    ['rdb_last_cow_size', '0'],
    ['rdb_last_load_keys_expired', '0'],
    ['rdb_last_load_keys_loaded', '0'],
    ['aof_enabled', (s) => (s.config.get('appendonly') === 'yes' ? 1 : 0)],
    ['aof_rewrite_in_progress', '0'],
    ['aof_rewrite_scheduled', '0'],
    ['aof_last_rewrite_time_sec', '-1'],
    ['aof_current_rewrite_time_sec', '-1'],
    ['aof_last_bgrewrite_status', 'ok'],
    ['aof_rewrites', '0'],
    ['aof_rewrites_consecutive_failures', '0'],
    ['aof_last_write_status', 'ok'],
    ['aof_last_cow_size', '0'],
    ['module_fork_in_progress', '0'],
    ['module_fork_last_cow_size', '0'],
  ],
  stats: [
    ['total_connections_received', (s) => s.stats.totalConnectionsReceived],
    ['total_commands_processed', (s) => s.stats.totalCommandsProcessed],
    ['instantaneous_ops_per_sec', '0'],
    ['total_net_input_bytes', (s) => s.stats.totalNetInputBytes],
    ['total_net_output_bytes', (s) => s.stats.totalNetOutputBytes],
    ['total_net_repl_input_bytes', '0'],
    ['total_net_repl_output_bytes', '0'],
    ['instantaneous_input_kbps', '0.00'],
    ['instantaneous_output_kbps', '0.00'],
    ['instantaneous_input_repl_kbps', '0.00'],
    ['instantaneous_output_repl_kbps', '0.00'],
    ['rejected_connections', (s) => s.stats.rejectedConnections],
    ['sync_full', '0'],
    ['sync_partial_ok', '0'],
    ['sync_partial_err', '0'],
    ['expired_subkeys', (s) => s.stats.expiredSubkeys, '7.4'],
    ['expired_keys', (s) => s.stats.expiredKeys],
    ['expired_stale_perc', '0.00'],
    ['expired_time_cap_reached_count', '0'],
    ['expire_cycle_cpu_milliseconds', '0'],
    ['evicted_keys', (s) => s.stats.evictedKeys],
    ['evicted_clients', '0'],
    ['evicted_scripts', '0', '7.4'],
    ['total_eviction_exceeded_time', '0'],
    ['current_eviction_exceeded_time', '0'],
    ['keyspace_hits', (s) => s.stats.keyspaceHits],
    ['keyspace_misses', (s) => s.stats.keyspaceMisses],
    ['pubsub_channels', (s) => s.pubsub.channels],
    ['pubsub_patterns', (s) => s.pubsub.patterns],
    ['pubsubshard_channels', (s) => s.pubsub.shardChannels],
    ['latest_fork_usec', '0'],
    ['total_forks', '0'],
    ['migrate_cached_sockets', '0'],
    ['slave_expires_tracked_keys', '0'],
    ['active_defrag_hits', '0'],
    ['active_defrag_misses', '0'],
    ['active_defrag_key_hits', '0'],
    ['active_defrag_key_misses', '0'],
    ['total_active_defrag_time', '0'],
    ['current_active_defrag_time', '0'],
    ['tracking_total_keys', (s) => s.tracking?.keys ?? 0],
    ['tracking_total_items', (s) => s.tracking?.items ?? 0],
    ['tracking_total_prefixes', (s) => s.tracking?.prefixes ?? 0],
    ['unexpected_error_replies', (s) => s.stats.unexpectedErrorReplies],
    ['total_error_replies', (s) => s.stats.totalErrorReplies],
    ['dump_payload_sanitizations', '0'],
    ['total_reads_processed', (s) => s.stats.totalReadsProcessed],
    ['total_writes_processed', (s) => s.stats.totalWritesProcessed],
    ['io_threaded_reads_processed', '0'],
    ['io_threaded_writes_processed', '0'],
    ['client_query_buffer_limit_disconnections', '0', '7.4'],
    ['client_output_buffer_limit_disconnections', '0', '7.4'],
    ['reply_buffer_shrinks', '0'],
    ['reply_buffer_expands', '0'],
    ['eventloop_cycles', (s) => s.stats.totalReadsProcessed, '7.2'],
    ['eventloop_duration_sum', '0', '7.2'],
    ['eventloop_duration_cmd_sum', '0', '7.2'],
    ['instantaneous_eventloop_cycles_per_sec', '0', '7.2'],
    ['instantaneous_eventloop_duration_usec', '0', '7.2'],
    ['acl_access_denied_auth', (s) => s.aclDenied?.auth ?? 0, '7.2'],
    ['acl_access_denied_cmd', (s) => s.aclDenied?.cmd ?? 0, '7.2'],
    ['acl_access_denied_key', (s) => s.aclDenied?.key ?? 0, '7.2'],
    ['acl_access_denied_channel', (s) => s.aclDenied?.channel ?? 0, '7.2'],
  ],
  replication: [
    ['role', 'master'],
    ['connected_slaves', (s) => s.connectedReplicas ?? 0],
    ['master_failover_state', 'no-failover'],
    ['master_replid', (s) => s.replId],
    ['master_replid2', '0000000000000000000000000000000000000000'],
    ['master_repl_offset', '0'],
    ['second_repl_offset', '-1'],
    ['repl_backlog_active', '0'],
    ['repl_backlog_size', '1048576'],
    ['repl_backlog_first_byte_offset', '0'],
    ['repl_backlog_histlen', '0'],
  ],
  cpu: [
    ['used_cpu_sys', () => cpu().sys],
    ['used_cpu_user', () => cpu().user],
    ['used_cpu_sys_children', '0.000000'],
    ['used_cpu_user_children', '0.000000'],
    ['used_cpu_sys_main_thread', () => cpu().sys],
    ['used_cpu_user_main_thread', () => cpu().user],
  ],
  cluster: [
    ['cluster_enabled', (s) => (s.clusterEnabled ? '1' : '0')],
  ],
};

const DEFAULT_SECTIONS = ['server', 'clients', 'memory', 'persistence', 'stats', 'replication', 'cpu', 'modules', 'errorstats', 'cluster', 'keyspace'];
const ALL_SECTIONS = ['server', 'clients', 'memory', 'persistence', 'stats', 'replication', 'cpu', 'modules', 'commandstats', 'errorstats', 'latencystats', 'cluster', 'keyspace'];
const TITLES: Record<string, string> = {
  server: 'Server', clients: 'Clients', memory: 'Memory', persistence: 'Persistence', stats: 'Stats',
  replication: 'Replication', cpu: 'CPU', modules: 'Modules', commandstats: 'Commandstats',
  errorstats: 'Errorstats', latencystats: 'Latencystats', cluster: 'Cluster', keyspace: 'Keyspace',
};

function fieldLines(s: InfoSource, fields: Field[]): string[] {
  const at = versionIndex(s.version);
  const out: string[] = [];
  for (const [name, value, since] of fields) {
    if (since && at < versionIndex(since)) continue;
    out.push(`${name}:${typeof value === 'function' ? value(s) : value}`);
  }
  return out;
}

function sectionLines(s: InfoSource, section: string): string[] {
  switch (section) {
    case 'commandstats':
      return [...s.stats.commands].map(
        ([name, c]) =>
          `cmdstat_${name}:calls=${c.calls},usec=${c.usec},usec_per_call=${(c.calls ? c.usec / c.calls : 0).toFixed(2)},rejected_calls=${c.rejectedCalls},failed_calls=${c.failedCalls}`,
      );
    case 'errorstats':
      // in the order of their names' bytes (Redis keeps them in a rax)
      return [...s.stats.errors].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([code, n]) => `errorstat_${code}:count=${n}`);
    case 'latencystats': {
      // each percentile of latency-tracking-info-percentiles (CONFIG GET's spelling, Redis's
      // trimmed %f) at the mean run time; commands run while latency-tracking was no are left
      // out, and while it is no the section is empty (the histograms are kept)
      if (s.config.get('latency-tracking') === 'no') return [];
      const percentiles = (s.config.get('latency-tracking-info-percentiles') ?? '50 99 99.9').split(' ').filter((p) => p !== '');
      const out: string[] = [];
      for (const [name, c] of s.stats.commands) {
        const [calls, usec] = s.stats.trackedLatency(name, c);
        if (calls <= 0) continue;
        const p = (usec / calls).toFixed(3);
        out.push(`latency_percentiles_usec_${name}:${percentiles.map((q) => `p${q}=${p}`).join(',')}`);
      }
      return out;
    }
    case 'keyspace': {
      const sub = versionIndex(s.version) >= versionIndex('7.4');
      return s.keyspace.map(
        (d) => `db${d.db}:keys=${d.keys},expires=${d.expires},avg_ttl=${d.avgTtl}${sub ? `,subexpiry=${d.subexpiry ?? 0}` : ''}`,
      );
    }
    case 'modules':
      return [];
    default:
      return fieldLines(s, SECTIONS[section] ?? []);
  }
}

/** The INFO text for the given section arguments (none = default). */
export function infoText(s: InfoSource, args: readonly string[]): string {
  let wanted: string[];
  if (args.length === 0) wanted = DEFAULT_SECTIONS;
  else {
    const asked = new Set(args.map((a) => a.toLowerCase()));
    const set = new Set<string>();
    for (const a of asked) {
      if (a === 'default') DEFAULT_SECTIONS.forEach((x) => set.add(x));
      else if (a === 'all' || a === 'everything') ALL_SECTIONS.forEach((x) => set.add(x));
      else if (a in TITLES) set.add(a);
    }
    wanted = ALL_SECTIONS.filter((x) => set.has(x));
  }
  return wanted.map((section) => `# ${TITLES[section]}\r\n${sectionLines(s, section).map((l) => `${l}\r\n`).join('')}`).join('\r\n');
}
