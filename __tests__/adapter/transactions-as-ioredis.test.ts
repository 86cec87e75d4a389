/**
 * Transactions and pipelines as ioredis runs them, each script also run with real ioredis on
 * redis-server when REDIS_URL is set (expected values: real ioredis 6.0.0 on 7.0.15; found by
 * new-user trials):
 * - `multi({ pipeline: false })`: MULTI is sent at once (the call resolves 'OK'), the client's
 *   next commands answer QUEUED, `exec()` wraps the replies as a pipeline's (`[null, reply]`,
 *   `[error]`), `execBuffer()` and `call('exec')` do not;
 * - EXEC of `multi({ pipeline: false })` hands on the replies as the server sent them, with no
 *   reply transformer: on ioredis 6 (RESP3) ZRANGE … WITHSCORES and kin, ZPOPMIN/ZPOPMAX with a
 *   count and HRANDFIELD … WITHVALUES are `[member, score]` pairs (scores numbers with
 *   `replyMapping: 'resp3'`), flat with `protocol: 2` and on ioredis 5;
 * - DISCARD queued in a `multi()` pipeline; `exec()` called twice; a pipeline or `multi()` never
 *   exec'd is not run by a later `exec()` on the client.
 */
import * as IORedisModule from 'ioredis';
import Redis from 'ioredis-mock-streams';
import { installedIoredisMajor } from '../../lib/adapter/command-table';

type AnyClient = Record<string, any>;
const realIoredis = (jest.requireActual('ioredis') as typeof IORedisModule & { default: any }).default ?? jest.requireActual('ioredis');
const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) console.warn('REDIS_URL not set: the transaction scripts on real ioredis are skipped');

/**
 * `script` on a fake client (port `port`, key `key`) must give `expected`; with REDIS_URL the
 * same script through real ioredis on the server (db 12, a per-process key) gives it too.
 */
function sameAsIoredis(
  title: string,
  behaviour: string,
  port: number,
  key: string,
  script: (r: AnyClient, k: string) => Promise<unknown>,
  expected: unknown,
  options: Record<string, unknown> = {},
): void {
  describe(title, () => {
    it(behaviour, async () => {
      const r = new Redis({ port, ...options }) as unknown as AnyClient;
      expect(await script(r, key)).toEqual(expected);
      r.disconnect();
    });

    // skip: skipped without a server (warned above); CI provides REDIS_URL
    (REDIS_URL ? it : it.skip)('gives the same replies with real ioredis on redis-server', async () => {
      const r = new realIoredis(REDIS_URL!, { db: 12, ...options }) as AnyClient;
      try {
        expect(await script(r, `${key}:${process.pid}`)).toEqual(expected);
      } finally {
        r.disconnect();
      }
    });
  });
}

/** The script, on `r`; key `k`. Errors shown by their message. */
async function script(r: AnyClient, k: string): Promise<unknown[]> {
  const show = (x: unknown): unknown => (x instanceof Error ? `E:${x.message}` : Array.isArray(x) ? x.map(show) : Buffer.isBuffer(x) ? `B:${x}` : x);
  await r.del(k);
  const out: unknown[] = [];
  const m = r.multi({ pipeline: false });
  out.push(typeof m.then, await m);
  out.push(await r.xadd(k, '1-1', 'a', '1'), await r.xlen(k), await r.xadd(k, 'bad', 'a', '1'));
  out.push(show(await r.exec()));
  await r.multi([['xlen', k]], { pipeline: false }); // the commands are ignored, as ioredis does
  out.push(await r.xlen(k), show(await r.execBuffer()));
  await r.call('multi');
  await r.call('xlen', k);
  out.push(show(await r.call('exec')));
  await r.watch(k);
  await r.multi({ pipeline: false });
  await r.xlen(k);
  await r.del(k); // inside the transaction: queued, so the WATCH still holds
  out.push(show(await r.exec()), await r.xlen(k));
  await r.del(k);
  return out;
}

const EXPECTED = [
  'function',
  'OK',
  'QUEUED',
  'QUEUED',
  'QUEUED',
  [[null, '1-1'], [null, 1], ['E:ERR Invalid stream ID specified as stream command argument']],
  'QUEUED',
  [1],
  [1],
  [[null, 1], [null, 1]],
  0,
];

sameAsIoredis('multi({ pipeline: false })', 'queues on the server and exec() wraps the replies as ioredis does', 50_800, 'mpf', script, EXPECTED);

