/**
 * Issue 7: differences found by running other projects' own test suites on the fake
 * (@hearit-io/redis-channels 1.2.2 under tap, with ioredis 5.11.1 and 6.0.0), compared with the
 * same suites on redis-server 7.0.15. Every expected value below is what real ioredis 5.11.1 /
 * 6.0.0 answered against that server; with REDIS_URL set, the last block runs the same
 * sequences on a real server through real ioredis and compares.
 *
 * - ioredis's offline queue: a command sent while a client is still connecting is written only
 *   once the client is ready, so a command a ready client sends later reaches the server first
 *   (a new consumer's XREADGROUP comes after the producer's XADD + DEL sent meanwhile: NOGROUP).
 *   The fake ran it at once.
 * - `enableOfflineQueue: false`: such a command rejects with "Stream isn't writeable and
 *   enableOfflineQueue options is false" (a pipeline gets the error per command, MULTI rejects).
 *   The fake ran it.
 * - Array arguments are spread before ioredis's argument transformer: `hset([key, field,
 *   value])` is HSET key field value (the fake sent one argument, "wrong number of arguments"),
 *   `hset(key, [field, value])` is HSET key field value (the fake sent HSET key 0 field 1 value).
 */
import IORedis from 'ioredis';
import Redis from 'ioredis-mock-streams';

let port = 53_700;
const client = (opts: object = {}) => new Redis({ port: ++port, ...opts } as never) as any;
const OFFLINE = "Stream isn't writeable and enableOfflineQueue options is false";

const outcome = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    (v) => ({ value: v }),
    (e: Error) => ({ error: e.message }),
  );

const readyClient = async (make: () => any) => {
  const c = make();
  if (c.status !== 'ready') await new Promise((resolve) => c.once('ready', resolve));
  return c;
};

/** The sequences, written against any ioredis-like factory; each returns what it observed. */
const sequences: Record<string, (make: (opts?: object) => any) => Promise<unknown>> = {
  'a ready client’s later command reaches the server before a connecting client’s command': async (make) => {
    const ready = await readyClient(make);
    const fresh = make();
    const order: string[] = [];
    const a = fresh.set('k', 'from-new-client').then(() => order.push('new'));
    const b = ready.set('k', 'from-ready-client').then(() => order.push('ready'));
    await Promise.all([a, b]);
    const final = await ready.get('k');
    await ready.del('k');
    fresh.disconnect();
    ready.disconnect();
    return { order, final };
  },
  'a new consumer’s XREADGROUP runs after the XADD and DEL a ready client sent meanwhile': async (make) => {
    const producer = await readyClient(make);
    await producer.xgroup('CREATE', 'jobs', 'team', '$', 'MKSTREAM');
    const consumer = make();
    const read = outcome(consumer.xreadgroup('GROUP', 'team', 'c1', 'COUNT', 10, 'BLOCK', 1000, 'NOACK', 'STREAMS', 'jobs', '>'));
    await producer.xadd('jobs', '*', 'ctl', 'unsubscribe');
    await producer.del('jobs');
    const seen = await read;
    consumer.disconnect();
    producer.disconnect();
    return seen;
  },
  'enableOfflineQueue false: commands before ready reject, a pipeline per command, MULTI as a whole': async (make) => {
    const c = make({ enableOfflineQueue: false });
    c.on('error', () => undefined);
    // all sent in the same tick, before the client can be ready
    const [single, pipeline, multi] = await Promise.all([
      outcome(c.get('x')),
      outcome(c.pipeline().set('p', '1').get('p').exec()),
      outcome(c.multi().set('p', '1').get('p').exec()),
    ]);
    await new Promise((resolve) => (c.status === 'ready' ? resolve(undefined) : c.once('ready', resolve)));
    const afterReady = await outcome(c.get('x'));
    const lazy = make({ enableOfflineQueue: false, lazyConnect: true });
    lazy.on('error', () => undefined);
    const lazyGet = await outcome(lazy.get('x'));
    c.disconnect();
    lazy.disconnect();
    const perCommand = (pipeline as { value?: [Error | null, unknown][] }).value?.map(([err, v]) => (err ? err.message : v));
    return { single, perCommand, multi, afterReady, lazyGet };
  },
  'array arguments are spread before ioredis’s argument transformer': async (make) => {
    const c = await readyClient(make);
    const a = await outcome(c.hset(['h', 'f1', 'v1']));
    const b = await outcome(c.hset('h', ['f2', 'v2']));
    const c3 = await outcome(c.hset('h', { f3: 'v3' }));
    const all = await c.hgetall('h');
    await c.del('h');
    c.disconnect();
    return { a, b, c3, all };
  },
};

const expected: Record<string, unknown> = {
  'a ready client’s later command reaches the server before a connecting client’s command': {
    order: ['ready', 'new'],
    final: 'from-new-client',
  },
  'a new consumer’s XREADGROUP runs after the XADD and DEL a ready client sent meanwhile': {
    error: "NOGROUP No such key 'jobs' or consumer group 'team' in XREADGROUP with GROUP option",
  },
  'enableOfflineQueue false: commands before ready reject, a pipeline per command, MULTI as a whole': {
    single: { error: OFFLINE },
    perCommand: [OFFLINE, OFFLINE],
    multi: { error: OFFLINE },
    afterReady: { value: null },
    lazyGet: { error: OFFLINE },
  },
  'array arguments are spread before ioredis’s argument transformer': {
    a: { value: 1 },
    b: { value: 1 },
    c3: { value: 1 },
    all: { f1: 'v1', f2: 'v2', f3: 'v3' },
  },
};

describe('on the fake, as real ioredis against redis-server 7.0.15', () => {
  it.each(Object.keys(sequences))('%s', async (name) => {
    const p = ++port;
    const make = (opts: object = {}) => new Redis({ port: p, ...opts } as never) as any;
    expect(await sequences[name](make)).toEqual(expected[name]);
  });

  it('QUIT sent before ready with nothing queued answers OK and ends the client, as ioredis does', async () => {
    const c = client();
    expect(await c.quit()).toBe('OK');
    await expect(c.get('x')).rejects.toThrow('Connection is closed.');
  });

  it('a command held for ready rejects with "Connection is closed." when the client disconnects first', async () => {
    const c = client();
    const held = c.get('x');
    c.disconnect();
    await expect(held).rejects.toThrow('Connection is closed.');
  });
});

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) console.warn('REDIS_URL not set: the issue-7 client sequences are not compared with a real server');

// skip: no real server URL (REDIS_URL / REDIS_UNSTABLE_URL): nothing to compare with; CI sets both
(REDIS_URL ? describe : describe.skip)('the same sequences through real ioredis on a real server (REDIS_URL, database six after its own)', () => {
  const url = (() => {
    if (!REDIS_URL) return '';
    const u = new URL(REDIS_URL);
    u.pathname = `/${Number(u.pathname.replace(/^\//, '') || '0') + 6}`;
    return u.toString();
  })();

  it.each(Object.keys(sequences))('%s', async (name) => {
    const make = (opts: object = {}) => new IORedis(url, opts);
    expect(await sequences[name](make)).toEqual(expected[name]);
  });
});
