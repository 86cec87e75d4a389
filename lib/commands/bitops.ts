/**
 * The bit commands of bitops.c on string values: SETBIT, GETBIT, BITCOUNT, BITPOS, BITOP,
 * BITFIELD, BITFIELD_RO (7.0.15 and the post-7.4 tree 4f8cdc2a; BITOP DIFF, DIFF1, ANDOR and ONE
 * from 8.2, redis #13898).
 *
 * Bit 0 is the most significant bit of the first byte. Offsets are bounded by
 * proto-max-bulk-len (`ERR bit offset is not an integer or out of range` when offset/8 reaches
 * it). A write past the end pads the string with zero bytes. Events: `$` setbit (SETBIT when a
 * bit or the length changed; BITFIELD when a SET/INCRBY changed something), `$` set / `g` del
 * (BITOP's destination), `n` new, `m` keymiss. Dirty: SETBIT 1 when it changed the string,
 * BITFIELD one per changing SET/INCRBY, BITOP 1 when it stored or deleted.
 *
 * BITCOUNT and BITPOS parse their range arguments before the key lookup from 7.4 (redis #12394,
 * #11734); 7.0/7.2 look the key up first (a missing key answers 0 / -1|0 whatever follows).
 *
 * The engine's strings are immutable JS strings: SETBIT and BITFIELD writes copy the string
 * (O(length), where Redis changes the byte in place).
 */
import { StreamsMockError } from '../clock/clock';
import { ERR_NOT_INTEGER, ERR_SYNTAX, ERR_WRONGTYPE, fail } from '../errors';
import type { Reply } from '../reply/reply';
import { supports } from '../version';
import { is, negativeRangeInverted, parseInt64, parseSmallInt } from './args';
import { MAX_JS_STRING, bitsAt, byteAt, bytesOfStored, protoMaxBulkLen, storeString, writableBitmap } from './string-value';
import type { CommandContext, CommandSpec, Db } from './types';

const ERR_BIT_OFFSET = 'ERR bit offset is not an integer or out of range';
const ERR_BIT_VALUE = 'ERR bit is not an integer or out of range';
const ERR_BITFIELD_TYPE = 'ERR Invalid bitfield type. Use something like i16 u8. Note that u64 is not supported but i64 is.';

/** A signed 64-bit argument as a number (exact below 2^53; beyond, only compared with lengths). */
function longArg(arg: string, message = ERR_NOT_INTEGER): number {
  const small = parseSmallInt(arg);
  if (small !== null) return small;
  const v = parseInt64(arg);
  if (v === null) fail(message);
  return Number(v);
}

/**
 * bitops.c getBitOffsetFromArgument: a bit offset (`#n` = n·bits for BITFIELD), at least 0 and
 * below proto-max-bulk-len·8.
 */
function bitOffset(db: Db, arg: string, hash: boolean, bits: number): number {
  const useHash = hash && bits > 0 && arg.charCodeAt(0) === 35; // '#'
  const v = parseInt64(useHash ? arg.slice(1) : arg);
  if (v === null) fail(ERR_BIT_OFFSET);
  const offset = useHash ? BigInt.asIntN(64, v * BigInt(bits)) : v;
  if (offset < 0n || offset >> 3n >= BigInt(protoMaxBulkLen(db))) fail(ERR_BIT_OFFSET);
  return Number(offset);
}

/** The bytes of `s` (a byte string) grown with zero bytes to at least `length`. */
function bytesOf(s: string | undefined, length: number): Uint8Array {
  if (length > MAX_JS_STRING) {
    throw new StreamsMockError(`a string of ${length} bytes is longer than JavaScript strings can be (${MAX_JS_STRING}); Redis would store it`);
  }
  const n = s === undefined ? 0 : s.length;
  const out = new Uint8Array(Math.max(n, length));
  for (let i = 0; i < n; i++) out[i] = (s as string).charCodeAt(i);
  return out;
}

/** A byte array as a byte string. */
function stringOfBytes(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');
}

