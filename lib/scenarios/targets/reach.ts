/**
 * How far a scenario command reaches on a real server (used by `real.ts` before a scenario runs
 * and again before each command is sent).
 *
 * - `db`: it reads or writes only keys it names (or the whole of the connection's database:
 *   KEYS, SCAN, DBSIZE, FLUSHDB), in the database the URL selects, or changes nothing;
 * - `server`: it reaches beyond that database or the server's data: other databases (FLUSHALL,
 *   SWAPDB, SELECT of another db, MOVE, COPY … DB, RESET), scripts and functions (whose bodies
 *   can call anything: EVAL, FCALL, SCRIPT, FUNCTION), server state (CONFIG SET, CLIENT KILL,
 *   CLIENT PAUSE, ACL, statistics resets), other clients (PUBLISH; CLIENT KILL, CLIENT UNBLOCK and
 *   CLIENT TRACKING … REDIRECT, which name another connection by ID), or it is a command the CLI
 *   does not know (a module's, a newer server's) — run only with `allowWholeServer` on a server
 *   verified empty with no other client connected;
 * - `never`: never sent, flag or not: SHUTDOWN, DEBUG, MIGRATE (another server), replication and
 *   persistence (REPLICAOF, SAVE, BGSAVE …), MODULE, MONITOR, CLUSTER changes, CONFIG REWRITE,
 *   ACL changes.
 *
 * The lists are of Redis 7.0–8.x command names (https://redis.io/docs/latest/commands/). An
 * allowlist: a name missing from it is `server`, so what the CLI cannot vouch for does not run.
 */
import type { Arg } from '../matchers';

export type Reach = { kind: 'db' } | { kind: 'server' | 'never'; what: string };

/** Data commands: each touches only the keys it names (COMMAND GETKEYS), in its own database. */
const KEY_COMMANDS = new Set(
  (
    'append bitcount bitfield bitfield_ro bitop bitpos blmove blmpop blpop brpop brpoplpush bzmpop bzpopmax bzpopmin ' +
    'copy decr decrby del delex digest dump exists expire expireat expiretime ' +
    'geoadd geodist geohash geopos georadius georadius_ro georadiusbymember georadiusbymember_ro geosearch geosearchstore ' +
    'get getbit getdel getex getrange getset hdel hexists hexpire hexpireat hexpiretime hget hgetall hgetdel hgetex ' +
    'hincrby hincrbyfloat hkeys hlen hmget hmset hpersist hpexpire hpexpireat hpexpiretime hpttl hrandfield hscan hset ' +
    'hsetex hsetnx hstrlen httl hvals incr incrby incrbyfloat lcs lindex linsert llen lmove lmpop lpop lpos lpush lpushx ' +
    'lrange lrem lset ltrim mget mset msetex msetnx persist pexpire pexpireat pexpiretime pfadd pfcount pfmerge psetex ' +
    'pttl rename renamenx restore rpop rpoplpush rpush rpushx sadd scard sdiff sdiffstore set setbit setex setnx ' +
    'setrange sinter sintercard sinterstore sismember smembers smismember smove sort sort_ro spop srandmember srem sscan ' +
    'strlen substr sunion sunionstore touch ttl type unlink ' +
    'vadd vcard vdim vemb vgetattr vinfo vismember vlinks vrandmember vrem vsetattr vsim ' +
    'xack xackdel xadd xautoclaim xcfgset xclaim xdel xdelex xgroup xinfo xlen xnack xpending xrange xread xreadgroup ' +
    'xrevrange xsetid xtrim zadd zcard zcount zdiff zdiffstore zincrby zinter zintercard zinterstore zlexcount zmpop ' +
    'zmscore zpopmax zpopmin zrandmember zrange zrangebylex zrangebyscore zrangestore zrank zrem zremrangebylex ' +
    'zremrangebyrank zremrangebyscore zrevrange zrevrangebylex zrevrangebyscore zrevrank zscan zscore zunion zunionstore'
  ).split(' '),
);

/** Commands that change no data outside the connection's database (reads, connection state). */
const LOCAL_COMMANDS = new Set(
  (
    'ping echo time lastsave role dbsize keys scan randomkey flushdb info lolwut object memory command hello auth quit ' +
    'multi exec discard watch unwatch wait waitaof readonly readwrite asking ' +
    'subscribe unsubscribe psubscribe punsubscribe ssubscribe sunsubscribe pubsub'
  ).split(' '),
);

