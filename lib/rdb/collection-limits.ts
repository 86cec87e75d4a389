/**
 * The limits Redis reads when a list, set, sorted set or hash grows, deciding its encoding
 * (`list-max-listpack-size`, `set-max-intset-entries`, `set-max-listpack-*`,
 * `hash-max-listpack-*`, `zset-max-listpack-*`): DUMP's encodings (./collections.ts) and the
 * sorted-set reply texts (lib/commands/zset-common.ts) follow them.
 */
/** The limits Redis reads when elements are added (CONFIG parameters). */
export interface CollectionLimits {
  listMaxListpackSize: number;
  hashMaxListpackEntries: number;
  hashMaxListpackValue: number;
  setMaxIntsetEntries: number;
  setMaxListpackEntries: number;
  setMaxListpackValue: number;
  zsetMaxListpackEntries: number;
  zsetMaxListpackValue: number;
}

export const DEFAULT_COLLECTION_LIMITS: CollectionLimits = Object.freeze({
  listMaxListpackSize: -2,
  hashMaxListpackEntries: 512,
  hashMaxListpackValue: 64,
  setMaxIntsetEntries: 512,
  setMaxListpackEntries: 128,
  setMaxListpackValue: 64,
  zsetMaxListpackEntries: 128,
  zsetMaxListpackValue: 64,
});
