/**
 * The entries of one stream, stored the way Redis stores them: a sequence of macro nodes
 * (Redis: listpacks in a radix tree). Deleted entries stay in their node as tombstones until
 * the whole node is empty. Like Redis `streamAppendItem`, an append opens a new node when the
 * tail node already holds `maxEntriesPerNode` entries (live + deleted; 0 = no limit) or when
 * its listpack size in bytes plus the raw byte length of the new entry's fields and values is
 * at least `maxBytesPerNode` (`stream-node-max-bytes`, 4096). Each node therefore tracks its
 * listpack size exactly as listpack.c lays it out (see "Listpack sizes" below).
 * This makes approximate (`~`) trimming remove exactly the entries Redis removes
 * (whole nodes from the head) and makes `radix-tree-keys` the node count.
 *
 * Costs: append amortised O(1); seek by ID O(log n) (binary search over nodes, then in the
 * node); delete O(log n) plus O(nodes) only when a node empties; iteration O(1) per entry.
 *
 * IDs are stored as numbers (two arrays of unboxed doubles per node), not as one object and one
 * bigint per entry: a stream that grows by one entry per command otherwise hands V8's young
 * generation two objects to copy and promote per entry, which made each scavenge some ten times
 * longer than the command work between two of them. A node holding an ID with a part above
 * 2^53 − 1 (not exact as a number) keeps `StreamId` objects instead. IDs handed out are made on
 * demand (equal values, not always the same object).
 */
import { RaxNodeCounter } from './rax-size';
import { StreamId, compareIds, idOfNumbers, idParts, numericParts } from './stream-id';

/** One stream entry: its ID and its field/value list (`[f1, v1, f2, v2, …]`, byte strings). */
export interface StreamEntry {
  readonly id: StreamId;
  readonly fields: readonly string[];
}

/** A deleted entry (tombstone): Redis keeps its fields in the listpack (flagged), so DUMP writes them. */
class Deleted {
  constructor(readonly fields: readonly string[]) {}
}

/**
 * What a node stores for one entry: the value alone (a string) when the entry has exactly one
 * field and it is the master entry's only field (Redis stores such "same fields" entries without
 * their field names too); else the `[f1, v1, …]` list; a `Deleted` once deleted.
 */
type StoredFields = string | readonly string[] | Deleted;

/**
 * The node limits Redis reads at every append (`stream-node-max-entries`, `stream-node-max-bytes`).
 * A stream holds a reference to its keyspace's object, so CONFIG SET applies to the next XADD.
 */
export interface NodeLimits {
  /** Entries (live + deleted) per node; 0 = no limit. */
  maxEntries: number;
  /** Listpack bytes per node; 0 or above 2^30 = 2^30. */
  maxBytes: number;
  /** Work limit (entries) of a `~` trim without LIMIT: see `defaultApproxTrimLimit`. */
  approxTrimLimit: number;
}

/**
 * t_stream.c: a `~` trim without LIMIT may remove at most 100 × `stream-node-max-entries`
 * entries (long long arithmetic, so it can wrap), 10000 when that is <= 0, at most 1000000.
 */
export function defaultApproxTrimLimit(maxEntries: bigint): number {
  const limit = BigInt.asIntN(64, 100n * maxEntries);
  if (limit <= 0n) return 10_000;
  return limit > 1_000_000n ? 1_000_000 : Number(limit);
}

/**
 * One macro node as stored, for DUMP/RESTORE (lib/rdb): the master entry's field names and every
 * entry in insertion order, deleted ones included (`deleted: true`, their fields kept).
 */
export interface StoredNode {
  readonly masterFields: readonly string[];
  readonly entries: readonly { readonly id: StreamId; readonly fields: readonly string[]; readonly deleted: boolean }[];
}

interface EntryNode {
  /**
   * IDs of the live and deleted entries in insertion order (parallel to `fields`), as numbers:
   * `ms[s]` and `seq[s]` are slot `s`'s parts. Live IDs always ascend; a deleted entry can stand
   * above later ones when XSETID moved the last ID below it (Redis allows that, 7.0 even below
   * max-deleted-entry-id): then `ordered` is false and the node is scanned, not bisected.
   * Both null when the node stores its IDs as objects (`ids`).
   */
  ms: number[] | null;
  seq: number[] | null;
  /** The IDs as objects, in a node holding an ID with a part above 2^53 − 1; else null. */
  ids: StreamId[] | null;
  /** The entries' fields, as `StoredFields` (deleted entries as `Deleted`); its length is the node's slot count. */
  fields: StoredFields[];
  ordered: boolean;
  live: number; // live entries in this node
  /** The master entry's field names: the fields (`[f1, v1, …]`) of the entry that opened the node. */
  readonly master: readonly string[];
  /**
   * Listpack bytes except the master entry's two counters (valid count, deleted count), whose
   * encoded size changes with their values: see `listpackBytes`.
   */
  bytes: number;
}

