/**
 * Members with slot numbers increasing in insertion order: the hash-table encoding of a set
 * (lib/model/set.ts).
 * A removed member leaves a hole that is compacted away once holes outnumber members (slot
 * numbers are kept), so a random slot is a member with probability ≥ 1/2 and a scan cursor (the
 * next slot number) survives any change.
 */
import { ChurnMap } from './churn-map';

export class SlotTable {
  private readonly slotOf = new ChurnMap<number>(); // member → slot (see ChurnMap: SADD+SREM of one member stays O(1))
  private keys: (string | undefined)[] = [];
  private slots: number[] = [];
  private holes = 0;
  private nextSlot = 1;

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
   * Up to `count` members from slot `cursor` on (0 = the start), and the cursor of the next
   * call (0 when the table is done).
   */
  scan(cursor: number, count: number): { next: number; members: string[] } {
    const members: string[] = [];
    let i = cursor <= 1 ? 0 : this.indexOfSlot(cursor);
    for (; i < this.keys.length && members.length < count; i++) {
      const k = this.keys[i];
      if (k !== undefined) members.push(k);
    }
    while (i < this.keys.length && this.keys[i] === undefined) i++;
    return { next: i < this.keys.length ? this.slots[i] : 0, members };
  }
}
