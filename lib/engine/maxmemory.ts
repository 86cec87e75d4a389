/**
 * `maxmemory` (evict.c performEvictions, server.c processCommand): with a limit set, before a
 * command runs (and after CONFIG SET stored new values) the server frees memory by evicting keys
 * as `maxmemory-policy` says, until its used memory (lib/stats/memory-model.ts: a baseline plus
 * each key's and value's bytes, kept per key) is within the limit or nothing is left to evict. Still over the limit, a
 * command Redis flags `denyoom` is refused with OOM_TEXT.
 *
 * Policies: `noeviction` evicts nothing; `allkeys-*` consider every key of every database,
 * `volatile-*` the keys with a TTL; `-lru` evicts the least recently accessed first (exactly:
 * Redis samples `maxmemory-samples` keys to approximate this order), `-lfu` the lowest LFU
 * counter first, `volatile-ttl` the nearest TTL first, `-random` keys in random order (the
 * keyspace's seeded generator). Each evicted key is deleted as DEL would (WATCH dirtied, blocked
 * calls signalled), counted in INFO `evicted_keys`, and published as the `evicted` keyspace event
 * (class `e`) with the server's `notify-keyspace-events`.
 */
import { prngOf } from '../keyspace/prng';
import type { Keyspace } from '../keyspace/keyspace';
import { keyBytes, usedMemoryFor } from '../stats/memory-model';
import type { ServerState } from './registry';
import { commandSpec } from '../commands/command-data';
import { lookupCommand } from '../commands/dispatch';

/** shared.oomerr (7.0.15 and the 8.x sources). */
export const OOM_TEXT = "OOM command not allowed when used memory > 'maxmemory'.";

/** script.c scriptPrepareForRun: a script with flags, but neither allow-oom nor no-writes. */
export const OOM_SCRIPT_TEXT = "OOM allow-oom flag is not set on the script, can not run it when used memory > 'maxmemory'";

/**
 * Commands Redis flags DENYOOM (COMMAND of 7.0.15 and of the post-7.4 build; a command the
 * emulated version lacks never gets here): `name` or `container|subcommand`.
 */
const DENYOOM = new Set(
  (
    'append bitfield bitop blmove brpoplpush copy decr decrby function|load function|restore geoadd georadius ' +
    'georadiusbymember geosearchstore getset hexpire hexpireat hincrby hincrbyfloat hmset hpexpire hpexpireat hset ' +
    'hsetex hsetnx incr incrby incrbyfloat linsert lmove lpush lpushx lset mset msetex msetnx pfadd pfdebug pfmerge psetex ' +
    'restore restore-asking rpoplpush rpush rpushx sadd sdiffstore set setbit setex setnx setrange sinterstore sort ' +
    'sunionstore xadd xgroup|create xgroup|createconsumer xsetid zadd zdiffstore zincrby zinterstore zrangestore zunionstore'
  ).split(' '),
);

/** True when Redis flags the command of argv DENYOOM (argv[0] any case). */
export function isDenyOom(argv: readonly string[]): boolean {
  const name = String(argv[0]).toLowerCase();
  if (DENYOOM.has(name)) return true;
  return argv.length > 1 && (name === 'function' || name === 'xgroup') && DENYOOM.has(`${name}|${String(argv[1]).toLowerCase()}`);
}

/** used_memory of `server` now (INFO memory's model, keys not yet lazily expired included). */
export function usedMemory(server: ServerState): number {
  let bytes = 0;
  for (const ks of server.keyspaces()) bytes += ks.memoryBytes();
  return usedMemoryFor(bytes);
}

/**
 * evict.c performEvictions: evict keys until used memory is within `maxmemory` (0: no limit).
 * Returns true when the server is still over the limit (EVICT_FAIL: a denyoom command is then
 * refused), false when within it.
 */
export function performEvictions(server: ServerState): boolean {
  const max = server.config.maxmemory;
  if (max === 0) return false;
  const used = usedMemory(server);
  if (used <= max) return false;
  const policy = server.config.get('maxmemory-policy') ?? 'noeviction';
  if (policy === 'noeviction') return true;
  const toFree = used - max;
  const volatile = policy.startsWith('volatile-');
  const candidates: { ks: Keyspace; key: string; score: number }[] = [];
  for (const ks of [...server.keyspaces()].sort((a, b) => a.dbIndex - b.dbIndex)) {
    const store = ks.store;
    if (policy === 'volatile-ttl') {
      for (const [key, at] of store.volatileEntries()) candidates.push({ ks, key, score: at });
      continue;
    }
    const keys = volatile ? [...store.volatileEntries()].map(([key]) => key) : store.allKeys();
    const random = policy.endsWith('-random') ? prngOf(ks) : null;
    for (const key of keys) candidates.push({ ks, key, score: random ? random.random() : store.evictionScore(key) });
  }
  // lowest score first: the oldest access, the lowest LFU counter, the nearest TTL, a random order
  candidates.sort((a, b) => a.score - b.score);
  const sink = server.eventSink;
  // Evictions run in processCommand before call() (the client is not executing a command yet): a
  // tracking client's invalidation of an evicted key goes out at once, ahead of the reply of the
  // command about to run (tracking.tcl; 7.0.15 and the post-7.4 build alike).
  const tracking = server.tracking;
  const evict = () => evictCandidates(candidates, toFree, server, sink);
  return (tracking !== null ? tracking.beforeCommand(evict) : evict()) > 0;
}