/** The stored form of `fields` in a node whose master fields are `master`. */
function storedFields(master: readonly string[], fields: readonly string[]): StoredFields {
  return fields.length === 2 && master.length === 2 && fields[0] === master[0] ? fields[1] : fields;
}

/** The `[f1, v1, …]` list of slot `s`, deleted or not (a new array when the node stores the value alone). */
function fieldsOf(node: EntryNode, s: number): readonly string[] {
  let f = node.fields[s];
  if (f instanceof Deleted) f = f.fields;
  return typeof f === 'string' ? [node.master[0], f] : f;
}

/** True when slot `s` of `node` holds a deleted entry. */
function isDeleted(node: EntryNode, s: number): boolean {
  return node.fields[s] instanceof Deleted;
}

/** The ID of slot `s`. */
function idAt(node: EntryNode, s: number): StreamId {
  const ms = node.ms;
  return ms === null ? node.ids![s] : idOfNumbers(ms[s], node.seq![s]);
}

/**
 * Slot `s`'s ID compared with `id`, whose parts as numbers are `ms` and `seq` (`Number()` of
 * each: a part above 2^53 − 1 rounds to 2^53 or more, still above every part a numeric node
 * holds, so the order stays exact).
 */
function compareSlot(node: EntryNode, s: number, id: StreamId, ms: number, seq: number): number {
  const msParts = node.ms;
  if (msParts === null) return compareIds(node.ids![s], id);
  const a = msParts[s];
  if (a !== ms) return a < ms ? -1 : 1;
  const b = node.seq![s];
  return b === seq ? 0 : b < seq ? -1 : 1;
}

/**
 * `id`'s parts as numbers for `compareSlot`, in `idParts`: exact when both are at most
 * 2^53 − 1, else rounded by `Number()` (see `compareSlot`: the order stays exact).
 */
function probeParts(id: StreamId): void {
  if (!numericParts(id)) {
    idParts.ms = Number(id.ms);
    idParts.seq = Number(id.seq);
  }
}

/** Append `id` to the node's ID storage (turning it into object storage for a non-numeric ID). */
function pushId(node: EntryNode, id: StreamId): void {
  const ms = node.ms;
  if (ms !== null) {
    if (numericParts(id)) {
      ms.push(idParts.ms);
      node.seq!.push(idParts.seq);
      return;
    }
    const ids = new Array<StreamId>(ms.length);
    for (let s = 0; s < ids.length; s++) ids[s] = idOfNumbers(ms[s], node.seq![s]);
    node.ids = ids;
    node.ms = null;
    node.seq = null;
  }
  node.ids!.push(id);
}

/** A node with no entry yet (its master fields `master`). */
function emptyNode(master: readonly string[], bytes: number): EntryNode {
  return { ms: [], seq: [], ids: null, fields: [], ordered: true, live: 0, master, bytes };
}

/** Redis `stream-node-max-entries` default. */
export const DEFAULT_NODE_MAX_ENTRIES = 100;
/** Redis `stream-node-max-bytes` default. */
export const DEFAULT_NODE_MAX_BYTES = 4096;
/** The default limits (shared, never modified). */
export const DEFAULT_NODE_LIMITS: Readonly<NodeLimits> = Object.freeze({
  maxEntries: DEFAULT_NODE_MAX_ENTRIES,
  maxBytes: DEFAULT_NODE_MAX_BYTES,
  approxTrimLimit: defaultApproxTrimLimit(BigInt(DEFAULT_NODE_MAX_ENTRIES)),
});
/** Redis STREAM_LISTPACK_MAX_SIZE: the byte limit used when `stream-node-max-bytes` is 0 or larger. */
const STREAM_LISTPACK_MAX_SIZE = 1 << 30;

/*
 * Listpack sizes (listpack.c, Redis 7.0), in bytes:
 * - a listpack: 6 header bytes (total size, element count), its elements, 1 end byte (0xFF);
 * - an element: its encoding (type/length prefix + data) followed by a "backlen" recording the
 *   encoding's length L in 7-bit groups: 1 byte for L <= 127, 2 for L < 16383, 3 for
 *   L < 2097151, 4 for L < 268435455, else 5;
 * - an integer (and a string that reads as a canonical signed 64-bit decimal: no sign other than
 *   a leading '-', no leading zero, not "-0", at most 20 characters) is encoded in 1 byte for
 *   0..127, 2 for -4096..4095, 3 for 16-bit, 4 for 24-bit, 5 for 32-bit and 9 for 64-bit values;
 * - any other string of n bytes: 1 + n bytes when n < 64, 2 + n when n < 4096, else 5 + n.
 * A stream node's listpack holds the master entry — valid count, deleted count, number of
 * master fields, the master field names, a 0 — then per entry: flags, ms and seq differences
 * from the master ID (wrapping 64-bit subtraction read as signed), then either the values only
 * (when the entry's field names equal the master's: SAMEFIELDS flag) or the field count and
 * every field and value, and last the entry's element count ("lp-count": 3 + fields, plus
 * fields + 1 without SAMEFIELDS). Deleting an entry sets a flag bit (0/2 → 1/3, same size) and
 * moves one from the valid to the deleted counter, whose encodings may change size.
 */

