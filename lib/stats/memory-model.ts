/**
 * The fake's model of `used_memory` (INFO memory) and of what `maxmemory` compares with (MEMORY
 * USAGE: lib/stats/object-size.ts, object.c's figure, which falls back on this for values it does
 * not size and borrows its stream sizing): a fixed baseline (an empty server) plus the bytes of every key and its value,
 * figured as Redis roughly allocates them (measured with MEMORY USAGE and INFO's used_memory on
 * 7.0.15 and the post-7.4 build): a string of n bytes about n + 56; a listpack (small hash, set,
 * sorted set, every list) about its elements' bytes plus 2 each (a sorted set's score another 9);
 * a hash table entry about 48 bytes more than its bytes (a skiplist node 90); a stream as object.c
 * figures it (streamBytes). So a 200 KB SETBIT value counts as 200 KB, not as one small key.
 *
 * Cheap by construction: an aggregate's size is its element count times the average size of up to
 * SAMPLES of its elements (Redis's MEMORY USAGE samples 5 too), so sizing a key costs O(1)
 * whatever its length; the totals are kept per key and refreshed only for keys modified since
 * (lib/stats/key-sizes.ts), never by walking the keyspace per command. Not Redis's allocator
 * figure: what matters is the order of magnitude, that `maxmemory 1` is always exceeded and
 * `maxmemory 0` never.
 */
import { Stream } from '../model/stream';
import { RedisHash } from '../model/hash';
import { RedisList } from '../model/list';
import { RedisSet } from '../model/set';
import { RedisZset } from '../model/zset';
import { predates, type RedisVersion } from '../version';

/** used_memory of an empty server. */
export const BASE_MEMORY = 900000;
/** Bytes of a key entry without its value (dictEntry, robj, sds headers), roughly. */
export const KEY_OVERHEAD = 56;
/** Elements sampled to size an aggregate (MEMORY USAGE's default SAMPLES). */
const SAMPLES = 5;
/** Bytes of a listpack entry besides its content. */
const LISTPACK_ENTRY = 2;
/** Bytes of a hash table entry besides its content (dictEntry, two sds headers). */
const TABLE_ENTRY = 48;
/** Bytes of a skiplist entry besides its member (node, levels, dict entry, score). */
const SKIPLIST_ENTRY = 90;

/** sizeof(robj) + sizeof(stream) (object.c objectComputeSize's first line for a stream). */
const STREAM_STRUCT = 96;
/** A listpack of a stream starts at this allocation (t_stream.c STREAM_LISTPACK_MAX_PRE_ALLOCATE). */
const STREAM_LISTPACK_PREALLOC = 4096;
/** t_stream.c streamRadixTreeMemoryUsage: per element (a stream ID) and per node (raxNode + its fixed overhead). */
const RAX_ELEMENT = 16;
const RAX_NODE = 4 + 8 * 30;
/** sizeof(streamCG), sizeof(streamNACK) (stream.h; the same from 7.0 on). */
const STREAM_GROUP = 40;
const STREAM_NACK = 24;
/** sizeof(streamConsumer): seen-time, name, PEL; 7.2 added active-time. */
const STREAM_CONSUMER_7_0 = 24;
const STREAM_CONSUMER = 32;

/**
 * object.c objectComputeSize for a stream: the structs, the rax of macro nodes, the listpacks —
 * as allocated: the open (last) node pre-allocated to 4096 bytes (or stream-node-max-bytes when
 * smaller), full nodes shrunk to their bytes; the first `take` nodes sampled, their average for
 * all but the last — and each consumer group's PEL and each consumer's. With `version` (MEMORY
 * USAGE: lib/stats/object-size.ts, with the allocator's sizes as `usable`) a PEL counts the nodes
 * of Redis's radix tree of its IDs, as object.c's streamRadixTreeMemoryUsage does, and the
 * consumer struct is that version's; without (used_memory, which must stay O(1) per key: within a
 * few percent of both servers here for streams of 1 to 1000 entries) about two nodes per entry.
 */