/** SETBIT key offset 0|1: the bit's old value. */
function setbit(ctx: CommandContext, argv: string[]): Reply {
  const db = ctx.db;
  const key = argv[1];
  const offset = bitOffset(db, argv[2], false, 0);
  const on = longArg(argv[3], ERR_BIT_VALUE);
  if (on !== 0 && on !== 1) fail(ERR_BIT_VALUE);
  const old = bitsAt(db, key, false);
  const byte = Math.floor(offset / 8);
  const shift = 7 - (offset % 8);
  const oldLen = old?.length ?? 0;
  const grows = byte >= oldLen;
  const byteval = grows ? 0 : byteAt(old!, byte);
  const bitval = (byteval >> shift) & 1;
  if (old === undefined || grows || bitval !== on) {
    const bitmap = writableBitmap(old, byte + 1);
    bitmap[byte] = on ? byteval | (1 << shift) : byteval & ~(1 << shift);
    if (old === undefined) storeString(db, key, bitmap, false, false, 'raw');
    else db.store(key, bitmap, true, 'raw');
    db.notifyEvent('$', 'setbit', key);
    db.dirty?.(1);
  } else {
    db.setStringMark?.(key, 'raw'); // unshared even when no bit changes (lookupStringForBitCommand)
  }
  return bitval;
}

/** GETBIT key offset: 0 past the end or for a missing key. */
function getbit(ctx: CommandContext, argv: string[]): Reply {
  const offset = bitOffset(ctx.db, argv[2], false, 0);
  const s = bitsAt(ctx.db, argv[1], true);
  if (s === undefined) return 0;
  const byte = Math.floor(offset / 8);
  if (byte >= s.length) return 0;
  return (byteAt(s, byte) >> (7 - (offset % 8))) & 1;
}

const POPCOUNT = new Uint8Array(256);
for (let i = 1; i < 256; i++) POPCOUNT[i] = (i & 1) + POPCOUNT[i >> 1];

/** The string of a BITCOUNT/BITPOS key (lookupKeyRead + checkType): undefined when missing. */
function readForBits(db: Db, key: string): string | Buffer | undefined {
  return bitsAt(db, key, true);
}

/** BIT | BYTE (strcasecmp): true for BIT. */
function unitIsBit(arg: string): boolean {
  if (is(arg, 'BIT')) return true;
  if (is(arg, 'BYTE')) return false;
  return fail(ERR_SYNTAX);
}

/** BITCOUNT key [start end [BYTE | BIT]] */
function bitcount(ctx: CommandContext, argv: string[]): Reply {
  const db = ctx.db;
  const argc = argv.length;
  const argsFirst = supports(ctx.version, 'bitArgsBeforeLookup');
  let s: string | Buffer | undefined;
  if (!argsFirst) {
    s = readForBits(db, argv[1]);
    if (s === undefined) return 0;
  }
  let start = 0;
  let end = 0;
  let isbit = false;
  if (argc === 4 || argc === 5) {
    start = longArg(argv[2]);
    end = longArg(argv[3]);
    if (!argsFirst && negativeRangeInverted(start, end, argv[2], argv[3])) return 0; // 7.0: before the unit's check
    if (argc === 5) isbit = unitIsBit(argv[4]);
  } else if (argc !== 2) fail(ERR_SYNTAX);
  if (argsFirst) {
    s = readForBits(db, argv[1]);
    if (s === undefined) return 0;
  }
  const str = s!;
  if (argc === 2) {
    start = 0;
    end = str.length - 1;
  } else {
    if (negativeRangeInverted(start, end, argv[2], argv[3])) return 0;
    const total = isbit ? str.length * 8 : str.length;
    if (start < 0) start += total;
    if (end < 0) end += total;
    if (start < 0) start = 0;
    if (end < 0) end = 0;
    if (end >= total) end = total - 1;
  }
  if (start > end) return 0;
  if (!isbit) {
    let count = 0;
    for (let i = start; i <= end; i++) count += POPCOUNT[byteAt(str, i)];
    return count;
  }
  let count = 0;
  for (let bit = start; bit <= end; ) {
    if (bit % 8 === 0 && bit + 7 <= end) {
      count += POPCOUNT[byteAt(str, bit / 8)];
      bit += 8;
    } else {
      count += (byteAt(str, Math.floor(bit / 8)) >> (7 - (bit % 8))) & 1;
      bit++;
    }
  }
  return count;
}

