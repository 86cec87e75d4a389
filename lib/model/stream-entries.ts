/**
 * The entries of one stream, stored the way Redis stores them: a sequence of macro nodes
 * (Redis: listpacks in a radix tree) of at most `maxEntriesPerNode` entries each, counting
 * deleted entries, which stay in their node as tombstones until the whole node is empty.
 * This makes approximate (`~`) trimming remove exactly the entries Redis removes
 * (whole nodes from the head) and makes `radix-tree-keys` the node count.
 *
 * Costs: append amortised O(1); seek by ID O(log n) (binary search over nodes, then in the
 * node); delete O(log n) plus O(nodes) only when a node empties; iteration O(1) per entry.
 */
import { RaxNodeCounter } from './rax-size';
import { StreamId, compareIds } from './stream-id';

/** One stream entry: its ID and its field/value list (`[f1, v1, f2, v2, …]`, byte strings). */
export interface StreamEntry {
  readonly id: StreamId;
  readonly fields: readonly string[];
}

interface Slot {
  readonly id: StreamId;
  fields: readonly string[] | null; // null = deleted (tombstone)
}

interface EntryNode {
  slots: Slot[]; // ascending IDs, live and deleted
  live: number; // live entries in this node
}

/** Redis `stream-node-max-entries` default. */
export const DEFAULT_NODE_MAX_ENTRIES = 100;

/** A cursor position: node index and slot index. */
interface Pos {
  n: number;
  s: number;
}

export class StreamEntries {
  private nodes: EntryNode[] = [];
  private liveCount = 0;
  /** Radix tree over the nodes' master IDs (`radix-tree-nodes`); every node add/drop updates it. */
  private rax = new RaxNodeCounter();

  constructor(readonly maxEntriesPerNode = DEFAULT_NODE_MAX_ENTRIES) {}

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

  /** Append an entry whose ID is greater than every ID ever stored. Amortised O(1). */
  append(id: StreamId, fields: readonly string[]): void {
    const tail = this.nodes[this.nodes.length - 1];
    const slot: Slot = { id, fields };
    if (tail && tail.slots.length < this.maxEntriesPerNode) {
      tail.slots.push(slot);
      tail.live++;
    } else {
      this.nodes.push({ slots: [slot], live: 1 });
      this.rax.insert(id);
    }
    this.liveCount++;
  }

