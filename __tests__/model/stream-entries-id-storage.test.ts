/**
 * StreamEntries stores IDs as numbers in nodes whose IDs all have parts of at most 2^53 − 1, and
 * as objects in a node that holds a larger part. Both storages must answer every query the same:
 * a seeded random history of appends and deletes, with IDs around 2^53 and 2^64 − 1 mixed into the
 * same nodes, is checked after every step against a plain sorted list.
 */
import { StreamEntries } from '../../lib/model/stream-entries';
import { Stream } from '../../lib/model/stream';
import { MAX_ID, MIN_ID, StreamId, UINT64_MAX, compareIds, formatId } from '../../lib/model/stream-id';

interface Ref {
  id: StreamId;
  fields: string[];
  deleted: boolean;
}

/** Deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const text = (id: StreamId | undefined) => (id === undefined ? undefined : formatId(id));
const texts = (ids: Iterable<StreamId>) => [...ids].map(formatId);

/** The next ID above `last`: small steps, or jumps across 2^53 − 1 and towards 2^64 − 1. */
function nextId(last: StreamId, rnd: () => number): StreamId {
  const r = rnd();
  if (r < 0.05 && last.ms < SAFE - 3n) return { ms: SAFE - 2n + BigInt(Math.floor(rnd() * 4)), seq: 0n };
  if (r < 0.08 && last.seq < (1n << 64n) - 2n) {
    const near = SAFE - 1n + BigInt(Math.floor(rnd() * 3)); // a sequence part around 2^53
    return { ms: last.ms, seq: near > last.seq ? near : last.seq + 1n };
  }
  if (r < 0.1 && last.ms < (1n << 64n) - 10n) return { ms: (1n << 64n) - 9n + BigInt(Math.floor(rnd() * 3)), seq: 0n };
  if (r < 0.5 && last.seq < (1n << 64n) - 2n) return { ms: last.ms, seq: last.seq + 1n };
  const ms = last.ms + 1n + BigInt(Math.floor(rnd() * 3));
  return { ms: ms > UINT64_MAX ? UINT64_MAX : ms, seq: BigInt(Math.floor(rnd() * 300)) };
}

function probe(ref: Ref[], rnd: () => number): StreamId {
  const r = rnd();
  if (r < 0.1) return MIN_ID;
  if (r < 0.2) return MAX_ID;
  if (ref.length === 0 || r < 0.3) return { ms: BigInt(Math.floor(rnd() * 50)), seq: BigInt(Math.floor(rnd() * 3)) };
  const e = ref[Math.floor(rnd() * ref.length)].id;
  const d = Math.floor(rnd() * 3) - 1;
  if (d < 0 && e.seq > 0n) return { ms: e.ms, seq: e.seq - 1n };
  if (d > 0 && e.seq < (1n << 64n) - 1n) return { ms: e.ms, seq: e.seq + 1n };
  return { ms: e.ms, seq: e.seq };
}

function check(s: StreamEntries, ref: Ref[], rnd: () => number): void {
  const live = ref.filter((e) => !e.deleted);
  expect(s.length).toBe(live.length);
  expect(text(s.first()?.id)).toBe(text(live[0]?.id));
  expect(text(s.last()?.id)).toBe(text(live[live.length - 1]?.id));
  expect(text(s.lastId())).toBe(text(live[live.length - 1]?.id));
  for (let k = 0; k < 4; k++) {
    const a = probe(ref, rnd);
    const b = probe(ref, rnd);
    const [lo, hi] = compareIds(a, b) <= 0 ? [a, b] : [b, a];
    const inRange = live.filter((e) => compareIds(e.id, lo) >= 0 && compareIds(e.id, hi) <= 0);
    expect(texts([...s.range(lo, hi)].map((e) => e.id))).toEqual(texts(inRange.map((e) => e.id)));
    expect(texts([...s.revRange(hi, lo)].map((e) => e.id))).toEqual(texts(inRange.map((e) => e.id).reverse()));
    const seen: StreamId[] = [];
    s.forEach(lo, hi, (id) => void seen.push(id));
    expect(texts(seen)).toEqual(texts(inRange.map((e) => e.id)));
    const back: StreamId[] = [];
    s.forEachReverse(hi, lo, (id) => void back.push(id));
    expect(texts(back)).toEqual(texts(inRange.map((e) => e.id).reverse()));
    const after: string[] = [];
    for (const walk = s.after(a); walk.next(); ) after.push(`${formatId(walk.id())}=${walk.fields().join(',')}`);
    expect(after).toEqual(live.filter((e) => compareIds(e.id, a) > 0).map((e) => `${formatId(e.id)}=${e.fields.join(',')}`));
    const exact = live.find((e) => compareIds(e.id, a) === 0);
    expect(s.get(a)?.fields).toEqual(exact?.fields);
    expect(s.has(a)).toBe(exact !== undefined);
  }
  // DUMP's view and RESTORE from it, and a clone, hold the same entries, tombstones included
  const stored = s.storedNodes();
  expect(stored.flatMap((n) => n.entries.map((e) => `${formatId(e.id)}${e.deleted ? 'x' : ''}`))).toEqual(
    ref.filter((e) => !e.deleted || stored.some((n) => n.entries.some((x) => compareIds(x.id, e.id) === 0))).map((e) => `${formatId(e.id)}${e.deleted ? 'x' : ''}`),
  );
  for (const copy of [StreamEntries.fromStoredNodes(stored), s.clone()]) {
    expect(copy.length).toBe(s.length);
    expect(texts([...copy.range(MIN_ID, MAX_ID)].map((e) => e.id))).toEqual(texts(live.map((e) => e.id)));
    for (let n = 0; n < s.nodeCount; n++) expect(copy.nodeBytes(n)).toBe(s.nodeBytes(n));
  }
}