/** BITPOS key 0|1 [start [end [BYTE | BIT]]] */
function bitpos(ctx: CommandContext, argv: string[]): Reply {
  const db = ctx.db;
  const argc = argv.length;
  const bitArg = longArg(argv[2]);
  if (bitArg !== 0 && bitArg !== 1) fail('ERR The bit argument must be 1 or 0.');
  const want = bitArg;
  const argsFirst = supports(ctx.version, 'bitArgsBeforeLookup');
  let s: string | Buffer | undefined;
  if (!argsFirst) {
    s = readForBits(db, argv[1]);
    if (s === undefined) return want ? -1 : 0;
  }
  let start = 0;
  let end = 0;
  let isbit = false;
  let endGiven = false;
  if (argc >= 4 && argc <= 6) {
    start = longArg(argv[3]);
    if (argc === 6) isbit = unitIsBit(argv[5]);
    if (argc >= 5) {
      end = longArg(argv[4]);
      endGiven = true;
    }
  } else if (argc !== 3) fail(ERR_SYNTAX);
  if (argsFirst) {
    s = readForBits(db, argv[1]);
    if (s === undefined) return want ? -1 : 0;
  }
  const str = s!;
  // the range in bits, [from, to]
  let from: number;
  let to: number;
  if (argc === 3) {
    from = 0;
    to = str.length * 8 - 1;
  } else {
    const total = isbit ? str.length * 8 : str.length;
    if (!endGiven) end = isbit ? total + 7 : total - 1;
    if (start < 0) start += total;
    if (end < 0) end += total;
    if (start < 0) start = 0;
    if (end < 0) end = 0;
    if (end >= total) end = total - 1;
    if (start > end) return -1;
    from = isbit ? start : start * 8;
    to = isbit ? end : end * 8 + 7;
  }
  if (from > to) return -1;
  for (let bit = from; bit <= to; ) {
    const byte = byteAt(str, Math.floor(bit / 8));
    if (bit % 8 === 0 && bit + 7 <= to && byte === (want ? 0 : 0xff)) {
      bit += 8; // a whole byte without the wanted bit
      continue;
    }
    if (((byte >> (7 - (bit % 8))) & 1) === want) return bit;
    bit++;
  }
  // not found: no 1 is -1; a 0 is assumed right after the string unless an end was given
  if (want === 1 || endGiven) return -1;
  return (Math.floor(to / 8) + 1) * 8;
}

type BitopName = 'AND' | 'OR' | 'XOR' | 'NOT' | 'DIFF' | 'DIFF1' | 'ANDOR' | 'ONE';
const BITOP_NAMES: readonly BitopName[] = ['AND', 'OR', 'XOR', 'NOT', 'DIFF', 'DIFF1', 'ANDOR', 'ONE'];
const BITOP_82: ReadonlySet<BitopName> = new Set(['DIFF', 'DIFF1', 'ANDOR', 'ONE']);

/**
 * BITOP AND|OR|XOR|NOT|DIFF|DIFF1|ANDOR|ONE destkey key [key …]: the result (as long as the
 * longest source; missing keys and shorter strings read as zero bytes) stored at destkey, or
 * destkey deleted when every source is empty; replies the result's length. DIFF: bits of the
 * first source in none of the others; DIFF1: bits of any other source not in the first; ANDOR:
 * bits of the first in any other; ONE: bits in exactly one source (8.2+). Errors: `ERR syntax
 * error` (operation), `ERR BITOP NOT must be called with a single source key.`, `ERR BITOP
 * <OP> must be called with at least two source keys.`, WRONGTYPE.
 */
