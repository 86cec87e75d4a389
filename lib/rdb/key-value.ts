/** The value of a key as DUMP, RESTORE and COPY handle it, whatever its type. */
import type { SetEncoding } from '../model/set';
import type { Stream } from '../model/stream';

/**
 * A key's value for DUMP/RESTORE/COPY. Byte strings are JS strings with one char per byte.
 * Lists, sets and hashes keep their element order; a sorted set is its members with their
 * scores (any order). A set may name its encoding: an engine set's own (DUMP writes it, COPY
 * keeps it; `intsetWidth` is the intset's element width), or the payload's when RESTORE read an
 * intset or listpack. Without one (an ioredis-mock Set, or a payload's plain member list) DUMP
 * and RESTORE derive it from the members and the limits, as Redis loads such a list.
 */
export type KeyValue =
  | { readonly type: 'stream'; readonly value: Stream }
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'list'; readonly value: readonly string[] }
  | { readonly type: 'set'; readonly value: readonly string[]; readonly encoding?: SetEncoding; readonly intsetWidth?: 2 | 4 | 8 }
  | {
      readonly type: 'zset';
      readonly value: readonly (readonly [member: string, score: number])[];
      /**
       * The engine sorted set's own encoding (DUMP writes it, COPY keeps it): a skiplist stays one
       * however small it became (SORT converts, shrinking never converts back). Absent: derived
       * from the size and the limits, as Redis loads a payload.
       */
      readonly listpack?: boolean;
    }
  | {
      readonly type: 'hash';
      readonly value: readonly (readonly [field: string, value: string])[];
      /**
       * Field TTLs (Redis 7.4 hash field expiration): field → absolute expiry in ms. COPY keeps
       * them; DUMP does not encode them yet (the payload is that of a hash without TTLs).
       */
      readonly fieldExpiries?: ReadonlyMap<string, number>;
      /** The engine hash's own encoding (DUMP writes it): absent, derived as for a sorted set. */
      readonly listpack?: boolean;
      /**
       * A listpack with TTLs (7.4 OBJ_ENCODING_LISTPACK_EX), also when no field has one any more:
       * the encoding stays once a field-expiry command reached the hash, and DUMP writes type 25.
       */
      readonly listpackEx?: boolean;
    };
