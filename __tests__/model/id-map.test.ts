import { IdMap } from '../../lib/model/id-map';
import { StreamId, compareIds, formatId } from '../../lib/model/stream-id';

const id = (ms: number, seq = 0): StreamId => ({ ms: BigInt(ms), seq: BigInt(seq) });

/** A deterministic pseudo-random sequence (no Math.random in tests either). */
function lcg(seed: number): () => number {
  let x = seed >>> 0;
  return () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

describe('IdMap (the PELs’ ordered map)', () => {
  it('keeps keys in ID order through appends, inserts in the middle, replacements and deletes', () => {
    const m = new IdMap<string>();
    for (let i = 10; i <= 20; i++) m.set(id(i), `v${i}`);
    m.set(id(5), 'v5');
    m.set(id(15, 1), 'v15-1');
    m.set(id(12), 'again');
    expect(m.delete(id(11))).toBe(true);
    expect(m.delete(id(11))).toBe(false);
    expect(m.keysArray().map(formatId)).toEqual([
      '5-0', '10-0', '12-0', '13-0', '14-0', '15-0', '15-1', '16-0', '17-0', '18-0', '19-0', '20-0',
    ]);
    expect(m.get(id(12))).toBe('again');
    expect(m.size).toBe(12);
    expect(formatId(m.minKey()!)).toBe('5-0');
    expect(formatId(m.maxKey()!)).toBe('20-0');
  });

  it('seeks the first key at or after / strictly after an ID, across chunk boundaries', () => {
    const m = new IdMap<number>();
    for (let i = 0; i < 1000; i += 2) m.set(id(i), i);
    expect(m.getPairOrNextHigher(id(255))?.[1]).toBe(256);
    expect(m.getPairOrNextHigher(id(256))?.[1]).toBe(256);
    expect(m.nextHigherPair(id(256))?.[1]).toBe(258);
    expect(m.nextHigherPair(id(998))).toBeUndefined();
    expect(m.getPairOrNextHigher(id(-0))?.[1]).toBe(0);
    const seen: number[] = [];
    m.forEachFrom(id(301), (_, v) => (seen.push(v), seen.length < 5));
    expect(seen).toEqual([302, 304, 306, 308, 310]);
  });

  it('empties and refills (a PEL acknowledged entry by entry)', () => {
    const m = new IdMap<number>();
    for (let round = 0; round < 3; round++) {
      m.set(id(round * 10 + 2), 2);
      m.set(id(round * 10 + 1), 1);
      expect(m.delete(id(round * 10 + 1))).toBe(true);
      expect(m.delete(id(round * 10 + 2))).toBe(true);
      expect([m.size, m.minKey(), m.maxKey(), m.getPairOrNextHigher(id(0)), m.keysArray()]).toEqual([0, undefined, undefined, undefined, []]);
      expect(m.get(id(round * 10 + 1))).toBeUndefined();
    }
    m.set(id(7), 7);
    expect(m.keysArray().map(formatId)).toEqual(['7-0']);
  });

  it('matches a sorted-array reference over 20,000 random operations', () => {
    const rnd = lcg(42);
    const m = new IdMap<number>();
    let ref: StreamId[] = [];
    const has = (k: StreamId) => ref.some((r) => compareIds(r, k) === 0);
    for (let step = 0; step < 20_000; step++) {
      const k = id(Math.floor(rnd() * 3000), Math.floor(rnd() * 2));
      const op = rnd();
      if (op < 0.55) {
        m.set(k, step);
        if (!has(k)) ref = [...ref, k].sort(compareIds);
      } else if (op < 0.9) {
        expect(m.delete(k)).toBe(has(k));
        ref = ref.filter((r) => compareIds(r, k) !== 0);
      } else {
        const next = ref.find((r) => compareIds(r, k) >= 0);
        expect(m.getPairOrNextHigher(k)?.[0]).toEqual(next);
        const after = ref.find((r) => compareIds(r, k) > 0);
        expect(m.nextHigherPair(k)?.[0]).toEqual(after);
      }
      expect(m.size).toBe(ref.length);
    }
    expect(m.keysArray()).toEqual(ref);
  });
});
