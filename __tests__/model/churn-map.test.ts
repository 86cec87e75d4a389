import { ChurnMap } from '../../lib/model/churn-map';

describe('ChurnMap (string keys added and removed over and over)', () => {
  it('answers get/has/size as a Map through removals and re-additions', () => {
    const m = new ChurnMap<number>();
    m.set('a', 1).set('b', 2);
    expect(m.delete('a')).toBe(true);
    expect(m.delete('a')).toBe(false);
    expect([m.get('a'), m.has('a'), m.size]).toEqual([undefined, false, 1]);
    m.set('a', 3);
    expect([m.get('a'), m.has('a'), m.size]).toEqual([3, true, 2]);
    expect([...m.entries()]).toEqual([
      ['a', 3], // came back while its tombstone lasted: its first place
      ['b', 2],
    ]);
  });

  it('drops tombstones once they outnumber the live keys, keeping every live entry in order', () => {
    const m = new ChurnMap<number>();
    for (let i = 0; i < 100; i++) m.set(`k${i}`, i);
    for (let i = 0; i < 100; i += 2) m.delete(`k${i}`); // 50 removed: tombstones 50 ≥ live 50 at the last
    for (let i = 0; i < 1000; i++) {
      m.set('job', i);
      m.delete('job');
    }
    expect(m.size).toBe(50);
    expect([...m.entries()].map(([k]) => k)).toEqual(Array.from({ length: 50 }, (_, i) => `k${2 * i + 1}`));
    // the inner Map holds at most twice the live keys (tombstones ≤ live, or 64)
    const inner = (m as unknown as { table: Map<string, unknown> }).table;
    expect(inner.size).toBeLessThanOrEqual(50 + Math.max(64, 50));
  });

  it('empties completely when its last key goes', () => {
    const m = new ChurnMap<string>();
    m.set('x', 'v');
    m.delete('x');
    expect([m.size, [...m.entries()], (m as unknown as { table: Map<string, unknown> }).table.size]).toEqual([0, [], 0]);
  });

  it('lists live keys, values and entries alike (keys, values, keyList, iteration) with tombstones skipped', () => {
    const m = new ChurnMap<number>();
    for (const [k, v] of [['a', 1], ['b', 2], ['c', 3]] as const) m.set(k, v);
    m.delete('b');
    m.set('d', 4);
    expect([...m.keys()]).toEqual(['a', 'c', 'd']);
    expect(m.keyList()).toEqual(['a', 'c', 'd']);
    expect([...m.values()]).toEqual([1, 3, 4]);
    expect([...m]).toEqual([['a', 1], ['c', 3], ['d', 4]]);
    expect(new Map(m)).toEqual(new Map([['a', 1], ['c', 3], ['d', 4]]));
  });

  it('keeps each lookup short when one key is added and removed next to 200,000 others', () => {
    const m = new ChurnMap<number>();
    for (let i = 0; i < 200_000; i++) m.set(`k${i}`, i);
    const inner = (m as unknown as { table: Map<string, unknown> }).table;
    for (let i = 0; i < 100_000; i++) {
      m.set('lock', i);
      m.delete('lock');
    }
    // one tombstone at most: the inner Map never deleted an entry (no chain of removed entries)
    expect([m.size, inner.size]).toEqual([200_000, 200_001]);
  });
});
