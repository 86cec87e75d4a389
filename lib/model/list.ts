/**
 * A Redis list (t_list.c): a deque of byte strings (one char per byte) with O(1) push and pop at
 * both ends and O(1) access by index, kept in a ring buffer whose capacity is a power of two.
 * Inserting or deleting inside the list moves the elements of the nearer end (O(min(i, n-i))),
 * as cheap as Redis's quicklist near the ends.
 *
 * Besides the elements, the list keeps what OBJECT ENCODING reports in 7.2+: whether Redis would
 * hold it as a single listpack or as a quicklist, following t_list.c's conversion rules
 * (`listTypeTryConvertListpack` before elements are added, `listTypeTryConvertQuicklist` after
 * elements are removed: a quicklist goes back to a listpack only when it has a single packed node
 * within half the limit), with `lpBytes`, the byte size of the listpack holding every element
 * (listpack.c entry sizes). While a quicklist, the list also keeps the shape of its nodes (element
 * count, listpack bytes, plain or packed: quicklist.c), exact for pushes and pops at both ends,
 * LTRIM, LREM and LSET in place; LINSERT into a full node and an LSET that must split a node
 * create the nodes quicklist.c creates but do not merge neighbours afterwards as it may.
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

/** quicklist.c isLargeElement (7.4+): an element above the node limit gets a plain node of its own. */
function isLargeElement(sz: number, fill: number): boolean {
  return fill >= 0 ? sz > SIZE_SAFETY_LIMIT : sz > negFillLimit(fill);
}

/** quicklist.c SIZE_ESTIMATE_OVERHEAD: what a push adds to a node's size beyond the element. */
const SIZE_ESTIMATE_OVERHEAD = 8;

/** One quicklist node's shape: its element count, listpack bytes (`sz`), plain or packed. */
interface QlNode {
  count: number;
  sz: number;
  plain: boolean;
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
  /** While a quicklist: its nodes head to tail, and the fill it was created with (quicklist->fill). */
  private nodes: QlNode[] = [];
  private qlFill = -2;

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
    for (const item of items) {
      list.growing(fill, item.length, 1);
      list.pushRight(item);
    }
    // rdbLoadObject's LIST_CONV_AUTO: a quicklist of one packed node within the limit is a listpack
    if (list.quicklist && list.nodes.length === 1 && !list.nodes[0].plain && !nodeExceedsLimit(fill, list.nodes[0].sz, list.len)) {
      list.toListpack();
    }
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

  /** Quicklist nodes (quicklist->len): 1 while a listpack (7.2+ state). */
  get quicklistNodes(): number {
    return this.quicklist ? this.nodes.length : 1;
  }

  /**
   * Bytes of quicklist node `n` (0 = head): its listpack's, or a plain node's element; while a
   * listpack, the listpack's (MEMORY USAGE: object.c sizes each node's `entry`).
   */
  nodeBytes(n: number): number {
    return this.quicklist ? (this.nodes[n]?.sz ?? 0) : this.bytes;
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
    if (this.quicklist || !nodeExceedsLimit(fill, this.bytes + addBytes, this.len + addCount)) return;
    this.quicklist = true;
    this.qlFill = fill;
    // quicklistAppendListpack: the listpack becomes the first node
    this.nodes = this.len > 0 ? [{ count: this.len, sz: this.bytes, plain: false }] : [];
  }

  /**
   * t_list.c listTypeTryConvertQuicklist(shrinking), after elements were removed: a quicklist of a
   * single packed node within half the limit of `fill` becomes a listpack.
   */
  shrinking(fill: number): void {
    if (!this.quicklist || this.nodes.length !== 1) return;
    const node = this.nodes[0];
    if (node.plain) return;
    if (fill >= 0) {
      if (this.len > Math.floor((fill === 0 ? 1 : fill) / 2)) return;
    } else if (node.sz > Math.floor(negFillLimit(fill) / 2)) return;
    this.toListpack();
  }

  private toListpack(): void {
    this.quicklist = false;
    this.nodes = [];
  }

