/** The value of a key as DUMP, RESTORE and COPY handle it, whatever its type. */
import type { Stream } from '../model/stream';

/**
 * A key's value for DUMP/RESTORE/COPY. Byte strings are JS strings with one char per byte.
 * Lists, sets and hashes keep ioredis-mock's element order; a sorted set is its members with
 * their scores (any order).
 */
export type KeyValue =
  | { readonly type: 'stream'; readonly value: Stream }
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'list'; readonly value: readonly string[] }
  | { readonly type: 'set'; readonly value: readonly string[] }
  | { readonly type: 'zset'; readonly value: readonly (readonly [member: string, score: number])[] }
  | {
      readonly type: 'hash';
      readonly value: readonly (readonly [field: string, value: string])[];
      /**
       * Field TTLs (Redis 7.4 hash field expiration): field → absolute expiry in ms. COPY keeps
       * them; DUMP does not encode them yet (the payload is that of a hash without TTLs).
       */
      readonly fieldExpiries?: ReadonlyMap<string, number>;
    };
