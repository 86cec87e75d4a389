/**
 * Redis Cluster's key hashing (cluster.c): CRC16-CCITT (XMODEM), the hash slot of a key with its
 * `{…}` hash tag, and the slot of a SORT BY/GET pattern (patternHashSlot). Byte strings: one char
 * per byte.
 */

/** The byte table, made on the first use (not at every load of the package: once per jest test file). */
let CRC16_TABLE: Uint16Array | null = null;

function crc16Table(): Uint16Array {
  const t = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let crc = i << 8;
    for (let j = 0; j < 8; j++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    t[i] = crc;
  }
  return t;
}

/** CRC16-CCITT (XMODEM) of a byte string (one char per byte), as cluster.c crc16. */
export function crc16(s: string, start = 0, end = s.length): number {
  const table = (CRC16_TABLE ??= crc16Table());
  let crc = 0;
  for (let i = start; i < end; i++) crc = ((crc << 8) & 0xffff) ^ table[((crc >> 8) ^ s.charCodeAt(i)) & 0xff];
  return crc;
}

/** The hash slot of a key (a byte string), hash tags as Redis reads them. */
export function keyHashSlot(key: string): number {
  const open = key.indexOf('{');
  if (open >= 0) {
    const close = key.indexOf('}', open + 1);
    if (close > open + 1) return crc16(key, open + 1, close) & 0x3fff;
  }
  return crc16(key) & 0x3fff;
}


/**
 * The slot every key a SORT BY/GET pattern forms hashes to, or -1 when they may hash to several
 * (a wildcard or escape before a complete tag): cluster.c patternHashSlot (Redis 7.4+).
 */
export function patternHashSlot(pattern: string): number {
  let s = -1; // index of the first '{'
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*' || c === '?' || c === '[' || c === '\\') return -1;
    if (s === -1 && c === '{') s = i;
    else if (s >= 0 && c === '}' && i === s + 1) s = -2; // empty tag: the whole key is hashed
    else if (s >= 0 && c === '}') return crc16(pattern, s + 1, i) & 0x3fff;
  }
  return crc16(pattern) & 0x3fff;
}