/** Bytes of a listpack element holding the integer `v` (encoding + 1 backlen byte). */
export function lpIntBytes(v: number): number {
  if (v >= 0 && v <= 127) return 2;
  if (v >= -4096 && v <= 4095) return 3;
  if (v >= -32768 && v <= 32767) return 4;
  if (v >= -8388608 && v <= 8388607) return 5;
  if (v >= -2147483648 && v <= 2147483647) return 6;
  return 10;
}

const SAFE_BIGINT = BigInt(Number.MAX_SAFE_INTEGER);

/** `lpIntBytes` for a 64-bit value. */
function lpBigIntBytes(v: bigint): number {
  return v >= -2147483648n && v <= 2147483647n ? lpIntBytes(Number(v)) : 10;
}

function backlenBytes(encodedLength: number): number {
  if (encodedLength <= 127) return 1;
  if (encodedLength < 16383) return 2;
  if (encodedLength < 2097151) return 3;
  if (encodedLength < 268435455) return 4;
  return 5;
}

/**
 * Bytes of a listpack element holding the byte string `s` (one char per byte): integer-encoded
 * when `s` is a canonical signed 64-bit decimal (listpack `lpStringToInt64`), else string-encoded.
 */
export function lpStringBytes(s: string): number {
  const n = s.length;
  if (n > 0 && n < 21) {
    const neg = s.charCodeAt(0) === 45; // '-'
    const start = neg ? 1 : 0;
    const c0 = n > start ? s.charCodeAt(start) : 0;
    if (c0 === 48 && n === 1) return 2; // "0"
    if (c0 >= 49 && c0 <= 57) {
      let i = start + 1;
      while (i < n) {
        const c = s.charCodeAt(i);
        if (c < 48 || c > 57) break;
        i++;
      }
      if (i === n) {
        const digits = n - start;
        if (digits <= 15) return lpIntBytes(Number(s));
        if (digits < 19) return 10;
        if (digits === 19 && (neg ? s.slice(1) <= '9223372036854775808' : s <= '9223372036854775807')) return 10;
      }
    }
  }
  const enc = n < 64 ? 1 + n : n < 4096 ? 2 + n : 5 + n;
  return enc + backlenBytes(enc);
}

/** The listpack element of an ID difference: 64-bit wrapping subtraction, read as signed. */
function idDiffBytes(a: bigint, b: bigint): number {
  if (a === b) return 2; // the usual ms part: no subtraction (a bigint result is an allocation)
  if (a <= SAFE_BIGINT && b <= SAFE_BIGINT) {
    // both exact as numbers, so is their difference (|d| < 2^53: already a signed 64-bit value)
    const n = Number(a) - Number(b);
    return n >= 0 && n <= 127 ? 2 : lpIntBytes(n);
  }
  const d = a - b;
  if (d >= 0n && d <= 127n) return 2;
  return lpBigIntBytes(BigInt.asIntN(64, d));
}

/** Empty listpack (header + end byte) plus the master entry without its two counters. */
function masterBytes(fields: readonly string[]): number {
  let bytes = 7 + lpIntBytes(fields.length >> 1) + 2; // num-fields, the 0 terminator
  for (let i = 0; i < fields.length; i += 2) bytes += lpStringBytes(fields[i]);
  return bytes;
}

/** True when the entry's field names are the master entry's (Redis SAMEFIELDS). */
function sameFields(master: readonly string[], fields: readonly string[]): boolean {
  if (master.length !== fields.length) return false;
  for (let i = 0; i < fields.length; i += 2) if (master[i] !== fields[i]) return false;
  return true;
}

/** Bytes an entry adds to a node with master ID `masterId` and master fields `master`. */
function entryBytes(masterId: StreamId, master: readonly string[], id: StreamId, fields: readonly string[]): number {
  // flags (0..3) + ms diff + seq diff
  return 2 + idDiffBytes(id.ms, masterId.ms) + idDiffBytes(id.seq, masterId.seq) + entryFieldBytes(master, fields);
}

/** `entryBytes` with both IDs given as exact numbers (parts at most 2^53 − 1). */
function entryBytesOfParts(masterMs: number, masterSeq: number, master: readonly string[], ms: number, seq: number, fields: readonly string[]): number {
  return 2 + numberDiffBytes(ms - masterMs) + numberDiffBytes(seq - masterSeq) + entryFieldBytes(master, fields);
}

/** `idDiffBytes` of a difference of two exact numbers (|d| < 2^53: already a signed 64-bit value). */
function numberDiffBytes(d: number): number {
  return d >= 0 && d <= 127 ? 2 : lpIntBytes(d);
}