export function streamBytes(stream: Stream, take: number, usable: (n: number) => number = (n) => n, version?: RedisVersion): number {
  const entries = stream.entries;
  const nodes = entries.nodeCount;
  let bytes = STREAM_STRUCT + RAX_ELEMENT * nodes + RAX_NODE * entries.radixTreeNodes;
  if (nodes > 0) {
    const maxBytes = entries.maxBytesPerNode;
    const prealloc = maxBytes > 0 && maxBytes < STREAM_LISTPACK_PREALLOC ? maxBytes : STREAM_LISTPACK_PREALLOC;
    const allocated = (n: number) => {
      const b = entries.nodeBytes(n) ?? 0;
      return usable(n === nodes - 1 ? Math.max(b, prealloc) : b);
    };
    const sampled = Math.min(nodes, take);
    let sum = 0;
    for (let n = 0; n < sampled; n++) sum += allocated(n);
    bytes += nodes <= sampled ? sum : Math.floor(sum / sampled) * (nodes - 1) + allocated(nodes - 1);
  }
  const consumerStruct = version !== undefined && predates(version, '7.2') ? STREAM_CONSUMER_7_0 : STREAM_CONSUMER;
  for (const group of stream.groups.values()) {
    const pending = group.pel.size;
    const groupNodes = version !== undefined ? group.pelRaxNodes() : 2 * pending + 1;
    bytes += STREAM_GROUP + RAX_ELEMENT * pending + RAX_NODE * groupNodes + STREAM_NACK * pending;
    for (const consumer of group.consumers.values()) {
      const own = consumer.pel.size;
      const nodes = version !== undefined ? group.consumerPelRaxNodes(consumer) : 2 * own + 1;
      bytes += consumerStruct + consumer.name.length + RAX_ELEMENT * own + RAX_NODE * nodes;
    }
  }
  return bytes;
}

/** used_memory with `bytes` of keys and values in all. */
export function usedMemoryFor(bytes: number): number {
  return BASE_MEMORY + bytes;
}

/** `count` × the average of `sizes` (an empty sample: 0). */
function extrapolate(count: number, sizes: number[]): number {
  if (sizes.length === 0) return 0;
  let sum = 0;
  for (const s of sizes) sum += s;
  return Math.round((sum / sizes.length) * count);
}

/** Bytes of one element of an ioredis-mock shape (a string, number, Buffer). */
function textBytes(x: unknown): number {
  return Buffer.isBuffer(x) ? x.length : String(x).length;
}

/**
 * The approximate bytes of `value` stored at `key`, key entry included (MEMORY USAGE). O(1) in
 * the value's length: an aggregate is sized from up to SAMPLES elements, or every element when
 * `samples` is 0 (MEMORY USAGE … SAMPLES 0).
 */
export function keyBytes(key: string, value: unknown, samples = SAMPLES): number {
  const base = KEY_OVERHEAD + key.length;
  const take = samples <= 0 ? Infinity : samples;
  if (typeof value === 'string') return base + value.length;
  if (typeof value === 'number') return base + 8;
  if (value instanceof RedisList) {
    const n = value.length;
    const sizes: number[] = [];
    for (let i = 0; i < n && i < take; i++) sizes.push(value.at(i).length + LISTPACK_ENTRY);
    return base + extrapolate(n, sizes);
  }
  if (value instanceof RedisHash) {
    const per = value.encoding() === 'hashtable' ? TABLE_ENTRY : 2 * LISTPACK_ENTRY;
    const sizes: number[] = [];
    for (const e of value.entries()) {
      if (sizes.length >= take) break;
      sizes.push(e.field.length + e.value.length + per);
    }
    return base + extrapolate(value.size, sizes);
  }
  if (value instanceof RedisSet) {
    const n = value.size;
    const enc = value.encoding();
    if (enc === 'intset') return base + n * value.intsetWidth;
    const sizes: number[] = [];
    if (enc === 'listpack') for (let i = 0; i < n && i < take; i++) sizes.push(value.at(i).length + LISTPACK_ENTRY);
    else if (take === Infinity) for (const m of value.members()) sizes.push(m.length + TABLE_ENTRY);
    else for (let i = 0; i < n && i < take; i++) sizes.push(value.random((k) => Math.floor(Math.random() * k)).length + TABLE_ENTRY);
    return base + extrapolate(n, sizes);
  }
  if (value instanceof RedisZset) {
    const n = value.size;
    const per = value.listpack ? 2 * LISTPACK_ENTRY + 9 : SKIPLIST_ENTRY;
    const sizes: number[] = [];
    for (let i = 0; i < n && i < take; i++) sizes.push((value.at(i)?.[0].length ?? 0) + per);
    return base + extrapolate(n, sizes);
  }
  if (value instanceof Stream) return base + streamBytes(value, take);
  if (Buffer.isBuffer(value)) return base + value.length;
  if (Array.isArray(value)) {
    const sizes: number[] = [];
    for (let i = 0; i < value.length && i < take; i++) sizes.push(textBytes(value[i]) + LISTPACK_ENTRY);
    return base + extrapolate(value.length, sizes);
  }
  if (value instanceof Set || value instanceof Map) {
    const sizes: number[] = [];
    for (const x of value.keys()) {
      if (sizes.length >= take) break;
      sizes.push(textBytes(x) + TABLE_ENTRY);
    }
    return base + extrapolate(value.size, sizes);
  }
  if (typeof value === 'object' && value !== null) {
    const o = value as { len?: unknown; size?: unknown; length?: unknown };
    // a byte buffer of the engine (HyperLogLog's HllBuffer: `len` bytes used)
    if (typeof o.len === 'number') return base + o.len;
    const n = typeof o.size === 'number' ? o.size : typeof o.length === 'number' ? o.length : 1;
    return base + n * 32;
  }
  return base + 8;
}
