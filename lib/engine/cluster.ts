/**
 * Redis Cluster semantics of one keyspace split over N masters (opt-in; a server without a
 * `ClusterState` behaves as a single server):
 *
 * - `keyHashSlot`: CRC16 (XMODEM) of the key, or of its hash tag `{…}` (the bytes between the
 *   first `{` and the first `}` after it, when not empty), modulo 16384 (cluster.c keyHashSlot).
 * - `ClusterState`: the masters and their slot ranges, as `redis-cli --cluster create` assigns
 *   them (16384 / N each, the remainder spread over the first ones: 0-5460, 5461-10922,
 *   10923-16383 for 3), node ids fixed per host:port.
 * - `commandKeys`: the key arguments of a command as Redis's getKeysFromCommand finds them (the
 *   command table's first/last/step, the movable-key commands by their own rules, shard
 *   channels of SPUBLISH/SSUBSCRIBE/SUNSUBSCRIBE, container subcommands with a key).
 * - `routeQuery`: cluster.c getNodeByQuery for one command or a whole MULTI queue: CROSSSLOT
 *   when keys hash to different slots (checked key by key, before any redirection), else the
 *   node owning the slot (MOVED when it is not the connection's), or none (keyless command).
 *
 * Checked against a 3-master cluster of redis-server 7.0.15 on loopback.
 */
import { createHash } from 'crypto';
import { commandSpec } from '../commands/command-data';
import { CommandError } from '../errors';

export const CLUSTER_SLOTS = 16384;

export const ERR_CROSSSLOT = "CROSSSLOT Keys in request don't hash to the same slot";
export const ERR_SELECT_IN_CLUSTER = 'ERR SELECT is not allowed in cluster mode';
export const ERR_CLUSTER_DISABLED = 'ERR This instance has cluster support disabled';

export { crc16, keyHashSlot } from '../bytes/crc16';
import { keyHashSlot } from '../bytes/crc16';

/** One master of the emulated cluster. */
export interface ClusterNode {
  /** 40 hex characters (CLUSTER MYID). */
  readonly id: string;
  /** 40 hex characters (CLUSTER MYSHARDID, 7.2): the shard the master leads. */
  readonly shardId: string;
  readonly host: string;
  /** RESP port clients connect to (0 when there is no network front end). */
  port: number;
  /** First and last slot it serves. */
  readonly start: number;
  readonly end: number;
  /** Config epoch (its position, from 1, as `--cluster create` gives them). */
  readonly epoch: number;
}

/** Slot ranges `redis-cli --cluster create` gives N masters (clusterManagerNodeArray split). */
export function slotRanges(masters: number): [number, number][] {
  const per = CLUSTER_SLOTS / masters;
  const out: [number, number][] = [];
  let first = 0;
  let cursor = 0;
  for (let i = 0; i < masters; i++) {
    let last = Math.round(cursor + per - 1);
    if (last > CLUSTER_SLOTS - 1 || i === masters - 1) last = CLUSTER_SLOTS - 1;
    if (last < first) last = first;
    out.push([first, last]);
    first = last + 1;
    cursor += per;
  }
  return out;
}

export class ClusterState {
  readonly nodes: ClusterNode[];

  /**
   * @param masters number of masters (1 … 16384 / 3 in practice)
   * @param host the address the nodes announce (CLUSTER SLOTS/NODES, MOVED)
   * @param ports their RESP ports (0s when not served over the network); the node ids derive from them
   */
  constructor(masters: number, host: string, ports: number[], readonly seed = '') {
    if (!Number.isInteger(masters) || masters < 1 || masters > 1000) throw new RangeError(`cluster: masters must be an integer 1-1000, got ${String(masters)}`);
    this.nodes = slotRanges(masters).map(([start, end], i) => ({
      id: createHash('sha1').update(`cluster node ${seed}${host}:${ports[i] ?? i}`).digest('hex'),
      shardId: createHash('sha1').update(`cluster shard ${seed}${host}:${ports[i] ?? i}`).digest('hex'),
      host,
      port: ports[i] ?? 0,
      start,
      end,
      epoch: i + 1,
    }));
  }

  /** Index of the node serving `slot`. */
  nodeOfSlot(slot: number): number {
    const nodes = this.nodes;
    for (let i = 0; i < nodes.length; i++) if (slot >= nodes[i].start && slot <= nodes[i].end) return i;
    return -1;
  }

  /** Index of the node that owns `key` (a byte string): the node of its hash slot. */
  nodeOfKey(key: string): number {
    return this.nodeOfSlot(keyHashSlot(key));
  }