function bitop(ctx: CommandContext, argv: string[]): Reply {
  const db = ctx.db;
  let op: BitopName | undefined;
  for (const name of BITOP_NAMES) if (is(argv[1], name)) op = name;
  if (op === undefined || (BITOP_82.has(op) && !supports(ctx.version, 'bitopDiffOps'))) fail(ERR_SYNTAX);
  if (op === 'NOT' && argv.length !== 4) fail('ERR BITOP NOT must be called with a single source key.');
  if ((op === 'DIFF' || op === 'DIFF1' || op === 'ANDOR') && argv.length < 5) {
    fail(`ERR BITOP ${argv[1].toUpperCase()} must be called with at least two source keys.`);
  }
  const sources: string[] = [];
  let maxlen = 0;
  for (let j = 3; j < argv.length; j++) {
    const v = db.lookup(argv[j]);
    if (v === undefined) {
      db.keyMiss(argv[j]);
      sources.push('');
      continue;
    }
    db.keyHit();
    const s = bytesOfStored(v);
    if (s === undefined) fail(ERR_WRONGTYPE);
    sources.push(s);
    if (s.length > maxlen) maxlen = s.length;
  }
  const dest = argv[2];
  if (maxlen === 0) {
    if (db.remove(dest)) {
      db.notifyEvent('g', 'del', dest);
      db.dirty?.(1);
    }
    return 0;
  }
  const res = new Uint8Array(maxlen);
  const at = (s: string, j: number) => (j < s.length ? s.charCodeAt(j) : 0);
  for (let j = 0; j < maxlen; j++) {
    let output = at(sources[0], j);
    if (op === 'NOT') output = ~output & 0xff;
    let disjunction = 0;
    let common = 0;
    for (let i = 1; i < sources.length; i++) {
      const byte = at(sources[i], j);
      if (op === 'AND') output &= byte;
      else if (op === 'OR') output |= byte;
      else if (op === 'XOR') output ^= byte;
      else if (op === 'ONE') {
        common |= output & byte;
        output = (output ^ byte) & ~common & 0xff;
      } else disjunction |= byte;
    }
    if (op === 'DIFF') output &= ~disjunction;
    else if (op === 'DIFF1') output = ~output & disjunction;
    else if (op === 'ANDOR') output &= disjunction;
    res[j] = output & 0xff;
  }
  storeString(db, dest, stringOfBytes(res), db.lookup(dest) !== undefined, false, 'raw');
  db.notifyEvent('$', 'set', dest);
  db.dirty?.(1);
  return maxlen;
}

// BITFIELD ---------------------------------------------------------------------------------

const WRAP = 0;
const SAT = 1;
const FAIL = 2;

interface BitfieldOp {
  opcode: 'get' | 'set' | 'incrby';
  offset: number;
  bits: number;
  signed: boolean;
  value: bigint;
  overflow: number;
}

const U64 = (v: bigint) => BigInt.asUintN(64, v);
const I64 = (v: bigint) => BigInt.asIntN(64, v);

function getUnsigned(p: Uint8Array, offset: number, bits: number): bigint {
  let v = 0n;
  for (let i = 0; i < bits; i++) {
    const pos = offset + i;
    const byte = pos >> 3 < p.length ? p[pos >> 3] : 0;
    v = (v << 1n) | BigInt((byte >> (7 - (pos & 7))) & 1);
  }
  return v;
}

function getSigned(p: Uint8Array, offset: number, bits: number): bigint {
  return BigInt.asIntN(bits, getUnsigned(p, offset, bits));
}

function setBits(p: Uint8Array, offset: number, bits: number, value: bigint): void {
  const v = U64(value);
  for (let i = 0; i < bits; i++) {
    const bit = Number((v >> BigInt(bits - 1 - i)) & 1n);
    const pos = offset + i;
    const mask = 1 << (7 - (pos & 7));
    if (bit) p[pos >> 3] |= mask;
    else p[pos >> 3] &= ~mask;
  }
}

/** bitops.c checkUnsignedBitfieldOverflow: [overflow (0, 1, -1), the wrapped/saturated value]. */
function unsignedOverflow(value: bigint, incr: bigint, bits: number, owtype: number): [number, bigint] {
  const max = (1n << BigInt(bits)) - 1n; // bits ≤ 63
  const maxincr = I64(U64(max - value));
  const minincr = I64(U64(-value));
  const wrap = () => U64(value + incr) & max;
  if (value > max || (incr > 0n && incr > maxincr)) return [1, owtype === WRAP ? wrap() : max];
  if (incr < 0n && incr < minincr) return [-1, owtype === WRAP ? wrap() : 0n];
  return [0, 0n];
}

