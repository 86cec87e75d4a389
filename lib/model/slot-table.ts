/**
 * Members with slot numbers increasing in insertion order: the hash-table encoding of a set
 * (lib/model/set.ts) and the scan index of a skiplist-encoded sorted set (lib/model/zset.ts).
 * A removed member leaves a hole that is compacted away once holes outnumber members (slot
 * numbers are kept), so a random slot is a member with probability ≥ 1/2 and a scan cursor (the
 * next slot number) survives any change.
 *
 * Scans end: a scan that starts (cursor 0) records the next slot number of that moment as the
 * table's scan limit, and a call with another cursor visits only slots below the limit. Members
 * added after the start of an iteration are then never returned by it (Redis: they "may or may
 * not be"), so a loop that adds a member per member it sees still finishes (as Redis's
 * dictScan does: a new member lands at a random bucket, often behind the cursor). The limit
 * only grows (a later SCAN 0, of any client, raises it), so an iteration always reaches every
 * slot that existed when it started: every member present for the whole iteration is returned.
 */
import { ChurnMap } from './churn-map';

export class SlotTable {
  private readonly slotOf = new ChurnMap<number>(); // member → slot (see ChurnMap: SADD+SREM of one member stays O(1))
  private keys: (string | undefined)[] = [];
  private slots: number[] = [];
  private holes = 0;
  private nextSlot = 1;
  /** Scans visit slots below this (see the file comment); 0 until a scan first runs. */
  private scanLimit = 0;

  get size(): number {
    return this.slotOf.size;
  }

  has(m: string): boolean {
    return this.slotOf.has(m);
  }

  add(m: string): boolean {
    if (this.slotOf.has(m)) return false;
    const slot = this.nextSlot++;
    this.slotOf.set(m, slot);
    this.keys.push(m);
    this.slots.push(slot);
    return true;
  }

  delete(m: string): boolean {
    const slot = this.slotOf.get(m);
    if (slot === undefined) return false;
    this.slotOf.delete(m);
    this.keys[this.indexOfSlot(slot)] = undefined;
    this.holes++;
    if (this.holes > this.slotOf.size) this.compact();
    return true;
  }

  /** First index whose slot number is ≥ `slot`. */
  private indexOfSlot(slot: number): number {
    let lo = 0;
    let hi = this.slots.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.slots[mid] < slot) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private compact(): void {
    const keys: string[] = [];
    const slots: number[] = [];
    for (let i = 0; i < this.keys.length; i++) {
      const k = this.keys[i];
      if (k !== undefined) {
        keys.push(k);
        slots.push(this.slots[i]);
      }
    }
    this.keys = keys;
    this.slots = slots;
    this.holes = 0;
  }

  /** A member chosen uniformly (the table must not be empty). */
  random(rand: (n: number) => number): string {
    for (;;) {
      const k = this.keys[rand(this.keys.length)];
      if (k !== undefined) return k;
    }
  }

  members(): string[] {
    const out: string[] = [];
    for (const k of this.keys) if (k !== undefined) out.push(k);
    return out;
  }

  /**
   * Up to `count` members from slot `cursor` on (0 = the start of an iteration), below the scan
   * limit, and the cursor of the next call (0 when the iteration is done).
   */
  scan(cursor: number, count: number): { next: number; members: string[] } {
    // cursor 0 starts an iteration; another one with no limit yet (a cursor this table never
    // gave, or one from before a conversion) is bounded by the table as it is now
    if (cursor === 0 || this.scanLimit === 0) this.scanLimit = this.nextSlot;
    const limit = this.scanLimit;
    const members: string[] = [];
    let i = cursor <= 1 ? 0 : this.indexOfSlot(cursor);
    const keys = this.keys;
    const slots = this.slots;
    for (; i < keys.length && slots[i] < limit && members.length < count; i++) {
      const k = keys[i];
      if (k !== undefined) members.push(k);
    }
    while (i < keys.length && keys[i] === undefined) i++;
    return { next: i < keys.length && slots[i] < limit ? slots[i] : 0, members };
  }
}
