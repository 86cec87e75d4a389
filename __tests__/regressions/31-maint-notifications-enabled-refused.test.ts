/**
 * ioredis 6.1's handshake ends with CLIENT MAINT_NOTIFICATIONS ON moving-endpoint-type …, which
 * 7.0.15 and the post-7.4 build refuse ("unknown subcommand"); with `maintNotifications:
 * 'enabled'` that refusal is fatal: the client emits `error` and its first command rejects with
 * it. The fake did so only when its handshake went through the engine (a MONITOR open): a plain
 * test's client connected as if the server had accepted. Found by a fresh-user trial.
 */
import Redis from 'ioredis-mock-streams';
import { describeOnRealServers } from '../helpers/real-server';
import { onIoredis61 } from '../helpers/ioredis61';

type Client = Record<string, any>;
const REFUSED = "ERR unknown subcommand 'MAINT_NOTIFICATIONS'. Try CLIENT HELP.";

/** The first `error` event and the first command's outcome of a client made with `maintNotifications: 'enabled'`. */
async function firstOutcome(client: Client): Promise<{ event: string | null; ping: string }> {
  let event: string | null = null;
  client.on('error', (e: Error) => (event ??= e.message));
  const ping = await client.ping().then((v: string) => `ok ${v}`, (e: Error) => `err ${e.message}`);
  client.disconnect();
  return { event, ping };
}

const options = { maintNotifications: 'enabled', maxRetriesPerRequest: 0, retryStrategy: () => null };

it("a client with maintNotifications 'enabled' fails as the server refuses its handshake (ioredis 6.1), with no MONITOR open", async () => {
  for (const [i, redisVersion] of (['7.0', '8.0'] as const).entries()) {
    const client = new Redis({ port: 36_710 + i, ...options, streams: { redisVersion } } as never) as unknown as Client;
    expect(await firstOutcome(client)).toEqual(onIoredis61 ? { event: REFUSED, ping: `err ${REFUSED}` } : { event: null, ping: 'ok PONG' });
  }
});

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to compare with; CI sets both
describeOnRealServers("a client with maintNotifications 'enabled'", (server) => {
  it('fails or connects as real ioredis does against the server', async () => {
    const RealRedis = jest.requireActual('ioredis');
    const real = new (RealRedis.default ?? RealRedis)(server.url, options) as Client;
    const fake = new Redis({ port: 36_720, ...options, streams: { redisVersion: server.version } } as never) as unknown as Client;
    expect(await firstOutcome(fake)).toEqual(await firstOutcome(real));
  });
});
