/**
 * A consumer group (Redis `streamCG`): last-delivered-id, entries-read, the group PEL,
 * a delivery-time ordered view of the PEL (for XREADGROUP CLAIM, Redis 8.4+, whose head is
 * the XNACK zone, Redis 8.8) and the consumers.
 *
 * The time-ordered view is built the first time something asks for it (a CLAIM read) and kept
 * up to date from then on; until then a delivery costs no second ordered insert.
 */
import type BTree from 'sorted-btree';
import { Consumer } from './consumer';
import type { IdMap } from './id-map';
import { PendingEntry, newIdMap } from './pel';
import { RaxNodeCounter } from './rax-size';
import { StreamId, compareIds } from './stream-id';

/** Key of the time-ordered PEL view: NACKed entries first in NACK order, then by delivery time, then ID. */
type TimeKey = PendingEntry;

function compareTimeKeys(a: TimeKey, b: TimeKey): number {
  const an = a.nackSeq > 0;
  const bn = b.nackSeq > 0;
  if (an !== bn) return an ? -1 : 1;
  if (an && a.nackSeq !== b.nackSeq) return a.nackSeq - b.nackSeq;
  if (a.deliveryTime !== b.deliveryTime) return a.deliveryTime - b.deliveryTime;
  return compareIds(a.id, b.id);
}

export class ConsumerGroup {
  /** Group PEL: every delivered, unacknowledged ID. */
  readonly pel: IdMap<PendingEntry> = newIdMap();
  /** The same pending entries ordered for CLAIM (NACK zone, then oldest delivery first); null until first needed. */
  private byTime: BTree<TimeKey, PendingEntry> | null = null;
  readonly consumers = new Map<string, Consumer>();
  private nackCounter = 0;
  /** Consumers removed so far (XGROUP DELCONSUMER): lets a caller keep a consumer object between commands. */
  consumerRemovals = 0;
  /** Pending entries in the NACK zone (nackSeq > 0). */
  private nacked = 0;
  /**
   * The node count of Redis's radix tree of the group PEL (MEMORY USAGE): null until first asked
   * for (`pelRaxNodes`), then kept by every change of the PEL; consumers' likewise (`Consumer.pelRax`).
   */
  private pelRax: RaxNodeCounter | null = null;

  constructor(
    readonly name: string,
    /** last-delivered-id */
    public lastId: StreamId,
    /** entries-read; -1n = unknown (shown as nil). */
    public entriesRead: bigint,
  ) {}

