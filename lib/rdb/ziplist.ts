/**
 * The pre-7.0 encodings RESTORE still loads: ziplists (RDB types 10, 12, 13 and the nodes of 14)
 * and zipmaps (type 9). Redis converts them to listpacks while loading and always validates
 * them deeply, whatever `sanitize-dump-payload` says (rdb.c: ziplistValidateIntegrity(…, 1, …),
 * zipmapValidateIntegrity(…, 1)); a failed check is "ERR Bad data format". Pure: bytes in,
 * byte strings out.
 *
 * Ziplist (ziplist.c): `zlbytes` u32 | `zltail` u32 | `zllen` u16 | entries | 0xFF. An entry is
 * `prevlen` (1 byte below 254, else 0xFE + u32) | encoding | data: `00pppppp` (string, 6-bit
 * length), `01pppppp qqqqqqqq` (14-bit), `10000000` + u32 big-endian (32-bit length); `0xC0`
 * int16, `0xD0` int32, `0xE0` int64, `0xF0` int24, `0xFE` int8 (little-endian), `0xF1`…`0xFD`
 * the immediate 0…12.
 *
 * Zipmap (zipmap.c): `zmlen` (count below 254, else unknown) | (len key len free value free×pad)… |
 * 0xFF, each len one byte below 254, else 0xFE + u32 (native little-endian).
 */
import { RdbFormatError, byteString } from './rdb-io';

const ZIPLIST_HEADER_SIZE = 10;
const ZIP_END = 0xff;
const ZIP_BIG_PREVLEN = 254;

function corrupt(what: string): never {
  throw new RdbFormatError(`${what} integrity check failed`);
}

/**
 * Every entry of a ziplist as a byte string (integers as their decimal text), validated as
 * ziplistValidateIntegrity with `deep` does (zipEntrySafe for each entry, each prevlen equal to
 * the previous entry's size, the end byte where zlbytes says, zltail on the last entry, zllen
 * unless 65535).
 * @throws RdbFormatError for a malformed ziplist
 */
export function readZiplist(zl: Uint8Array): string[] {
  const size = zl.length;
  if (size < ZIPLIST_HEADER_SIZE + 1) corrupt('Ziplist');
  const view = new DataView(zl.buffer, zl.byteOffset, zl.byteLength);
  if (view.getUint32(0, true) !== size) corrupt('Ziplist');
  if (zl[size - 1] !== ZIP_END) corrupt('Ziplist');
  const tail = view.getUint32(4, true);
  if (tail > size - 1) corrupt('Ziplist');
  const headerCount = view.getUint16(8, true);
  const last = size - 1; // zllast: the end byte
  const out: string[] = [];
  let p = ZIPLIST_HEADER_SIZE;
  let prev = -1;
  let prevRawSize = 0;
  while (zl[p] !== ZIP_END) {
    // zipEntrySafe: every header byte and the whole entry within [zlfirst, zllast]
    const prevlenSize = zl[p] < ZIP_BIG_PREVLEN ? 1 : 5;
    if (p + prevlenSize > last) corrupt('Ziplist');
    const prevlen = prevlenSize === 1 ? zl[p] : view.getUint32(p + 1, true);
    const q = p + prevlenSize;
    const enc = zl[q];
    let lensize: number;
    let len: number;
    let value: string | undefined;
    if (enc < 0xc0) {
      const kind = enc & 0xc0;
      lensize = kind === 0 ? 1 : kind === 0x40 ? 2 : 5; // ZIP_ENTRY_ENCODING masks 10pppppp to 0x80
      if (q + lensize > last) corrupt('Ziplist');
      len = kind === 0 ? enc & 0x3f : kind === 0x40 ? ((enc & 0x3f) << 8) | zl[q + 1] : view.getUint32(q + 1, false);
    } else {
      lensize = 1;
      switch (enc) {
        case 0xc0: len = 2; break;
        case 0xd0: len = 4; break;
        case 0xe0: len = 8; break;
        case 0xf0: len = 3; break;
        case 0xfe: len = 1; break;
        default:
          if (enc >= 0xf1 && enc <= 0xfd) {
            len = 0;
            value = String((enc & 0x0f) - 1);
          } else corrupt('Ziplist');
      }
    }
    const headersize = prevlenSize + lensize;
    const end = p + headersize + len;
    if (end > last) corrupt('Ziplist');
    if (prevlen !== prevRawSize) corrupt('Ziplist');
    const d = p + headersize;
    if (value === undefined) {
      switch (enc) {
        case 0xc0: value = String(view.getInt16(d, true)); break;
        case 0xd0: value = String(view.getInt32(d, true)); break;
        case 0xe0: value = String(view.getBigInt64(d, true)); break;
        case 0xf0: value = String((zl[d] | (zl[d + 1] << 8) | (zl[d + 2] << 16)) << 8 >> 8); break;
        case 0xfe: value = String(view.getInt8(d)); break;
        default: value = byteString(zl.subarray(d, end));
      }
    }
    out.push(value);
    prevRawSize = headersize + len;
    prev = p;
    p = end;
  }
  if (p !== size - 1) corrupt('Ziplist');
  if (prev !== -1 && prev !== tail) corrupt('Ziplist');
  if (headerCount !== 0xffff && out.length !== headerCount) corrupt('Ziplist');
  return out;
}

/**
 * The field-value pairs of a zipmap, validated as zipmapValidateIntegrity with `deep` does (each
 * length and the entry within the zipmap, at least one pair, the count unless 254) plus the
 * conversion's check for a duplicate field (rdb.c "Hash zipmap with dup elements").
 * @throws RdbFormatError for a malformed zipmap
 */
export function readZipmap(zm: Uint8Array): [string, string][] {
  const size = zm.length;
  if (size < 2 || zm[size - 1] !== 0xff) corrupt('Zipmap');
  const view = new DataView(zm.buffer, zm.byteOffset, zm.byteLength);
  const outOfRange = (p: number) => p < 2 || p > size - 1;
  const lengthAt = (p: number): [number, number] => (zm[p] < 254 ? [1, zm[p]] : [5, view.getUint32(p + 1, true)]);
  const pairs: [string, string][] = [];
  let p = 1;
  while (zm[p] !== 0xff) {
    // the field's length (1 or 5 bytes), then the field
    if (outOfRange(p + (zm[p] < 254 ? 1 : 5))) corrupt('Zipmap');
    const [ks, kl] = lengthAt(p);
    const key = p + ks;
    p = key + kl;
    if (outOfRange(p)) corrupt('Zipmap');
    // the value's length, the free byte, the value and its free space
    if (outOfRange(p + (zm[p] < 254 ? 1 : 5))) corrupt('Zipmap');
    const [vs, vl] = lengthAt(p);
    p += vs;
    const free = zm[p++];
    const val = p;
    p += vl + free;
    if (outOfRange(p)) corrupt('Zipmap');
    pairs.push([byteString(zm.subarray(key, key + kl)), byteString(zm.subarray(val, val + vl))]);
  }
  if (pairs.length === 0) corrupt('Zipmap');
  if (zm[0] !== 254 && zm[0] !== pairs.length) corrupt('Zipmap');
  if (new Set(pairs.map(([f]) => f)).size !== pairs.length) throw new RdbFormatError('Hash zipmap with dup elements');
  return pairs;
}