/** The bytes of an entry after its flags and ID: its values (SAMEFIELDS) or fields and values, and its lp-count. */
function entryFieldBytes(master: readonly string[], fields: readonly string[]): number {
  const numFields = fields.length >> 1;
  let bytes = 0;
  if (sameFields(master, fields)) {
    for (let i = 1; i < fields.length; i += 2) bytes += lpStringBytes(fields[i]);
    bytes += lpIntBytes(numFields + 3);
  } else {
    bytes += lpIntBytes(numFields);
    for (let i = 0; i < fields.length; i++) bytes += lpStringBytes(fields[i]);
    bytes += lpIntBytes(2 * numFields + 4);
  }
  return bytes;
}

/** Total bytes of a node's listpack (Redis `lpBytes`). */
function listpackBytes(node: EntryNode): number {
  return node.bytes + lpIntBytes(node.live) + lpIntBytes(node.fields.length - node.live);
}

/** A visitor of live entries; returning `false` ends the walk. */
export type EntryVisitor = (id: StreamId, fields: readonly string[]) => boolean | void;

export class StreamEntries {
  private nodes: EntryNode[] = [];
  private liveCount = 0;
  /** Radix tree over the nodes' master IDs (`radix-tree-nodes`); every node add/drop updates it. */
  private rax = new RaxNodeCounter();

  /** The node limits read at each append (see `NodeLimits`); the keyspace binds its own. */
  limits: Readonly<NodeLimits>;

  /**
   * `maxEntriesPerNode`: `stream-node-max-entries` (0 = no entry limit); `maxBytesPerNode`:
   * `stream-node-max-bytes` (0 or above 2^30 = 2^30). Without arguments the defaults apply.
   */
  constructor(maxEntriesPerNode?: number, maxBytesPerNode?: number) {
    this.limits =
      maxEntriesPerNode === undefined && maxBytesPerNode === undefined
        ? DEFAULT_NODE_LIMITS
        : {
            maxEntries: maxEntriesPerNode ?? DEFAULT_NODE_MAX_ENTRIES,
            maxBytes: maxBytesPerNode ?? DEFAULT_NODE_MAX_BYTES,
            approxTrimLimit: defaultApproxTrimLimit(BigInt(maxEntriesPerNode ?? DEFAULT_NODE_MAX_ENTRIES)),
          };
  }

  get maxEntriesPerNode(): number {
    return this.limits.maxEntries;
  }

  get maxBytesPerNode(): number {
    return this.limits.maxBytes;
  }

  /** Number of live entries. */
  get length(): number {
    return this.liveCount;
  }

  /** Number of macro nodes (Redis `radix-tree-keys`). */
  get nodeCount(): number {
    return this.nodes.length;
  }

  /** Nodes of the radix tree keyed by the macro nodes' master IDs (Redis `radix-tree-nodes`). O(1). */
  get radixTreeNodes(): number {
    return this.rax.nodeCount;
  }

  /** Listpack size in bytes of the `n`-th node (Redis `lpBytes`), or undefined. O(1). */
  nodeBytes(n: number): number | undefined {
    const node = this.nodes[n];
    return node && listpackBytes(node);
  }

  /**
   * Append an entry whose ID is greater than every ID ever stored. Amortised O(1) in the
   * number of entries (O(fields) for the entry's own size).
   */
  append(id: StreamId, fields: readonly string[]): void {
    const tail = this.nodes[this.nodes.length - 1];
    if (tail && !this.isFull(tail, fields)) {
      const last = tail.fields.length - 1;
      if (tail.ms !== null && numericParts(id)) {
        // the master ID and the last ID as numbers: no ID object made
        const ms = idParts.ms;
        const seq = idParts.seq;
        tail.bytes += entryBytesOfParts(tail.ms[0], tail.seq![0], tail.master, ms, seq, fields);
        if (compareSlot(tail, last, id, ms, seq) >= 0) tail.ordered = false;
      } else {
        tail.bytes += entryBytes(idAt(tail, 0), tail.master, id, fields);
        if (compareIds(idAt(tail, last), id) >= 0) tail.ordered = false;
      }
      pushId(tail, id);
      tail.fields.push(storedFields(tail.master, fields));
      tail.live++;
    } else {
      const node = emptyNode(fields, masterBytes(fields) + entryBytes(id, fields, id, fields));
      pushId(node, id);
      node.fields.push(storedFields(fields, fields));
      node.live = 1;
      this.nodes.push(node);
      this.rax.insert(id);
    }
    this.liveCount++;
  }

  /** Redis `streamAppendItem`'s test for opening a new node before appending `fields`. */
  private isFull(tail: EntryNode, fields: readonly string[]): boolean {
    const { maxEntries } = this.limits;
    let { maxBytes } = this.limits;
    if (maxBytes <= 0 || maxBytes > STREAM_LISTPACK_MAX_SIZE) maxBytes = STREAM_LISTPACK_MAX_SIZE;
    // the fields' raw byte lengths (Redis `totelelen`), summed here: a function that small is
    // compiled by TurboFan within a test file's first commands (V8's "small function" rule)
    let raw = 0;
    for (let i = 0; i < fields.length; i++) raw += fields[i].length;
    if (listpackBytes(tail) + raw >= maxBytes) return true;
    return maxEntries > 0 && tail.fields.length >= maxEntries;
  }