  /** `host:port` as MOVED names a node. */
  address(i: number): string {
    const n = this.nodes[i];
    return `${n.host}:${n.port}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Keys of a command

function intArg(s: string | undefined): number | null {
  if (s === undefined || !/^-?\d+$/.test(s)) return null;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : null;
}

/** `count` keys from argv[at + 1], when argv[at] is a valid count that fits (else none). */
function countedKeys(argv: string[], at: number, before: string[] = []): string[] {
  const n = intArg(argv[at]);
  if (n === null || n < 0 || at + 1 + n > argv.length) return before;
  return [...before, ...argv.slice(at + 1, at + 1 + n)];
}

/** Commands newer than ioredis's table with their key at 1 (8.2+ stream commands, 8.4's DELEX/DIGEST). */
const NEWER_KEYED = new Set(['xackdel', 'xdelex', 'xnack', 'xcfgset', 'delex', 'digest']);

/** Container subcommands that name a key at argv[2]. */
const CONTAINER_KEY: Record<string, Set<string>> = {
  object: new Set(['encoding', 'freq', 'idletime', 'refcount']),
  memory: new Set(['usage']),
  xinfo: new Set(['stream', 'groups', 'consumers']),
  xgroup: new Set(['create', 'setid', 'destroy', 'createconsumer', 'delconsumer']),
};

/**
 * The key arguments of argv (argv[0] the command name) as Redis's getKeysFromCommand finds them;
 * shard channels count as keys (SPUBLISH, SSUBSCRIBE, SUNSUBSCRIBE). Empty for keyless
 * commands and for argument lists the key rules cannot read (the command answers its own error).
 */
export function commandKeys(argv: string[]): string[] {
  const name = String(argv[0]).toLowerCase();
  const argc = argv.length;
  switch (name) {
    case 'eval': case 'evalsha': case 'eval_ro': case 'evalsha_ro': case 'fcall': case 'fcall_ro':
    case 'blmpop': case 'bzmpop':
      return countedKeys(argv, 2);
    case 'zunionstore': case 'zinterstore': case 'zdiffstore':
      return argc > 1 ? countedKeys(argv, 2, [argv[1]]) : [];
    case 'zunion': case 'zinter': case 'zdiff': case 'sintercard': case 'zintercard': case 'lmpop': case 'zmpop':
      return countedKeys(argv, 1);
    case 'xread': case 'xreadgroup': {
      const from = name === 'xread' ? 1 : 4;
      for (let i = from; i < argc; i++) {
        if (argv[i].toLowerCase() === 'streams') {
          // the first half of what follows STREAMS; none when odd (xreadGetKeys: the command
          // then answers "Unbalanced …" itself, checked on 7.0.15; COMMAND GETKEYS differs)
          const rest = argc - i - 1;
          return rest % 2 === 0 ? argv.slice(i + 1, i + 1 + rest / 2) : [];
        }
      }
      return [];
    }
    case 'sort': case 'sort_ro': {
      if (argc < 2) return [];
      const keys = [argv[1]];
      if (name === 'sort') {
        // sortGetKeys: the STORE destination (the last one given); GET/BY patterns are not keys
        let store: string | undefined;
        for (let i = 2; i < argc; i++) {
          const a = argv[i].toLowerCase();
          if (a === 'limit') i += 2;
          else if (a === 'get' || a === 'by') i += 1;
          else if (a === 'store' && i + 1 < argc) store = argv[++i];
        }
        if (store !== undefined) keys.push(store);
      }
      return keys;
    }
    case 'georadius': case 'georadiusbymember': {
      if (argc < 2) return [];
      const keys = [argv[1]];
      for (let i = name === 'georadius' ? 6 : 5; i < argc - 1; i++) {
        const a = argv[i].toLowerCase();
        if (a === 'store' || a === 'storedist') keys.push(argv[++i]);
      }
      return keys;
    }
    case 'migrate': {
      // MIGRATE host port key|"" db timeout [… KEYS key …]
      if (argc < 6) return [];
      if (argv[3] !== '') return [argv[3]];
      for (let i = 6; i < argc; i++) if (argv[i].toLowerCase() === 'keys') return argv.slice(i + 1);
      return [];
    }
    case 'msetex': {
      // MSETEX numkeys key value …: every other argument after numkeys (its keynum key spec)
      const n = argc > 1 ? intArg(argv[1]) : null;
      if (n === null || n < 1 || 2 + 2 * n > argc) return [];
      return Array.from({ length: n }, (_, i) => argv[2 + 2 * i]);
    }
    case 'spublish':
      return argc > 1 ? [argv[1]] : [];
    case 'ssubscribe': case 'sunsubscribe':
      return argv.slice(1);
    default:
      break;
  }
  const sub = CONTAINER_KEY[name];
  if (sub) return argc > 2 && sub.has(argv[1].toLowerCase()) ? [argv[2]] : [];
  if (NEWER_KEYED.has(name)) return argc > 1 ? [argv[1]] : [];
  const spec = commandSpec(name);
  if (!spec || spec.step <= 0 || spec.keyStart <= 0) return [];
  const last = spec.keyStop >= 0 ? spec.keyStop : argc + spec.keyStop;
  const keys: string[] = [];
  for (let i = spec.keyStart; i <= last && i < argc; i += spec.step) keys.push(argv[i]);
  return keys;
}

// ---------------------------------------------------------------------------------------------
// Routing (getNodeByQuery)

/** Where a query goes: no key (any node serves it), a node with the slot, or CROSSSLOT. */
export type Route = { kind: 'keyless' } | { kind: 'node'; slot: number; node: number } | { kind: 'crossslot' };

/** getNodeByQuery over the commands (one, or a MULTI queue at EXEC). */
export function routeQuery(cluster: ClusterState, commands: readonly string[][]): Route {
  let slot = -1;
  for (const argv of commands) {
    for (const key of commandKeys(argv)) {
      const s = keyHashSlot(key);
      if (slot === -1) slot = s;
      else if (s !== slot) return { kind: 'crossslot' };
    }
  }
  if (slot === -1) return { kind: 'keyless' };
  return { kind: 'node', slot, node: cluster.nodeOfSlot(slot) };
}

/**
 * The error a connection of node `myself` (null: a connection any slot is local to) gets for
 * the commands, or null when it serves them: CROSSSLOT, or `MOVED <slot> <host>:<port>`.
 */
export function redirectionError(cluster: ClusterState, myself: number | null, commands: readonly string[][]): CommandError | null {
  const route = routeQuery(cluster, commands);
  if (route.kind === 'keyless') return null;
  if (route.kind === 'crossslot') return new CommandError(ERR_CROSSSLOT);
  if (myself === null || route.node === myself) return null;
  return new CommandError(`MOVED ${route.slot} ${cluster.address(route.node)}`);
}
