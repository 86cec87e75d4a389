/**
 * A connection's replies settle in the order its commands were sent, as Redis answers them, also
 * when a command woke a client blocked on another connection: the fake holds that command's reply
 * until the woken client's reply has settled (a server writes it first), and a PING, a GET or a
 * pipeline sent right after it used to settle before it (found with
 * @socket.io/redis-streams-adapter's disconnectSockets test: an XADD's reply came after the next
 * one's, so the server disconnected its client before sending it `bye`). The same script runs
 * on real ioredis against redis-server at REDIS_URL (db 13, its keys deleted).
 */
import * as IORedisModule from 'ioredis';
import Redis from 'ioredis-mock-streams';

type AnyClient = Record<string, any>;
const realModule = jest.requireActual('ioredis') as typeof IORedisModule & { default: any };
const RealRedis = realModule.default ?? realModule;
const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) console.warn('REDIS_URL not set: the reply order on real ioredis is skipped');

const KEY = 'replies-in-order:k';
const cases: Record<string, [(x: AnyClient) => Promise<unknown>, (r: AnyClient) => Promise<unknown>]> = {
  'XADD waking XREAD BLOCK': [(x) => x.xread('BLOCK', 5000, 'STREAMS', KEY, '$'), (r) => r.xadd(KEY, '*', 'f', 'v')],
  'LPUSH waking BLPOP': [(x) => x.blpop(KEY, 5), (r) => r.lpush(KEY, 'v')],
  'ZADD waking BZPOPMIN': [(x) => x.bzpopmin(KEY, 5), (r) => r.zadd(KEY, 1, 'm')],
};

async function orderOf(make: (pair: number) => AnyClient): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  let pair = 0;
  for (const [name, [block, write]] of Object.entries(cases)) {
    pair++;
    const r = make(pair);
    const x = make(pair);
    try {
      await r.del(KEY);
      await x.ping();
      const blocked = block(x);
      await new Promise((resolve) => setTimeout(resolve, 50)); // x is blocked
      const order: string[] = [];
      const note = (what: string) => () => void order.push(what);
      await Promise.all([
        blocked.then(note('woken read')),
        write(r).then(note('write')),
        r.ping().then(note('ping')),
        r.get('replies-in-order:other').then(note('get')),
        r.pipeline().ping().exec().then(note('pipeline')),
      ]);
      out[name] = order;
      await r.del(KEY);
    } finally {
      r.disconnect();
      x.disconnect();
    }
  }
  return out;
}

const expected = ['woken read', 'write', 'ping', 'get', 'pipeline'];

/**
 * A waking write, then two pipelines, a MULTI and a PING in the same tick, then a GET: every one
 * settles (the second pipeline waited for the PING queued behind it, which waited for it: the
 * client never answered again). Settled names, sorted: ioredis settles an exec() a little after
 * plain commands sent behind it, so only the set is compared.
 */
async function allSettle(make: (pair: number) => AnyClient): Promise<string[]> {
  const r = make(10);
  const x = make(10);
  try {
    await r.del(KEY);
    const blocked = x.blpop(KEY, 5);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const done: string[] = [];
    const note = (what: string) => () => void done.push(what);
    const all = Promise.all([
      blocked.then(note('woken read')),
      r.lpush(KEY, 'v').then(note('write')),
      r.pipeline().ping().exec().then(note('pipeline 1')),
      r.pipeline().ping().exec().then(note('pipeline 2')),
      r.multi().ping().exec().then(note('multi')),
      r.ping().then(note('ping')),
    ]);
    const timeout = new Promise((resolve) => setTimeout(resolve, 2000, 'timed out'));
    if ((await Promise.race([all, timeout])) === 'timed out') done.push('timed out');
    await Promise.race([r.get(KEY).then(note('later get')), timeout]);
    return done.sort();
  } finally {
    r.disconnect();
    x.disconnect();
  }
}
const settledAll = ['later get', 'multi', 'ping', 'pipeline 1', 'pipeline 2', 'woken read', 'write'];

describe("a connection's replies settle in command order after a command that woke a blocked client", () => {
  it('on the fake: the woken read, then the write, then the PING, GET and pipeline sent after it', async () => {
    // the two clients of a case share a server (a port of their own)
    const got = await orderOf((pair) => new Redis({ port: 56_300 + pair }) as unknown as AnyClient);
    expect(got).toEqual(Object.fromEntries(Object.keys(cases).map((k) => [k, expected])));
  });

  it('on the fake: two pipelines, a MULTI and a PING sent after a waking write all settle, and the client answers after them', async () => {
    expect(await allSettle((pair) => new Redis({ port: 56_300 + pair }) as unknown as AnyClient)).toEqual(settledAll);
  });

  // skip: no REDIS_URL (a real redis-server): the warning above says so; CI sets it
  (REDIS_URL ? it : it.skip)('the same order on real ioredis and redis-server', async () => {
    const got = await orderOf(() => new RealRedis(`${REDIS_URL}/13`) as AnyClient);
    expect(got).toEqual(Object.fromEntries(Object.keys(cases).map((k) => [k, expected])));
  });

  // skip: no REDIS_URL (a real redis-server): the warning above says so; CI sets it
  (REDIS_URL ? it : it.skip)('the same commands all settle on real ioredis and redis-server', async () => {
    expect(await allSettle(() => new RealRedis(`${REDIS_URL}/13`) as AnyClient)).toEqual(settledAll);
  });
});
