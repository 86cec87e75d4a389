/**
 * CLUSTER, READONLY, READWRITE, ASKING (cluster.c; texts of a 3-master cluster of redis-server
 * 7.0.15 on loopback). On a server without cluster mode every one of them answers
 * "ERR This instance has cluster support disabled" (after the subcommand and arity checks).
 *
 * CLUSTER HELP — the text of the emulated version (7.0, 7.2, 7.4 and later differ).
 * CLUSTER MYSHARDID (7.2) — the node's shard id.
 * CLUSTER INFO — `cluster_state:ok`, the slot counts, known nodes, size, epochs (verbatim text).
 * CLUSTER MYID — the node id. CLUSTER NODES — one line per master (`myself,master` for the
 *   connection's node). CLUSTER SLOTS — `[start, end, [ip, port, id, {}]]` per master.
 * CLUSTER SHARDS — `{slots: [start, end], nodes: [{id, port, ip, endpoint, role,
 *   replication-offset, health}]}` per master.
 * CLUSTER KEYSLOT key — the hash slot. CLUSTER COUNTKEYSINSLOT slot / GETKEYSINSLOT slot count —
 *   the keys of db 0 in the slot, when the slot is the connection's node's (a node holds only
 *   its own slots' keys); "ERR Invalid slot", "ERR Invalid slot or number of keys".
 * READONLY / READWRITE / ASKING — `+OK` (no replica and no slot migration is emulated, so they
 *   change no reply).
 * Other CLUSTER subcommands (ADDSLOTS, MEET, FAILOVER, SETSLOT …) are not emulated.
 */
import { StreamsMockError } from '../../clock/clock';
import { parseInt64 } from '../../commands/args';
import { CommandError } from '../../errors';
import { MapReply, OK, type Reply, SimpleString, VerbatimReply } from '../../reply/reply';
import { CLUSTER_SLOTS, type ClusterState, ERR_CLUSTER_DISABLED, keyHashSlot } from '../cluster';
import type { ConnectionCommandSpec, ConnectionHandler, ConnectionSubcommand } from '../command-types';
import type { Connection } from '../connection';
import { helpReply } from '../../commands/xgroup';
import { predates, type RedisVersion, versionIndex } from '../../version';

const ERR_NOT_INTEGER = 'ERR value is not an integer or out of range';

function clusterOf(conn: Connection): ClusterState {
  const cluster = conn.server.cluster;
  if (cluster === null) throw new CommandError(ERR_CLUSTER_DISABLED);
  return cluster;
}

/** The node a connection speaks for: its own, or the first for a connection any slot is local to. */
function myself(conn: Connection): number {
  return conn.clusterNode ?? 0;
}

function isMine(conn: Connection, cluster: ClusterState, slot: number): boolean {
  return conn.clusterNode === null || cluster.nodeOfSlot(slot) === conn.clusterNode;
}

function slotArg(arg: string): number {
  const n = parseInt64(arg);
  if (n === null) throw new CommandError(ERR_NOT_INTEGER);
  return n < 0n || n >= BigInt(CLUSTER_SLOTS) ? -1 : Number(n);
}

/** Keys of db 0 in `slot`, in the keyspace's order. */
function keysInSlot(conn: Connection, slot: number): string[] {
  const cluster = clusterOf(conn);
  if (!isMine(conn, cluster, slot)) return [];
  const store = conn.server.keyspace(0).store;
  return store.keyNames().filter((k) => keyHashSlot(k) === slot);
}

function info(conn: Connection): Reply {
  const cluster = clusterOf(conn);
  const n = cluster.nodes.length;
  const me = cluster.nodes[myself(conn)];
  const lines = [
    'cluster_state:ok',
    `cluster_slots_assigned:${CLUSTER_SLOTS}`,
    `cluster_slots_ok:${CLUSTER_SLOTS}`,
    'cluster_slots_pfail:0',
    'cluster_slots_fail:0',
    `cluster_known_nodes:${n}`,
    `cluster_size:${n}`,
    `cluster_current_epoch:${n}`,
    `cluster_my_epoch:${me.epoch}`,
    'cluster_stats_messages_sent:0',
    'cluster_stats_messages_received:0',
    'total_cluster_links_buffer_limit_exceeded:0',
  ];
  return new VerbatimReply(lines.map((l) => `${l}\r\n`).join(''));
}

