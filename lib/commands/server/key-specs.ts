/**
 * COMMAND GETKEYS / GETKEYSANDFLAGS (server.c getKeysSubcommandImpl, db.c
 * getKeysFromCommandWithSpecs): the key arguments of a command line, found as Redis finds them.
 *
 * The table is Redis's own command metadata (src/commands/*.json of the post-7.4 tree this
 * project checks against, 4f8cdc2a): per command or `container|subcommand`, its arity, the
 * version it came with, NO_MANDATORY_KEYS, and its key specs as
 * `[flags, begin_search, find_keys]` — begin_search a position (index) or `[keyword, startfrom]`,
 * find_keys `['r', lastkey, step, limit]` (range) or `['n', keynumidx, firstkey, step]` (keynum);
 * null for an unknown one (SORT's BY/GET/STORE keys). Key specs are used unless a spec has
 * VARIABLE_FLAGS (SET, BITFIELD) or cannot be followed (SORT, MIGRATE's KEYS, a bad numkeys),
 * then the command's own getkeys procedure (sortGetKeys, migrateGetKeys, setGetKeys,
 * bitfieldGetKeys; the others find no key where their spec fails). A command newer than the
 * emulated version is unknown ("Invalid command specified").
 */
import { fail } from '../../errors';
import { MapReply, type Reply, SetReply, SimpleString } from '../../reply/reply';

type KeySpec = [flags: string, beginSearch: number | [keyword: string, startfrom: number] | null, findKeys: ['r', number, number, number] | ['n', number, number, number] | null];
type Entry = [arity: number, since: string] | [arity: number, since: string, noMandatoryKeys: 0 | 1, specs: KeySpec[]];

