/**
 * `radix-tree-keys` / `radix-tree-nodes` against values printed by redis-server 7.0.15
 * (`CONFIG SET stream-node-max-entries K`, then XADD / XDEL, reading XINFO STREAM after each).
 */
import { RaxNodeCounter } from '../../lib/model/rax-size';
import { StreamEntries } from '../../lib/model/stream-entries';
import { parseStrictId } from '../../lib/model/stream-id';

function id(s: string) {
  const p = parseStrictId(s);
  if (!p) throw new Error(s);
  return p;
}

interface Vector {
  K: number;
  ids: string[];
  dels: string[];
  /** [radix-tree-keys, radix-tree-nodes] after each XADD, then after each XDEL. */
  after: [number, number][];
  afterDel: [number, number][];
}

const VECTORS: Vector[] = [
  {
    K: 2,
    ids: ['1-0', '2-0', '3-0', '4-0', '5-0', '6-0', '7-0', '8-0', '9-0', '10-0'],
    dels: ['3-0', '4-0', '1-0', '2-0', '9-0', '10-0', '5-0', '6-0', '7-0', '8-0'],
    after: [[1, 2], [1, 2], [2, 6], [2, 6], [3, 8], [3, 8], [4, 10], [4, 10], [5, 12], [5, 12]],
    afterDel: [[5, 12], [4, 10], [4, 10], [3, 8], [3, 8], [2, 6], [2, 6], [1, 2], [1, 2], [0, 1]],
  },
  {
    K: 1,
    ids: ['1-1', '1-2', '256-0', '65536-0', '1700000000000-0', '1700000000000-1', '1700000000001-0', '18446744073709551615-18446744073709551615'],
    dels: ['1700000000000-1', '256-0', '1-1', '18446744073709551615-18446744073709551615', '1-2', '65536-0', '1700000000001-0', '1700000000000-0'],
    after: [[1, 2], [2, 4], [3, 8], [4, 11], [5, 15], [6, 17], [7, 21], [8, 24]],
    afterDel: [[7, 22], [6, 19], [5, 17], [4, 14], [3, 10], [2, 6], [1, 2], [0, 1]],
  },
  {
    K: 3,
    ids: ['1526919030474-55', '1526919030474-56', '1526919030474-57', '1526919030475-0', '1526919031000-3', '1526919031000-4', '1526985054079-0', '1526985054079-1', '1527000000000-0', '1600000000000-0'],
    dels: ['1526919030475-0', '1526919031000-4', '1526985054079-1', '1526919030474-55', '1526919030474-56', '1526919030474-57'],
    after: [[1, 2], [1, 2], [1, 2], [2, 6], [2, 6], [2, 6], [3, 10], [3, 10], [3, 10], [4, 13]],
    afterDel: [[4, 13], [4, 13], [4, 13], [4, 13], [4, 13], [3, 9]],
  },
];

describe('radix-tree-nodes', () => {
  it('an empty stream has one radix tree node (MKSTREAM)', () => {
    const e = new StreamEntries();
    expect([e.nodeCount, e.radixTreeNodes]).toEqual([0, 1]);
  });

  it.each(VECTORS.map((v, i) => [i, v] as const))('matches redis-server 7.0.15 after each XADD and XDEL (vector %i)', (_i, v) => {
    const e = new StreamEntries(v.K);
    v.ids.forEach((s, j) => {
      e.append(id(s), ['f', 'v']);
      expect([e.nodeCount, e.radixTreeNodes]).toEqual(v.after[j]);
    });
    const copy = e.clone();
    expect(copy.radixTreeNodes).toBe(e.radixTreeNodes);
    v.dels.forEach((s, j) => {
      expect(e.delete(id(s))).toBe(true);
      expect([e.nodeCount, e.radixTreeNodes]).toEqual(v.afterDel[j]);
    });
  });

  it('counts removal of head nodes by trimming', () => {
    const e = new StreamEntries(2);
    for (const s of VECTORS[0].ids) e.append(id(s), ['f', 'v']);
    e.removeHeadNode();
    e.removeHeadNode();
    // Same key set as vector 0 after deleting 1-0..4-0.
    expect([e.nodeCount, e.radixTreeNodes]).toEqual([3, 8]);
  });

  it('does not depend on insertion order or removal history', () => {
    const keys = ['5-0', '1-0', '1700000000000-7', '3-3', '18446744073709551615-0', '0-1', '256-256'];
    const a = new RaxNodeCounter();
    const b = new RaxNodeCounter();
    for (const k of keys) a.insert(id(k));
    for (const k of [...keys].reverse()) b.insert(id(k));
    b.insert(id('9-9'));
    b.remove(id('9-9'));
    expect(b.nodeCount).toBe(a.nodeCount);
    expect(a.size).toBe(keys.length);
    expect(a.remove(id('4-4'))).toBe(false);
    for (const k of keys) a.remove(id(k));
    expect(a.nodeCount).toBe(1);
  });
});
