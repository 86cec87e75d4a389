/**
 * What `redis.call`/`redis.pcall` refuse, and with which texts (script.c `scriptCall`,
 * checked on redis-server 7.0.15; same in the 8.x sources).
 */
export const ERR_UNKNOWN_FROM_SCRIPT = 'ERR Unknown Redis command called from script';
export const ERR_ARITY_FROM_SCRIPT = 'ERR Wrong number of args calling Redis command from script';
export const ERR_NOT_ALLOWED_FROM_SCRIPT = 'ERR This Redis command is not allowed from script';

/**
 * Commands ioredis-mock emulates (or names a script may try) that carry Redis's `noscript`
 * flag: refused with "This Redis command is not allowed from script" (each checked on
 * redis-server 7.0.15, EVAL/FCALL variants by their flag). The engine's own commands carry
 * the flag in their specs (`noScript`).
 */
export const DENIED_IN_SCRIPTS = new Set([
  'auth', 'bgrewriteaof', 'bgsave', 'client', 'config', 'discard', 'eval', 'eval_ro', 'evalsha',
  'evalsha_ro', 'exec', 'failover', 'fcall', 'fcall_ro', 'function', 'monitor', 'multi',
  'psubscribe', 'punsubscribe', 'quit', 'replconf', 'replicaof', 'role', 'save', 'script',
  'slaveof', 'ssubscribe', 'subscribe', 'sync', 'unsubscribe', 'unwatch', 'watch',
]);