/* eslint-disable prettier/prettier */
const TABLE: Record<string, Entry> = {
  "acl": [-2,"6.0"],
  "acl|cat": [-2,"6.0"],
  "acl|deluser": [-3,"6.0"],
  "acl|dryrun": [-4,"7.0"],
  "acl|genpass": [-2,"6.0"],
  "acl|getuser": [3,"6.0"],
  "acl|help": [2,"6.0"],
  "acl|list": [2,"6.0"],
  "acl|load": [2,"6.0"],
  "acl|log": [-2,"6.0"],
  "acl|save": [2,"6.0"],
  "acl|setuser": [-3,"6.0"],
  "acl|users": [2,"6.0"],
  "acl|whoami": [2,"6.0"],
  "append": [3,"2.0",0,[["RW INSERT",1,["r",0,1,0]]]],
  "asking": [1,"3.0"],
  "auth": [-2,"1.0"],
  "bgrewriteaof": [1,"1.0"],
  "bgsave": [-1,"1.0"],
  "bitcount": [-2,"2.6",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "bitfield": [-2,"3.2",0,[["RW UPDATE ACCESS VARIABLE_FLAGS",1,["r",0,1,0]]]],
  "bitfield_ro": [-2,"6.0",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "bitop": [-4,"2.6",0,[["OW UPDATE",2,["r",0,1,0]],["RO ACCESS",3,["r",-1,1,0]]]],
  "bitpos": [-3,"2.8",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "blmove": [6,"6.2",0,[["RW ACCESS DELETE",1,["r",0,1,0]],["RW INSERT",2,["r",0,1,0]]]],
  "blmpop": [-5,"7.0",0,[["RW ACCESS DELETE",2,["n",0,1,1]]]],
  "blpop": [-3,"2.0",0,[["RW ACCESS DELETE",1,["r",-2,1,0]]]],
  "brpop": [-3,"2.0",0,[["RW ACCESS DELETE",1,["r",-2,1,0]]]],
  "brpoplpush": [4,"2.2",0,[["RW ACCESS DELETE",1,["r",0,1,0]],["RW INSERT",2,["r",0,1,0]]]],
  "bzmpop": [-5,"7.0",0,[["RW ACCESS DELETE",2,["n",0,1,1]]]],
  "bzpopmax": [-3,"5.0",0,[["RW ACCESS DELETE",1,["r",-2,1,0]]]],
  "bzpopmin": [-3,"5.0",0,[["RW ACCESS DELETE",1,["r",-2,1,0]]]],
  "client": [-2,"2.4"],
  "client|caching": [3,"6.0"],
  "client|getname": [2,"2.6"],
  "client|getredir": [2,"6.0"],
  "client|help": [2,"5.0"],
  "client|id": [2,"5.0"],
  "client|info": [2,"6.2"],
  "client|kill": [-3,"2.4"],
  "client|list": [-2,"2.4"],
  "client|no-evict": [3,"7.0"],
  "client|no-touch": [3,"7.2"],
  "client|pause": [-3,"3.0"],
  "client|reply": [3,"3.2"],
  "client|setinfo": [4,"7.2"],
  "client|setname": [3,"2.6"],
  "client|tracking": [-3,"6.0"],
  "client|trackinginfo": [2,"6.2"],
  "client|unblock": [-3,"5.0"],
  "client|unpause": [2,"6.2"],
  "cluster": [-2,"3.0"],
  "cluster|addslots": [-3,"3.0"],
  "cluster|addslotsrange": [-4,"7.0"],
  "cluster|bumpepoch": [2,"3.0"],
  "cluster|count-failure-reports": [3,"3.0"],
  "cluster|countkeysinslot": [3,"3.0"],
  "cluster|delslots": [-3,"3.0"],
  "cluster|delslotsrange": [-4,"7.0"],
  "cluster|failover": [-2,"3.0"],
  "cluster|flushslots": [2,"3.0"],
  "cluster|forget": [3,"3.0"],
  "cluster|getkeysinslot": [4,"3.0"],
  "cluster|help": [2,"5.0"],
  "cluster|info": [2,"3.0"],
  "cluster|keyslot": [3,"3.0"],
  "cluster|links": [2,"7.0"],
  "cluster|meet": [-4,"3.0"],
  "cluster|myid": [2,"3.0"],
  "cluster|myshardid": [2,"7.2"],
  "cluster|nodes": [2,"3.0"],
  "cluster|replicas": [3,"5.0"],
  "cluster|replicate": [3,"3.0"],
  "cluster|reset": [-2,"3.0"],
  "cluster|saveconfig": [2,"3.0"],
  "cluster|set-config-epoch": [3,"3.0"],
  "cluster|setslot": [-4,"3.0"],
  "cluster|shards": [2,"7.0"],
  "cluster|slaves": [3,"3.0"],
  "cluster|slots": [2,"3.0"],
  "command": [-1,"2.8"],
  "command|count": [2,"2.8"],
  "command|docs": [-2,"7.0"],
  "command|getkeys": [-3,"2.8"],
  "command|getkeysandflags": [-3,"7.0"],
  "command|help": [2,"5.0"],
  "command|info": [-2,"2.8"],
  "command|list": [-2,"7.0"],
  "config": [-2,"2.0"],
  "config|get": [-3,"2.0"],
  "config|help": [2,"5.0"],
  "config|resetstat": [2,"2.0"],
  "config|rewrite": [2,"2.8"],
  "config|set": [-4,"2.0"],
  "copy": [-3,"6.2",0,[["RO ACCESS",1,["r",0,1,0]],["OW UPDATE",2,["r",0,1,0]]]],
  "dbsize": [1,"1.0"],
  "debug": [-2,"1.0"],
  "decr": [2,"1.0",0,[["RW ACCESS UPDATE",1,["r",0,1,0]]]],
  "decrby": [3,"1.0",0,[["RW ACCESS UPDATE",1,["r",0,1,0]]]],
  "del": [-2,"1.0",0,[["RM DELETE",1,["r",-1,1,0]]]],
  "discard": [1,"2.0"],
  "dump": [2,"2.6",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "echo": [2,"1.0"],
  "eval": [-3,"2.6",1,[["RW ACCESS UPDATE",2,["n",0,1,1]]]],
  "eval_ro": [-3,"7.0",1,[["RO ACCESS",2,["n",0,1,1]]]],
  "evalsha": [-3,"2.6",1,[["RW ACCESS UPDATE",2,["n",0,1,1]]]],
  "evalsha_ro": [-3,"7.0",1,[["RO ACCESS",2,["n",0,1,1]]]],
  "exec": [1,"1.2"],
  "exists": [-2,"1.0",0,[["RO",1,["r",-1,1,0]]]],
  "expire": [-3,"1.0",0,[["RW UPDATE",1,["r",0,1,0]]]],
  "expireat": [-3,"1.2",0,[["RW UPDATE",1,["r",0,1,0]]]],
  "expiretime": [2,"7.0",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "failover": [-1,"6.2"],
  "fcall": [-3,"7.0",1,[["RW ACCESS UPDATE",2,["n",0,1,1]]]],
  "fcall_ro": [-3,"7.0",1,[["RO ACCESS",2,["n",0,1,1]]]],
  "flushall": [-1,"1.0"],
  "flushdb": [-1,"1.0"],
  "function": [-2,"7.0"],
  "function|delete": [3,"7.0"],
  "function|dump": [2,"7.0"],
  "function|flush": [-2,"7.0"],
  "function|help": [2,"7.0"],
  "function|kill": [2,"7.0"],
  "function|list": [-2,"7.0"],
  "function|load": [-3,"7.0"],
  "function|restore": [-3,"7.0"],
  "function|stats": [2,"7.0"],
  "geoadd": [-5,"3.2",0,[["RW UPDATE",1,["r",0,1,0]]]],
  "geodist": [-4,"3.2",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "geohash": [-2,"3.2",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "geopos": [-2,"3.2",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "georadius": [-6,"3.2",0,[["RO ACCESS",1,["r",0,1,0]],["OW UPDATE",["STORE",6],["r",0,1,0]],["OW UPDATE",["STOREDIST",6],["r",0,1,0]]]],
  "georadius_ro": [-6,"3.2",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "georadiusbymember": [-5,"3.2",0,[["RO ACCESS",1,["r",0,1,0]],["OW UPDATE",["STORE",5],["r",0,1,0]],["OW UPDATE",["STOREDIST",5],["r",0,1,0]]]],
  "georadiusbymember_ro": [-5,"3.2",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "geosearch": [-7,"6.2",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "geosearchstore": [-8,"6.2",0,[["OW UPDATE",1,["r",0,1,0]],["RO ACCESS",2,["r",0,1,0]]]],
  "get": [2,"1.0",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "getbit": [3,"2.2",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "getdel": [2,"6.2",0,[["RW ACCESS DELETE",1,["r",0,1,0]]]],
  "getex": [-2,"6.2",0,[["RW ACCESS UPDATE",1,["r",0,1,0]]]],
  "getrange": [4,"2.4",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "getset": [3,"1.0",0,[["RW ACCESS UPDATE",1,["r",0,1,0]]]],
  "hdel": [-3,"2.0",0,[["RW DELETE",1,["r",0,1,0]]]],
  "hello": [-1,"6.0"],
  "hexists": [3,"2.0",0,[["RO",1,["r",0,1,0]]]],
  "hexpire": [-6,"7.4",0,[["RW UPDATE",1,["r",0,1,0]]]],
  "hexpireat": [-6,"7.4",0,[["RW UPDATE",1,["r",0,1,0]]]],
  "hexpiretime": [-5,"7.4",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "hget": [3,"2.0",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "hgetall": [2,"2.0",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "hincrby": [4,"2.0",0,[["RW ACCESS UPDATE",1,["r",0,1,0]]]],
  "hincrbyfloat": [4,"2.6",0,[["RW ACCESS UPDATE",1,["r",0,1,0]]]],
  "hkeys": [2,"2.0",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "hlen": [2,"2.0",0,[["RO",1,["r",0,1,0]]]],
  "hmget": [-3,"2.0",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "hmset": [-4,"2.0",0,[["RW UPDATE",1,["r",0,1,0]]]],
  "hpersist": [-5,"7.4",0,[["RW UPDATE",1,["r",0,1,0]]]],
  "hpexpire": [-6,"7.4",0,[["RW UPDATE",1,["r",0,1,0]]]],
  "hpexpireat": [-6,"7.4",0,[["RW UPDATE",1,["r",0,1,0]]]],
  "hpexpiretime": [-5,"7.4",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "hpttl": [-5,"7.4",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "hrandfield": [-2,"6.2",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "hscan": [-3,"2.8",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "hset": [-4,"2.0",0,[["RW UPDATE",1,["r",0,1,0]]]],
  "hsetnx": [4,"2.0",0,[["RW INSERT",1,["r",0,1,0]]]],
  "hstrlen": [3,"3.2",0,[["RO",1,["r",0,1,0]]]],
  "httl": [-5,"7.4",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "hvals": [2,"2.0",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "incr": [2,"1.0",0,[["RW ACCESS UPDATE",1,["r",0,1,0]]]],
  "incrby": [3,"1.0",0,[["RW ACCESS UPDATE",1,["r",0,1,0]]]],
  "incrbyfloat": [3,"2.6",0,[["RW ACCESS UPDATE",1,["r",0,1,0]]]],
  "info": [-1,"1.0"],
  "keys": [2,"1.0"],
  "lastsave": [1,"1.0"],
  "latency": [-2,"2.8"],
  "latency|doctor": [2,"2.8"],
  "latency|graph": [3,"2.8"],
  "latency|help": [2,"2.8"],
  "latency|histogram": [-2,"7.0"],
  "latency|history": [3,"2.8"],
  "latency|latest": [2,"2.8"],
  "latency|reset": [-2,"2.8"],
  "lcs": [-3,"7.0",0,[["RO ACCESS",1,["r",1,1,0]]]],
  "lindex": [3,"1.0",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "linsert": [5,"2.2",0,[["RW INSERT",1,["r",0,1,0]]]],
  "llen": [2,"1.0",0,[["RO",1,["r",0,1,0]]]],
  "lmove": [5,"6.2",0,[["RW ACCESS DELETE",1,["r",0,1,0]],["RW INSERT",2,["r",0,1,0]]]],
  "lmpop": [-4,"7.0",0,[["RW ACCESS DELETE",1,["n",0,1,1]]]],
  "lolwut": [-1,"5.0"],
  "lpop": [-2,"1.0",0,[["RW ACCESS DELETE",1,["r",0,1,0]]]],
  "lpos": [-3,"6.0",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "lpush": [-3,"1.0",0,[["RW INSERT",1,["r",0,1,0]]]],
  "lpushx": [-3,"2.2",0,[["RW INSERT",1,["r",0,1,0]]]],
  "lrange": [4,"1.0",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "lrem": [4,"1.0",0,[["RW DELETE",1,["r",0,1,0]]]],
  "lset": [4,"1.0",0,[["RW UPDATE",1,["r",0,1,0]]]],
  "ltrim": [4,"1.0",0,[["RW DELETE",1,["r",0,1,0]]]],
  "memory": [-2,"4.0"],
  "memory|doctor": [2,"4.0"],
  "memory|help": [2,"4.0"],
  "memory|malloc-stats": [2,"4.0"],
  "memory|purge": [2,"4.0"],
  "memory|stats": [2,"4.0"],
  "memory|usage": [-3,"4.0",0,[["RO",2,["r",0,1,0]]]],
  "mget": [-2,"1.0",0,[["RO ACCESS",1,["r",-1,1,0]]]],
  "migrate": [-6,"2.6",0,[["RW ACCESS DELETE",3,["r",0,1,0]],["RW ACCESS DELETE INCOMPLETE",["KEYS",-2],["r",-1,1,0]]]],
  "module": [-2,"4.0"],
  "module|help": [2,"5.0"],
  "module|list": [2,"4.0"],
  "module|load": [-3,"4.0"],
  "module|loadex": [-3,"7.0"],
  "module|unload": [3,"4.0"],
  "monitor": [1,"1.0"],
  "move": [3,"1.0",0,[["RW ACCESS UPDATE",1,["r",0,1,0]]]],
  "mset": [-3,"1.0",0,[["OW UPDATE",1,["r",-1,2,0]]]],
  "msetnx": [-3,"1.0",0,[["OW INSERT",1,["r",-1,2,0]]]],
  "multi": [1,"1.2"],
  "object": [-2,"2.2"],
  "object|encoding": [3,"2.2",0,[["RO",2,["r",0,1,0]]]],
  "object|freq": [3,"4.0",0,[["RO",2,["r",0,1,0]]]],
  "object|help": [2,"6.2"],
  "object|idletime": [3,"2.2",0,[["RO",2,["r",0,1,0]]]],
  "object|refcount": [3,"2.2",0,[["RO",2,["r",0,1,0]]]],
  "persist": [2,"2.2",0,[["RW UPDATE",1,["r",0,1,0]]]],
  "pexpire": [-3,"2.6",0,[["RW UPDATE",1,["r",0,1,0]]]],
  "pexpireat": [-3,"2.6",0,[["RW UPDATE",1,["r",0,1,0]]]],
  "pexpiretime": [2,"7.0",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "pfadd": [-2,"2.8",0,[["RW INSERT",1,["r",0,1,0]]]],
  "pfcount": [-2,"2.8",0,[["RW ACCESS",1,["r",-1,1,0]]]],
  "pfdebug": [3,"2.8",0,[["RW ACCESS",2,["r",0,1,0]]]],
  "pfmerge": [-2,"2.8",0,[["RW ACCESS INSERT",1,["r",0,1,0]],["RO ACCESS",2,["r",-1,1,0]]]],
  "pfselftest": [1,"2.8"],
  "ping": [-1,"1.0"],
  "psetex": [4,"2.6",0,[["OW UPDATE",1,["r",0,1,0]]]],
  "psubscribe": [-2,"2.0"],
  "psync": [-3,"2.8"],
  "pttl": [2,"2.6",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "publish": [3,"2.0"],
  "pubsub": [-2,"2.8"],
  "pubsub|channels": [-2,"2.8"],
  "pubsub|help": [2,"6.2"],
  "pubsub|numpat": [2,"2.8"],
  "pubsub|numsub": [-2,"2.8"],
  "pubsub|shardchannels": [-2,"7.0"],
  "pubsub|shardnumsub": [-2,"7.0"],
  "punsubscribe": [-1,"2.0"],
  "quit": [-1,"1.0"],
  "randomkey": [1,"1.0"],
  "readonly": [1,"3.0"],
  "readwrite": [1,"3.0"],
  "rename": [3,"1.0",0,[["RW ACCESS DELETE",1,["r",0,1,0]],["OW UPDATE",2,["r",0,1,0]]]],
  "renamenx": [3,"1.0",0,[["RW ACCESS DELETE",1,["r",0,1,0]],["OW INSERT",2,["r",0,1,0]]]],
  "replconf": [-1,"3.0"],
  "replicaof": [3,"5.0"],
  "reset": [1,"6.2"],
  "restore": [-4,"2.6",0,[["OW UPDATE",1,["r",0,1,0]]]],
  "restore-asking": [-4,"3.0",0,[["OW UPDATE",1,["r",0,1,0]]]],
  "role": [1,"2.8"],
  "rpop": [-2,"1.0",0,[["RW ACCESS DELETE",1,["r",0,1,0]]]],
  "rpoplpush": [3,"1.2",0,[["RW ACCESS DELETE",1,["r",0,1,0]],["RW INSERT",2,["r",0,1,0]]]],
  "rpush": [-3,"1.0",0,[["RW INSERT",1,["r",0,1,0]]]],
  "rpushx": [-3,"2.2",0,[["RW INSERT",1,["r",0,1,0]]]],
  "sadd": [-3,"1.0",0,[["RW INSERT",1,["r",0,1,0]]]],
  "save": [1,"1.0"],
  "scan": [-2,"2.8"],
  "scard": [2,"1.0",0,[["RO",1,["r",0,1,0]]]],
  "script": [-2,"2.6"],
  "script|debug": [3,"3.2"],
  "script|exists": [-3,"2.6"],
  "script|flush": [-2,"2.6"],
  "script|help": [2,"5.0"],
  "script|kill": [2,"2.6"],
  "script|load": [3,"2.6"],
  "sdiff": [-2,"1.0",0,[["RO ACCESS",1,["r",-1,1,0]]]],
  "sdiffstore": [-3,"1.0",0,[["OW UPDATE",1,["r",0,1,0]],["RO ACCESS",2,["r",-1,1,0]]]],
  "select": [2,"1.0"],
  "sentinel": [-2,"2.8"],
  "sentinel|ckquorum": [3,"2.8"],
  "sentinel|config": [-4,"6.2"],
  "sentinel|debug": [-2,"7.0"],
  "sentinel|failover": [3,"2.8"],
  "sentinel|flushconfig": [2,"2.8"],
  "sentinel|get-master-addr-by-name": [3,"2.8"],
  "sentinel|help": [2,"6.2"],
  "sentinel|info-cache": [-3,"3.2"],
  "sentinel|is-master-down-by-addr": [6,"2.8"],
  "sentinel|master": [3,"2.8"],
  "sentinel|masters": [2,"2.8"],
  "sentinel|monitor": [6,"2.8"],
  "sentinel|myid": [2,"6.2"],
  "sentinel|pending-scripts": [2,"2.8"],
  "sentinel|remove": [3,"2.8"],
  "sentinel|replicas": [3,"5.0"],
  "sentinel|reset": [3,"2.8"],
  "sentinel|sentinels": [3,"2.8"],
  "sentinel|set": [-5,"2.8"],
  "sentinel|simulate-failure": [-3,"3.2"],
  "sentinel|slaves": [3,"2.8"],
  "set": [-3,"1.0",0,[["RW ACCESS UPDATE VARIABLE_FLAGS",1,["r",0,1,0]]]],
  "setbit": [4,"2.2",0,[["RW ACCESS UPDATE",1,["r",0,1,0]]]],
  "setex": [4,"2.0",0,[["OW UPDATE",1,["r",0,1,0]]]],
  "setnx": [3,"1.0",0,[["OW INSERT",1,["r",0,1,0]]]],
  "setrange": [4,"2.2",0,[["RW UPDATE",1,["r",0,1,0]]]],
  "sflush": [-3,"8.0"],
  "shutdown": [-1,"1.0"],
  "sinter": [-2,"1.0",0,[["RO ACCESS",1,["r",-1,1,0]]]],
  "sintercard": [-3,"7.0",0,[["RO ACCESS",1,["n",0,1,1]]]],
  "sinterstore": [-3,"1.0",0,[["OW UPDATE",1,["r",0,1,0]],["RO ACCESS",2,["r",-1,1,0]]]],
  "sismember": [3,"1.0",0,[["RO",1,["r",0,1,0]]]],
  "slaveof": [3,"1.0"],
  "slowlog": [-2,"2.2"],
  "slowlog|get": [-2,"2.2"],
  "slowlog|help": [2,"6.2"],
  "slowlog|len": [2,"2.2"],
  "slowlog|reset": [2,"2.2"],
  "smembers": [2,"1.0",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "smismember": [-3,"6.2",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "smove": [4,"1.0",0,[["RW ACCESS DELETE",1,["r",0,1,0]],["RW INSERT",2,["r",0,1,0]]]],
  "sort": [-2,"1.0",0,[["RO ACCESS",1,["r",0,1,0]],["RO ACCESS",null,null],["OW UPDATE",null,null]]],
  "sort_ro": [-2,"7.0",0,[["RO ACCESS",1,["r",0,1,0]],["RO ACCESS",null,null]]],
  "spop": [-2,"1.0",0,[["RW ACCESS DELETE",1,["r",0,1,0]]]],
  "spublish": [3,"7.0",0,[["NOT_KEY",1,["r",0,1,0]]]],
  "srandmember": [-2,"1.0",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "srem": [-3,"1.0",0,[["RW DELETE",1,["r",0,1,0]]]],
  "sscan": [-3,"2.8",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "ssubscribe": [-2,"7.0",0,[["NOT_KEY",1,["r",-1,1,0]]]],
  "strlen": [2,"2.2",0,[["RO",1,["r",0,1,0]]]],
  "subscribe": [-2,"2.0"],
  "substr": [4,"1.0",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "sunion": [-2,"1.0",0,[["RO ACCESS",1,["r",-1,1,0]]]],
  "sunionstore": [-3,"1.0",0,[["OW UPDATE",1,["r",0,1,0]],["RO ACCESS",2,["r",-1,1,0]]]],
  "sunsubscribe": [-1,"7.0",0,[["NOT_KEY",1,["r",-1,1,0]]]],
  "swapdb": [3,"4.0"],
  "sync": [1,"1.0"],
  "time": [1,"2.6"],
  "touch": [-2,"3.2",0,[["RO",1,["r",-1,1,0]]]],
  "ttl": [2,"1.0",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "type": [2,"1.0",0,[["RO",1,["r",0,1,0]]]],
  "unlink": [-2,"4.0",0,[["RM DELETE",1,["r",-1,1,0]]]],
  "unsubscribe": [-1,"2.0"],
  "unwatch": [1,"2.2"],
  "wait": [3,"3.0"],
  "waitaof": [4,"7.2"],
  "watch": [-2,"2.2",0,[["RO",1,["r",-1,1,0]]]],
  "xack": [-4,"5.0",0,[["RW UPDATE",1,["r",0,1,0]]]],
  "xadd": [-5,"5.0",0,[["RW UPDATE",1,["r",0,1,0]]]],
  "xautoclaim": [-6,"6.2",0,[["RW DELETE",1,["r",0,1,0]]]],
  "xclaim": [-6,"5.0",0,[["RW UPDATE",1,["r",0,1,0]]]],
  "xdel": [-3,"5.0",0,[["RW DELETE",1,["r",0,1,0]]]],
  "xgroup": [-2,"5.0"],
  "xgroup|create": [-5,"5.0",0,[["RW INSERT",2,["r",0,1,0]]]],
  "xgroup|createconsumer": [5,"6.2",0,[["RW INSERT",2,["r",0,1,0]]]],
  "xgroup|delconsumer": [5,"5.0",0,[["RW DELETE",2,["r",0,1,0]]]],
  "xgroup|destroy": [4,"5.0",0,[["RW DELETE",2,["r",0,1,0]]]],
  "xgroup|help": [2,"5.0"],
  "xgroup|setid": [-5,"5.0",0,[["RW UPDATE",2,["r",0,1,0]]]],
  "xinfo": [-2,"5.0"],
  "xinfo|consumers": [4,"5.0",0,[["RO ACCESS",2,["r",0,1,0]]]],
  "xinfo|groups": [3,"5.0",0,[["RO ACCESS",2,["r",0,1,0]]]],
  "xinfo|help": [2,"5.0"],
  "xinfo|stream": [-3,"5.0",0,[["RO ACCESS",2,["r",0,1,0]]]],
  "xlen": [2,"5.0",0,[["RO",1,["r",0,1,0]]]],
  "xpending": [-3,"5.0",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "xrange": [-4,"5.0",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "xread": [-4,"5.0",0,[["RO ACCESS",["STREAMS",1],["r",-1,1,2]]]],
  "xreadgroup": [-7,"5.0",0,[["RO ACCESS",["STREAMS",4],["r",-1,1,2]]]],
  "xrevrange": [-4,"5.0",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "xsetid": [-3,"5.0",0,[["RW UPDATE",1,["r",0,1,0]]]],
  "xtrim": [-4,"5.0",0,[["RW DELETE",1,["r",0,1,0]]]],
  "zadd": [-4,"1.2",0,[["RW UPDATE",1,["r",0,1,0]]]],
  "zcard": [2,"1.2",0,[["RO",1,["r",0,1,0]]]],
  "zcount": [4,"2.0",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "zdiff": [-3,"6.2",0,[["RO ACCESS",1,["n",0,1,1]]]],
  "zdiffstore": [-4,"6.2",0,[["OW UPDATE",1,["r",0,1,0]],["RO ACCESS",2,["n",0,1,1]]]],
  "zincrby": [4,"1.2",0,[["RW ACCESS UPDATE",1,["r",0,1,0]]]],
  "zinter": [-3,"6.2",0,[["RO ACCESS",1,["n",0,1,1]]]],
  "zintercard": [-3,"7.0",0,[["RO ACCESS",1,["n",0,1,1]]]],
  "zinterstore": [-4,"2.0",0,[["OW UPDATE",1,["r",0,1,0]],["RO ACCESS",2,["n",0,1,1]]]],
  "zlexcount": [4,"2.8",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "zmpop": [-4,"7.0",0,[["RW ACCESS DELETE",1,["n",0,1,1]]]],
  "zmscore": [-3,"6.2",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "zpopmax": [-2,"5.0",0,[["RW ACCESS DELETE",1,["r",0,1,0]]]],
  "zpopmin": [-2,"5.0",0,[["RW ACCESS DELETE",1,["r",0,1,0]]]],
  "zrandmember": [-2,"6.2",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "zrange": [-4,"1.2",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "zrangebylex": [-4,"2.8",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "zrangebyscore": [-4,"1.0",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "zrangestore": [-5,"6.2",0,[["OW UPDATE",1,["r",0,1,0]],["RO ACCESS",2,["r",0,1,0]]]],
  "zrank": [-3,"2.0",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "zrem": [-3,"1.2",0,[["RW DELETE",1,["r",0,1,0]]]],
  "zremrangebylex": [4,"2.8",0,[["RW DELETE",1,["r",0,1,0]]]],
  "zremrangebyrank": [4,"2.0",0,[["RW DELETE",1,["r",0,1,0]]]],
  "zremrangebyscore": [4,"1.2",0,[["RW DELETE",1,["r",0,1,0]]]],
  "zrevrange": [-4,"1.2",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "zrevrangebylex": [-4,"2.8",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "zrevrangebyscore": [-4,"2.2",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "zrevrank": [-3,"2.0",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "zscan": [-3,"2.8",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "zscore": [3,"1.2",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "zunion": [-3,"6.2",0,[["RO ACCESS",1,["n",0,1,1]]]],
  "zunionstore": [-4,"2.0",0,[["OW UPDATE",1,["r",0,1,0]],["RO ACCESS",2,["n",0,1,1]]]],
  // commands newer than the 4f8cdc2a tree, as redis/docs data/commands_core.json (8.x) gives them
  "hgetdel": [-5,"8.0",0,[["RW ACCESS DELETE",1,["r",0,1,0]]]],
  "hgetex": [-5,"8.0",0,[["RW ACCESS UPDATE",1,["r",0,1,0]]]],
  "hsetex": [-6,"8.0",0,[["RW UPDATE",1,["r",0,1,0]]]],
  "xackdel": [-6,"8.2",0,[["RW UPDATE DELETE",1,["r",0,1,0]]]],
  "xdelex": [-5,"8.2",0,[["RW DELETE",1,["r",0,1,0]]]],
  "xnack": [-7,"8.8",0,[["RW UPDATE",1,["r",0,1,0]]]],
  "xcfgset": [-2,"8.6",0,[["RW UPDATE",1,["r",0,1,0]]]],
  "delex": [-2,"8.4",0,[["RW DELETE VARIABLE_FLAGS",1,["r",0,1,0]]]],
  "digest": [2,"8.4",0,[["RO ACCESS",1,["r",0,1,0]]]],
  "msetex": [-4,"8.4",0,[["OW UPDATE",1,["n",0,1,2]]]],
};

/**
 * The commands a server of `version` has in its table, as COMMAND LIST names them (a
 * container's subcommands as `container|sub`), sorted; sentinel's commands (sentinel mode only)
 * and the experimental SFLUSH are not in a server's table. `topLevel`: containers and commands
 * only (COMMAND COUNT).
 */
export function redisCommandNames(version: string, topLevel = false): string[] {
  const v = versionNumber(version);
  return Object.keys(TABLE)
    .filter((name) => versionNumber(TABLE[name][1]) <= v && !name.startsWith('sentinel') && name !== 'sflush' && (!topLevel || !name.includes('|')))
    .sort();
}

/** A found key: its position in the command line and its flags (upper-case names, as the specs spell them). */
interface KeyRef {
  readonly pos: number;
  readonly flags: string;
}

const FLAG_ORDER = ['RO', 'RW', 'OW', 'RM', 'ACCESS', 'UPDATE', 'INSERT', 'DELETE', 'NOT_KEY', 'INCOMPLETE', 'VARIABLE_FLAGS'];
const FLAG_NAME: Record<string, string> = { RO: 'RO', RW: 'RW', OW: 'OW', RM: 'RM' };

/** addReplyFlagsForKeyArgs: the flags in Redis's order, `RO`/`RW`/`OW`/`RM` upper case, the others lower case. */
function flagsReply(flags: string): Reply {
  const set = new Set(flags.split(' ').filter(Boolean));
  return new SetReply(FLAG_ORDER.filter((f) => set.has(f)).map((f) => new SimpleString(FLAG_NAME[f] ?? f.toLowerCase())));
}

const versionNumber = (v: string) => {
  const [major, minor] = v.split('.').map(Number);
  return major * 1000 + (minor || 0);
};

/** lookupCommand over a command line: a container's subcommand when there is one (undefined: unknown). */
function lookup(args: readonly string[], version: string): Entry | undefined {
  const name = args[0].toLowerCase();
  let entry: Entry | undefined = TABLE[name];
  if (entry !== undefined && args.length >= 2 && Object.prototype.hasOwnProperty.call(TABLE, `${name}|help`)) entry = TABLE[`${name}|${args[1].toLowerCase()}`];
  if (entry === undefined || versionNumber(entry[1]) > versionNumber(version)) return undefined;
  return entry;
}

const eq = (a: string, b: string) => a.toLowerCase() === b;
const canonical = (a: string) => /^(0|-?[1-9][0-9]{0,18})$/.test(a) && BigInt(a) >= -(2n ** 63n) && BigInt(a) < 2n ** 63n;

/** getKeysUsingKeySpecs; null for an invalid or incomplete spec. */
function keysFromSpecs(specs: readonly KeySpec[], argv: readonly string[], arity: number): KeyRef[] | null {
  const argc = argv.length;
  const out: KeyRef[] = [];
  for (const [flags, bs, fk] of specs) {
    if (flags.split(' ').includes('NOT_KEY')) continue;
    let first = 0;
    if (typeof bs === 'number') first = bs;
    else if (Array.isArray(bs)) {
      const [keyword, startfrom] = bs;
      const start = startfrom > 0 ? startfrom : argc + startfrom;
      const end = startfrom > 0 ? argc - 1 : 1;
      for (let i = start; i !== end; i = start <= end ? i + 1 : i - 1) {
        if (i >= argc || i < 1) break;
        if (eq(argv[i], keyword.toLowerCase())) {
          first = i + 1;
          break;
        }
      }
      if (!first) continue;
    } else return null;
    let last: number;
    let step: number;
    if (fk === null) return null;
    if (fk[0] === 'r') {
      const [, lastkey, keystep, limit] = fk;
      step = keystep;
      if (lastkey >= 0) last = first + lastkey;
      else if (!limit) last = argc + lastkey;
      else last = first + (Math.trunc((argc - first) / limit) + lastkey);
    } else {
      const [, keynumidx, firstkey, keystep] = fk;
      step = keystep;
      if (keynumidx >= argc) return null;
      const text = argv[first + keynumidx];
      if (text === undefined || !canonical(text) || BigInt(text) < 0n) return null;
      first += firstkey;
      // numkeys keys `keystep` apart (MSETEX's pairs, step 2; every older keynum spec has step 1 —
      // assumed: 8.4 spreads them so, as MSETEX's key spec needs)
      last = first + (Number(BigInt(text)) - 1) * keystep;
    }
    if (last >= argc || last < first || first >= argc) return null;
    for (let i = first; i <= last; i += step) {
      if (i >= argc || i < first) {
        if (arity < 0) continue;
      }
      out.push({ pos: i, flags });
    }
    if (flags.split(' ').includes('INCOMPLETE')) return null;
  }
  return out;
}

/** The getkeys procedures Redis falls back on for these commands (db.c), by name. */
function keysFromProc(name: string, argv: readonly string[]): KeyRef[] {
  const argc = argv.length;
  switch (name) {
    case 'sort_ro':
      return [{ pos: 1, flags: 'RO ACCESS' }];
    case 'sort': {
      const keys: KeyRef[] = [{ pos: 1, flags: 'RO ACCESS' }];
      let store: KeyRef | undefined;
      const skip: Record<string, number> = { limit: 2, get: 1, by: 1 };
      for (let i = 2; i < argc; i++) {
        const a = argv[i].toLowerCase();
        if (skip[a] !== undefined) i += skip[a];
        else if (a === 'store' && i + 1 < argc) store = { pos: i + 1, flags: 'OW UPDATE' };
      }
      return store ? [...keys, store] : keys;
    }
    case 'migrate': {
      let first = 3;
      let num = 1;
      const skip: Record<string, number> = { copy: 0, replace: 0, auth: 1, auth2: 2 };
      if (argc > 6) {
        for (let i = 6; i < argc; i++) {
          const a = argv[i].toLowerCase();
          if (a === 'keys') {
            if (argv[3].length > 0) num = 0;
            else {
              first = i + 1;
              num = argc - first;
            }
            break;
          }
          if (skip[a] !== undefined) i += skip[a];
        }
      }
      return Array.from({ length: num }, (_, i) => ({ pos: first + i, flags: 'RW ACCESS DELETE' }));
    }
    case 'set': {
      // 8.4's setGetKeys (redis #14529): an IF* condition reads the value (RW; assumed without ACCESS)
      let conditional = false;
      for (let i = 3; i < argc; i++) {
        if (eq(argv[i], 'get')) return [{ pos: 1, flags: 'RW ACCESS UPDATE' }];
        if (/^ifd?(eq|ne)$/i.test(argv[i])) conditional = true;
      }
      return [{ pos: 1, flags: conditional ? 'RW UPDATE' : 'OW UPDATE' }];
    }
    case 'delex':
      // delexGetKeys (redis #14529): a plain DELEX removes blindly as DEL (RM), a conditional one reads (RW)
      return [{ pos: 1, flags: argc > 2 ? 'RW DELETE' : 'RM DELETE' }];
    case 'bitfield': {
      let readonly = true;
      for (let i = 2; i < argc; i++) {
        const rem = argc - i - 1;
        const a = argv[i].toLowerCase();
        if (a === 'get' && rem >= 2) i += 2;
        else if ((a === 'set' || a === 'incrby') && rem >= 3) {
          readonly = false;
          break;
        } else if (a === 'overflow' && rem >= 1) i += 1;
        else {
          readonly = false;
          break;
        }
      }
      return [{ pos: 1, flags: readonly ? 'RO ACCESS' : 'RW ACCESS UPDATE' }];
    }
    default:
      return [];
  }
}

/**
 * COMMAND GETKEYS / GETKEYSANDFLAGS `argv` (argv[0] 'command', argv[1] the subcommand) as the
 * server of `version` answers it. Errors: `ERR Invalid command specified`, `ERR The command has no
 * key arguments`, `ERR Invalid number of arguments specified for command`, `ERR Invalid arguments
 * specified for command`.
 */
export function getKeysReply(argv: readonly string[], version: string, withFlags: boolean): Reply {
  const args = argv.slice(2);
  const entry = lookup(args, version);
  if (entry === undefined) return fail('ERR Invalid command specified');
  const specs = entry.length === 4 ? entry[3] : [];
  if (!specs.some(([flags]) => !flags.split(' ').includes('NOT_KEY'))) return fail('ERR The command has no key arguments');
  const arity = entry[0];
  if ((arity > 0 && arity !== args.length) || args.length < -arity) return fail('ERR Invalid number of arguments specified for command');
  const name = args[0].toLowerCase();
  const variable = specs.some(([flags]) => flags.split(' ').includes('VARIABLE_FLAGS'));
  const keys = (!variable && keysFromSpecs(specs, args, arity)) || keysFromProc(name, args);
  if (keys.length === 0) {
    if (entry.length === 4 && entry[2] === 1) return [];
    return fail('ERR Invalid arguments specified for command');
  }
  return keys.map((k) => (withFlags ? [args[k.pos], flagsReply(k.flags)] : args[k.pos]));
}

/**
 * The key arguments of a command line (argv[0] the command) with their key-spec flags, as
 * getKeysFromCommandWithSpecs finds them for ACL checks (acl.c ACLSelectorCheckCmd): `pos` the
 * argv index, `flags` the spec's flag words (RO/RW/OW/RM, ACCESS, UPDATE, INSERT, DELETE …).
 * Empty for a command without keys or one the version lacks.
 */
export function commandKeyRefs(argv: readonly string[], version: string): { pos: number; flags: string }[] {
  const entry = lookup(argv, version);
  if (entry === undefined || entry.length !== 4) return [];
  const specs = entry[3];
  const variable = specs.some(([flags]) => flags.split(' ').includes('VARIABLE_FLAGS'));
  return (!variable && keysFromSpecs(specs, argv, entry[0])) || keysFromProc(argv[0].toLowerCase(), argv);
}

/** Redis's arity of a command or `container|sub` (undefined when the table lacks it). */
export function redisArity(fullName: string): number | undefined {
  return Object.prototype.hasOwnProperty.call(TABLE, fullName) ? TABLE[fullName][0] : undefined;
}

/** Key spec notes Redis's json gives (COMMAND INFO shows them first in the spec's map). */
const KEY_SPEC_NOTES: Record<string, string> = {
  hgetex: 'RW and UPDATE because it changes the TTL',
};

/**
 * COMMAND INFO's key specs of `fullName` from this table (server.c addReplyCommandKeySpecs):
 * per spec a map of `notes` (when given), `flags`, `begin_search` (`index` / `keyword` /
 * `unknown`) and `find_keys` (`range` / `keynum` / `unknown`); a set, empty for a command with
 * none or one the table lacks. For the commands the recorded servers do not have (8.x's
 * HGETDEL … XNACK), whose entries the fake builds itself.
 */
export function keySpecsReply(fullName: string): Reply {
  const entry = Object.prototype.hasOwnProperty.call(TABLE, fullName) ? TABLE[fullName] : undefined;
  const specs = entry !== undefined && entry.length === 4 ? entry[3] : undefined;
  if (specs === undefined) return new SetReply([]);
  const notes = Object.prototype.hasOwnProperty.call(KEY_SPEC_NOTES, fullName) ? KEY_SPEC_NOTES[fullName] : undefined;
  return new SetReply(
    specs.map(([flags, begin, find]) => {
      const beginSearch =
        begin === null
          ? new MapReply(['type', 'unknown', 'spec', new MapReply([])])
          : typeof begin === 'number'
            ? new MapReply(['type', 'index', 'spec', new MapReply(['index', begin])])
            : new MapReply(['type', 'keyword', 'spec', new MapReply(['keyword', begin[0], 'startfrom', begin[1]])]);
      const findKeys =
        find === null
          ? new MapReply(['type', 'unknown', 'spec', new MapReply([])])
          : find[0] === 'r'
            ? new MapReply(['type', 'range', 'spec', new MapReply(['lastkey', find[1], 'keystep', find[2], 'limit', find[3]])])
            : new MapReply(['type', 'keynum', 'spec', new MapReply(['keynumidx', find[1], 'firstkey', find[2], 'keystep', find[3]])]);
      return new MapReply([...(notes === undefined ? [] : ['notes', notes]), 'flags', flagsReply(flags), 'begin_search', beginSearch, 'find_keys', findKeys]);
    }),
  );
}
