import { StreamEntries } from '../../lib/model/stream-entries';
import { Stream } from '../../lib/model/stream';
import { formatId } from '../../lib/model/stream-id';

const id = (ms: number, seq = 0) => ({ ms: BigInt(ms), seq: BigInt(seq) });
const ids = (it: Iterable<{ id: { ms: bigint; seq: bigint } }>) => [...it].map((e) => formatId(e.id));

describe('StreamEntries (macro nodes of 100 entries, as Redis listpacks)', () => {
  it('starts a new node every 100 appended entries, deleted ones included', () => {
    const s = new StreamEntries();
    for (let i = 1; i <= 250; i++) s.append(id(i), ['f', String(i)]);
    expect(s.nodeCount).toBe(3);
    s.delete(id(150));
    expect(s.nodeCount).toBe(3);
    expect(s.length).toBe(249);
  });

  it('frees a node when its last live entry is deleted', () => {
    const s = new StreamEntries(2);
    s.append(id(1), ['a', '1']);
    s.append(id(2), ['a', '2']);
    s.append(id(3), ['a', '3']);
    s.delete(id(1));
    s.delete(id(2));
    expect(s.nodeCount).toBe(1);
    expect(ids(s.range(id(0), id(9)))).toEqual(['3-0']);
  });

  it('seeks and iterates ranges in both directions, skipping tombstones', () => {
    const s = new StreamEntries(3);
    for (let i = 1; i <= 10; i++) s.append(id(i), ['f', 'v']);
    s.delete(id(4));
    expect(ids(s.range(id(3), id(6)))).toEqual(['3-0', '5-0', '6-0']);
    expect(ids(s.revRange(id(6), id(3)))).toEqual(['6-0', '5-0', '3-0']);
    expect(ids(s.revRange(id(100), id(9)))).toEqual(['10-0', '9-0']);
    expect(s.get(id(4))).toBeUndefined();
    expect(s.get(id(5))?.fields).toEqual(['f', 'v']);
    expect(formatId(s.first()!.id)).toBe('1-0');
    expect(formatId(s.last()!.id)).toBe('10-0');
  });
});

describe('Stream trimming (Redis streamTrim)', () => {
  function filled(n: number): Stream {
    const s = new Stream();
    for (let i = 1; i <= n; i++) s.append(id(i), ['f', 'v']);
    return s;
  }

  it('approximate MAXLEN removes whole 100-entry nodes only', () => {
    const s = filled(250);
    const removed = s.trim({ strategy: { kind: 'maxlen', maxLen: 120n }, approx: true, limit: 10000 });
    expect(removed.length).toBe(100);
    expect(s.length).toBe(150);
    expect(formatId(s.firstId)).toBe('101-0');
  });

  it('exact MAXLEN removes single entries after whole nodes', () => {
    const s = filled(250);
    s.trim({ strategy: { kind: 'maxlen', maxLen: 120n }, approx: false, limit: 0 });
    expect(s.length).toBe(120);
    expect(formatId(s.firstId)).toBe('131-0');
    expect(formatId(s.maxDeletedEntryId)).toBe('0-0');
  });

  it('approximate trimming respects the LIMIT work budget', () => {
    const s = filled(3);
    s.append(id(4), ['x', 'v']);
    expect(s.trim({ strategy: { kind: 'maxlen', maxLen: 0n }, approx: true, limit: 1 })).toEqual([]);
    expect(s.length).toBe(4);
  });

  it('MINID removes every entry below the threshold', () => {
    const s = filled(10);
    s.trim({ strategy: { kind: 'minid', minId: id(7) }, approx: false, limit: 0 });
    expect(ids(s.entries.range(id(0), id(99)))).toEqual(['7-0', '8-0', '9-0', '10-0']);
  });
});
