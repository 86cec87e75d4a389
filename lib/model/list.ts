/**
 * A Redis list (t_list.c): a deque of byte strings (one char per byte) with O(1) push and pop at
 * both ends and O(1) access by index, kept in a ring buffer whose capacity is a power of two.
 * Inserting or deleting inside the list moves the elements of the nearer end (O(min(i, n-i))),
 * as cheap as Redis's quicklist near the ends.
 *
 * Besides the elements, the list keeps what OBJECT ENCODING reports in 7.2+: whether Redis would
 * hold it as a single listpack or as a quicklist, following t_list.c's conversion rules
 * (`listTypeTryConvertListpack` before elements are added, `listTypeTryConvertQuicklist` after
 * elements are removed) and `lpBytes`, the byte size of the listpack holding every element
 * (listpack.c entry sizes). Redis converts a quicklist back to a listpack only when it has a
 * single packed node; this model has no nodes, so it takes "every element would fit in half a
 * node" for that (the same answer whenever the list was not cut down from both ends at once).
 * 7.0 holds every list as a quicklist (`encoding()` answers so whatever the state).
 *
 * This module is pure: callers pass `list-max-listpack-size` (the quicklist `fill`) in.
 */

/** quicklist.c `optimization_level`: the node byte limits of the negative fills -1 … -5. */
const NEG_FILL_LIMITS = [4096, 8192, 16384, 32768, 65536];
/** quicklist.c SIZE_SAFETY_LIMIT: the byte limit of a node under a positive (count) fill. */
const SIZE_SAFETY_LIMIT = 8192;
/** A listpack's header (total bytes, element count) and end byte. */
const LP_OVERHEAD = 7;

/** quicklist.c quicklistNodeNegFillLimit (fills below -5 count as -5). */
function negFillLimit(fill: number): number {
  return NEG_FILL_LIMITS[Math.min(-fill - 1, NEG_FILL_LIMITS.length - 1)];
}

/** quicklist.c quicklistNodeExceedsLimit: would a node of `bytes` and `count` pass the limit? */
export function nodeExceedsLimit(fill: number, bytes: number, count: number): boolean {
  if (fill < 0) return bytes > negFillLimit(fill);
  if (bytes > SIZE_SAFETY_LIMIT) return true;
  return count > (fill === 0 ? 1 : fill);
}

/** Bytes of a listpack entry's backlen for an encoding of `l` bytes (listpack.c lpEncodeBacklen). */
function backlenSize(l: number): number {
  if (l <= 127) return 1;
  if (l < 16383) return 2;
  if (l < 2097151) return 3;
  if (l < 268435455) return 4;
  return 5;
}

/** Encoded size of a 64-bit integer entry (without backlen): 7-bit uint, 13/16/24/32/64-bit. */
function intEntrySize(v: number | bigint): number {
  if (v >= 0 && v <= 127) return 1;
  if (v >= -4096 && v <= 4095) return 2;
  if (v >= -32768 && v <= 32767) return 3;
  if (v >= -8388608 && v <= 8388607) return 4;
  if (v >= -2147483648 && v <= 2147483647) return 5;
  return 9;
}

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

/**
 * The integer a listpack stores `s` as (listpack.c lpStringToInt64: a canonical signed 64-bit
 * decimal — no sign but `-`, no leading zero, no `-0`), or null when it is stored as a string.
 */
function lpInteger(s: string): number | bigint | null {
  const n = s.length;
  if (n === 0 || n > 20) return null;
  const neg = s.charCodeAt(0) === 45;
  let i = neg ? 1 : 0;
  if (i >= n) return null;
  const first = s.charCodeAt(i);
  if (first === 48) return n === 1 ? 0 : null; // "0" alone
  if (first < 49 || first > 57) return null;
  if (n <= 15) {
    let v = 0;
    for (; i < n; i++) {
      const d = s.charCodeAt(i) - 48;
      if (d < 0 || d > 9) return null;
      v = v * 10 + d;
    }
    return neg ? -v : v;
  }
  for (let j = i; j < n; j++) {
    const d = s.charCodeAt(j) - 48;
    if (d < 0 || d > 9) return null;
  }
  const v = BigInt(s);
  return v < INT64_MIN || v > INT64_MAX ? null : v;
}