describe('StreamEntries ID storage: numbers, or objects for parts above 2^53 − 1', () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`answers like a sorted list through appends and deletes mixing both storages (seed ${seed})`, () => {
      const rnd = random(seed);
      const s = new StreamEntries(seed % 2 ? 5 : 0, seed % 3 ? 0 : 200);
      const ref: Ref[] = [];
      let last: StreamId = MIN_ID;
      for (let step = 0; step < 300; step++) {
        if (ref.length > 0 && rnd() < 0.3) {
          const e = ref[Math.floor(rnd() * ref.length)];
          expect(s.delete(e.id)).toBe(!e.deleted);
          e.deleted = true;
        } else if (last.ms < UINT64_MAX) {
          const id = nextId(last, rnd);
          const fields = rnd() < 0.7 ? ['f', `v${step}`] : ['f', `v${step}`, 'g', String(step)];
          s.append(id, fields);
          ref.push({ id, fields, deleted: false });
          last = id;
        }
        // nodes emptied by deletes leave the stored view: keep the reference in step
        if (step % 10 === 0) check(s, ref, rnd);
      }
      check(s, ref, rnd);
    });
  }

  it('keeps exact IDs next to 2^53 and 2^64 − 1 in one node, and the listpack sizes Redis computes', () => {
    const s = new StreamEntries();
    const a = { ms: SAFE, seq: 5n };
    const b = { ms: SAFE + 1n, seq: 0n };
    const c = { ms: SAFE + 1n, seq: (1n << 64n) - 1n };
    s.append(a, ['f', '1']);
    s.append(b, ['f', '2']);
    s.append(c, ['f', '3']);
    expect(texts([...s.range(MIN_ID, MAX_ID)].map((e) => e.id))).toEqual(['9007199254740991-5', '9007199254740992-0', '9007199254740992-18446744073709551615']);
    expect(s.get(b)?.fields).toEqual(['f', '2']);
    expect(s.get({ ms: SAFE + 1n, seq: 1n })).toBeUndefined();
    // the same entries appended as numbers first, then as objects: same node size
    const t = new StreamEntries();
    t.append({ ms: 1n, seq: 0n }, ['f', '1']);
    t.append({ ms: 2n, seq: 0n }, ['f', '2']);
    const before = t.nodeBytes(0)!;
    t.append(c, ['f', '3']);
    expect(t.nodeCount).toBe(1);
    expect(t.nodeBytes(0)! - before).toBeGreaterThan(0);
    expect(texts([...t.revRange(MAX_ID, MIN_ID)].map((e) => e.id))).toEqual(['9007199254740992-18446744073709551615', '2-0', '1-0']);
  });
});

describe('the next auto ID (XADD *) from numbers and from bigints', () => {
  const next = (last: StreamId, now: number) => {
    const s = new Stream();
    s.lastId = last;
    const id = s.nextAutoId(now);
    return id === null ? null : formatId(id);
  };

  it('starts a new millisecond at sequence 0 and otherwise adds one to the last sequence, with carry', () => {
    expect(next({ ms: 5n, seq: 7n }, 6.9)).toBe('6-0');
    expect(next({ ms: 5n, seq: 7n }, 5)).toBe('5-8');
    expect(next({ ms: 5n, seq: 7n }, 4)).toBe('5-8'); // a clock behind the last ID
    // the last sequence exact as a number, its successor not
    expect(next({ ms: 5n, seq: SAFE }, 5)).toBe('5-9007199254740992');
    expect(next({ ms: 5n, seq: (1n << 64n) - 1n }, 5)).toBe('6-0');
    // a last ID above 2^53 − 1: bigint arithmetic
    expect(next({ ms: SAFE + 1n, seq: 3n }, 1_700_000_000_000)).toBe('9007199254740992-4');
    expect(next({ ms: UINT64_MAX, seq: UINT64_MAX - 1n }, 1_700_000_000_000)).toBe('18446744073709551615-18446744073709551615');
    expect(next({ ms: UINT64_MAX, seq: UINT64_MAX }, 1_700_000_000_000)).toBeNull();
  });

  it('gives IDs equal to the bigint arithmetic for a run of calls in one millisecond and across them', () => {
    const s = new Stream();
    let expected: StreamId = MIN_ID;
    for (let i = 0; i < 500; i++) {
      const now = 1_700_000_000_000 + Math.floor(i / 7);
      const id = s.nextAutoId(now)!;
      const want = BigInt(now) > expected.ms ? { ms: BigInt(now), seq: 0n } : { ms: expected.ms, seq: expected.seq + 1n };
      expect(formatId(id)).toBe(formatId(want));
      expect(compareIds(id, want)).toBe(0);
      s.append(id, ['f', String(i)]);
      expected = want;
    }
    expect(s.length).toBe(500);
    expect(formatId(s.entries.last()!.id)).toBe(formatId(expected));
  });
});
