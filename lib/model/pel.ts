/**
 * Pending entries (Redis `streamNACK`) and the ordered maps that hold them.
 *
 * One `PendingEntry` object per ID is shared by the group PEL and by its consumer's PEL
 * (as Redis shares one streamNACK between the two radix trees).
 */
import { IdMap } from './id-map';
import type { StreamId } from './stream-id';
import type { Consumer } from './consumer';


export interface PendingEntry {
  readonly id: StreamId;
  /** Unix time in ms of the last delivery (0 after XNACK, Redis 8.8). */
  deliveryTime: number;
  /** Times delivered; unsigned 64-bit in Redis. */
  deliveryCount: bigint;
  /** Owner; null for an unowned entry (XNACK'd, Redis 8.8). */
  consumer: Consumer | null;
  /** Position in the NACK zone (Redis 8.8): 0 when not NACKed, else increasing NACK order. */
  nackSeq: number;
}

/** A new ID-ordered map: O(log n) insert, delete and seek (see ./id-map.ts). */
export function newIdMap<V>(): IdMap<V> {
  return new IdMap<V>();
}

/**
 * Iterate `map` from the first key >= `from` in ascending order. Safe against the caller
 * deleting the yielded key (each step re-seeks in O(log n)).
 */
export function* iterateFrom<V>(map: IdMap<V>, from: StreamId): Generator<[StreamId, V]> {
  let pair = map.getPairOrNextHigher(from);
  while (pair) {
    const [k, v] = pair;
    yield [k, v];
    pair = map.nextHigherPair(k);
  }
}

const INT64_MAX = (1n << 63n) - 1n;

/**
 * Redis replies with a delivery count through `addReplyLongLong`: the unsigned 64-bit counter
 * read as signed (the counter itself below 2^63: no new BigInt per PEL row of XPENDING/XINFO).
 */
export function deliveryCountReply(count: bigint): bigint {
  return count <= INT64_MAX ? count : BigInt.asIntN(64, count);
}

/** Delivery count + 1, wrapping at 2^64 like Redis's uint64_t. */
export function nextDeliveryCount(count: bigint): bigint {
  return BigInt.asUintN(64, count + 1n);
}
