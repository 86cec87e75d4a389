/**
 * ioredis attaches a command's node-style callback with `standard-as-callback`: only a function is
 * a callback (`exec(true)`, rate-limiter-flexible's call, must not throw "cb is not a function"),
 * `(null)` for an undefined result. The same scripts run on the fake and on real ioredis against
 * REDIS_URL. (A callback that throws rethrows from a timer, an uncaught exception as with real
 * ioredis: jest turns those into the test's own failure, so that is checked outside jest.)
 */
import { itOnFakeAndServer } from '../helpers/real-server';

type Client = Record<string, any>;

/** Collect unhandled rejections while `body` runs and 30 ms after. */
async function watchingProcess(body: () => Promise<unknown>): Promise<{ value: unknown; unhandled: string[]; uncaught: string[] }> {
  const unhandled: string[] = [];
  const onRejection = (e: unknown) => unhandled.push(String((e as Error)?.message ?? e));
  process.on('unhandledRejection', onRejection);
  try {
    const value = await body();
    await new Promise((r) => setTimeout(r, 30));
    return { value, unhandled, uncaught: [] };
  } finally {
    process.off('unhandledRejection', onRejection);
  }
}

describe('command callbacks, as ioredis attaches them', () => {
  itOnFakeAndServer(
    'exec(true) and exec(null) ignore the argument that is not a function: the replies, no TypeError',
    'exec(true) resolves with the replies',
    { port: 48_611, key: 'cb:exectrue' },
    async (client: Client, key) =>
      watchingProcess(async () => {
        const a = await client.multi().set(key, '1', 'EX', 10).get(key).exec(true);
        const b = await client.multi().get(key).exec(null);
        await client.del(key);
        return [a, b];
      }),
    { value: [[[null, 'OK'], [null, '1']], [[null, '1']]], unhandled: [], uncaught: [] },
  );

  itOnFakeAndServer(
    'a callback gets (null, reply), a nil reply included',
    'callback arguments',
    { port: 48_612, key: 'cb:args' },
    async (client: Client, key) => {
      const got = await new Promise<unknown[]>((resolve) => client.set(key, 'v', (...args: unknown[]) => resolve(args)));
      const nil = await new Promise<unknown[]>((resolve) => client.get(`${key}:missing`, (...args: unknown[]) => resolve(args)));
      await client.del(key);
      return [got, nil];
    },
    [
      [null, 'OK'],
      [null, null],
    ],
  );
});