  /** The node holding offset `i` and the offset within it (quicklist mode). */
  private nodeAt(i: number): [number, number] {
    const nodes = this.nodes;
    if (i < this.len / 2) {
      for (let n = 0; n < nodes.length; n++) {
        if (i < nodes[n].count) return [n, i];
        i -= nodes[n].count;
      }
    } else {
      let from = this.len;
      for (let n = nodes.length - 1; n >= 0; n--) {
        from -= nodes[n].count;
        if (i >= from) return [n, i - from];
      }
    }
    return [nodes.length - 1, nodes[nodes.length - 1].count - 1];
  }

  /** Listpack bytes of a node holding the elements at offsets `from` … `to` inclusive. */
  private packedSize(from: number, to: number): number {
    let sz = LP_OVERHEAD;
    for (let k = from; k <= to; k++) sz += lpEntryBytes(this.buf[(this.head + k) & this.mask] as string);
    return sz;
  }

  /** quicklist.c _quicklistNodeAllowInsert. */
  private allowInsert(node: QlNode | undefined, len: number): boolean {
    if (node === undefined || node.plain || isLargeElement(len, this.qlFill)) return false;
    return !nodeExceedsLimit(this.qlFill, node.sz + len + SIZE_ESTIMATE_OVERHEAD, node.count + 1);
  }

  /** A new node holding just `value` (plain when large). */
  private nodeOf(value: string): QlNode {
    return isLargeElement(value.length, this.qlFill)
      ? { count: 1, sz: value.length, plain: true }
      : { count: 1, sz: LP_OVERHEAD + lpEntryBytes(value), plain: false };
  }

  /** quicklistPushHead / quicklistPushTail on the node shapes. */
  private nodePush(value: string, left: boolean): void {
    const nodes = this.nodes;
    const end = left ? nodes[0] : nodes[nodes.length - 1];
    if (this.allowInsert(end, value.length)) {
      end.count++;
      end.sz += lpEntryBytes(value);
    } else if (left) nodes.unshift(this.nodeOf(value));
    else nodes.push(this.nodeOf(value));
  }

  /** An element `value` left node `n` (a pop, a deletion): its node shrinks or goes. */
  private nodeRemove(n: number, value: string): void {
    const node = this.nodes[n];
    node.count--;
    if (!node.plain) node.sz -= lpEntryBytes(value);
    if (node.count === 0) this.nodes.splice(n, 1);
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
    if (this.quicklist) this.nodePush(value, true);
  }

  /** RPUSH one element. */
  pushRight(value: string): void {
    if (this.len === this.buf.length) this.grow();
    this.buf[(this.head + this.len) & this.mask] = value;
    this.len++;
    this.bytes += lpEntryBytes(value);
    if (this.quicklist) this.nodePush(value, false);
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
    if (this.quicklist) this.nodeRemove(0, v);
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
    if (this.quicklist) this.nodeRemove(this.nodes.length - 1, v);
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
    const old = this.buf[at] as string;
    if (this.quicklist) this.nodeReplace(i, old, value);
    this.bytes += lpEntryBytes(value) - lpEntryBytes(old);
    this.buf[at] = value;
  }

  /** quicklist.c quicklistReplaceEntry on the node shapes (before the buffer changes). */
  private nodeReplace(i: number, old: string, value: string): void {
    const nodes = this.nodes;
    const [n, o] = this.nodeAt(i);
    const node = nodes[n];
    const large = isLargeElement(value.length, this.qlFill);
    if (!node.plain && !large) {
      node.sz += lpEntryBytes(value) - lpEntryBytes(old);
    } else if (node.plain) {
      if (large) node.sz = value.length;
      else if (this.allowInsert(nodes[n + 1], value.length)) {
        // inserted at the head of the next node, the plain node deleted
        nodes[n + 1].count++;
        nodes[n + 1].sz += lpEntryBytes(value);
        nodes.splice(n, 1);
      } else nodes[n] = this.nodeOf(value);
    } else {
      // a packed node split around a new plain node
      const start = i - o;
      const parts: QlNode[] = [];
      if (o > 0) parts.push({ count: o, sz: this.packedSize(start, i - 1), plain: false });
      parts.push({ count: 1, sz: value.length, plain: true });
      if (o < node.count - 1) parts.push({ count: node.count - 1 - o, sz: this.packedSize(i + 1, start + node.count - 1), plain: false });
      nodes.splice(n, 1, ...parts);
    }
  }

