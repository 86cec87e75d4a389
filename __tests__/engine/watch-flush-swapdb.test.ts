/**
 * WATCH against FLUSHDB, FLUSHALL and SWAPDB (multi.c touchAllWatchedKeysInDb): EXEC fails
 * exactly when a watched key existed in the emptied database (or, SWAPDB, in the one swapped in),
 * and the watcher keeps its keys (CLIENT LIST `watch=` unchanged, 7.2+), unlike a single key's
 * touch, which unwatches everything (watch=0). A key already expired at WATCH that the flush
 * removes is no change. Recorded on redis-server 7.0.15 (no `watch=` field) and the post-7.4
 * build (own instances: FLUSHDB/FLUSHALL/SWAPDB would clear the databases other test files use
 * on the shared REDIS_URL / REDIS_UNSTABLE_URL servers, so there is no live comparison).
 */
import { createConnection } from '../../lib/engine';
import { toResp2Plain } from '../../lib/reply/reply';

interface Side {
  run(argv: string[]): Promise<unknown>;
}
const A = '10';
const B = '11';

/** [title, setup on the other connection (db A selected), whether the watched key exists, the action] */
const CASES: [string, boolean, string[][]][] = [
  ['FLUSHDB of the db of a watched key that exists', true, [['FLUSHDB']]],
  ['FLUSHDB of the db of a watched key that does not exist', false, [['FLUSHDB']]],
  ['FLUSHDB of another db', true, [['SELECT', B], ['FLUSHDB']]],
  ['SWAPDB taking a watched key away', true, [['SWAPDB', A, B]]],
  ['SWAPDB bringing a watched key in', false, [['SELECT', B], ['SET', 'k', 'other'], ['SWAPDB', A, B]]],
  ['SWAPDB of two dbs without the key', false, [['SWAPDB', A, B]]],
  ['PEXPIRE of the watched key (a single touch)', true, [['PEXPIRE', 'k', '100000']]],
];
/** EXEC's reply and the watcher's `watch=` afterwards (the post-7.4 build; 7.0.15 has no field): recorded. */
const RECORDED: [exec: unknown, watch: string][] = [
  [null, '2'],
  [['OK'], '2'],
  [['OK'], '2'],
  [null, '2'],
  [null, '2'],
  [['OK'], '2'],
  [null, '0'],
];

async function scenario(watcher: Side, other: Side, exists: boolean, action: string[][]): Promise<[unknown, string | undefined]> {
  for (const c of [watcher, other]) await c.run(['SELECT', A]);
  await other.run(['FLUSHDB']);
  await other.run(['SELECT', B]);
  await other.run(['FLUSHDB']);
  await other.run(['SELECT', A]);
  if (exists) await watcher.run(['SET', 'k', 'v']);
  await watcher.run(['WATCH', 'k', 'other']);
  for (const argv of action) await other.run(argv);
  const info = String(await watcher.run(['CLIENT', 'INFO']));
  await watcher.run(['MULTI']);
  await watcher.run(['SET', 'z', '1']);
  const exec = await watcher.run(['EXEC']);
  for (const db of [A, B]) {
    await other.run(['SELECT', db]);
    await other.run(['FLUSHDB']);
  }
  return [exec, /watch=(\d+)/.exec(info)?.[1]];
}

let port = 36_600;
function fakeSides(version: '7.0' | '8.10' | '8.0'): [Side, Side, () => void] {
  port++;
  // the version is a keyspace's (host:port/db): dbs A and B emulate it too
  for (const db of [A, B]) createConnection({ port, db: Number(db), streams: { redisVersion: version } }).close();
  const conns = [0, 1].map(() => createConnection({ port, streams: { redisVersion: version } }));
  const side = (c: (typeof conns)[number]): Side => ({ run: async (argv) => toResp2Plain(await c.execute(argv)) });
  return [side(conns[0]), side(conns[1]), () => conns.forEach((c) => c.close())];
}

describe('WATCH and FLUSHDB / SWAPDB', () => {
  CASES.forEach(([title, exists, action], i) => {
    it(`${title}: EXEC ${RECORDED[i][0] === null ? 'fails' : 'runs'}, watch=${RECORDED[i][1]} after (8.10; 7.0 the same EXEC, no watch= field)`, async () => {
      const [w, o, close] = fakeSides('8.10');
      const [w7, o7, close7] = fakeSides('7.0');
      try {
        expect(await scenario(w, o, exists, action)).toEqual(RECORDED[i]);
        expect(await scenario(w7, o7, exists, action)).toEqual([RECORDED[i][0], undefined]);
      } finally {
        close();
        close7();
      }
    });
  });

  it('FLUSHALL makes the EXEC of a watcher of an existing key fail, not of a missing one; keys stay watched', async () => {
    for (const [exists, exec] of [
      [true, null],
      [false, ['OK']],
    ] as const) {
      const [w, o, close] = fakeSides('8.10');
      try {
        expect(await scenario(w, o, exists, [['FLUSHALL']])).toEqual([exec, '2']);
      } finally {
        close();
      }
    }
  });

  it('a key already expired at WATCH that FLUSHDB removes is no change: EXEC runs (both versions)', async () => {
    for (const version of ['7.0', '8.10'] as const) {
      const [w, o, close] = fakeSides(version);
      try {
        await w.run(['SELECT', A]);
        await w.run(['SET', 'k', 'v', 'PX', '1']);
        await new Promise((r) => setTimeout(r, 5));
        await w.run(['WATCH', 'k']);
        await o.run(['SELECT', A]);
        await o.run(['FLUSHDB']);
        await w.run(['MULTI']);
        await w.run(['SET', 'z', '1']);
        expect(await w.run(['EXEC'])).toEqual(['OK']);
      } finally {
        close();
      }
    }
  });
});