  /** Consumers in byte-wise name order (as Redis's radix tree iterates them). */
  sortedConsumers(): Consumer[] {
    return [...this.consumers.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  getConsumer(name: string): Consumer | undefined {
    return this.consumers.get(name);
  }

  /** Look up a consumer, creating it with seen-time `now`; `created` tells which happened. */
  ensureConsumer(name: string, now: number): { consumer: Consumer; created: boolean } {
    const existing = this.consumers.get(name);
    if (existing) return { consumer: existing, created: false };
    const consumer = new Consumer(name, now);
    this.consumers.set(name, consumer);
    return { consumer, created: true };
  }

  /** Remove a consumer and its pending entries from the group PEL; returns how many it owned. */
  deleteConsumer(name: string): number {
    const consumer = this.consumers.get(name);
    if (!consumer) return 0;
    const owned = consumer.pel.size;
    for (const pe of consumer.pel.valuesArray()) {
      this.pel.delete(pe.id);
      this.pelRax?.remove(pe.id);
      this.byTime?.delete(pe);
      if (pe.nackSeq > 0) this.nacked--; // (an owned entry is never NACKed; kept for safety)
    }
    this.consumers.delete(name);
    this.consumerRemovals++;
    return owned;
  }

  /** Add a new pending entry owned by `consumer` (or unowned when null). */
  addPending(id: StreamId, consumer: Consumer | null, deliveryTime: number, deliveryCount: bigint): PendingEntry {
    const pe: PendingEntry = { id, deliveryTime, deliveryCount, consumer, nackSeq: 0 };
    this.pel.set(id, pe);
    this.pelRax?.insert(id);
    this.byTime?.set(pe, pe);
    if (consumer !== null) {
      consumer.pel.set(id, pe);
      consumer.pelRax?.insert(id);
    }
    return pe;
  }

  /** Remove a pending entry from the group PEL and its owner's PEL. */
  removePending(pe: PendingEntry): void {
    this.pel.delete(pe.id);
    this.pelRax?.remove(pe.id);
    this.byTime?.delete(pe);
    if (pe.nackSeq > 0) this.nacked--;
    const owner = pe.consumer;
    if (owner !== null) {
      owner.pel.delete(pe.id);
      owner.pelRax?.remove(pe.id);
    }
  }

  /** Move a pending entry to another owner (same ID, same object). */
  setOwner(pe: PendingEntry, consumer: Consumer | null): void {
    if (pe.consumer === consumer) return;
    const previous = pe.consumer;
    if (previous !== null) {
      previous.pel.delete(pe.id);
      previous.pelRax?.remove(pe.id);
    }
    pe.consumer = consumer;
    if (consumer !== null) {
      consumer.pel.set(pe.id, pe);
      consumer.pelRax?.insert(pe.id);
    }
  }

  /**
   * Redis's `cg->pel->numnodes`: the nodes of the radix tree holding the group PEL (object.c's
   * MEMORY USAGE counts each). O(1) after the first call, which builds the counter (O(n)).
   */
  pelRaxNodes(): number {
    if (this.pelRax === null) this.pelRax = raxOf(this.pel);
    return this.pelRax.nodeCount;
  }

  /** `consumer->pel->numnodes` of a consumer of this group (as `pelRaxNodes`). */
  consumerPelRaxNodes(consumer: Consumer): number {
    if (consumer.pelRax === null) consumer.pelRax = raxOf(consumer.pel);
    return consumer.pelRax.nodeCount;
  }

  /** Change delivery time (and leave the NACK zone); keeps the time-ordered view sorted. */
  setDeliveryTime(pe: PendingEntry, time: number): void {
    this.byTime?.delete(pe);
    if (pe.nackSeq > 0) this.nacked--;
    pe.deliveryTime = time;
    pe.nackSeq = 0;
    this.byTime?.set(pe, pe);
  }

  /** XNACK (Redis 8.8): unowned, delivery time 0, moved to the tail of the NACK zone. */
  nack(pe: PendingEntry): void {
    this.setOwner(pe, null);
    this.byTime?.delete(pe);
    if (pe.nackSeq === 0) this.nacked++;
    pe.deliveryTime = 0;
    pe.nackSeq = ++this.nackCounter;
    this.byTime?.set(pe, pe);
  }

  /** The time-ordered view, built from the PEL on first use (O(n log n) once). */
  private timeIndex(): BTree<TimeKey, PendingEntry> {
    if (!this.byTime) {
      // sorted-btree loads with the first time index (XREADGROUP CLAIM), not with the model
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const BTreeClass = (require('sorted-btree') as { default: typeof BTree }).default;
      const index = new BTreeClass<TimeKey, PendingEntry>(undefined, compareTimeKeys);
      for (const pe of this.pel.valuesArray()) index.set(pe, pe);
      this.byTime = index;
    }
    return this.byTime;
  }

  /** Pending entries in CLAIM order: NACK zone first, then oldest delivery first. */
  *pendingByDeliveryTime(): Generator<PendingEntry> {
    const byTime = this.timeIndex();
    let pair = byTime.minKey() ? byTime.getPairOrNextHigher(byTime.minKey() as TimeKey) : undefined;
    while (pair) {
      const key = pair[0];
      yield pair[1];
      pair = byTime.nextHigherPair(key);
    }
  }

  /** Number of NACKed (unowned, Redis 8.8) pending entries. O(1). */
  get nackedCount(): number {
    return this.nacked;
  }

  /** Deep copy for COPY / RENAME-safe duplication. */
  clone(): ConsumerGroup {
    const g = new ConsumerGroup(this.name, this.lastId, this.entriesRead);
    g.nackCounter = this.nackCounter;
    g.nacked = this.nacked;
    const consumers = new Map<Consumer, Consumer>();
    for (const c of this.consumers.values()) {
      const copy = new Consumer(c.name, c.seenTime, c.activeTime);
      consumers.set(c, copy);
      g.consumers.set(c.name, copy);
    }
    for (const pe of this.pel.valuesArray()) {
      const owner = pe.consumer ? consumers.get(pe.consumer) ?? null : null;
      const copy = g.addPending(pe.id, owner, pe.deliveryTime, pe.deliveryCount);
      copy.nackSeq = pe.nackSeq; // the copy has no time index yet: it is built from these on first use
    }
    return g;
  }
}

/** A node counter of the radix tree Redis keeps the IDs of `pel` in. */
function raxOf(pel: IdMap<PendingEntry>): RaxNodeCounter {
  const rax = new RaxNodeCounter();
  for (const id of pel.keysArray()) rax.insert(id);
  return rax;
}
