/**
 * SSUBSCRIBE on an ioredis client, as real ioredis 5.11.1 and 6.0.0 behave against redis-server
 * 7.0.15 and the post-7.4 build (recorded on both): `ssubscribe(...)` resolves with the count of
 * shard channels after the last one, an SPUBLISH arrives as `smessage` (channel, message as
 * strings) and `smessageBuffer`, and after the server closed the connection (CLIENT KILL) the
 * client subscribes again once reconnected (autoResubscribe), with SUBSCRIBE's channels.
 * Several sent before the first settles (Promise.all, a pipeline) each resolve with their own
 * last count. The scripts run on real ioredis when REDIS_URL is set.
 */
import Redis from 'ioredis-mock-streams';

type Client = Record<string, any>;
let port = 36_400;
beforeEach(() => {
  port++;
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function scripts(connect: (opts?: Record<string, unknown>) => Client) {
  it('delivers smessage and subscribes again after a reconnection', async () => {
    const a = connect();
    const r = connect({ retryStrategy: () => 1 });
    const got: string[] = [];
    r.on('smessage', (c: string, m: string) => got.push(`smessage ${c} ${m}`));
    r.on('smessageBuffer', (c: Buffer, m: Buffer) => got.push(`smessageBuffer ${Buffer.isBuffer(c)} ${m.toString()}`));
    r.on('message', (c: string, m: string) => got.push(`message ${c} ${m}`));
    expect(await r.ssubscribe('shard-ch1', 'shard-ch2')).toBe(2);
    expect(await a.spublish('shard-ch1', 'one')).toBe(1);
    await sleep(20);
    expect(got.splice(0)).toEqual(['smessage shard-ch1 one', 'smessageBuffer true one']);
    expect(await r.subscribe('plain-ch')).toBe(1);
    const id = /^id=(\d+)/m.exec((await a.client('list')).split('\n').find((l: string) => / ssub=2 /.test(l)) ?? '')![1];
    expect(await a.client('kill', 'id', id)).toBe(1);
    // (ioredis may still show `ready` a moment after the kill): wait for the subscriptions to be back
    const back = async () => (await a.pubsub('shardnumsub', 'shard-ch2'))[1] === 1 && (await a.pubsub('numsub', 'plain-ch'))[1] === 1;
    for (let i = 0; i < 200 && !(await back()); i++) await sleep(10);
    expect([await a.spublish('shard-ch2', 'two'), await a.publish('plain-ch', 'three')]).toEqual([1, 1]);
    await sleep(20);
    expect(got).toEqual(['smessage shard-ch2 two', 'smessageBuffer true two', 'message plain-ch three']);
    [r, a].forEach((c) => c.disconnect());
  });

  it('resolves each of several SSUBSCRIBE/SUNSUBSCRIBE sent at once, and in a pipeline, with its own last count', async () => {
    // a helper running ioredis's own suite found [4, 4, 4] (each counted the later ones' confirmations) and [] in pipelines
    const r = connect();
    expect(await Promise.all([r.ssubscribe('ov-x', 'ov-y'), r.ssubscribe('ov-x', 'ov-z'), r.ssubscribe('ov-w')])).toEqual([2, 3, 4]);
    expect(await Promise.all([r.sunsubscribe('ov-x'), r.sunsubscribe('ov-y', 'ov-none')])).toEqual([3, 2]);
    const p = connect();
    expect(await p.pipeline().ssubscribe('ov-x', 'ov-y').ssubscribe('ov-x', 'ov-z').sunsubscribe('ov-y').exec()).toEqual([
      [null, 2],
      [null, 3],
      [null, 2],
    ]);
    [r, p].forEach((c) => c.disconnect());
  });
}

describe('the fake', () => {
  scripts((opts) => new Redis({ port, ...opts } as never) as unknown as Client);
});

const url = process.env.REDIS_URL;
// skip: no real server URL (REDIS_URL / REDIS_UNSTABLE_URL): nothing to compare with; CI sets both
(url ? describe : describe.skip)('real ioredis on REDIS_URL', () => {
  if (!url) console.warn('REDIS_URL not set: the SSUBSCRIBE script on real ioredis skipped');
  const RealRedis = jest.requireActual('ioredis');
  const Real = RealRedis.default ?? RealRedis;
  scripts((opts) => new Real(url, { db: 12, ...opts }));
});