/** Subcommands of mixed commands that stay local; the others are `server`. */
const LOCAL_SUBCOMMANDS: Record<string, Set<string>> = {
  client: new Set('id getname setname setinfo info list no-touch reply tracking trackinginfo caching getredir help'.split(' ')),
  config: new Set(['get', 'help']),
  acl: new Set('whoami cat genpass help'.split(' ')),
  slowlog: new Set(['get', 'len', 'help']),
  latency: new Set('doctor graph histogram history latest help'.split(' ')),
  cluster: new Set('info myid myshardid nodes shards slots links keyslot countkeysinslot getkeysinslot help'.split(' ')),
};

/** Never sent. */
const NEVER = new Set(
  'shutdown debug migrate monitor sync psync replconf replicaof slaveof failover module save bgsave bgrewriteaof restore-asking pfdebug pfselftest'.split(' '),
);
const NEVER_SUBCOMMANDS: Record<string, Set<string>> = {
  config: new Set(['rewrite']),
  acl: new Set('setuser deluser load save log dryrun'.split(' ')),
  cluster: new Set(
    'addslots addslotsrange bumpepoch delslots delslotsrange failover flushslots forget meet replicate reset saveconfig set-config-epoch setslot count-failure-reports'.split(
      ' ',
    ),
  ),
};

const text = (a: Arg | undefined): string | undefined => (typeof a === 'string' ? a : undefined);

/**
 * How far one command reaches. `db` is the database the URL selects; a `{ ref }` argument (a value
 * captured from an earlier reply, unknown until the run) counts as any value where it decides.
 */
export function commandReach(argv: readonly Arg[], db: number): Reach {
  const name = text(argv[0])?.toLowerCase();
  if (name === undefined) return { kind: 'server', what: 'a command whose name is a captured value' };
  const sub = text(argv[1])?.toLowerCase();
  const upper = name.toUpperCase();
  if (NEVER.has(name)) return { kind: 'never', what: upper };
  if (NEVER_SUBCOMMANDS[name]) {
    if (sub === undefined) return { kind: 'never', what: `${upper} with a captured subcommand` };
    if (NEVER_SUBCOMMANDS[name].has(sub)) return { kind: 'never', what: `${upper} ${sub.toUpperCase()}` };
  }
  if (name === 'client' && sub === 'tracking' && argv.slice(2).some((a) => typeof a !== 'string' || a.toLowerCase() === 'redirect')) {
    // REDIRECT <id> sends the invalidations to another connection, which may be any client's.
    return { kind: 'server', what: 'CLIENT TRACKING … REDIRECT (targets another connection by ID)' };
  }
  if (LOCAL_SUBCOMMANDS[name]) {
    if (sub !== undefined && LOCAL_SUBCOMMANDS[name].has(sub)) return { kind: 'db' };
    return { kind: 'server', what: `${upper} ${sub?.toUpperCase() ?? '(captured)'}` };
  }
  if (name === 'copy') {
    // COPY source destination [DB destination-db] [REPLACE]
    const opts = argv.slice(3);
    if (opts.some((a) => typeof a !== 'string' || a.toLowerCase() === 'db')) return { kind: 'server', what: 'COPY … DB' };
    return { kind: 'db' };
  }
  if (name === 'select') {
    // SELECT of the URL's own database changes nothing.
    const target = text(argv[1]);
    if (argv.length === 2 && target !== undefined && /^\d+$/.test(target) && Number(target) === db) return { kind: 'db' };
    return { kind: 'server', what: 'SELECT' };
  }
  if (KEY_COMMANDS.has(name) || LOCAL_COMMANDS.has(name)) return { kind: 'db' };
  const known: Record<string, string> = {
    flushall: 'FLUSHALL',
    swapdb: 'SWAPDB',
    move: 'MOVE',
    reset: 'RESET (back to database 0)',
    publish: 'PUBLISH (reaches other clients)',
    spublish: 'SPUBLISH (reaches other clients)',
  };
  if (known[name]) return { kind: 'server', what: known[name] };
  if (/^(eval|evalsha|eval_ro|evalsha_ro|fcall|fcall_ro)$/.test(name)) return { kind: 'server', what: `${upper} (a script can call any command)` };
  if (name === 'script' || name === 'function') return { kind: 'server', what: `${upper} ${sub?.toUpperCase() ?? ''}`.trim() };
  return { kind: 'server', what: `${upper} (not a command the CLI knows to stay in the database)` };
}

/** The widest reach of a scenario's commands: `never` over `server` over `db`, first one found. */
export function scenarioReach(steps: readonly { cmd?: readonly Arg[] }[], db: number): Reach {
  let widest: Reach = { kind: 'db' };
  for (const step of steps) {
    if (!step.cmd) continue;
    const r = commandReach(step.cmd, db);
    if (r.kind === 'never') return r;
    if (r.kind === 'server' && widest.kind === 'db') widest = r;
  }
  return widest;
}