  /**
   * quicklist.c _quicklistInsert on the node shapes, for `value` inserted next to the element at
   * offset `pivot` (`after` it or before it), before the buffer changes.
   */
  private nodeInsert(pivot: number, value: string, after: boolean): void {
    const nodes = this.nodes;
    const [n, o] = this.nodeAt(pivot);
    const node = nodes[n];
    const atTail = o === node.count - 1;
    const atHead = o === 0;
    const start = pivot - o;
    const split = (withNew: boolean): void => {
      // the node split at the pivot (no merge with the neighbours afterwards, see the class doc)
      const leftEnd = after ? pivot : pivot - 1;
      const left: QlNode = { count: leftEnd - start + 1, sz: this.packedSize(start, leftEnd), plain: false };
      const right: QlNode = { count: start + node.count - 1 - leftEnd, sz: this.packedSize(leftEnd + 1, start + node.count - 1), plain: false };
      const middle = withNew ? [] : [this.nodeOf(value)];
      if (withNew && after) {
        right.count++;
        right.sz += lpEntryBytes(value);
      } else if (withNew) {
        left.count++;
        left.sz += lpEntryBytes(value);
      }
      nodes.splice(n, 1, ...[left, ...middle, right].filter((x) => x.count > 0));
    };
    if (isLargeElement(value.length, this.qlFill)) {
      if (node.plain || (atTail && after) || (atHead && !after)) nodes.splice(after ? n + 1 : n, 0, this.nodeOf(value));
      else split(false);
      return;
    }
    if (this.allowInsert(node, value.length)) {
      node.count++;
      node.sz += lpEntryBytes(value);
    } else if (atTail && after && this.allowInsert(nodes[n + 1], value.length)) {
      nodes[n + 1].count++;
      nodes[n + 1].sz += lpEntryBytes(value);
    } else if (atHead && !after && this.allowInsert(nodes[n - 1], value.length)) {
      nodes[n - 1].count++;
      nodes[n - 1].sz += lpEntryBytes(value);
    } else if ((atTail && after) || (atHead && !after)) {
      nodes.splice(after ? n + 1 : n, 0, this.nodeOf(value));
    } else split(true);
  }

  /**
   * Insert `value` so that it lands at offset `i` (0 ≤ i ≤ length), moving the nearer end;
   * LINSERT's pivot is the element before it when `after`, else the one it displaces.
   */
  insertAt(i: number, value: string, after = false): void {
    if (i <= 0 && !this.quicklist) return this.pushLeft(value);
    if (i >= this.len && !this.quicklist) return this.pushRight(value);
    if (this.quicklist && this.len > 0) this.nodeInsert(after ? i - 1 : i, value, after);
    else if (this.quicklist) this.nodes.push(this.nodeOf(value));
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
    if (this.quicklist) this.nodeRemove(this.nodeAt(i)[0], v);
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
    if (this.quicklist) {
      // quicklistDelEntry: each node loses its matches, emptied nodes go (no merging)
      const e = lpEntryBytes(value);
      let at = 0;
      let nodeEnd = this.nodes[0].count;
      for (let k = 0; k < n; k++) {
        while (k >= nodeEnd) nodeEnd += this.nodes[++at].count;
        if (!drop[k]) continue;
        const node = this.nodes[at];
        node.count--;
        if (!node.plain) node.sz -= e;
      }
      this.nodes = this.nodes.filter((node) => node.count > 0);
    }
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
    copy.qlFill = this.qlFill;
    copy.nodes = this.nodes.map((node) => ({ ...node }));
    return copy;
  }
}
