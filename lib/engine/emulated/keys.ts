/**
 * Keys as the ioredis-mock emulator bridge sees them. The store holds keys as byte strings
 * (lib/bytes): an argument given as a JS string is its UTF-8 bytes, a Buffer its bytes.
 */

/** The store key of a key argument given as a byte string (one char per byte). */
export function storeKeyOfBytes(key: string): string {
  return key;
}