  /**
   * The node an iteration starts at, as Redis `streamIteratorStart` seeks the radix tree of
   * master IDs: the last node whose master ID is <= `id`; when there is none (or `id` is 0-0),
   * the first node going forward and the last node going backward. O(log nodes). `ms`, `seq`:
   * `id`'s parts as numbers (see `compareSlot`).
   */
  private seekNode(id: StreamId, ms: number, seq: number, reverse: boolean): number {
    const nodes = this.nodes;
    if (ms === 0 && seq === 0) return reverse ? nodes.length - 1 : 0;
    // Reads that follow the stream (`>`, `$`, XRANGE to `+`) start in the last node: one test.
    // (Master IDs ascend from node to node, so this is what the bisection would find.)
    const last = nodes.length - 1;
    if (last >= 0 && compareSlot(nodes[last], 0, id, ms, seq) <= 0) return last;
    let lo = 0;
    let hi = nodes.length - 1;
    let n = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (compareSlot(nodes[mid], 0, id, ms, seq) <= 0) {
        n = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (n === -1) return reverse ? nodes.length - 1 : 0;
    return n;
  }

  /** In an ordered node, the first slot whose ID is >= id (bisection); else 0. */
  private static firstSlotFrom(node: EntryNode, id: StreamId, ms: number, seq: number): number {
    if (!node.ordered) return 0;
    let a = 0;
    let b = node.fields.length;
    while (a < b) {
      const mid = (a + b) >> 1;
      if (compareSlot(node, mid, id, ms, seq) < 0) a = mid + 1;
      else b = mid;
    }
    return a;
  }

  /**
   * In an ordered node, the first slot whose ID is > id; else 0. Reads that follow the stream
   * start at its tail, so the last two slots are tested before bisecting.
   */
  private static firstSlotAfter(node: EntryNode, id: StreamId, ms: number, seq: number): number {
    if (!node.ordered) return 0;
    const len = node.fields.length;
    if (compareSlot(node, len - 1, id, ms, seq) <= 0) return len;
    if (len === 1 || compareSlot(node, len - 2, id, ms, seq) <= 0) return len - 1;
    let a = 0;
    let b = len - 2;
    while (a < b) {
      const mid = (a + b) >> 1;
      if (compareSlot(node, mid, id, ms, seq) <= 0) a = mid + 1;
      else b = mid;
    }
    return a;
  }

  /** In an ordered node, the last slot whose ID is <= id (bisection); else the last slot. */
  private static lastSlotUpTo(node: EntryNode, id: StreamId, ms: number, seq: number): number {
    const len = node.fields.length;
    if (!node.ordered) return len - 1;
    let a = 0;
    let b = len;
    while (a < b) {
      const mid = (a + b) >> 1;
      if (compareSlot(node, mid, id, ms, seq) <= 0) a = mid + 1;
      else b = mid;
    }
    return a - 1;
  }

  /**
   * Visit the live entries from `start` to `end`, ascending, exactly as Redis's forward stream
   * iterator walks them: entries below `start` and deleted ones are skipped, the first live
   * entry above `end` ends the walk; so does `visit` returning false. O(log n) to start, O(1)
   * per step. `visit` must not add or delete entries.
   */
  forEach(start: StreamId, end: StreamId, visit: EntryVisitor): void {
    const nodes = this.nodes;
    probeParts(start);
    const startMs = idParts.ms;
    const startSeq = idParts.seq;
    probeParts(end);
    const endMs = idParts.ms;
    const endSeq = idParts.seq;
    for (let n = this.seekNode(start, startMs, startSeq, false), first = true; n < nodes.length; n++, first = false) {
      const node = nodes[n];
      const fields = node.fields;
      for (let s = first ? StreamEntries.firstSlotFrom(node, start, startMs, startSeq) : 0; s < fields.length; s++) {
        if (fields[s] instanceof Deleted) continue;
        if (compareSlot(node, s, start, startMs, startSeq) < 0) continue;
        if (compareSlot(node, s, end, endMs, endSeq) > 0) return;
        if (visit(idAt(node, s), fieldsOf(node, s)) === false) return;
      }
    }
  }

  /**
   * The live entries whose ID is greater than `after`, ascending (XREADGROUP `>`, XREAD after an
   * ID), as a walk the caller steps through (`EntryWalk.next`), without a visitor. Same walk and
   * costs as `forEach(after + 1, max ID)`: the start node is the last whose master ID is <=
   * `after` (or the first), and entries up to `after` are skipped. The entries must not change
   * while the walk is in use.
   */
  after(after: StreamId): EntryWalk {
    probeParts(after);
    const ms = idParts.ms;
    const seq = idParts.seq;
    const n = this.seekNode(after, ms, seq, false);
    const node = this.nodes[n];
    return new EntryWalk(this.nodes, after, ms, seq, n, node === undefined ? 0 : StreamEntries.firstSlotAfter(node, after, ms, seq));
  }

  /** The same walk backward (Redis's reverse iterator), from `upper` down to `lower`. */
  forEachReverse(upper: StreamId, lower: StreamId, visit: EntryVisitor): void {
    const nodes = this.nodes;
    probeParts(upper);
    const upperMs = idParts.ms;
    const upperSeq = idParts.seq;
    probeParts(lower);
    const lowerMs = idParts.ms;
    const lowerSeq = idParts.seq;
    for (let n = this.seekNode(upper, upperMs, upperSeq, true), first = true; n >= 0; n--, first = false) {
      const node = nodes[n];
      if (!node) return;
      const fields = node.fields;
      for (let s = first ? StreamEntries.lastSlotUpTo(node, upper, upperMs, upperSeq) : fields.length - 1; s >= 0; s--) {
        if (fields[s] instanceof Deleted) continue;
        if (compareSlot(node, s, upper, upperMs, upperSeq) > 0) continue;
        if (compareSlot(node, s, lower, lowerMs, lowerSeq) < 0) return;
        if (visit(idAt(node, s), fieldsOf(node, s)) === false) return;
      }
    }
  }

  /**
   * Find the live entry with this ID (the same walk as `forEach(id, id)`): true with its node
   * and slot written into `pos`, false when there is none. O(log n). `pos.n`, when it names a
   * node whose master ID is <= id while the next node's is > id, is taken as the start node
   * instead of bisecting (callers looking up ascending IDs pass the previous position): any
   * such node is at or before the node holding a live `id`, because every entry appended after
   * `id` has a greater ID, so the walk finds the same entry.
   */
  private find(id: StreamId, pos: { n: number; s: number }): boolean {
    const nodes = this.nodes;
    probeParts(id);
    const ms = idParts.ms;
    const seq = idParts.seq;
    let start = pos.n;
    if (
      !(start >= 0 && start < nodes.length && compareSlot(nodes[start], 0, id, ms, seq) <= 0 &&
        (start + 1 === nodes.length || compareSlot(nodes[start + 1], 0, id, ms, seq) > 0))
    ) {
      start = this.seekNode(id, ms, seq, false);
    }
    pos.n = start;
    for (let n = start, first = true; n < nodes.length; n++, first = false) {
      const node = nodes[n];
      const len = node.fields.length;
      for (let s = first ? StreamEntries.firstSlotFrom(node, id, ms, seq) : 0; s < len; s++) {
        if (isDeleted(node, s)) continue;
        const c = compareSlot(node, s, id, ms, seq);
        if (c < 0) continue;
        if (c > 0) return false;
        pos.n = n;
        pos.s = s;
        return true;
      }
    }
    return false;
  }

  /** The live entry with this ID, or undefined. O(log n). */
  get(id: StreamId): StreamEntry | undefined {
    const pos = { n: -1, s: 0 };
    if (!this.find(id, pos)) return undefined;
    const node = this.nodes[pos.n];
    return { id: idAt(node, pos.s), fields: fieldsOf(node, pos.s) };
  }

  has(id: StreamId): boolean {
    return this.find(id, { n: -1, s: 0 });
  }

  /**
   * `has(id)` for a caller looking up ascending IDs one after another (a PEL scan): `hint`
   * carries the position between calls (start with `{ n: -1, s: 0 }`), so each lookup costs
   * O(log node size) instead of O(log n) when the IDs are close.
   */
  hasAscending(id: StreamId, hint: { n: number; s: number }): boolean {
    return this.find(id, hint);
  }

  /**
   * Delete a live entry (tombstone). The node is freed when it has no live entry left, as
   * Redis's XDEL path (`streamIteratorRemoveEntry`) does, unless `keepEmptyNode`: Redis's exact
   * trimming marks entries deleted in place and keeps a node whose live entries all went (a
   * MINID trim can do that when the node ends with tombstones at or above the MINID).
   */
  delete(id: StreamId, keepEmptyNode = false): boolean {
    const pos = { n: -1, s: 0 };
    if (!this.find(id, pos)) return false;
    const node = this.nodes[pos.n];
    node.fields[pos.s] = new Deleted(fieldsOf(node, pos.s));
    node.live--;
    this.liveCount--;
    if (node.live === 0 && !keepEmptyNode) {
      this.nodes.splice(pos.n, 1);
      this.rax.remove(idAt(node, 0));
    }
    return true;
  }

  /** Live entries with start <= id <= end, ascending (Redis forward iteration; see `forEach`). */
  *range(start: StreamId, end: StreamId): Generator<StreamEntry> {
    const nodes = this.nodes;
    probeParts(start);
    const startMs = idParts.ms;
    const startSeq = idParts.seq;
    probeParts(end);
    const endMs = idParts.ms;
    const endSeq = idParts.seq;
    for (let n = this.seekNode(start, startMs, startSeq, false), first = true; n < nodes.length; n++, first = false) {
      const node = nodes[n];
      for (let s = first ? StreamEntries.firstSlotFrom(node, start, startMs, startSeq) : 0; s < node.fields.length; s++) {
        if (isDeleted(node, s)) continue;
        if (compareSlot(node, s, start, startMs, startSeq) < 0) continue;
        if (compareSlot(node, s, end, endMs, endSeq) > 0) return;
        yield { id: idAt(node, s), fields: fieldsOf(node, s) };
      }
    }
  }

  /** Live entries with start >= id >= end, descending (Redis reverse iteration; see `forEachReverse`). */
  *revRange(start: StreamId, end: StreamId): Generator<StreamEntry> {
    const nodes = this.nodes;
    probeParts(start);
    const startMs = idParts.ms;
    const startSeq = idParts.seq;
    probeParts(end);
    const endMs = idParts.ms;
    const endSeq = idParts.seq;
    for (let n = this.seekNode(start, startMs, startSeq, true), first = true; n >= 0; n--, first = false) {
      const node = nodes[n];
      if (!node) return;
      for (let s = first ? StreamEntries.lastSlotUpTo(node, start, startMs, startSeq) : node.fields.length - 1; s >= 0; s--) {
        if (isDeleted(node, s)) continue;
        if (compareSlot(node, s, start, startMs, startSeq) > 0) continue;
        if (compareSlot(node, s, end, endMs, endSeq) < 0) return;
        yield { id: idAt(node, s), fields: fieldsOf(node, s) };
      }
    }
  }

  /** The head node's entries in storage order, live and deleted (for exact trimming). */
  headSlots(): { id: StreamId; live: boolean }[] {
    const node = this.nodes[0];
    if (!node) return [];
    const out = new Array<{ id: StreamId; live: boolean }>(node.fields.length);
    for (let s = 0; s < out.length; s++) out[s] = { id: idAt(node, s), live: !isDeleted(node, s) };
    return out;
  }

  /**
   * First live entry. O(head node size): only the head node can be without live entries (see
   * `delete`), so at most one node is skipped.
   */
  first(): StreamEntry | undefined {
    for (const node of this.nodes) {
      if (node.live === 0) continue;
      for (let s = 0; s < node.fields.length; s++) if (!isDeleted(node, s)) return { id: idAt(node, s), fields: fieldsOf(node, s) };
    }
    return undefined;
  }

  /** ID of the last live entry, or undefined. O(1) unless the tail nodes end with tombstones. */
  lastId(): StreamId | undefined {
    for (let n = this.nodes.length - 1; n >= 0; n--) {
      const node = this.nodes[n];
      if (node.live === 0) continue;
      for (let s = node.fields.length - 1; s >= 0; s--) if (!isDeleted(node, s)) return idAt(node, s);
    }
    return undefined;
  }

  /**
   * True when the last live entry's ID is above `id` (`lastId()` compared with it, without
   * making the ID object: a blocked group reader re-run asks this on every write of its key).
   */
  hasLiveAfter(id: StreamId): boolean {
    for (let n = this.nodes.length - 1; n >= 0; n--) {
      const node = this.nodes[n];
      if (node.live === 0) continue;
      for (let s = node.fields.length - 1; s >= 0; s--) {
        if (isDeleted(node, s)) continue;
        probeParts(id);
        return compareSlot(node, s, id, idParts.ms, idParts.seq) > 0;
      }
    }
    return false;
  }

  /** Last live entry. */
  last(): StreamEntry | undefined {
    for (let n = this.nodes.length - 1; n >= 0; n--) {
      const node = this.nodes[n];
      if (node.live === 0) continue;
      for (let s = node.fields.length - 1; s >= 0; s--) if (!isDeleted(node, s)) return { id: idAt(node, s), fields: fieldsOf(node, s) };
    }
    return undefined;
  }

  /** Live and tombstoned entry counts of the head node (for approximate trimming). */
  headNode(): { entries: number; live: number; lastId: StreamId } | undefined {
    const node = this.nodes[0];
    if (!node) return undefined;
    return { entries: node.fields.length, live: node.live, lastId: idAt(node, node.fields.length - 1) };
  }

  /**
   * Live count and last slot ID (live or deleted) of the `n`-th node from the head, for
   * trimming that walks past the head node (Redis 8.2 DELREF/ACKED trims). O(1).
   */
  nodeInfo(n: number): { live: number; lastId: StreamId } | undefined {
    const node = this.nodes[n];
    if (!node) return undefined;
    return { live: node.live, lastId: idAt(node, node.fields.length - 1) };
  }

  /** IDs of the live entries of the `n`-th node, ascending (a copy: safe to delete while iterating). */
  liveIdsInNode(n: number): StreamId[] {
    const node = this.nodes[n];
    return node ? liveIds(node) : [];
  }

  /** Remove the head node entirely; returns the IDs of the live entries removed. */
  removeHeadNode(): StreamId[] {
    return this.removeNode(0);
  }

  /** Remove the `n`-th node entirely; returns the IDs of the live entries removed. */
  removeNode(n: number): StreamId[] {
    const node = this.nodes[n];
    if (!node) return [];
    this.nodes.splice(n, 1);
    this.rax.remove(idAt(node, 0));
    this.liveCount -= node.live;
    return liveIds(node);
  }

  /** Deep copy (COPY / RESTORE semantics), keeping node boundaries. */
  clone(): StreamEntries {
    const c = new StreamEntries();
    c.limits = this.limits;
    c.nodes = this.nodes.map((n) => ({
      ms: n.ms && n.ms.slice(),
      seq: n.seq && n.seq.slice(),
      ids: n.ids && n.ids.slice(),
      fields: n.fields.slice(),
      ordered: n.ordered,
      live: n.live,
      master: n.master,
      bytes: n.bytes,
    }));
    c.liveCount = this.liveCount;
    for (const n of c.nodes) c.rax.insert(idAt(n, 0));
    return c;
  }

  /** The nodes as stored, head first (DUMP). O(entries). */
  storedNodes(): StoredNode[] {
    return this.nodes.map((n) => {
      const entries = new Array<StoredNode['entries'][number]>(n.fields.length);
      for (let s = 0; s < entries.length; s++) entries[s] = { id: idAt(n, s), fields: fieldsOf(n, s), deleted: isDeleted(n, s) };
      return { masterFields: masterFieldNames(n.master), entries };
    });
  }

  /**
   * Entries rebuilt from stored nodes (RESTORE): node boundaries, master fields and deleted
   * entries exactly as given. The caller has validated them (each node non-empty, its first entry
   * at the node's master ID, IDs of live entries ascending across nodes, every entry's field
   * count even).
   */
  static fromStoredNodes(stored: readonly StoredNode[]): StreamEntries {
    const c = new StreamEntries();
    for (const sn of stored) {
      const master: string[] = [];
      for (const f of sn.masterFields) master.push(f, '');
      const first = sn.entries[0];
      const node = emptyNode(master, masterBytes(master));
      let prev: StreamId | undefined;
      for (const e of sn.entries) {
        node.bytes += entryBytes(first.id, master, e.id, e.fields);
        if (prev && compareIds(prev, e.id) >= 0) node.ordered = false;
        prev = e.id;
        pushId(node, e.id);
        const stored = storedFields(master, e.fields);
        if (e.deleted) {
          node.fields.push(new Deleted(e.fields));
        } else {
          node.fields.push(stored);
          node.live++;
        }
      }
      c.nodes.push(node);
      c.liveCount += node.live;
      c.rax.insert(first.id);
    }
    return c;
  }
}

/** A walk over live entries after an ID (`StreamEntries.after`). */
export class EntryWalk {
  private node: EntryNode | undefined;
  private slot = -1;