/** bitops.c checkSignedBitfieldOverflow, with C's 64-bit wrap-around kept. */
function signedOverflow(value: bigint, incr: bigint, bits: number, owtype: number): [number, bigint] {
  const max = bits === 64 ? (1n << 63n) - 1n : (1n << BigInt(bits - 1)) - 1n;
  const min = -max - 1n;
  const maxincr = I64(max - value);
  const minincr = I64(min - value);
  const wrap = () => {
    let c = U64(value + incr);
    if (bits < 64) {
      const mask = U64(-1n << BigInt(bits));
      if (c & (1n << BigInt(bits - 1))) c |= mask;
      else c &= ~mask & ((1n << 64n) - 1n);
    }
    return I64(c);
  };
  if (value > max || (bits !== 64 && incr > maxincr) || (value >= 0n && incr > 0n && incr > maxincr)) {
    return [1, owtype === WRAP ? wrap() : max];
  }
  if (value < min || (bits !== 64 && incr < minincr) || (value < 0n && incr < 0n && incr < minincr)) {
    return [-1, owtype === WRAP ? wrap() : min];
  }
  return [0, 0n];
}

/** A 64-bit result as a reply (a number when exact). */
function intReply(v: bigint): Reply {
  return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v;
}

/**
 * BITFIELD key [GET type offset | SET type offset value | INCRBY type offset increment |
 * OVERFLOW WRAP|SAT|FAIL] …; BITFIELD_RO key [GET type offset …]. Types `i1`…`i64`, `u1`…`u63`;
 * offsets in bits or `#n` (n·width). Replies one integer per GET/SET/INCRBY (SET: the old value,
 * INCRBY: the new one; nil when OVERFLOW FAIL refuses it). Errors while parsing, in argument
 * order: `ERR syntax error`, `ERR Invalid OVERFLOW type specified`, the type error, the offset
 * error, `ERR value is not an integer or out of range`; then `ERR BITFIELD_RO only supports the
 * GET subcommand`, WRONGTYPE. A write creates or zero-pads the string up to the highest written
 * bit even when every write fails.
 */
