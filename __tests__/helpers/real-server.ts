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

/** Major version of the ioredis the suite runs on (6, or 5 under test:ioredis5). */
export const ioredisMajor = Number((require('ioredis/package.json') as { version: string }).version.split('.')[0]);

/**
 * The client setups a reply-shape script runs under, as `[title, options, numbers]`: default
 * options, and on ioredis 6 also `replyMapping: 'resp3'` (numbers: doubles arrive as numbers)
 * and `protocol: 2`.
 */
export function replyShapeCases(): [string, Record<string, unknown>, boolean][] {
  const cases: [string, Record<string, unknown>, boolean][] = [['default options', {}, false]];
  if (ioredisMajor === 6) cases.push(["replyMapping 'resp3'", { replyMapping: 'resp3' }, true], ['protocol 2', { protocol: 2 }, false]);
  return cases;
}

/**
 * An integer reply's decimal text as the installed ioredis reads it: both parsers add the digits
 * up in doubles, ioredis 6's decoder as `n * 10 + byte - 48`, ioredis 5's redis-parser as
 * `n * 10 + (byte - 48)`, so past 2^53 the number can differ from Number(text) and between the
 * two (9223372036854775806 reads …776000 and …778000).
 */
export function integerAsRead(text: string): number {
  let n = 0;
  for (const c of text.replace('-', '')) n = ioredisMajor >= 6 ? n * 10 + c.charCodeAt(0) - 48 : n * 10 + (c.charCodeAt(0) - 48);
  return text.startsWith('-') ? -n : n;
}

/**
 * A RESP3 double's text (`,<text>\r\n`) as ioredis 6 with `replyMapping: 'resp3'` delivers it:
 * decoded by the installed ioredis 6's own RESP3 decoder (ioredis/built/resp/decoder), not a
 * copy of its arithmetic — the oracle the fake's reading (lib/adapter/encoding.ts
 * `doubleAsRead`) is checked against. ioredis 6 only (ioredis 5 has no RESP3 decoder).
 */
export function doubleAsIoredisReads(text: string): number {
  const { Decoder } = jest.requireActual('ioredis/built/resp/decoder') as { Decoder: new (config: Record<string, unknown>) => { write(chunk: Buffer): void } };
  let value: unknown;
  const decoder = new Decoder({ onReply: (v: unknown) => (value = v), onErrorReply: () => undefined, onPush: () => undefined, getTypeMapping: () => ({}) });
  decoder.write(Buffer.from(`,${text}\r\n`, 'latin1'));
  if (typeof value !== 'number') throw new Error(`ioredis decoded ,${text} as ${String(value)}`);
  return value;
}

/**
 * One script, two tests: `it(title)` runs `script(client, key)` on a fake client (`port`,
 * `options`) and `itOnServer` runs it with real ioredis on REDIS_URL (key suffixed with the
 * process id), each expecting `expected`.
 */
export function itOnFakeAndServer(
  title: string,
  what: string,
  setup: { port: number; key: string; options?: Record<string, unknown> },
  script: (client: AnyClient, key: string) => Promise<unknown>,
  expected: unknown,
): void {
  const options = setup.options ?? {};
  it(title, async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const Fake = require('ioredis-mock-streams') as new (options: object) => AnyClient;
    const client = new Fake({ port: setup.port, ...options });
    try {
      expect(await script(client, setup.key)).toEqual(expected);
    } finally {
      client.disconnect();
    }
  });
  itOnServer('as real ioredis on redis-server', what, options, async (client) => {
    expect(await script(client, `${setup.key}:${process.pid}`)).toEqual(expected);
  });
}
