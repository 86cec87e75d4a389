/**
 * Payload bodies in the pre-7.0 encodings (ziplists, zipmaps, quicklists of ziplists, the plain
 * list) and the 7.4 release candidates' hashes with field TTLs, well-formed and mutated, built
 * byte by byte (no server writes them any more): shared by
 * restore-loads-old-encodings-and-refuses-malformed-ones.test.ts.
 */

/** A ziplist entry's encoding and data for a value (strings up to 16383 bytes). */
function zlData(v: string | number | bigint): number[] {
  if (typeof v === 'string') {
    const b = [...Buffer.from(v, 'latin1')];
    return b.length < 64 ? [b.length, ...b] : [0x40 | (b.length >> 8), b.length & 0xff, ...b];
  }
  const n = BigInt(v);
  if (n >= 0n && n <= 12n) return [0xf1 + Number(n)];
  const le = (bytes: number) => {
    const out: number[] = [];
    let x = BigInt.asUintN(bytes * 8, n);
    for (let i = 0; i < bytes; i++, x >>= 8n) out.push(Number(x & 0xffn));
    return out;
  };
  if (n >= -128n && n <= 127n) return [0xfe, ...le(1)];
  if (n >= -32768n && n <= 32767n) return [0xc0, ...le(2)];
  if (n >= -(2n ** 23n) && n < 2n ** 23n) return [0xf0, ...le(3)];
  if (n >= -(2n ** 31n) && n < 2n ** 31n) return [0xd0, ...le(4)];
  return [0xe0, ...le(8)];
}

/** A well-formed ziplist of `values` (raw entries: `[encoding+data bytes]` as given by zlData). */
export function ziplist(values: (string | number | bigint)[], options: { count?: number } = {}): number[] {
  const entries: number[] = [];
  let prevSize = 0;
  let tail = 10;
  for (const v of values) {
    tail = 10 + entries.length;
    const prev = prevSize < 254 ? [prevSize] : [0xfe, prevSize & 0xff, (prevSize >> 8) & 0xff, (prevSize >> 16) & 0xff, prevSize >>> 24];
    const e = [...prev, ...zlData(v)];
    entries.push(...e);
    prevSize = e.length;
  }
  const total = 10 + entries.length + 1;
  const u32 = (x: number) => [x & 0xff, (x >> 8) & 0xff, (x >> 16) & 0xff, x >>> 24];
  const count = options.count ?? values.length;
  return [...u32(total), ...u32(tail), count & 0xff, count >> 8, ...entries, 0xff];
}

/** A zipmap of `pairs`, each value followed by `free` pad bytes. */
export function zipmap(pairs: [string, string][], options: { count?: number; free?: number } = {}): number[] {
  const out = [options.count ?? pairs.length];
  const free = options.free ?? 0;
  for (const [f, v] of pairs) {
    out.push(f.length, ...Buffer.from(f, 'latin1'), v.length, free, ...Buffer.from(v, 'latin1'), ...new Array<number>(free).fill(0));
  }
  out.push(0xff);
  return out;
}

/** An RDB string of raw bytes (6-bit or 14-bit length). */
export function rdbString(bytes: number[]): number[] {
  return bytes.length < 64 ? [bytes.length, ...bytes] : [0x40 | (bytes.length >> 8), bytes.length & 0xff, ...bytes];
}

/** Body = type byte + value. */
export const body = (type: number, ...parts: number[][]): number[] => [type, ...parts.flat()];

const zl = (values: (string | number | bigint)[]) => rdbString(ziplist(values));
/** `ziplist(values)` with `edit` applied to its bytes. */
const zlEdit = (values: (string | number | bigint)[], edit: (b: number[]) => void) => {
  const b = ziplist(values);
  edit(b);
  return rdbString(b);
};

