/**
 * A SCAN / HSCAN / SSCAN / ZSCAN loop that writes one new matching key (field, member) for each
 * one it sees ends, and returns every key present from its start to its end (Redis's SCAN
 * guarantee). Real Redis ends such a loop too (dictScan's reverse-binary cursor over hash
 * buckets: a new key lands at a random bucket, before or after the cursor); the fake bounds each
 * iteration to the slots that existed when it started (cursor 0), so the keys the loop adds are
 * not returned by it. ZSCAN on a skiplist no longer walks by rank: members added (or removed)
 * with lower scores during the iteration do not make it skip or repeat an original member.
 *
 * Each loop runs on a fresh engine connection and, when REDIS_URL / REDIS_UNSTABLE_URL are set,
 * on both real servers (database 11, keys under a per-process prefix, deleted afterwards; no
 * FLUSHDB), expecting the same: it ends within a bound of calls, with every original element.
 */
import { createConnection } from '../../lib/engine';
import { toResp2Plain } from '../../lib/reply/reply';
import { connectReal, describeOnRealServers, type AnyClient } from '../helpers/real-server';

type Run = (argv: string[]) => Promise<unknown>;

const N = 1000;
/** Far more calls than an iteration over N + N new elements needs at COUNT 10. */
const MAX_CALLS = 2000;

interface Outcome {
  calls: number;
  ended: boolean;
  /** How many times each original element was returned. */
  seen: Map<string, number>;
  /** Elements returned that were not there at the start (added by the loop). */
  added: number;
}

/** Up to MAX_CALLS calls of `scanArgs(cursor)`; `onItem` writes for each element returned. */
async function loop(run: Run, scanArgs: (cursor: string) => string[], step: number, originals: readonly string[], onItem: (item: string, call: number) => Promise<void>): Promise<Outcome> {
  const seen = new Map<string, number>();
  const wanted = new Set(originals);
  let cursor = '0';
  let calls = 0;
  let added = 0;
  do {
    const [next, items] = (await run(scanArgs(cursor))) as [string, string[]];
    calls++;
    cursor = String(next);
    for (let i = 0; i < items.length; i += step) {
      const item = items[i];
      if (wanted.has(item)) seen.set(item, (seen.get(item) ?? 0) + 1);
      else added++;
      await onItem(item, calls);
    }
  } while (cursor !== '0' && calls < MAX_CALLS);
  return { calls, ended: cursor === '0', seen, added };
}

function expectEndedWithEveryOriginal(out: Outcome, originals: readonly string[]): void {
  expect({ ended: out.ended, belowBound: out.calls < MAX_CALLS }).toEqual({ ended: true, belowBound: true });
  expect(originals.filter((o) => !out.seen.has(o))).toEqual([]);
}

/** The four loops, on `run`, with keys under `p`. */
const scripts = {
  async scan(run: Run, p: string): Promise<Outcome> {
    const originals = Array.from({ length: N }, (_, i) => `${p}:k${i}`);
    for (let i = 0; i < N; i += 100) await run(['MSET', ...originals.slice(i, i + 100).flatMap((k) => [k, 'v'])]);
    return loop(run, (c) => ['SCAN', c, 'MATCH', `${p}:*`], 1, originals, async (key) => {
      await run(['SET', `${p}:seen:${key.slice(p.length + 1)}`, '1']);
    });
  },
  async hscan(run: Run, p: string): Promise<Outcome> {
    const originals = Array.from({ length: N }, (_, i) => `f${i}`);
    for (let i = 0; i < N; i += 100) await run(['HSET', `${p}:h`, ...originals.slice(i, i + 100).flatMap((f) => [f, 'v'])]);
    return loop(run, (c) => ['HSCAN', `${p}:h`, c], 2, originals, async (field) => {
      await run(['HSET', `${p}:h`, `seen:${field}`, '1']);
    });
  },
  async sscan(run: Run, p: string): Promise<Outcome> {
    const originals = Array.from({ length: N }, (_, i) => `m${i}`);
    for (let i = 0; i < N; i += 100) await run(['SADD', `${p}:s`, ...originals.slice(i, i + 100)]);
    return loop(run, (c) => ['SSCAN', `${p}:s`, c], 1, originals, async (member) => {
      await run(['SADD', `${p}:s`, `seen:${member}`]);
    });
  },
  async zscan(run: Run, p: string): Promise<Outcome> {
    const originals = Array.from({ length: N }, (_, i) => `m${i}`);
    for (let i = 0; i < N; i += 100) await run(['ZADD', `${p}:z`, ...originals.slice(i, i + 100).flatMap((m, j) => [String(i + j), m])]);
    // each new member sorts before every original one (a rank cursor would return the same members forever)
    return loop(run, (c) => ['ZSCAN', `${p}:z`, c], 2, originals, async (member) => {
      await run(['ZADD', `${p}:z`, String(-N - Math.random()), `seen:${member}`]);
    });
  },
  /** ZSCAN while members with lower scores than every original are removed: no original is skipped. */
  async zscanRemovingLower(run: Run, p: string): Promise<Outcome> {
    const originals = Array.from({ length: N }, (_, i) => `m${i}`);
    const fillers = Array.from({ length: N }, (_, i) => `low${i}`);
    for (let i = 0; i < N; i += 100) {
      await run(['ZADD', `${p}:z`, ...originals.slice(i, i + 100).flatMap((m, j) => [String(i + j), m])]);
      await run(['ZADD', `${p}:z`, ...fillers.slice(i, i + 100).flatMap((m, j) => [String(-1 - i - j), m])]);
    }
    let removed = 0;
    return loop(run, (c) => ['ZSCAN', `${p}:z`, c], 2, originals, async () => {
      if (removed < N) await run(['ZREM', `${p}:z`, fillers[removed++]]);
    });
  },
};