function nodes(conn: Connection): Reply {
  const cluster = clusterOf(conn);
  const mine = myself(conn);
  const now = conn.keyspace.clock.now();
  const lines = cluster.nodes.map((node, i) => {
    const flags = i === mine ? 'myself,master' : 'master';
    // myself's pong-recv: the time rounded to seconds on 7.0.15, 0 on the post-7.4 build
    const modern = versionIndex(conn.keyspace.redisVersion) >= versionIndex('8.0');
    const pong = i === mine ? (modern ? 0 : Math.floor(now / 1000) * 1000) : now;
    const range = node.start === node.end ? `${node.start}` : `${node.start}-${node.end}`;
    return `${node.id} ${node.host}:${node.port}@${node.port + 10000} ${flags} - 0 ${pong} ${node.epoch} connected ${range}\n`;
  });
  return new VerbatimReply(lines.join(''));
}

function slots(conn: Connection): Reply {
  const cluster = clusterOf(conn);
  return cluster.nodes.map((node) => [node.start, node.end, [node.host, node.port, node.id, new MapReply([])]]);
}

function shards(conn: Connection): Reply {
  const cluster = clusterOf(conn);
  return cluster.nodes.map(
    (node) =>
      new MapReply([
        'slots',
        [node.start, node.end],
        'nodes',
        [
          new MapReply([
            'id', node.id,
            'port', node.port,
            'ip', node.host,
            'endpoint', node.host,
            'role', 'master',
            'replication-offset', 0,
            'health', 'online',
          ]),
        ],
      ]),
  );
}

/** CLUSTER HELP lines as 7.0.15 answers them (cluster.c clusterCommand's help, in its order). */
const HELP_70 = [
  'ADDSLOTS <slot> [<slot> ...]',
  '    Assign slots to current node.',
  'ADDSLOTSRANGE <start slot> <end slot> [<start slot> <end slot> ...]',
  '    Assign slots which are between <start-slot> and <end-slot> to current node.',
  'BUMPEPOCH',
  '    Advance the cluster config epoch.',
  'COUNT-FAILURE-REPORTS <node-id>',
  '    Return number of failure reports for <node-id>.',
  'COUNTKEYSINSLOT <slot>',
  '    Return the number of keys in <slot>.',
  'DELSLOTS <slot> [<slot> ...]',
  '    Delete slots information from current node.',
  'DELSLOTSRANGE <start slot> <end slot> [<start slot> <end slot> ...]',
  '    Delete slots information which are between <start-slot> and <end-slot> from current node.',
  'FAILOVER [FORCE|TAKEOVER]',
  '    Promote current replica node to being a master.',
  'FORGET <node-id>',
  '    Remove a node from the cluster.',
  'GETKEYSINSLOT <slot> <count>',
  '    Return key names stored by current node in a slot.',
  'FLUSHSLOTS',
  '    Delete current node own slots information.',
  'INFO',
  '    Return information about the cluster.',
  'KEYSLOT <key>',
  '    Return the hash slot for <key>.',
  'MEET <ip> <port> [<bus-port>]',
  '    Connect nodes into a working cluster.',
  'MYID',
  '    Return the node id.',
  'NODES',
  '    Return cluster configuration seen by node. Output format:',
  '    <id> <ip:port> <flags> <master> <pings> <pongs> <epoch> <link> <slot> ...',
  'REPLICATE <node-id>',
  '    Configure current node as replica to <node-id>.',
  'RESET [HARD|SOFT]',
  '    Reset current node (default: soft).',
  'SET-CONFIG-EPOCH <epoch>',
  '    Set config epoch of current node.',
  'SETSLOT <slot> (IMPORTING <node-id>|MIGRATING <node-id>|STABLE|NODE <node-id>)',
  '    Set slot state.',
  'REPLICAS <node-id>',
  '    Return <node-id> replicas.',
  'SAVECONFIG',
  '    Force saving cluster configuration on disk.',
  'SLOTS',
  '    Return information about slots range mappings. Each range is made of:',
  '    start, end, master and replicas IP addresses, ports and ids',
  'SHARDS',
  '    Return information about slot range mappings and the nodes associated with them.',
  'LINKS',
  '    Return information about all network links between this node and its peers.',
  '    Output format is an array where each array element is a map containing attributes of a link',
];

/** 7.2 (7.2.0's cluster.c): 7.0's lines with MYSHARDID after MYID and NODES' new format line. */
const HELP_72 = HELP_70.flatMap((line) =>
  line === '    Return the node id.'
    ? [line, 'MYSHARDID', "    Return the node's shard id."]
    : line.startsWith('    <id> <ip:port>')
      ? ['    <id> <ip:port@bus-port[,hostname]> <flags> <master> <pings> <pongs> <epoch> <link> <slot> ...']
      : [line],
);

/**
 * 7.4 and later (cluster.c clusterCommandHelp, then cluster_legacy.c clusterCommandExtendedHelp;
 * checked on a cluster of the post-7.4 build): the commands every cluster has, then the rest.
 */