function bitfieldGeneric(ctx: CommandContext, argv: string[], readonlyCommand: boolean): Reply {
  const db = ctx.db;
  const ops: BitfieldOp[] = [];
  let owtype = WRAP;
  let readonly = true;
  let highest = 0;
  for (let j = 2; j < argv.length; j++) {
    const remargs = argv.length - j - 1;
    const sub = argv[j];
    let opcode: BitfieldOp['opcode'];
    if (is(sub, 'GET') && remargs >= 2) opcode = 'get';
    else if (is(sub, 'SET') && remargs >= 3) opcode = 'set';
    else if (is(sub, 'INCRBY') && remargs >= 3) opcode = 'incrby';
    else if (is(sub, 'OVERFLOW') && remargs >= 1) {
      const t = argv[++j];
      if (is(t, 'WRAP')) owtype = WRAP;
      else if (is(t, 'SAT')) owtype = SAT;
      else if (is(t, 'FAIL')) owtype = FAIL;
      else fail('ERR Invalid OVERFLOW type specified');
      continue;
    } else fail(ERR_SYNTAX);
    const type = argv[j + 1];
    const signed = type.charCodeAt(0) === 105; // 'i'
    if (!signed && type.charCodeAt(0) !== 117) fail(ERR_BITFIELD_TYPE); // 'u'
    const nul = type.indexOf('\0'); // C's strlen stops at a zero byte
    const width = parseInt64(nul < 0 ? type.slice(1) : type.slice(1, nul));
    if (width === null || width < 1n || (signed && width > 64n) || (!signed && width > 63n)) fail(ERR_BITFIELD_TYPE);
    const bits = Number(width);
    const offset = bitOffset(db, argv[j + 2], true, bits);
    let value = 0n;
    if (opcode !== 'get') {
      readonly = false;
      if (highest < offset + bits - 1) highest = offset + bits - 1;
      const v = parseInt64(argv[j + 3]);
      if (v === null) fail(ERR_NOT_INTEGER);
      value = v;
    }
    ops.push({ opcode, offset, bits, signed, value, overflow: owtype });
    j += opcode === 'get' ? 2 : 3;
  }
  const key = argv[1];
  let bytes: Uint8Array;
  let created = false;
  let grown = false;
  let existed = false;
  if (readonly) {
    // a bitmap is read as it is; a byte string as a copy of its bytes
    const s = bitsAt(db, key, true);
    bytes = s === undefined || typeof s === 'string' ? bytesOf(s, 0) : s;
  } else {
    if (readonlyCommand) fail('ERR BITFIELD_RO only supports the GET subcommand');
    const s = bitsAt(db, key, false);
    existed = s !== undefined;
    const need = Math.floor(highest / 8) + 1;
    // changed in place (a byte string's copy is stored below when a write changed it)
    const bitmap = writableBitmap(s, need);
    bytes = bitmap;
    created = s === undefined;
    grown = !created && need > s!.length;
    if (created) storeString(db, key, bitmap, false, false, 'raw');
    else if (grown) db.store(key, bitmap, true, 'raw');
    else db.setStringMark?.(key, 'raw'); // unshared even when nothing changes (lookupStringForBitCommand)
  }
  const dirtyBase = created || grown; // Redis: the string was created or its length changed
  const out: Reply[] = [];
  let changes = 0;
  for (const op of ops) {
    if (op.opcode === 'get') {
      out.push(intReply(op.signed ? getSigned(bytes, op.offset, op.bits) : getUnsigned(bytes, op.offset, op.bits)));
      continue;
    }
    let oldval: bigint;
    let newval: bigint;
    let retval: bigint;
    let overflow: number;
    if (op.signed) {
      oldval = getSigned(bytes, op.offset, op.bits);
      if (op.opcode === 'incrby') {
        const [o, limit] = signedOverflow(oldval, op.value, op.bits, op.overflow);
        overflow = o;
        newval = o ? limit : oldval + op.value;
        retval = newval;
      } else {
        const [o, limit] = signedOverflow(op.value, 0n, op.bits, op.overflow);
        overflow = o;
        newval = o ? limit : op.value;
        retval = oldval;
      }
    } else {
      oldval = getUnsigned(bytes, op.offset, op.bits);
      if (op.opcode === 'incrby') {
        const [o, limit] = unsignedOverflow(oldval, op.value, op.bits, op.overflow);
        overflow = o;
        newval = o ? limit : U64(oldval + op.value);
        retval = newval;
      } else {
        const v = U64(op.value);
        const [o, limit] = unsignedOverflow(v, 0n, op.bits, op.overflow);
        overflow = o;
        newval = o ? limit : v;
        retval = oldval;
      }
    }
    if (overflow && op.overflow === FAIL) {
      out.push(null);
      continue;
    }
    out.push(intReply(retval));
    setBits(bytes, op.offset, op.bits, newval);
    if (dirtyBase || oldval !== newval) changes++;
  }
  if (changes) {
    db.store(key, bytes, existed || created, 'raw');
    db.notifyEvent('$', 'setbit', key);
    db.dirty?.(changes);
  }
  return out;
}

export const specs: CommandSpec[] = [
  { name: 'setbit', arity: 4, write: true, run: setbit },
  { name: 'getbit', arity: 3, write: false, run: getbit },
  { name: 'bitcount', arity: -2, write: false, run: bitcount },
  { name: 'bitpos', arity: -3, write: false, run: bitpos },
  { name: 'bitop', arity: -4, write: true, run: bitop },
  { name: 'bitfield', arity: -2, write: true, run: (ctx, argv) => bitfieldGeneric(ctx, argv, false) },
  { name: 'bitfield_ro', arity: -2, write: false, run: (ctx, argv) => bitfieldGeneric(ctx, argv, true) },
];
