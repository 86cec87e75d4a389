/**
 * The real @upstash/redis 1.39.0 client against the fake, through msw 2 (`setupServer` with
 * `upstashHandlers`) and through a plain `fetch` replacement (`globalThis.fetch = handler`),
 * with auto-pipelining on and off: every stream method of the client, `pipeline()`, `multi()`,
 * `exec([...])` for commands the client has no method for, errors as `UpstashError` with
 * Redis's text, a keyspace shared with fake ioredis clients, and idle times on a fake clock.
 */
import { Redis as UpstashRedis, errors } from '@upstash/redis';
import { setupServer } from 'msw/node';
import Redis, { createFakeClock, type FakeClock } from 'ioredis-mock-streams';
import { createUpstashHandler, type UpstashHandler } from 'ioredis-mock-streams/upstash';
import { upstashHandlers } from 'ioredis-mock-streams/msw';

const URL_ = 'https://fake.upstash.io';
const TOKEN = 'test-token';
const T0 = Date.UTC(2024, 0, 1);
const id = (ms: number, seq = 0) => `${T0 + ms}-${seq}`;
/** A fresh ioredis-mock keyspace per test that needs one. */
let nextPort = 42_000;

interface Transport {
  before(): void;
  use(handler: UpstashHandler): void;
  after(): void;
  close(): void;
}

function mswTransport(): Transport {
  const server = setupServer();
  return {
    before: () => server.listen({ onUnhandledRequest: 'error' }),
    use: (handler) => server.use(...upstashHandlers(handler)),
    after: () => server.resetHandlers(),
    close: () => server.close(),
  };
}

function fetchTransport(): Transport {
  const original = globalThis.fetch;
  return {
    before: () => undefined,
    use: (handler) => {
      globalThis.fetch = handler as typeof fetch;
    },
    after: () => {
      globalThis.fetch = original;
    },
    close: () => {
      globalThis.fetch = original;
    },
  };
}

const transports: [string, () => Transport][] = [
  ['msw 2 setupServer', mswTransport],
  ['a fetch replacement', fetchTransport],
];