/** Bytes of `s` as one listpack entry (encoding, content and backlen: listpack.c). */
export function lpEntryBytes(s: string): number {
  const n = s.length;
  if (n <= 20) {
    const v = lpInteger(s);
    if (v !== null) return intEntrySize(v) + 1;
  }
  const enc = n < 64 ? 1 + n : n < 4096 ? 2 + n : 5 + n;
  return enc + backlenSize(enc);
}

/** Which end of a list: Redis LIST_HEAD (LEFT) or LIST_TAIL (RIGHT). */
export type ListEnd = 'left' | 'right';

export class RedisList {
  private buf: (string | undefined)[];
  private mask: number;
  private head = 0;
  private len = 0;
  /** Bytes of a listpack holding every element (Redis lpBytes). */
  private bytes = LP_OVERHEAD;
  /** True when Redis 7.2+ would hold the list as a quicklist (else a listpack). */
  private quicklist = false;

  constructor(capacity = 8) {
    let cap = 8;
    while (cap < capacity) cap *= 2;
    this.buf = new Array<string | undefined>(cap);
    this.mask = cap - 1;
  }

  get redisType(): 'list' {
    return 'list';
  }

  /** A list of `items` (head first), encoded as Redis encodes a list it built or loaded whole
   *  (LIST_CONV_AUTO: a listpack when the elements fit in one node under `fill`). */
  static of(items: readonly string[], fill = -2): RedisList {
    const list = new RedisList(items.length);
    for (const item of items) list.pushRight(item);
    list.quicklist = nodeExceedsLimit(fill, list.bytes, list.len);
    return list;
  }

  /** Number of elements (LLEN). */
  get length(): number {
    return this.len;
  }

  /** Bytes of a listpack holding every element (Redis lpBytes of the listpack encoding). */
  get listpackBytes(): number {
    return this.bytes;
  }

  /**
   * OBJECT ENCODING: "quicklist" on 7.0 for every list; from 7.2 "listpack" until
   * `list-max-listpack-size` is passed (then "quicklist" until the list shrinks to half of it).
   */
  encoding(_config: unknown, version: string): string {
    if (version === '7.0') return 'quicklist';
    return this.quicklist ? 'quicklist' : 'listpack';
  }

  /** True when held as a quicklist (Redis 7.2+ encoding state). */
  get isQuicklist(): boolean {
    return this.quicklist;
  }

  /**
   * t_list.c listTypeTryConvertListpack, before adding `addCount` elements whose lengths sum to
   * `addBytes` (their string lengths, as Redis counts them): a listpack that would pass the node
   * limit of `fill` becomes a quicklist.
   */
  growing(fill: number, addBytes: number, addCount: number): void {
    if (!this.quicklist && nodeExceedsLimit(fill, this.bytes + addBytes, this.len + addCount)) this.quicklist = true;
  }

  /**
   * t_list.c listTypeTryConvertQuicklist(shrinking), after elements were removed: a quicklist
   * that fits in half a node of `fill` (every element in one packed node) becomes a listpack.
   */
  shrinking(fill: number): void {
    if (!this.quicklist) return;
    let sizeLimit: number;
    let countLimit: number;
    if (fill >= 0) {
      sizeLimit = SIZE_SAFETY_LIMIT; // one packed node never holds more (no halving: a node bound)
      countLimit = Math.floor((fill === 0 ? 1 : fill) / 2);
      if (this.bytes > sizeLimit) return;
    } else {
      sizeLimit = Math.floor(negFillLimit(fill) / 2);
      countLimit = Infinity;
    }
    if (this.bytes > sizeLimit || this.len > countLimit) return;
    this.quicklist = false;
  }

