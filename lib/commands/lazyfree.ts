/**
 * lazyfree.c: the effort of freeing a value (lazyfreeGetFreeEffort) and whether UNLINK (or DEL
 * with lazyfree-lazy-user-del yes) hands it to the lazyfree thread: an effort above
 * LAZYFREE_THRESHOLD (64). The thread's work is instant here; INFO `lazyfreed_objects` counts it.
 * - a list held as a quicklist: its nodes (quicklist->len, the model's node shapes; 7.0 keeps
 *   them as 7.2+ does once the list passed one node);
 * - a set or hash held as a hashtable, a sorted set as a skiplist: its size;
 * - a stream: its radix tree nodes, plus, with consumer groups, groups × (1 + the PEL size of
 *   the first group in name order);
 * - anything else (listpack, intset, string …): 1.
 */
import type { RedisVersion } from '../version';
import type { ServerConfig } from '../config/server-config';
import { RedisList } from '../model/list';
import { Stream } from '../model/stream';
import { redisTypeOf } from '../model/value-type';
import { encodingOf } from './object';

const LAZYFREE_THRESHOLD = 64;

export function freeEffort(value: unknown, config: ServerConfig | undefined, version: RedisVersion): number {
  if (value instanceof Stream) {
    let effort = value.entries.radixTreeNodes;
    if (value.groups.size > 0) {
      let first: string | undefined;
      for (const name of value.groups.keys()) if (first === undefined || name < first) first = name;
      effort += value.groups.size * (1 + value.groups.get(first!)!.pel.size);
    }
    return effort;
  }
  if (value instanceof RedisList) return value.quicklistNodes;
  const type = redisTypeOf(value);
  if (type !== 'set' && type !== 'hash' && type !== 'zset') return 1;
  const encoding = encodingOf(value, config, version);
  if (encoding !== 'hashtable' && encoding !== 'skiplist') return 1;
  return (value as { size: number }).size;
}

/** True when freeing `value` goes to the lazyfree thread (freeObjAsync). */
export function freedLazily(value: unknown, config: ServerConfig | undefined, version: RedisVersion): boolean {
  return freeEffort(value, config, version) > LAZYFREE_THRESHOLD;
}
