/**
 * The same script on the fake and on a real server: `itOnServer` runs a test with a client of
 * real ioredis (the major the suite runs on: 6, or 5 under test:ioredis5) connected to the
 * server at REDIS_URL, in db 12 (keys named by the test, deleted by its script). Without
 * REDIS_URL the test is skipped and a warning says which comparison was not made.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export type AnyClient = Record<string, any>;

const warned = new Set<string>();

/**
 * `it(title)` with a real ioredis client (`options` added to `{ db: 12 }`) on REDIS_URL, closed
 * after `body`; skipped with a visible warning naming `what` when REDIS_URL is not set.
 */
export function itOnServer(title: string, what: string, options: Record<string, unknown>, body: (client: AnyClient) => Promise<void>): void {
  const url = process.env.REDIS_URL;
  if (!url) {
    if (!warned.has(what)) console.warn(`REDIS_URL not set: ${what} on real ioredis skipped`);
    warned.add(what);
    it.skip(title, () => undefined);
    return;
  }
  it(title, async () => {
    const RealRedis = jest.requireActual('ioredis');
    const client = new (RealRedis.default ?? RealRedis)(url, { db: 12, ...options }) as AnyClient;
    try {
      await body(client);
    } finally {
      client.disconnect();
    }
  });
}