  private grow(): void {
    const old = this.buf;
    const cap = old.length;
    const next = new Array<string | undefined>(cap * 2);
    for (let i = 0; i < this.len; i++) next[i] = old[(this.head + i) & this.mask];
    this.buf = next;
    this.mask = cap * 2 - 1;
    this.head = 0;
  }

  /** Give memory back when a large list got small (keeps push/pop amortised O(1)). */
  private maybeShrinkStorage(): void {
    const cap = this.buf.length;
    if (cap <= 64 || this.len > cap >>> 2) return;
    const next = new Array<string | undefined>(cap >>> 1);
    for (let i = 0; i < this.len; i++) next[i] = this.buf[(this.head + i) & this.mask];
    this.buf = next;
    this.mask = (cap >>> 1) - 1;
    this.head = 0;
  }

  /** LPUSH one element. */
  pushLeft(value: string): void {
    if (this.len === this.buf.length) this.grow();
    this.head = (this.head - 1) & this.mask;
    this.buf[this.head] = value;
    this.len++;
    this.bytes += lpEntryBytes(value);
  }

  /** RPUSH one element. */
  pushRight(value: string): void {
    if (this.len === this.buf.length) this.grow();
    this.buf[(this.head + this.len) & this.mask] = value;
    this.len++;
    this.bytes += lpEntryBytes(value);
  }

  push(value: string, where: ListEnd): void {
    if (where === 'left') this.pushLeft(value);
    else this.pushRight(value);
  }

  /** LPOP one element; undefined when empty. */
  popLeft(): string | undefined {
    if (this.len === 0) return undefined;
    const v = this.buf[this.head] as string;
    this.buf[this.head] = undefined;
    this.head = (this.head + 1) & this.mask;
    this.len--;
    this.bytes -= lpEntryBytes(v);
    this.maybeShrinkStorage();
    return v;
  }

  /** RPOP one element; undefined when empty. */
  popRight(): string | undefined {
    if (this.len === 0) return undefined;
    const at = (this.head + this.len - 1) & this.mask;
    const v = this.buf[at] as string;
    this.buf[at] = undefined;
    this.len--;
    this.bytes -= lpEntryBytes(v);
    this.maybeShrinkStorage();
    return v;
  }

  pop(where: ListEnd): string | undefined {
    return where === 'left' ? this.popLeft() : this.popRight();
  }

  /** Up to `count` elements popped from `where`, in pop order. */
  popMany(where: ListEnd, count: number): string[] {
    const n = Math.min(count, this.len);
    const out = new Array<string>(n);
    for (let i = 0; i < n; i++) out[i] = (where === 'left' ? this.popLeft() : this.popRight()) as string;
    return out;
  }

  /** Redis's index (negative counts from the tail) as an offset from the head, or -1 when out of range. */
  offsetOf(index: number): number {
    const i = index < 0 ? this.len + index : index;
    return i >= 0 && i < this.len ? i : -1;
  }

  /** The element at offset `i` (0 = head; the caller checks the range). */
  at(i: number): string {
    return this.buf[(this.head + i) & this.mask] as string;
  }

  /** Replace the element at offset `i` (the caller checks the range). */
  set(i: number, value: string): void {
    const at = (this.head + i) & this.mask;
    this.bytes += lpEntryBytes(value) - lpEntryBytes(this.buf[at] as string);
    this.buf[at] = value;
  }

  /** Insert `value` so that it lands at offset `i` (0 ≤ i ≤ length), moving the nearer end. */
  insertAt(i: number, value: string): void {
    if (i <= 0) return this.pushLeft(value);
    if (i >= this.len) return this.pushRight(value);
    if (this.len === this.buf.length) this.grow();
    const b = this.buf;
    const m = this.mask;
    if (i < this.len - i) {
      // shift the first i elements one slot towards the head
      this.head = (this.head - 1) & m;
      for (let k = 0; k < i; k++) b[(this.head + k) & m] = b[(this.head + k + 1) & m];
    } else {
      for (let k = this.len; k > i; k--) b[(this.head + k) & m] = b[(this.head + k - 1) & m];
    }
    b[(this.head + i) & m] = value;
    this.len++;
    this.bytes += lpEntryBytes(value);
  }

