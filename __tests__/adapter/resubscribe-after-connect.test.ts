/**
 * A subscribed ioredis client closed by the test — `disconnect()`, `quit()`, or a server close
 * with a retryStrategy that gives up — keeps its subscriptions in its prevCondition (ioredis's
 * close handler keeps the condition of a client closed while `ready` until a connection is ready
 * again), and `connect()` subscribes to them again (autoResubscribe; not with
 * `autoResubscribe: false`). Measured with ioredis 5.11.1, 6.0.0 and 6.1.0 on redis-server
 * 7.0.15: the channels and the pattern are subscribed again and a PUBLISH reaches the client;
 * on RESP2 (ioredis 5) the client is in subscriber mode again and refuses GET.
 *
 * Each script runs on the fake and with real ioredis (6.0.0; 5.11.1 under IOREDIS_MAJOR=5;
 * 6.1.0 under IOREDIS_VERSION=6.1) on both real servers.
 */
import { ioredisMajor } from '../helpers/real-server';
import { type Client, type ClientCase, type ScriptContext, runOnFakeAndRealIoredis } from '../helpers/fake-and-real-ioredis';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const SUBSCRIBER_MODE = 'Connection in subscriber mode, only subscriber commands may be used';

/** What the client hears and whether it is subscribed, seen from another client after `close` and `connect()`. */
async function afterReconnect(r: Client, ctx: ScriptContext, close: () => unknown): Promise<unknown> {
  const heard: string[] = [];
  r.on('message', (c: string, m: string) => heard.push(`${c}:${m}`));
  r.on('pmessage', (p: string, c: string, m: string) => heard.push(`${p}|${c}:${m}`));
  await r.subscribe(`${ctx.key}:a`, `${ctx.key}:b`);
  await r.psubscribe(`${ctx.key}:p*`);
  const ended = new Promise((res) => r.once('end', res));
  await close();
  await ended;
  await r.connect();
  await sleep(30); // the SUBSCRIBE/PSUBSCRIBE ioredis sends once ready
  const pub = ctx.other();
  const numsub = await pub.pubsub('NUMSUB', `${ctx.key}:a`, `${ctx.key}:b`);
  const published = [await pub.publish(`${ctx.key}:a`, 'one'), await pub.publish(`${ctx.key}:pq`, 'two')];
  await sleep(30);
  let get: unknown;
  try {
    get = await r.get(`${ctx.key}:key`);
  } catch (err) {
    get = (err as Error).message;
  }
  return { status: r.status, numsub, published, heard, get };
}

const resubscribed = (ch: string) => ({
  status: 'ready',
  numsub: [`${ch}:a`, 1, `${ch}:b`, 1],
  published: [1, 1],
  heard: [`${ch}:a:one`, `${ch}:p*|${ch}:pq:two`],
  get: ioredisMajor === 5 ? SUBSCRIBER_MODE : null,
});

const cases: ClientCase[] = [
  ['disconnect() then connect() subscribes again to the channels and patterns', {}, (r, ctx) => afterReconnect(r, ctx, () => r.disconnect()), resubscribed],
  ['quit() then connect() subscribes again', {}, (r, ctx) => afterReconnect(r, ctx, () => r.quit()), resubscribed],
  [
    'a server close with a retryStrategy that gives up, then connect(), subscribes again',
    { retryStrategy: () => null },
    async (r, ctx) => {
      const id = await r.client('ID');
      return afterReconnect(r, ctx, () => ctx.other().client('KILL', 'ID', String(id)));
    },
    resubscribed,
  ],
  [
    'with autoResubscribe: false, disconnect() then connect() is not subscribed',
    { autoResubscribe: false },
    (r, ctx) => afterReconnect(r, ctx, () => r.disconnect()),
    (ch: string) => ({ status: 'ready', numsub: [`${ch}:a`, 0, `${ch}:b`, 0], published: [0, 0], heard: [], get: null }),
  ],
];

describe('a subscribed client closed by the test subscribes again on connect()', () => {
  // skip: the real-ioredis half of each case skips (with the helper's message) without REDIS_URL /
  // REDIS_UNSTABLE_URL: nothing to compare with; CI sets both
  runOnFakeAndRealIoredis(cases, { firstPort: 37_900, keyPrefix: 'resub', subject: 'connect() after a close of a subscribed client', verb: 'subscribes again' });
});