describe.each(transports)('@upstash/redis through %s', (_name, makeTransport) => {
  const transport = makeTransport();
  beforeAll(() => transport.before());
  afterAll(() => transport.close());

  describe.each([true, false])('auto-pipelining %s', (autoPipelining) => {
    let clock: FakeClock;
    let handler: UpstashHandler;
    let redis: UpstashRedis;

    beforeEach(() => {
      clock = createFakeClock({ now: T0 });
      handler = createUpstashHandler({ url: URL_, token: TOKEN, streams: { clock } });
      transport.use(handler);
      redis = new UpstashRedis({ url: URL_, token: TOKEN, enableAutoPipelining: autoPipelining });
    });
    afterEach(() => {
      transport.after();
      handler.close();
    });

    /** The text an UpstashError carries for a Redis error, per call path of the client. */
    const failure = (text: string) => (autoPipelining ? `Command failed: ${text}` : text);

    it('xadd, xlen, xrange, xrevrange, xdel and xtrim', async () => {
      expect(await redis.xadd('jobs', '*', { job: 'a', attempt: 1 })).toBe(id(0));
      clock.tick(5);
      expect(await redis.xadd('jobs', '*', { job: 'b', meta: { to: 'x' } })).toBe(id(5));
      expect(await redis.xadd('jobs', id(5, 7), { job: 'c' }, { trim: { type: 'MAXLEN', comparison: '=', threshold: 10 } })).toBe(id(5, 7));
      expect(await redis.xadd('none', '*', { a: 1 }, { nomkStream: true })).toBeNull();
      expect(await redis.xlen('jobs')).toBe(3);
      expect(await redis.xrange('jobs', '-', '+')).toEqual({
        [id(0)]: { job: 'a', attempt: 1 },
        [id(5)]: { job: 'b', meta: { to: 'x' } },
        [id(5, 7)]: { job: 'c' },
      });
      expect(Object.keys(await redis.xrevrange('jobs', '+', '-', 2))).toEqual([id(5, 7), id(5)]);
      expect(await redis.xdel('jobs', [id(5), '9-9'])).toBe(1);
      expect(await redis.xtrim('jobs', { strategy: 'MAXLEN', exactness: '=', threshold: 1 })).toBe(1);
      expect(await redis.xrange('jobs', '-', '+')).toEqual({ [id(5, 7)]: { job: 'c' } });
    });

    it('xgroup CREATE/CREATECONSUMER/SETID/DELCONSUMER/DESTROY, xreadgroup, xack, xpending, xinfo', async () => {
      expect(await redis.xgroup('jobs', { type: 'CREATE', group: 'workers', id: '$', options: { MKSTREAM: true } })).toBe('OK');
      expect(await redis.xgroup('jobs', { type: 'CREATECONSUMER', group: 'workers', consumer: 'idle' })).toBe(1);
      await redis.xadd('jobs', '*', { job: 'a' });
      await redis.xadd('jobs', '*', { job: 'b' });
      expect(await redis.xreadgroup('workers', 'w1', 'jobs', '>', { count: 1 })).toEqual([['jobs', [[id(0), ['job', 'a']]]]]);
      expect(await redis.xreadgroup('workers', 'w2', 'jobs', '>')).toEqual([['jobs', [[id(0, 1), ['job', 'b']]]]]);
      clock.tick(1500);
      expect(await redis.xpending('jobs', 'workers', '-', '+', 10)).toEqual([
        [id(0), 'w1', 1500, 1],
        [id(0, 1), 'w2', 1500, 1],
      ]);
      expect(await redis.xpending('jobs', 'workers', '-', '+', 10, { consumer: 'w2' })).toEqual([[id(0, 1), 'w2', 1500, 1]]);
      expect(await redis.xack('jobs', 'workers', id(0))).toBe(1);
      expect(await redis.xinfo('jobs', { type: 'GROUPS' })).toEqual([
        ['name', 'workers', 'consumers', 3, 'pending', 1, 'last-delivered-id', id(0, 1), 'entries-read', 2, 'lag', 0],
      ]);
      expect(await redis.xinfo('jobs', { type: 'CONSUMERS', group: 'workers' })).toEqual([
        ['name', 'idle', 'pending', 0, 'idle', 1500, 'inactive', -1],
        ['name', 'w1', 'pending', 0, 'idle', 1500, 'inactive', 1500],
        ['name', 'w2', 'pending', 1, 'idle', 1500, 'inactive', 1500],
      ]);
      expect(await redis.xgroup('jobs', { type: 'SETID', group: 'workers', id: '0', options: { ENTRIESREAD: 0 } })).toBe('OK');
      expect(await redis.xgroup('jobs', { type: 'DELCONSUMER', group: 'workers', consumer: 'w2' })).toBe(1);
      expect(await redis.xgroup('jobs', { type: 'DESTROY', group: 'workers' })).toBe(1);
      expect(await redis.xinfo('jobs', { type: 'GROUPS' })).toEqual([]);
    });

    it('xclaim and xautoclaim see idle times on the fake clock', async () => {
      await redis.xgroup('jobs', { type: 'CREATE', group: 'g', id: '$', options: { MKSTREAM: true } });
      await redis.xadd('jobs', '*', { job: 'a' });
      await redis.xadd('jobs', '*', { job: 'b' });
      await redis.xreadgroup('g', 'crashed', 'jobs', '>');
      clock.tick(29_999);
      expect(await redis.xautoclaim('jobs', 'g', 'rescuer', 30_000, '0-0')).toEqual(['0-0', [], []]);
      clock.tick(1);
      expect(await redis.xautoclaim('jobs', 'g', 'rescuer', 30_000, '0-0', { count: 1 })).toEqual([id(0, 1), [[id(0), ['job', 'a']]], []]);
      expect(await redis.xpending('jobs', 'g', '-', '+', 10, { idleTime: 1 })).toEqual([[id(0, 1), 'crashed', 30_000, 1]]);
      expect(await redis.xclaim('jobs', 'g', 'rescuer', 30_000, id(0, 1))).toEqual([[id(0, 1), ['job', 'b']]]);
      expect(await redis.xclaim('jobs', 'g', 'other', 0, [id(0), id(0, 1)], { justId: true })).toEqual([id(0), id(0, 1)]);
      expect(await redis.xpending('jobs', 'g', '-', '+', 10)).toEqual([
        [id(0), 'other', 0, 2],
        [id(0, 1), 'other', 0, 2],
      ]);
    });

    it('xread', async () => {
      await redis.xadd('a', '1-0', { f: 'x' });
      await redis.xadd('b', '2-0', { f: 'y' });
      expect(await redis.xread(['a', 'b'], ['0', '0'], { count: 1 })).toEqual([
        ['a', [['1-0', ['f', 'x']]]],
        ['b', [['2-0', ['f', 'y']]]],
      ]);
      expect(await redis.xread('a', '$')).toBeNull();
    });

    it('xackdel and xdelex (Redis 8.2)', async () => {
      await redis.xgroup('s', { type: 'CREATE', group: 'g', id: '$', options: { MKSTREAM: true } });
      await redis.xadd('s', '1-0', { f: 1 });
      await redis.xadd('s', '2-0', { f: 2 });
      await redis.xreadgroup('g', 'c', 's', '>');
      expect(await redis.xackdel('s', 'g', 'KEEPREF', '1-0', '9-0')).toEqual([1, -1]);
      expect(await redis.xdelex('s', 'ACKED', '2-0')).toEqual([2]);
      expect(await redis.xdelex('s', undefined, '2-0')).toEqual([1]);
      expect(await redis.xlen('s')).toBe(0);
    });

    it('surfaces NOGROUP, WRONGTYPE and syntax errors as UpstashError with the Redis text', async () => {
      const nogroup = await redis.xreadgroup('nope', 'c', 's', '>').catch((e: unknown) => e);
      expect(nogroup).toBeInstanceOf(errors.UpstashError);
      expect((nogroup as Error).message).toMatch(new RegExp(`^${escape(failure("NOGROUP No such key 's' or consumer group 'nope' in XREADGROUP with GROUP option"))}`));
      await redis.set('str', 'x');
      const wrongtype = await redis.xlen('str').catch((e: unknown) => e);
      expect(wrongtype).toBeInstanceOf(errors.UpstashError);
      expect((wrongtype as Error).message).toMatch(new RegExp(`^${escape(failure('WRONGTYPE Operation against a key holding the wrong kind of value'))}`));
      const syntax = await redis.xtrim('s', { strategy: 'MAXLEN', exactness: '=', threshold: 1, limit: 5 }).catch((e: unknown) => e);
      expect(syntax).toBeInstanceOf(errors.UpstashError);
      expect((syntax as Error).message).toMatch(new RegExp(`^${escape(failure('ERR syntax error, LIMIT cannot be used without the special ~ option'))}`));
    });

    it('answers XREADGROUP with BLOCK with an error, as Upstash documents blocking reads unsupported', async () => {
      await redis.xgroup('s', { type: 'CREATE', group: 'g', id: '$', options: { MKSTREAM: true } });
      const blocked = await redis.xreadgroup('g', 'c', 's', '>', { blockMS: 1000 }).catch((e: unknown) => e);
      expect(blocked).toBeInstanceOf(errors.UpstashError);
      expect((blocked as Error).message).toContain("ERR Command is not available over the REST API: 'XREADGROUP' with BLOCK");
    });

    it('pipeline() answers each command, errors included', async () => {
      const p = redis.pipeline();
      p.xadd('s', '1-0', { f: 'v' });
      p.xadd('s', '1-0', { f: 'v' });
      p.xlen('s');
      expect(await p.exec({ keepErrors: true })).toEqual([
        { result: '1-0', error: undefined },
        { result: undefined, error: 'ERR The ID specified in XADD is equal or smaller than the target stream top item' },
        { result: 1, error: undefined },
      ]);
    });

    it('multi() runs atomically on one time snapshot', async () => {
      const tx = redis.multi();
      tx.xadd('s', '*', { n: 1 });
      tx.xadd('s', '*', { n: 2 });
      tx.xgroup('s', { type: 'CREATE', group: 'g', id: '0' });
      tx.xreadgroup('g', 'c', 's', '>');
      expect(await tx.exec()).toEqual([id(0), id(0, 1), 'OK', [['s', [[id(0), ['n', 1]], [id(0, 1), ['n', 2]]]]]]);
    });

    it('exec([...]) reaches XREADGROUP CLAIM, XINFO STREAM and XNACK', async () => {
      await redis.xgroup('s', { type: 'CREATE', group: 'g', id: '$', options: { MKSTREAM: true } });
      await redis.xadd('s', '1-0', { job: 'a' });
      await redis.xadd('s', '2-0', { job: 'b' });
      await redis.xreadgroup('g', 'c1', 's', '>', { count: 1 });
      clock.tick(60_000);
      expect(await redis.exec(['XREADGROUP', 'GROUP', 'g', 'c2', 'CLAIM', '30000', 'STREAMS', 's', '>'])).toEqual([
        ['s', [['1-0', ['job', 'a'], 60_000, 1], ['2-0', ['job', 'b'], 0, 0]]],
      ]);
      expect(await redis.exec(['XNACK', 's', 'g', 'FAIL', 'IDS', '1', '1-0'])).toBe(1);
      expect(await redis.exec(['XINFO', 'STREAM', 's'])).toEqual([
        'length', 2, 'radix-tree-keys', 1, 'radix-tree-nodes', 2, 'last-generated-id', '2-0', 'max-deleted-entry-id', '0-0',
        'entries-added', 2, 'recorded-first-entry-id', '1-0',
        'idmp-duration', 100, 'idmp-maxsize', 100, 'pids-tracked', 0, 'iids-tracked', 0, 'iids-added', 0, 'iids-duplicates', 0, 'groups', 1,
        'first-entry', ['1-0', ['job', 'a']], 'last-entry', ['2-0', ['job', 'b']],
      ]);
    });

    it('shares a keyspace with fake ioredis clients: a write with one is read with the other', async () => {
      const ioredis = new Redis({ port: nextPort++, streams: { clock } });
      const shared = createUpstashHandler({ url: URL_, token: TOKEN, redis: ioredis });
      transport.use(shared);
      await ioredis.xgroup('CREATE', 'jobs', 'g', '$', 'MKSTREAM');
      await ioredis.xadd('jobs', '*', 'job', 'from-ioredis');
      expect(await redis.xreadgroup('g', 'upstash', 'jobs', '>')).toEqual([['jobs', [[id(0), ['job', 'from-ioredis']]]]]);
      clock.tick(10);
      await redis.xadd('jobs', '*', { job: 'from-upstash' });
      expect(await ioredis.xreadgroup('GROUP', 'g', 'ioredis', 'STREAMS', 'jobs', '>')).toEqual([['jobs', [[id(10), ['job', 'from-upstash']]]]]);
      expect(await ioredis.xpending('jobs', 'g')).toEqual([2, id(0), id(10), [['ioredis', '1'], ['upstash', '1']]]);
      shared.close();
      ioredis.disconnect();
    });

    it('works without base64 responses (responseEncoding: false)', async () => {
      const plain = new UpstashRedis({ url: URL_, token: TOKEN, enableAutoPipelining: autoPipelining, responseEncoding: false });
      await plain.xadd('s', '1-0', { text: 'é✓', n: 42 });
      expect(await plain.xrange('s', '-', '+')).toEqual({ '1-0': { text: 'é✓', n: 42 } });
      expect(await redis.xrange('s', '-', '+')).toEqual({ '1-0': { text: 'é✓', n: 42 } });
    });
  });
});

describe('@upstash/redis auto-pipelining through the fake', () => {
  it('batches concurrent writes into one /pipeline request', async () => {
    const handler = createUpstashHandler({ url: URL_, token: TOKEN });
    const seen: string[] = [];
    const original = globalThis.fetch;
    globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
      seen.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
      return handler(input as string, init);
    }) as typeof fetch;
    try {
      const redis = new UpstashRedis({ url: URL_, token: TOKEN });
      const ids = await Promise.all([redis.xadd('s', '1-0', { a: 1 }), redis.xadd('s', '2-0', { b: 2 }), redis.xadd('s', '3-0', { c: 3 })]);
      expect(ids).toEqual(['1-0', '2-0', '3-0']);
      expect(seen).toEqual(['/pipeline']);
      expect(await redis.xrange('s', '-', '+')).toEqual({ '1-0': { a: 1 }, '2-0': { b: 2 }, '3-0': { c: 3 } });
      expect(seen).toEqual(['/pipeline', '/']);
    } finally {
      globalThis.fetch = original;
      handler.close();
    }
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
