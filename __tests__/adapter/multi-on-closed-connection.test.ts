/**
 * multi().exec() on a closed connection (after quit() or disconnect()) rejects with "Connection is
 * closed." as ioredis's does (MULTI, each command and EXEC are rejected; EXEC's error is the
 * exec()'s), where a plain pipeline resolves with the error per command. The same script on the
 * fake and on real ioredis (a user trial found the fake resolving `[[Error]]`: a shutdown path saw
 * no error).
 */
import { itOnFakeAndServer } from '../helpers/real-server';

type Client = Record<string, any>;

const outcome = (p: Promise<unknown>) =>
  p.then(
    (v) => `resolved ${JSON.stringify((v as [Error | null, unknown][]).map(([e, x]) => (e ? `E:${e.message}` : x)))}`,
    (e: Error) => `rejected ${e.message}`,
  );

describe('multi() on a closed connection', () => {
  itOnFakeAndServer(
    'after quit() and after disconnect(), multi().exec() rejects and pipeline().exec() resolves with the errors',
    'multi and pipeline on a closed connection',
    { port: 48_641, key: 'closedmulti' },
    async (client: Client, key) => {
      await client.ping();
      await client.quit();
      const called: unknown[] = [];
      const out: unknown[] = [
        await outcome(client.multi().get(key, (err: Error | null) => called.push(err?.message ?? null)).exec()),
        await outcome(client.multi().exec()),
        await outcome(client.pipeline().get(key).exec()),
      ];
      out.push(called);
      const again = client.duplicate();
      await again.ping();
      again.disconnect();
      await new Promise((r) => setTimeout(r, 20));
      out.push(await outcome(again.multi().get(key).exec()));
      return out;
    },
    [
      'rejected Connection is closed.',
      'rejected Connection is closed.',
      'resolved ["E:Connection is closed."]',
      ['Connection is closed.'],
      'rejected Connection is closed.',
    ],
  );
});