/** `multi()` pipelines with DISCARD queued (same script on the fake and, with REDIS_URL, the server). */
async function discardScript(r: AnyClient, k: string): Promise<unknown[]> {
  const failure = (e: any) => `${e.message} ${JSON.stringify(e.command)}`;
  await r.del(k);
  const out: unknown[] = [];
  out.push(await r.multi().xadd(k, '1-1', 'a', '1').discard().exec().then(JSON.stringify, failure));
  out.push(await r.xlen(k));
  out.push(await r.multi().xadd(k, '1-1', 'a', '1').discard().xadd(k, '2-1', 'a', '1').exec().then(JSON.stringify, failure));
  out.push(await r.xrange(k, '-', '+'));
  await r.del(k);
  return out;
}

const DISCARD_EXPECTED = [
  'ERR EXEC without MULTI {"name":"exec","args":[]}',
  0,
  'ERR EXEC without MULTI {"name":"exec","args":[]}',
  [['2-1', ['a', '1']]],
];

sameAsIoredis('multi() with DISCARD queued', 'runs nothing before DISCARD, the rest outside the transaction, and EXEC fails', 50_801, 'mdis', discardScript, DISCARD_EXPECTED);

/** exec() called twice on one pipeline / multi() (same script on the fake and, with REDIS_URL, the server). */
async function execTwiceScript(r: AnyClient, k: string): Promise<unknown> {
  await r.del(k);
  const p = r.pipeline().xadd(k, '1-1', 'a', '1').xlen(k);
  const first = await p.exec();
  const second = await p.exec();
  const m = r.multi().xlen(k).xadd(k, 'bad', 'a', '1');
  const third = await m.exec();
  const fourth = await m.exec();
  const out = JSON.stringify([first, second, third, fourth, await r.xlen(k)], (_, v) => (v instanceof Error ? `E:${v.message}` : v));
  await r.del(k);
  return JSON.parse(out);
}

const EXEC_TWICE_EXPECTED = [
  [[null, '1-1'], [null, 1]],
  [[null, '1-1'], [null, 1]], // the first run's result (the batch is sent again; its replies go nowhere)
  [[null, 1], ['E:ERR Invalid stream ID specified as stream command argument']],
  [[null, 'OK'], [null, 'QUEUED'], [null, 'QUEUED'], [null, [1, 'E:ERR Invalid stream ID specified as stream command argument']]],
  1,
];

sameAsIoredis('exec() twice', 'answers from the first run; a multi() pipeline shows its raw replies', 50_802, 'etw', execTwiceScript, EXEC_TWICE_EXPECTED);

/** A pipeline or multi() never exec'd does not stay on the client (ioredis keeps none). */
async function abandonedScript(r: AnyClient, k: string): Promise<unknown[]> {
  await r.del(`${k}:y`, `${k}:z`, `${k}:x`);
  r.multi().set(`${k}:y`, '1');
  const queued = await Promise.all([r.multi({ pipeline: false }), r.set(`${k}:z`, '2'), r.exec()]);
  r.pipeline().set(`${k}:x`, '1');
  const bareExec = await r.exec().catch((e: Error) => e.message);
  const out = [queued, await r.get(`${k}:y`), await r.get(`${k}:z`), bareExec, await r.get(`${k}:x`)];
  await r.del(`${k}:y`, `${k}:z`, `${k}:x`);
  return out;
}

const ABANDONED_EXPECTED = [['OK', 'QUEUED', [[null, 'OK']]], null, '2', 'ERR EXEC without MULTI', null];

sameAsIoredis("a pipeline or multi() never exec'd", 'is not run by a later exec() on the client', 50_803, 'ab', abandonedScript, ABANDONED_EXPECTED);

/**
 * Replies of [member, score] pairs in a `multi({ pipeline: false })` transaction, next to the
 * same commands in a `multi()` pipeline and in a script (same script on the fake and, with
 * REDIS_URL, the server).
 */
async function pairsScript(r: AnyClient, k: string): Promise<unknown> {
  const z = `${k}:z`;
  const h = `${k}:h`;
  await r.del(z, h);
  await r.zadd(z, -3, 'c', 1, 'a', 2.5, 'b');
  await r.hset(h, 'f', 'v');
  await r.multi({ pipeline: false });
  await r.zrange(z, 0, -1, 'WITHSCORES');
  await r.zrangebyscore(z, '-inf', '+inf', 'WITHSCORES', 'LIMIT', 0, 2);
  await r.zrevrange(z, 0, 0, 'WITHSCORES');
  await r.zrevrangebyscore(z, '+inf', '-inf', 'WITHSCORES');
  await r.zdiff(1, z, 'WITHSCORES');
  await r.call('zrange', z, 0, 0, 'WITHSCORES');
  await r.hrandfield(h, 1, 'WITHVALUES');
  await r.zscan(z, 0);
  await r.zrange(z, 0, -1);
  await r.zpopmin(z);
  await r.zpopmax(z, 1);
  const exec = await r.exec();
  await r.zadd(z, -3, 'c', 1, 'a');
  const viaMulti = await r.multi().zrange(z, 0, -1, 'WITHSCORES').hrandfield(h, 1, 'WITHVALUES').exec();
  const viaScript = await r.eval("return redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')", 1, z);
  await r.del(z, h);
  return { exec, viaMulti, viaScript };
}

