/**
 * Transactions and pipelines as ioredis runs them, each script also run with real ioredis on
 * redis-server when REDIS_URL is set (expected values: real ioredis 6.0.0 on 7.0.15; found by
 * new-user trials):
 * - `multi({ pipeline: false })`: MULTI is sent at once (the call resolves 'OK'), the client's
 *   next commands answer QUEUED, `exec()` wraps the replies as a pipeline's (`[null, reply]`,
 *   `[error]`), `execBuffer()` and `call('exec')` do not;
 * - DISCARD queued in a `multi()` pipeline; `exec()` called twice; a pipeline or `multi()` never
 *   exec'd is not run by a later `exec()` on the client.
 */
import * as IORedisModule from 'ioredis';
import Redis from 'ioredis-mock-streams';

type AnyClient = Record<string, any>;
const realIoredis = (jest.requireActual('ioredis') as typeof IORedisModule & { default: any }).default ?? jest.requireActual('ioredis');

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

describe('multi({ pipeline: false })', () => {
  it('queues on the server and exec() wraps the replies as ioredis does', async () => {
    const r = new Redis({ port: 50_800 }) as unknown as AnyClient;
    expect(await script(r, 'mpf')).toEqual(EXPECTED);
    r.disconnect();
  });
});

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) console.warn('REDIS_URL not set: multi({ pipeline: false }) on real ioredis skipped');
(REDIS_URL ? describe : describe.skip)('multi({ pipeline: false }) with real ioredis on redis-server', () => {
  it('gives the same replies', async () => {
    const r = new realIoredis(REDIS_URL!, { db: 12 }) as AnyClient;
    try {
      expect(await script(r, `mpf:${process.pid}`)).toEqual(EXPECTED);
    } finally {
      r.disconnect();
    }
  });
});

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

describe('multi() with DISCARD queued', () => {
  it('runs nothing before DISCARD, the rest outside the transaction, and EXEC fails', async () => {
    const r = new Redis({ port: 50_801 }) as unknown as AnyClient;
    expect(await discardScript(r, 'mdis')).toEqual(DISCARD_EXPECTED);
    r.disconnect();
  });
});

(REDIS_URL ? describe : describe.skip)('multi() with DISCARD queued, real ioredis on redis-server', () => {
  it('gives the same replies', async () => {
    const r = new realIoredis(REDIS_URL!, { db: 12 }) as AnyClient;
    try {
      expect(await discardScript(r, `mdis:${process.pid}`)).toEqual(DISCARD_EXPECTED);
    } finally {
      r.disconnect();
    }
  });
});

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
  [[null, '1-1'], [null, 1]], // the first run's result: nothing is sent again
  [[null, 1], ['E:ERR Invalid stream ID specified as stream command argument']],
  [[null, 'OK'], [null, 'QUEUED'], [null, 'QUEUED'], [null, [1, 'E:ERR Invalid stream ID specified as stream command argument']]],
  1,
];

describe('exec() twice', () => {
  it('answers from the first run; a multi() pipeline shows its raw replies', async () => {
    const r = new Redis({ port: 50_802 }) as unknown as AnyClient;
    expect(await execTwiceScript(r, 'etw')).toEqual(EXEC_TWICE_EXPECTED);
    r.disconnect();
  });
});

(REDIS_URL ? describe : describe.skip)('exec() twice, real ioredis on redis-server', () => {
  it('gives the same replies', async () => {
    const r = new realIoredis(REDIS_URL!, { db: 12 }) as AnyClient;
    try {
      expect(await execTwiceScript(r, `etw:${process.pid}`)).toEqual(EXEC_TWICE_EXPECTED);
    } finally {
      r.disconnect();
    }
  });
});

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

describe('a pipeline or multi() never exec\'d', () => {
  it('is not run by a later exec() on the client', async () => {
    const r = new Redis({ port: 50_803 }) as unknown as AnyClient;
    expect(await abandonedScript(r, 'ab')).toEqual(ABANDONED_EXPECTED);
    r.disconnect();
  });
});

(REDIS_URL ? describe : describe.skip)('a pipeline or multi() never exec\'d, real ioredis on redis-server', () => {
  it('gives the same replies', async () => {
    const r = new realIoredis(REDIS_URL!, { db: 12 }) as AnyClient;
    try {
      expect(await abandonedScript(r, `ab:${process.pid}`)).toEqual(ABANDONED_EXPECTED);
    } finally {
      r.disconnect();
    }
  });
});