function evictCandidates(candidates: { ks: Keyspace; key: string }[], toFree: number, server: ServerState, sink: ServerState['eventSink']): number {
  for (const c of candidates) {
    if (toFree <= 0) break;
    const value = c.ks.store.peekRaw(c.key);
    if (value === undefined) continue;
    c.ks.store.deleteKey(c.key);
    toFree -= keyBytes(c.key, value);
    server.stats.evictedKeys++;
    sink?.(c.ks.dbIndex, 'e', 'evicted', c.key);
    c.ks.blocking.flush();
  }
  return toFree;
}

/**
 * The server's reaction to CONFIG SET (config.c updateMaxmemory → the eviction time event):
 * keys are evicted at once when `maxmemory` was set and is exceeded.
 */
export function watchMaxmemory(server: ServerState): void {
  server.config.afterSet = (names) => {
    if (names.has('maxmemory')) performEvictions(server);
  };
}

/** The flags of a script body's `#!lua flags=…` line; null without a shebang (or with one Redis refuses). */
function shebangFlags(body: string): string[] | null {
  if (!body.startsWith('#!')) return null;
  const eol = body.indexOf('\n');
  if (eol < 0) return null;
  const [engine, ...options] = body.slice(0, eol).split(' ').filter((p) => p !== '');
  if (engine !== '#!lua') return null;
  const flags: string[] = [];
  for (const opt of options) {
    if (!opt.startsWith('flags=')) return null;
    if (opt.length > 6) flags.push(...opt.slice(6).split(','));
  }
  return flags;
}

type FunctionTable = { functions: ReadonlyMap<string, { flags: readonly string[] }> };

/**
 * eval.c evalGetCommandFlags / function.c fcallGetCommandFlags: a script with flags (a shebang,
 * or any function) is DENYOOM unless it declares `allow-oom` or `no-writes`; a script without
 * (EVAL compatibility mode), an unknown SHA or function, keeps the command's own flags (none).
 */
export function scriptIsDenyOom(server: ServerState, argv: readonly string[]): boolean {
  const flags = scriptFlagsOf(server, argv);
  return flags !== null && !flags.includes('allow-oom') && !flags.includes('no-writes');
}

/** The flags of the script argv runs (EVAL's shebang, a cached EVALSHA body's, a function's), null for none. */
function scriptFlagsOf(server: ServerState, argv: readonly string[]): readonly string[] | null {
  const name = String(argv[0]).toLowerCase();
  let flags: readonly string[] | null = null;
  if (name === 'eval' || name === 'eval_ro') flags = argv.length > 1 ? shebangFlags(argv[1]) : null;
  else if (name === 'evalsha' || name === 'evalsha_ro') {
    const body = argv.length > 1 && argv[1].length === 40 ? server.scripts.get(argv[1].toLowerCase()) : undefined;
    flags = body === undefined ? null : shebangFlags(body);
  } else if (name === 'fcall' || name === 'fcall_ro') {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { librariesOf } = require('../scripting/libraries') as { librariesOf(server: object): FunctionTable };
    flags = argv.length > 1 ? (librariesOf(server).functions.get(String(argv[1]).toLowerCase())?.flags ?? null) : null;
  }
  return flags;
}

/** shared.noreplicaserr (7.0.15 and the 8.x sources). */
export const NOREPLICAS_TEXT = 'NOREPLICAS Not enough good replicas to write.';

/** Subcommands Redis flags WRITE whose container ioredis's table leaves without flags. */
const WRITE_SUBCOMMANDS = new Set([
  'function|load', 'function|restore', 'function|flush', 'function|delete',
  'xgroup|create', 'xgroup|createconsumer', 'xgroup|delconsumer', 'xgroup|destroy', 'xgroup|setid',
]);

/**
 * The command's WRITE flag (CMD_WRITE) for argv: Redis's table as ioredis ships it, a write
 * subcommand of a container (XGROUP CREATE …), or, for a command newer than that table (8.x:
 * XCFGSET, XNACK, XACKDEL, DELEX, MSETEX, HSETEX …), the engine's own spec. What a read-only
 * script, a read-only replica and min-replicas-to-write refuse.
 */
export function hasWriteFlag(argv: readonly string[]): boolean {
  const name = String(argv[0]).toLowerCase();
  const spec = commandSpec(name);
  if (spec !== undefined) {
    if (spec.flags.includes('write')) return true;
  } else {
    const own = lookupCommand(name);
    if (own !== undefined && own.subcommands === undefined && own.write) return true;
  }
  return argv.length > 1 && WRITE_SUBCOMMANDS.has(`${name}|${String(argv[1]).toLowerCase()}`);
}

/** The arity of `name` (lower case) in Redis's table, or the engine's own for a newer command. */
export function commandArity(name: string): number | undefined {
  return commandSpec(name)?.arity ?? lookupCommand(name)?.arity;
}

/**
 * processCommand's is_write_command for argv: the command's WRITE flag (Redis's table as ioredis
 * ships it, the stream commands' own specs), or a script whose flags lack `no-writes`.
 */
export function isWriteCommand(server: ServerState, argv: readonly string[], write: boolean | undefined): boolean {
  if (write) return true;
  const name = String(argv[0]).toLowerCase();
  if (argv.length > 1 && WRITE_SUBCOMMANDS.has(`${name}|${String(argv[1]).toLowerCase()}`)) return true;
  if (isScriptCommand(argv)) return scriptFlagsOf(server, argv)?.includes('no-writes') === false;
  return false;
}

/** EVAL/EVALSHA/FCALL and their _RO forms. */
export function isScriptCommand(argv: readonly string[]): boolean {
  const name = String(argv[0]).toLowerCase();
  return name === 'eval' || name === 'evalsha' || name === 'eval_ro' || name === 'evalsha_ro' || name === 'fcall' || name === 'fcall_ro';
}