function fakeRun(version: '7.0' | '8.0', port: number): Run {
  const fake = createConnection({ port, streams: { redisVersion: version } });
  return async (argv) => toResp2Plain((await fake.execute(argv)) as never);
}

describe('scan loops that write one element per element seen, on the fake', () => {
  let port = 49_610;
  for (const version of ['7.0', '8.0'] as const) {
    describe(`emulated ${version}`, () => {
      it('SCAN: a SET of a new matching key per key seen ends, every original key returned exactly once', async () => {
        const out = await scripts.scan(fakeRun(version, port++), 'p');
        expectEndedWithEveryOriginal(out, Array.from({ length: N }, (_, i) => `p:k${i}`));
        expect([...out.seen.values()].filter((n) => n !== 1)).toEqual([]);
        expect(out.added).toBe(0); // the fake returns none of the elements added during the iteration
        // about N / 10 calls (COUNT 10), as Redis (~165 on 7.0.15 and the post-7.4 build)
        expect(out.calls).toBeLessThan(300);
      });
      it('SCAN: keys deleted meanwhile (the key index compacted mid-iteration) and a new key per key seen: ends, every original key returned once', async () => {
        const run = fakeRun(version, port++);
        const originals = Array.from({ length: 300 }, (_, i) => `k${i}`);
        const junk = Array.from({ length: 6000 }, (_, i) => `j${i}`);
        for (let i = 0; i < junk.length; i += 500) await run(['MSET', ...junk.slice(i, i + 500).flatMap((k) => [k, 'v'])]);
        await run(['MSET', ...originals.flatMap((k) => [k, 'v'])]);
        let deleted = 0;
        const out = await loop(run, (c) => ['SCAN', c, 'MATCH', 'k*'], 1, originals, async (key) => {
          await run(['SET', `k:seen:${key}`, '1']);
          await run(['DEL', ...junk.slice(deleted, deleted + 20)]);
          deleted += 20;
        });
        expect(deleted).toBeGreaterThan(3000); // several compactions happened during the iteration
        expectEndedWithEveryOriginal(out, originals);
        expect([...out.seen.values()].filter((n) => n !== 1)).toEqual([]);
        expect(out.added).toBe(0); // the fake returns none of the elements added during the iteration
      });
      it('HSCAN: an HSET of a new field per field seen ends, every original field returned exactly once', async () => {
        const out = await scripts.hscan(fakeRun(version, port++), 'p');
        expectEndedWithEveryOriginal(out, Array.from({ length: N }, (_, i) => `f${i}`));
        expect([...out.seen.values()].filter((n) => n !== 1)).toEqual([]);
        expect(out.added).toBe(0); // the fake returns none of the elements added during the iteration
      });
      it('SSCAN: an SADD of a new member per member seen ends, every original member returned exactly once', async () => {
        const out = await scripts.sscan(fakeRun(version, port++), 'p');
        expectEndedWithEveryOriginal(out, Array.from({ length: N }, (_, i) => `m${i}`));
        expect([...out.seen.values()].filter((n) => n !== 1)).toEqual([]);
        expect(out.added).toBe(0); // the fake returns none of the elements added during the iteration
      });
      it('ZSCAN: a ZADD of a new member with a lower score per member seen ends, every original member returned exactly once', async () => {
        const out = await scripts.zscan(fakeRun(version, port++), 'p');
        expectEndedWithEveryOriginal(out, Array.from({ length: N }, (_, i) => `m${i}`));
        expect([...out.seen.values()].filter((n) => n !== 1)).toEqual([]);
        expect(out.added).toBe(0); // the fake returns none of the elements added during the iteration
      });
      it('ZSCAN: members with lower scores removed mid-iteration do not make it skip an original member', async () => {
        const out = await scripts.zscanRemovingLower(fakeRun(version, port++), 'p');
        expectEndedWithEveryOriginal(out, Array.from({ length: N }, (_, i) => `m${i}`));
        expect([...out.seen.values()].filter((n) => n !== 1)).toEqual([]);
        expect(out.added).toBe(0); // the fake returns none of the elements added during the iteration
      });
    });
  }
});

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers(
  'scan loops that write one element per element seen',
  ({ url }) => {
    let real: AnyClient;
    const p = `scanloop${process.pid}`;
    beforeAll(async () => {
      // database 11, shared: no FLUSHDB; this file's keys are under its own prefix
      real = await connectReal(url, 11, {}, false);
    });
    afterEach(async () => {
      const keys = (await real.keys(`${p}*`)) as string[];
      for (let i = 0; i < keys.length; i += 500) await real.del(...keys.slice(i, i + 500));
    });
    afterAll(() => real.disconnect());
    const run: Run = (argv) => real.call(argv[0], ...argv.slice(1));
    for (const [name, title] of [
      ['scan', 'SCAN: a SET of a new matching key per key seen ends with every original key'],
      ['hscan', 'HSCAN: an HSET of a new field per field seen ends with every original field'],
      ['sscan', 'SSCAN: an SADD of a new member per member seen ends with every original member'],
      ['zscan', 'ZSCAN: a ZADD of a new lower-scored member per member seen ends with every original member'],
      ['zscanRemovingLower', 'ZSCAN: lower-scored members removed mid-iteration skip no original member'],
    ] as const) {
      it(title, async () => {
        const out = await scripts[name](run, p);
        const originals = name === 'scan' ? Array.from({ length: N }, (_, i) => `${p}:k${i}`) : name === 'hscan' ? Array.from({ length: N }, (_, i) => `f${i}`) : Array.from({ length: N }, (_, i) => `m${i}`);
        expectEndedWithEveryOriginal(out, originals);
      });
    }
  },
  'end',
);