  /** Remove the element at offset `i` (the caller checks the range), moving the nearer end. */
  removeAt(i: number): string {
    const b = this.buf;
    const m = this.mask;
    const v = b[(this.head + i) & m] as string;
    if (i < this.len - 1 - i) {
      for (let k = i; k > 0; k--) b[(this.head + k) & m] = b[(this.head + k - 1) & m];
      b[this.head] = undefined;
      this.head = (this.head + 1) & m;
    } else {
      for (let k = i; k < this.len - 1; k++) b[(this.head + k) & m] = b[(this.head + k + 1) & m];
      b[(this.head + this.len - 1) & m] = undefined;
    }
    this.len--;
    this.bytes -= lpEntryBytes(v);
    this.maybeShrinkStorage();
    return v;
  }

  /** Elements at offsets `from` … `to` inclusive (the caller clamps), head to tail or reversed. */
  range(from: number, to: number, reverse = false): string[] {
    const n = to - from + 1;
    if (n <= 0) return [];
    const out = new Array<string>(n);
    const b = this.buf;
    const m = this.mask;
    if (reverse) for (let k = 0; k < n; k++) out[k] = b[(this.head + to - k) & m] as string;
    else for (let k = 0; k < n; k++) out[k] = b[(this.head + from + k) & m] as string;
    return out;
  }

  /** LTRIM's deletions: `left` elements from the head and `right` from the tail. */
  trim(left: number, right: number): void {
    for (let k = 0; k < left && this.len > 0; k++) this.popLeft();
    for (let k = 0; k < right && this.len > 0; k++) this.popRight();
  }

  /**
   * LREM: remove the elements equal to `value`, at most `count` of them (0 = all), scanning from
   * the head, or from the tail when `fromTail`. Returns how many were removed. O(n).
   */
  removeEqual(value: string, count: number, fromTail: boolean): number {
    const n = this.len;
    const b = this.buf;
    const m = this.mask;
    let removed = 0;
    // find which offsets go (a pass in the scan direction), then compact in place
    const drop = new Uint8Array(n);
    if (fromTail) {
      for (let k = n - 1; k >= 0; k--) {
        if (b[(this.head + k) & m] === value) {
          drop[k] = 1;
          if (++removed === count) break;
        }
      }
    } else {
      for (let k = 0; k < n; k++) {
        if (b[(this.head + k) & m] === value) {
          drop[k] = 1;
          if (++removed === count) break;
        }
      }
    }
    if (removed === 0) return 0;
    let w = 0;
    for (let k = 0; k < n; k++) {
      const v = b[(this.head + k) & m];
      if (drop[k]) continue;
      b[(this.head + w) & m] = v;
      w++;
    }
    for (let k = w; k < n; k++) b[(this.head + k) & m] = undefined;
    this.len = w;
    this.bytes -= removed * lpEntryBytes(value);
    this.maybeShrinkStorage();
    return removed;
  }

  /** Offset of the first element equal to `value`, scanning from the head; -1 when absent. */
  indexOf(value: string): number {
    const b = this.buf;
    const m = this.mask;
    for (let k = 0; k < this.len; k++) if (b[(this.head + k) & m] === value) return k;
    return -1;
  }

  /** Every element, head first (a new array). */
  toArray(): string[] {
    return this.range(0, this.len - 1);
  }

  /** An independent copy with the same encoding (COPY: listTypeDup). */
  clone(): RedisList {
    const copy = new RedisList(this.len);
    for (let k = 0; k < this.len; k++) copy.buf[k] = this.buf[(this.head + k) & this.mask];
    copy.len = this.len;
    copy.bytes = this.bytes;
    copy.quicklist = this.quicklist;
    return copy;
  }
}
