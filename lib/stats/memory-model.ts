/**
 * The fake's model of `used_memory` (INFO memory) and of what `maxmemory` compares with: a
 * fixed baseline (an empty server) plus a rough KEY_MEMORY bytes per key of every database.
 * Evicting a key frees KEY_MEMORY (lib/engine/maxmemory.ts). Not Redis's allocator figure: what
 * matters is that `maxmemory 1` is always exceeded and `maxmemory 0` never.
 */

/** used_memory of an empty server. */
export const BASE_MEMORY = 900000;
/** What one key adds to used_memory. */
export const KEY_MEMORY = 100;

/** used_memory with `keys` keys in all. */
export function usedMemoryFor(keys: number): number {
  return BASE_MEMORY + KEY_MEMORY * keys;
}