/** pairsScript's replies: `shape` of the client — nested pairs (scores as text or numbers) or flat. */
function pairsExpected(shape: 'pairs' | 'numbers' | 'flat'): unknown {
  const score = (s: string) => (shape === 'numbers' ? Number(s) : s);
  const pairs = (...p: [string, string][]) => (shape === 'flat' ? p.flatMap(([m, s]) => [m, s]) : p.map(([m, s]) => [m, score(s)]));
  const fields = (...p: [string, string][]) => (shape === 'flat' ? p.flat() : p);
  return {
    exec: [
      [null, pairs(['c', '-3'], ['a', '1'], ['b', '2.5'])],
      [null, pairs(['c', '-3'], ['a', '1'])],
      [null, pairs(['b', '2.5'])],
      [null, pairs(['b', '2.5'], ['a', '1'], ['c', '-3'])],
      [null, pairs(['c', '-3'], ['a', '1'], ['b', '2.5'])],
      [null, pairs(['c', '-3'])],
      [null, fields(['f', 'v'])],
      [null, ['0', ['c', '-3', 'a', '1', 'b', '2.5']]], // ZSCAN: never pairs, scores bulk strings
      [null, ['c', 'a', 'b']],
      [null, ['c', score('-3')]], // ZPOPMIN without a count: member and score, flat
      [null, pairs(['b', '2.5'])],
    ],
    // a multi() pipeline applies ioredis 6's transformers: flat but for replyMapping 'resp3'
    viaMulti: [
      [null, shape === 'numbers' ? [['c', -3], ['a', 1]] : ['c', '-3', 'a', '1']],
      [null, shape === 'numbers' ? [['f', 'v']] : ['f', 'v']],
    ],
    viaScript: ['c', '-3', 'a', '1'], // scripts see RESP2: flat
  };
}

const ioredis6 = installedIoredisMajor() === 6;
sameAsIoredis(
  'EXEC of multi({ pipeline: false }) with [member, score] replies',
  ioredis6 ? 'answers nested pairs on RESP3 (scores as text)' : 'answers them flat (ioredis 5: RESP2)',
  50_804,
  'prs',
  pairsScript,
  pairsExpected(ioredis6 ? 'pairs' : 'flat'),
);
sameAsIoredis(
  "EXEC of multi({ pipeline: false }) with [member, score] replies, replyMapping 'resp3'",
  ioredis6 ? 'answers nested pairs with scores as numbers' : 'answers them flat (ioredis 5 ignores the option)',
  50_805,
  'prs3',
  pairsScript,
  pairsExpected(ioredis6 ? 'numbers' : 'flat'),
  { replyMapping: 'resp3' },
);
sameAsIoredis(
  'EXEC of multi({ pipeline: false }) with [member, score] replies, protocol 2',
  'answers them flat, as RESP2 sends them',
  50_806,
  'prs2',
  pairsScript,
  pairsExpected('flat'),
  { protocol: 2 },
);

/** multi() inside a multi() (same script on the fake and, with REDIS_URL, the server). */
async function nestedMultiScript(r: AnyClient, k: string): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const build of [() => r.multi().multi(), () => r.multi().set(k, '1').multi()]) {
    const m = build();
    // ioredis's transaction exec queues EXEC for the inner multi(), then gets the pipeline where it
    // expects a promise: it throws, synchronously
    try {
      out.push(['returned', typeof m.exec()]);
    } catch (e) {
      out.push(['threw', (e as Error).constructor.name, (e as Error).message]);
    }
  }
  out.push(await r.exists(k));
  return out;
}

sameAsIoredis('multi() inside a multi()', "exec() throws ioredis's TypeError synchronously and sends nothing", 50_807, 'nmul', nestedMultiScript, [
  ['threw', 'TypeError', 'exec.call(...).then is not a function'],
  ['threw', 'TypeError', 'exec.call(...).then is not a function'],
  0,
]);
