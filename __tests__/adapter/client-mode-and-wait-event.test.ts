/**
 * ioredis's client surface the trial found missing: a `lazyConnect` client emits `wait` (its
 * status event, as ioredis's setStatus does) before `connecting`; `redis.mode` is "normal",
 * "subscriber" (RESP2 subscriber mode) or "monitor"; `redis.isCluster` is false. The same script
 * runs on the fake and on real ioredis against REDIS_URL.
 */
import { itOnFakeAndServer } from '../helpers/real-server';

type Client = Record<string, any>;

describe('a client’s status events and mode, as ioredis gives them', () => {
  itOnFakeAndServer(
    'a lazyConnect client emits wait, then connecting, connect, ready on its first command',
    'wait then connecting, connect, ready',
    { port: 48_601, key: 'mode:wait', options: { lazyConnect: true } },
    async (client: Client, key) => {
      const events: string[] = [];
      for (const e of ['wait', 'connecting', 'connect', 'ready']) client.on(e, () => events.push(e));
      await new Promise((r) => setTimeout(r, 10));
      events.push(`status ${client.status}`);
      await client.get(key);
      return events;
    },
    ['wait', 'status wait', 'connecting', 'connect', 'ready'],
  );

  itOnFakeAndServer(
    'mode is normal, subscriber while subscribed on RESP2, normal again after UNSUBSCRIBE; isCluster is false',
    'normal, subscriber, normal; isCluster false',
    { port: 48_602, key: 'mode:sub', options: { protocol: 2 } },
    async (client: Client, key) => {
      const seen: unknown[] = [client.mode, client.isCluster];
      await client.subscribe(key);
      seen.push(client.mode);
      await client.unsubscribe();
      seen.push(client.mode);
      const monitor = await client.monitor();
      seen.push(monitor.mode);
      monitor.disconnect();
      return seen;
    },
    ['normal', false, 'subscriber', 'normal', 'monitor'],
  );
});