  /** First position whose ID is >= id (or > id when `exclusive`); may be a tombstone. */
  private lowerBound(id: StreamId, exclusive = false): Pos {
    const nodes = this.nodes;
    // last node whose first slot ID <= id
    let lo = 0;
    let hi = nodes.length - 1;
    let n = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (compareIds(nodes[mid].slots[0].id, id) <= 0) {
        n = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (n === -1) return { n: 0, s: 0 };
    const slots = nodes[n].slots;
    let a = 0;
    let b = slots.length;
    while (a < b) {
      const mid = (a + b) >> 1;
      const c = compareIds(slots[mid].id, id);
      if (c < 0 || (exclusive && c === 0)) a = mid + 1;
      else b = mid;
    }
    if (a === slots.length) return { n: n + 1, s: 0 };
    return { n, s: a };
  }

  /** Last position whose ID is <= id (or < id when `exclusive`); n = -1 when none. */
  private upperBound(id: StreamId, exclusive = false): Pos {
    const p = this.lowerBound(id, !exclusive);
    return this.prevPos(p);
  }

  private prevPos(p: Pos): Pos {
    if (p.s > 0) return { n: p.n, s: p.s - 1 };
    if (p.n <= 0) return { n: -1, s: 0 };
    return { n: p.n - 1, s: this.nodes[p.n - 1].slots.length - 1 };
  }

  private find(id: StreamId): Pos | null {
    const p = this.lowerBound(id);
    const node = this.nodes[p.n];
    if (!node) return null;
    const slot = node.slots[p.s];
    if (!slot || slot.fields === null || compareIds(slot.id, id) !== 0) return null;
    return p;
  }

  /** The live entry with this ID, or undefined. O(log n). */
  get(id: StreamId): StreamEntry | undefined {
    const p = this.find(id);
    if (!p) return undefined;
    const slot = this.nodes[p.n].slots[p.s];
    return { id: slot.id, fields: slot.fields as readonly string[] };
  }

  has(id: StreamId): boolean {
    return this.find(id) !== null;
  }

  /** Delete a live entry (tombstone; the node is freed when it has no live entry). */
  delete(id: StreamId): boolean {
    const p = this.find(id);
    if (!p) return false;
    const node = this.nodes[p.n];
    node.slots[p.s].fields = null;
    node.live--;
    this.liveCount--;
    if (node.live === 0) {
      this.nodes.splice(p.n, 1);
      this.rax.remove(node.slots[0].id);
    }
    return true;
  }

  /** Live entries with start <= id <= end, ascending. */
  *range(start: StreamId, end: StreamId): Generator<StreamEntry> {
    const p = this.lowerBound(start);
    for (let n = p.n, s = p.s; n < this.nodes.length; n++, s = 0) {
      const slots = this.nodes[n].slots;
      for (; s < slots.length; s++) {
        const slot = slots[s];
        if (compareIds(slot.id, end) > 0) return;
        if (slot.fields !== null) yield { id: slot.id, fields: slot.fields };
      }
    }
  }

  /** Live entries with start >= id >= end, descending. */
  *revRange(start: StreamId, end: StreamId): Generator<StreamEntry> {
    const p = this.upperBound(start);
    for (let n = p.n, s = p.s; n >= 0; n--, s = n >= 0 ? this.nodes[n].slots.length - 1 : 0) {
      const slots = this.nodes[n].slots;
      for (; s >= 0; s--) {
        const slot = slots[s];
        if (compareIds(slot.id, end) < 0) return;
        if (slot.fields !== null) yield { id: slot.id, fields: slot.fields };
      }
    }
  }

  /** First live entry, O(1) amortised (head nodes always hold a live entry). */
  first(): StreamEntry | undefined {
    const node = this.nodes[0];
    if (!node) return undefined;
    for (const slot of node.slots) if (slot.fields !== null) return { id: slot.id, fields: slot.fields };
    return undefined;
  }

  /** Last live entry. */
  last(): StreamEntry | undefined {
    const node = this.nodes[this.nodes.length - 1];
    if (!node) return undefined;
    for (let s = node.slots.length - 1; s >= 0; s--) {
      const slot = node.slots[s];
      if (slot.fields !== null) return { id: slot.id, fields: slot.fields };
    }
    return undefined;
  }

  /** Live and tombstoned entry counts of the head node (for approximate trimming). */
  headNode(): { entries: number; live: number; lastId: StreamId } | undefined {
    const node = this.nodes[0];
    if (!node) return undefined;
    return { entries: node.slots.length, live: node.live, lastId: node.slots[node.slots.length - 1].id };
  }

  /**
   * Live count and last slot ID (live or deleted) of the `n`-th node from the head, for
   * trimming that walks past the head node (Redis 8.2 DELREF/ACKED trims). O(1).
   */
  nodeInfo(n: number): { live: number; lastId: StreamId } | undefined {
    const node = this.nodes[n];
    if (!node) return undefined;
    return { live: node.live, lastId: node.slots[node.slots.length - 1].id };
  }

  /** IDs of the live entries of the `n`-th node, ascending (a copy: safe to delete while iterating). */
  liveIdsInNode(n: number): StreamId[] {
    const node = this.nodes[n];
    if (!node) return [];
    const ids: StreamId[] = [];
    for (const slot of node.slots) if (slot.fields !== null) ids.push(slot.id);
    return ids;
  }

  /** Remove the head node entirely; returns the IDs of the live entries removed. */
  removeHeadNode(): StreamId[] {
    const node = this.nodes.shift();
    if (!node) return [];
    this.rax.remove(node.slots[0].id);
    const ids: StreamId[] = [];
    for (const slot of node.slots) if (slot.fields !== null) ids.push(slot.id);
    this.liveCount -= node.live;
    return ids;
  }

  /** Deep copy (COPY / RESTORE semantics), keeping node boundaries. */
  clone(): StreamEntries {
    const c = new StreamEntries(this.maxEntriesPerNode);
    c.nodes = this.nodes.map((n) => ({ slots: n.slots.map((s) => ({ id: s.id, fields: s.fields })), live: n.live }));
    c.liveCount = this.liveCount;
    for (const n of c.nodes) c.rax.insert(n.slots[0].id);
    return c;
  }
}
