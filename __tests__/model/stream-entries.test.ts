import { StreamEntries, lpIntBytes, lpStringBytes } from '../../lib/model/stream-entries';
import { Stream } from '../../lib/model/stream';
import { formatId } from '../../lib/model/stream-id';

const id = (ms: number, seq = 0) => ({ ms: BigInt(ms), seq: BigInt(seq) });
const ids = (it: Iterable<{ id: { ms: bigint; seq: bigint } }>) => [...it].map((e) => formatId(e.id));

describe('StreamEntries (macro nodes as Redis listpacks)', () => {
  it('starts a new node every 100 appended small entries, deleted ones included', () => {
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

/*
 * Byte-based node splitting (Redis `stream-node-max-bytes`). The element sizes just below follow
 * listpack.c's encodings; every node count, entry count and trim result after them was measured
 * on redis-server 7.0.15 (XINFO STREAM radix-tree-keys / radix-tree-nodes, XLEN and XTRIM
 * replies), with non-default node limits set there by CONFIG SET.
 */
describe('listpack element sizes (listpack.c encodings)', () => {
  it('integers take 2, 3, 4, 5, 6 or 10 bytes by range', () => {
    expect([0, 127, 128, -1, 4095, -4096, 4096, -4097].map(lpIntBytes)).toEqual([2, 2, 3, 3, 3, 3, 4, 4]);
    expect([32767, -32768, 32768, 8388607, -8388608, 8388608].map(lpIntBytes)).toEqual([4, 4, 5, 5, 5, 6]);
    expect([2147483647, -2147483648, 2147483648, -2147483649].map(lpIntBytes)).toEqual([6, 6, 10, 10]);
  });

  it('strings that read as canonical 64-bit integers are stored as integers', () => {
    expect(lpStringBytes('0')).toBe(2);
    expect(lpStringBytes('127')).toBe(2);
    expect(lpStringBytes('-1')).toBe(3);
    expect(lpStringBytes('123456789')).toBe(6);
    expect(lpStringBytes('1234567890123')).toBe(10);
    expect(lpStringBytes('9223372036854775807')).toBe(10);
    expect(lpStringBytes('-9223372036854775808')).toBe(10);
    // not canonical or out of range: strings (1 length byte + bytes + 1 backlen byte)
    expect(lpStringBytes('9223372036854775808')).toBe(21);
    expect(lpStringBytes('-9223372036854775809')).toBe(22);
    expect(['-0', '007', '+5', ' 5', '1e3', '-', ''].map(lpStringBytes)).toEqual([4, 5, 4, 4, 5, 3, 2]);
  });

  it('string headers grow at 64 and 4096 bytes, backlens at 128 and 16383 encoded bytes', () => {
    const len = (n: number) => lpStringBytes('x'.repeat(n));
    expect([63, 64, 125, 126, 4095, 4096].map(len)).toEqual([65, 67, 128, 130, 4099, 4103]);
    expect([16377, 16378].map(len)).toEqual([16384, 16386]);
  });
});

describe('StreamEntries: byte-based node splitting (stream-node-max-bytes 4096, redis-server 7.0.15)', () => {
  /** Entries per node when appending `make(i)` with IDs `ms(i)-0` (the node count goes to 2). */
  function perNode(make: (i: number) => string[], ms: (i: number) => number = (i) => i): number {
    const s = new StreamEntries();
    for (let i = 1; i < 1000; i++) {
      s.append(id(ms(i)), make(i));
      if (s.nodeCount > 1) return i - 1;
    }
    return -1;
  }

  it('entries with a 200-byte value: a new node every 19 entries', () => {
    expect(perNode(() => ['f', 'x'.repeat(200)])).toBe(19);
    const s = new StreamEntries();
    for (let i = 1; i <= 100; i++) s.append(id(i), ['f', 'x'.repeat(200)]);
    expect(s.nodeCount).toBe(6);
    expect(s.radixTreeNodes).toBe(14);
  });

  it('entries per node follow the value size byte for byte', () => {
    const sizes = [30, 31, 32, 35, 40, 60, 63, 64, 65, 120, 124, 125, 128];
    const expected = [100, 99, 97, 90, 81, 58, 55, 54, 53, 31, 30, 29, 29];
    expect(sizes.map((n) => perNode(() => ['field', 'v'.repeat(n)]))).toEqual(expected);
  });

  it('integer-looking values take less room than text of the same length', () => {
    const d = '1234567890123';
    const t = 'abcdefghijklm';
    expect(perNode(() => ['a', d, 'b', d, 'c', d])).toBe(100);
    expect(perNode(() => ['a', t, 'b', t, 'c', t])).toBe(77);
  });

  it('ID differences from the master entry and field names other than the master ones cost bytes', () => {
    const v = 'v'.repeat(31);
    expect(perNode(() => ['field', v])).toBe(99);
    expect(perNode(() => ['field', v], (i) => i * 1000)).toBe(93);
    expect(perNode((i) => ['f' + i, v])).toBe(85);
  });

  it('a deletion can shrink the valid counter and let the next entry fit (nodes of up to 1000 entries)', () => {
    const fill = (maxBytes: number, n: number, deleted: number[]) => {
      const s = new StreamEntries(1000, maxBytes);
      for (let i = 1; i <= n; i++) s.append(id(i), ['f', '1']);
      for (const d of deleted) s.delete(id(d));
      s.append(id(n + 1), ['f', '1']);
      return s;
    };
    expect(fill(1301, 128, []).nodeBytes(0)).toBe(1299);
    expect(fill(1301, 128, []).nodeCount).toBe(2); // valid count 128: 3 bytes
    expect(fill(1301, 128, [5]).nodeCount).toBe(1); // 127 valid + 1 deleted: one byte less
    const upTo = (k: number) => Array.from({ length: k }, (_, i) => i + 1);
    expect(fill(1312, 129, upTo(127)).nodeCount).toBe(1);
    expect(fill(1312, 129, upTo(128)).nodeCount).toBe(2); // deleted count 128: 3 bytes
  });

  it('no entry limit when stream-node-max-entries is 0: 383 one-digit entries per 4096-byte node', () => {
    const s = new StreamEntries(0);
    for (let i = 1; i <= 384; i++) s.append(id(i), ['f', '1']);
    expect(s.nodeCount).toBe(2);
    expect([...s.range(id(0), id(1000))].length).toBe(384);
    const t = new StreamEntries(0);
    for (let i = 1; i <= 383; i++) t.append(id(i), ['f', '1']);
    expect(t.nodeCount).toBe(1);
  });

  it('clone keeps node sizes, so later appends split at the same places', () => {
    const s = new StreamEntries();
    for (let i = 1; i <= 10; i++) s.append(id(i), ['f', 'x'.repeat(200)]);
    const c = s.clone();
    expect(c.nodeBytes(0)).toBe(s.nodeBytes(0));
    for (let i = 11; i <= 100; i++) c.append(id(i), ['f', 'x'.repeat(200)]);
    expect(c.nodeCount).toBe(6);
    expect(s.nodeCount).toBe(1);
  });
});

describe('Stream trimming with byte-based nodes (redis-server 7.0.15)', () => {
  it('XADD … MAXLEN ~ 100 with 200-byte values keeps 107 entries', () => {
    const s = new Stream();
    for (let i = 1; i <= 1000; i++) {
      s.append(id(i), ['f', 'x'.repeat(200)]);
      s.trim({ strategy: { kind: 'maxlen', maxLen: 100n }, approx: true, limit: 10000 });
    }
    expect(s.length).toBe(107);
    expect(formatId(s.firstId)).toBe('894-0');
    expect(s.entries.nodeCount).toBe(6);
    expect(s.entries.radixTreeNodes).toBe(14);
  });

  it('XTRIM MAXLEN ~ 150 of 300 entries with 31-byte values removes one 99-entry node', () => {
    const s = new Stream();
    for (let i = 1; i <= 300; i++) s.append(id(i), ['field', 'v'.repeat(31)]);
    expect(s.entries.nodeCount).toBe(4);
    expect(s.entries.radixTreeNodes).toBe(11);
    expect(s.trim({ strategy: { kind: 'maxlen', maxLen: 150n }, approx: true, limit: 10000 }).length).toBe(99);
    expect(s.length).toBe(201);
  });

  it('exact MINID trimming keeps a node whose live entries all went, as Redis does', () => {
    // 800-byte values: 5 entries per node. XDEL 5-0 leaves a tombstone at the end of node 1;
    // XTRIM MINID 5-0 cannot drop node 1 (its last ID is not below 5-0) and marks 1..4 deleted.
    const s = new Stream();
    for (let i = 1; i <= 8; i++) s.append(id(i), ['f', 'x'.repeat(800)]);
    expect(s.entries.nodeCount).toBe(2);
    s.deleteEntry(id(5));
    expect(s.trim({ strategy: { kind: 'minid', minId: id(5) }, approx: false, limit: 0 }).length).toBe(4);
    expect(s.length).toBe(3);
    expect(s.entries.nodeCount).toBe(2);
    expect(s.entries.radixTreeNodes).toBe(6);
    expect(formatId(s.entries.first()!.id)).toBe('6-0');
    // The empty node goes with the next approximate trim (it holds no entry to count).
    s.append(id(9), ['f', 'v']);
    expect(s.trim({ strategy: { kind: 'maxlen', maxLen: 3n }, approx: true, limit: 10000 })).toEqual([]);
    expect(s.entries.nodeCount).toBe(1);
    expect(s.length).toBe(4);
  });
});

describe('StreamEntries lookups with a position hint (ascending scans)', () => {
  it('answers hasAscending exactly as has, also across tombstones and nodes left unordered by a lowered last ID', () => {
    let x = 7;
    const rnd = () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    for (let round = 0; round < 40; round++) {
      const s = new StreamEntries(1 + Math.floor(rnd() * 5));
      let top = 0;
      let liveMax = 0;
      const appended: number[] = [];
      for (let i = 0; i < 300; i++) {
        if (rnd() < 0.1 && top > liveMax + 1) {
          // what XSETID allows: the next ID only has to exceed the live entries, not the deleted ones
          top = liveMax + 1 + Math.floor(rnd() * (top - liveMax - 1));
        }
        top += 1 + Math.floor(rnd() * 3);
        s.append(id(top), ['f', 'v']);
        appended.push(top);
        liveMax = top;
        if (rnd() < 0.4) {
          const victim = appended[Math.floor(rnd() * appended.length)];
          s.delete(id(victim));
          if (victim === liveMax) liveMax = s.last() ? Number(s.last()!.id.ms) : 0;
        }
      }
      const hint = { n: -1, s: 0 };
      for (let q = 0; q <= top + 2; q += 1 + Math.floor(rnd() * 3)) {
        expect([q, s.hasAscending(id(q), hint)]).toEqual([q, s.has(id(q))]);
      }
    }
  });
});
