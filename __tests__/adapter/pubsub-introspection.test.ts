/**
 * An in-process ioredis subscriber (SUBSCRIBE/PSUBSCRIBE on ioredis-mock's channel tables) is seen
 * by the server's introspection as a server sees that client: CLIENT LIST `flags=P sub=2 psub=1`,
 * INFO `pubsub_clients:1` (7.4+), CLIENT KILL TYPE pubsub closes it and TYPE normal spares it (it
 * showed `flags=N sub=0 psub=0`, `pubsub_clients:0`, and KILL TYPE pubsub found no client). The
 * same script runs with real ioredis on the real servers when REDIS_URL / REDIS_UNSTABLE_URL are set.
 */
import IORedis from 'ioredis';
import Redis from 'ioredis-mock-streams';

type Client = Record<string, any> & { disconnect(): void }; // eslint-disable-line @typescript-eslint/no-explicit-any

/** CLIENT LIST's line of the client named `name`: flags and subscription counts. */
async function listed(viewer: Client, name: string): Promise<string> {
  const lines: string[] = (await viewer.client('LIST')).split('\n');
  const line = lines.find((l) => l.includes(` name=${name} `));
  if (line === undefined) return 'no such client';
  return ['flags', 'sub', 'psub', 'ssub'].map((f) => line.match(new RegExp(` ${f}=(\\S+)`))?.[0].trim()).join(' ');
}

async function script(make: (options?: object) => Client, withPubsubClients: boolean): Promise<unknown[]> {
  const sub = make({ retryStrategy: () => null }); // killed, it stays closed (no resubscription racing the checks)
  const viewer = make();
  const out: unknown[] = [];
  try {
    const name = `sub${process.pid}${Math.floor(Math.random() * 1e6)}`;
    await sub.client('SETNAME', name);
    const subId = String(await sub.client('ID'));
    await viewer.ping();
    const pubsubClients = async () => ((await viewer.info('clients')) as string).match(/pubsub_clients:(\d+)/)?.[1];
    out.push(await listed(viewer, name));
    out.push(await sub.subscribe(`${name}:a`, `${name}:b`));
    out.push(await sub.psubscribe(`${name}:p*`));
    out.push(await listed(viewer, name));
    if (withPubsubClients) out.push(await pubsubClients());
    // each KILL filtered to the subscriber's ID too (filters are ANDed): a real server shared with
    // other test files has their clients on it, which must not be closed
    out.push(await viewer.client('KILL', 'TYPE', 'normal', 'ID', subId)); // a subscriber is not `normal`
    out.push(await viewer.client('KILL', 'TYPE', 'pubsub', 'ID', subId));
    await new Promise((resolve) => setTimeout(resolve, 50));
    out.push(await listed(viewer, name));
    out.push(await viewer.pubsub('NUMSUB', `${name}:a`));
    if (withPubsubClients) out.push(await pubsubClients());
  } finally {
    sub.disconnect();
    viewer.disconnect();
  }
  return out;
}

const EXPECTED_70 = ['flags=N sub=0 psub=0 ssub=0', 2, 3, 'flags=P sub=2 psub=1 ssub=0', 0, 1, 'no such client', [expect.any(String), 0]];
const EXPECTED_8 = ['flags=N sub=0 psub=0 ssub=0', 2, 3, 'flags=P sub=2 psub=1 ssub=0', '1', 0, 1, 'no such client', [expect.any(String), 0], '0'];

describe('an in-process subscriber in the server introspection', () => {
  it('8.10: CLIENT LIST flags=P and counts, INFO pubsub_clients, CLIENT KILL TYPE pubsub', async () => {
    expect(await script((o) => new Redis({ port: 37_300, ...o }) as unknown as Client, true)).toEqual(EXPECTED_8);
  });

  it('7.0: CLIENT LIST flags=P and counts, CLIENT KILL TYPE pubsub (no pubsub_clients before 7.4)', async () => {
    expect(await script((o) => new Redis({ port: 37_301, streams: { redisVersion: '7.0' }, ...o } as never) as unknown as Client, false)).toEqual(EXPECTED_70);
  });
});

for (const [label, url, expected, withPubsubClients] of [
  ['redis-server 7.0.15 (REDIS_URL)', process.env.REDIS_URL, EXPECTED_70, false],
  ['the post-7.4 build (REDIS_UNSTABLE_URL)', process.env.REDIS_UNSTABLE_URL, EXPECTED_8, true],
] as const) {
  if (!url) {
    // eslint-disable-next-line no-console
    console.warn(`${label} not set: in-process subscriber introspection not compared with that server`);
  }
  // skip: no real server at this URL (CI sets both): nothing to compare with
  (url ? describe : describe.skip)(`the same script on ${label} with real ioredis`, () => {
    it('gives the same answers', async () => {
      expect(await script((o) => new IORedis(url as string, o ?? {}) as unknown as Client, withPubsubClients)).toEqual(expected);
    });
  });
}