  /** @internal `n`, `s`: the node and slot the walk starts at; `ms`, `seq`: `after`'s parts as numbers. */
  constructor(
    private readonly nodes: readonly EntryNode[],
    private readonly afterId: StreamId,
    private readonly ms: number,
    private readonly seq: number,
    private n: number,
    private s: number,
  ) {}

  /** Move to the next live entry; false at the end. */
  next(): boolean {
    const nodes = this.nodes;
    for (; this.n < nodes.length; this.n++, this.s = 0) {
      const node = nodes[this.n];
      const fields = node.fields;
      for (let s = this.s; s < fields.length; s++) {
        if (fields[s] instanceof Deleted) continue;
        if (compareSlot(node, s, this.afterId, this.ms, this.seq) <= 0) continue;
        this.node = node;
        this.slot = s;
        this.s = s + 1;
        return true;
      }
    }
    this.node = undefined;
    return false;
  }

  /** The current entry's ID (after `next()` returned true). */
  id(): StreamId {
    return idAt(this.node!, this.slot);
  }

  /** The current entry's `[f1, v1, …]` as a new array (the caller may keep it). */
  fields(): string[] {
    const node = this.node!;
    const f = node.fields[this.slot] as string | readonly string[];
    if (typeof f === 'string') return [node.master[0], f];
    const copy = new Array<string>(f.length);
    for (let i = 0; i < f.length; i++) copy[i] = f[i];
    return copy;
  }
}

/** The IDs of a node's live entries, in slot order. */
function liveIds(node: EntryNode): StreamId[] {
  const out: StreamId[] = [];
  for (let s = 0; s < node.fields.length; s++) if (!isDeleted(node, s)) out.push(idAt(node, s));
  return out;
}

/** The field names of a master entry given as `[f1, v1, …]`. */
function masterFieldNames(master: readonly string[]): string[] {
  const names: string[] = [];
  for (let i = 0; i < master.length; i += 2) names.push(master[i]);
  return names;
}