const HELP_74 = [
  ...['COUNTKEYSINSLOT', 'GETKEYSINSLOT', 'INFO', 'KEYSLOT', 'MYID', 'MYSHARDID', 'NODES', 'REPLICAS', 'SLOTS', 'SHARDS'].flatMap(helpOf),
  ...['ADDSLOTS', 'ADDSLOTSRANGE', 'BUMPEPOCH', 'COUNT-FAILURE-REPORTS', 'DELSLOTS', 'DELSLOTSRANGE', 'FAILOVER', 'FORGET', 'FLUSHSLOTS', 'MEET', 'REPLICATE', 'RESET', 'SET-CONFIG-EPOCH', 'SETSLOT', 'SAVECONFIG', 'LINKS'].flatMap(helpOf),
];

/** A subcommand's lines of HELP_72 (its name line and the indented lines after it). */
function helpOf(name: string): string[] {
  const at = HELP_72.findIndex((line) => line === name || line.startsWith(`${name} `));
  let end = at + 1;
  while (end < HELP_72.length && HELP_72[end].startsWith(' ')) end++;
  return HELP_72.slice(at, end);
}

/** CLUSTER HELP in `version`, with addReplyHelp's header and footer. */
function help(version: RedisVersion): SimpleString[] {
  return helpReply('CLUSTER', predates(version, '7.2') ? HELP_70 : predates(version, '7.4') ? HELP_72 : HELP_74, version);
}

const sub = (arity: number, run: ConnectionHandler): ConnectionSubcommand => ({ arity, run });

const notEmulated = (name: string): ConnectionHandler => (conn) => {
  clusterOf(conn);
  throw new StreamsMockError(`CLUSTER ${name.toUpperCase()} is not emulated (the fake's cluster has fixed masters and slots)`);
};

const NOT_EMULATED: [string, number][] = [
  ['addslots', -3], ['addslotsrange', -4], ['bumpepoch', 2], ['count-failure-reports', 3], ['delslots', -3],
  ['delslotsrange', -4], ['failover', -2], ['flushslots', 2], ['forget', 3], ['links', 2], ['meet', -4],
  ['replicas', 3], ['replicate', 3], ['reset', -2], ['saveconfig', 2], ['set-config-epoch', 3], ['setslot', -4], ['slaves', 3],
];

const SUBCOMMANDS: Record<string, ConnectionSubcommand> = {
  info: sub(2, info),
  myid: sub(2, (conn) => clusterOf(conn).nodes[myself(conn)].id),
  // 7.2: the node's shard id (a master's own; the fake's masters have no replicas to share it)
  myshardid: { ...sub(2, (conn) => clusterOf(conn).nodes[myself(conn)].shardId), since: '7.2' },
  nodes: sub(2, nodes),
  slots: sub(2, slots),
  shards: sub(2, shards),
  keyslot: sub(3, (conn, argv) => {
    clusterOf(conn);
    return keyHashSlot(argv[2]);
  }),
  countkeysinslot: sub(3, (conn, argv) => {
    clusterOf(conn);
    const slot = slotArg(argv[2]);
    if (slot < 0) throw new CommandError('ERR Invalid slot');
    return keysInSlot(conn, slot).length;
  }),
  getkeysinslot: sub(4, (conn, argv) => {
    clusterOf(conn);
    const slot = slotArg(argv[2]);
    const count = parseInt64(argv[3]);
    if (count === null) throw new CommandError(ERR_NOT_INTEGER);
    if (slot < 0 || count < 0n) throw new CommandError('ERR Invalid slot or number of keys');
    return keysInSlot(conn, slot).slice(0, Number(count > 1000000000n ? 1000000000n : count));
  }),
  help: sub(2, (conn) => clusterOf(conn) && help(conn.keyspace.redisVersion)),
  ...Object.fromEntries(NOT_EMULATED.map(([name, arity]) => [name, sub(arity, notEmulated(name))])),
};
SUBCOMMANDS.reset = { ...SUBCOMMANDS.reset, noScript: true }; // cluster-reset.json: NOSCRIPT

export const specs: ConnectionCommandSpec[] = [
  { name: 'cluster', arity: -2, subcommands: SUBCOMMANDS },
  {
    name: 'readonly',
    arity: 1,
    run(conn) {
      clusterOf(conn);
      conn.clusterReadonly = true;
      return OK;
    },
  },
  {
    name: 'readwrite',
    arity: 1,
    run(conn) {
      clusterOf(conn);
      conn.clusterReadonly = false;
      return OK;
    },
  },
  {
    name: 'asking',
    arity: 1,
    run(conn) {
      clusterOf(conn);
      conn.clusterAsking = true;
      return OK;
    },
  },
];