/** [name, body, command reading the key back]. */
export const OLD_ENCODING_CASES: [string, number[], string[]][] = [
  ['list (type 1)', body(1, [3], rdbString([0x61]), rdbString([0x62, 0x63]), [0xc0, 7]), ['LRANGE', 'k', '0', '-1']],
  ['list (type 1), empty', body(1, [0]), ['LRANGE', 'k', '0', '-1']],
  ['list ziplist (type 10), every integer width', body(10, zl(['a', 'bc', 0, 12, 13, -128, 300, -70000, 2 ** 31, -(2n ** 62n), 'x'.repeat(70)])), ['LRANGE', 'k', '0', '-1']],
  ['list ziplist (type 10), zllen 65535 (unknown)', body(10, rdbString(ziplist(['a', 'b'], { count: 0xffff }))), ['LRANGE', 'k', '0', '-1']],
  ['list ziplist (type 10), empty', body(10, zl([])), ['LRANGE', 'k', '0', '-1']],
  ['list ziplist (type 10), zllen wrong', body(10, rdbString(ziplist(['a', 'b'], { count: 3 }))), ['LRANGE', 'k', '0', '-1']],
  ['list ziplist (type 10), zlbytes wrong', body(10, zlEdit(['a', 'b'], (b) => (b[0] += 1))), ['LRANGE', 'k', '0', '-1']],
  ['list ziplist (type 10), zltail not on the last entry', body(10, zlEdit(['a', 'b'], (b) => (b[4] -= 1))), ['LRANGE', 'k', '0', '-1']],
  ['list ziplist (type 10), prevlen wrong', body(10, zlEdit(['a', 'b'], (b) => (b[13] = 2))), ['LRANGE', 'k', '0', '-1']],
  ['list ziplist (type 10), invalid integer encoding 0xc1', body(10, zlEdit(['a', 300], (b) => (b[14] = 0xc1))), ['LRANGE', 'k', '0', '-1']],
  ['list ziplist (type 10), a string running past the end', body(10, zlEdit(['a', 'bc'], (b) => (b[14] = 5))), ['LRANGE', 'k', '0', '-1']],
  ['list ziplist (type 10), no end byte', body(10, zlEdit(['a', 'b'], (b) => (b[b.length - 1] = 0))), ['LRANGE', 'k', '0', '-1']],
  ['list ziplist (type 10), too short', body(10, rdbString([10, 0, 0, 0, 10, 0, 0, 0, 0, 0])), ['LRANGE', 'k', '0', '-1']],
  ['quicklist of ziplists (type 14), an empty node skipped', body(14, [3], zl(['a', 1]), zl([]), zl(['b'])), ['LRANGE', 'k', '0', '-1']],
  ['quicklist of ziplists (type 14), only empty nodes', body(14, [1], zl([])), ['LRANGE', 'k', '0', '-1']],
  ['quicklist of ziplists (type 14), a corrupt node', body(14, [2], zl(['a']), zlEdit(['b'], (b) => (b[8] = 2))), ['LRANGE', 'k', '0', '-1']],
  ['hash ziplist (type 13)', body(13, zl(['f', 'v', 'g', 7, 5, 'x'])), ['HGETALL', 'k']],
  ['hash ziplist (type 13), odd count', body(13, zl(['f', 'v', 'g'])), ['HGETALL', 'k']],
  ['hash ziplist (type 13), duplicate field', body(13, zl(['f', 'v', 'f', 'w'])), ['HGETALL', 'k']],
  ['hash ziplist (type 13), empty', body(13, zl([])), ['HGETALL', 'k']],
  ['hash ziplist (type 13), empty string (6.x hash ziplist stub)', body(13, [0]), ['HGETALL', 'k']],
  ['zset ziplist (type 12)', body(12, zl(['c', '-inf', 'a', '1.5', 'b', 2])), ['ZRANGE', 'k', '0', '-1', 'WITHSCORES']],
  ['zset ziplist (type 12), duplicate member', body(12, zl(['a', 1, 'a', 2])), ['ZRANGE', 'k', '0', '-1', 'WITHSCORES']],
  ['zipmap (type 9)', body(9, rdbString(zipmap([['f', 'v'], ['gg', 'ww']], { free: 2 }))), ['HGETALL', 'k']],
  ['zipmap (type 9), count 254 (unknown)', body(9, rdbString(zipmap([['f', 'v']], { count: 254 }))), ['HGETALL', 'k']],
  ['zipmap (type 9), count wrong', body(9, rdbString(zipmap([['f', 'v']], { count: 2 }))), ['HGETALL', 'k']],
  ['zipmap (type 9), duplicate field', body(9, rdbString(zipmap([['f', 'v'], ['f', 'w']]))), ['HGETALL', 'k']],
  ['zipmap (type 9), empty', body(9, rdbString(zipmap([]))), ['HGETALL', 'k']],
  ['zipmap (type 9), a value running past the end', body(9, rdbString(zipmap([['f', 'v']], { free: 0 }).map((x, i) => (i === 3 ? 9 : x)))), ['HGETALL', 'k']],
  ['hash with field TTLs, 7.4 RC (type 22)', body(22, [2], [0x81, 0, 0, 3, 0xbb, 0x2c, 0xc3, 0xd8, 0], rdbString([0x62]), rdbString([0x32]), [0], rdbString([0x61]), rdbString([0x31])), ['HPEXPIRETIME', 'k', 'FIELDS', '2', 'a', 'b']],
  ['hash listpack with field TTLs, 7.4 RC (type 23)', [23, ...[0x24, 0x24, 0, 0, 0, 9, 0, 0x81, 0x62, 2, 2, 1, 0xf4, 0, 0xd8, 0xc3, 0x2c, 0xbb, 3, 0, 0, 9, 0x81, 0x61, 2, 1, 1, 0, 1, 0x81, 0x63, 2, 3, 1, 0, 1, 0xff]], ['HPEXPIRETIME', 'k', 'FIELDS', '3', 'a', 'b', 'c']],
];
