/**
 * Client scripts run twice: on the fake (the package's ioredis class) and with real ioredis (the
 * version the suite runs on) on both real servers (describeOnRealServers). Each case is
 * `[title, client options, script, expected]`; the script gets the client (made with the base
 * options and the case's, `ping()`ed: ready) and a context — a key of its own and `other()` for
 * more clients on the same server, every client disconnected after the case; `expected` may be a
 * function of that key.
 */
import Redis from 'ioredis-mock-streams';
import { describeOnRealServers } from './real-server';

/* eslint-disable @typescript-eslint/no-explicit-any */
export type Client = Record<string, any>;

export interface ScriptContext {
  /** A key (or channel) name of this case alone. */
  key: string;
  /** Another client on the same server (its own options only). */
  other(options?: Record<string, unknown>): Client;
}

export type ClientScript = (r: Client, ctx: ScriptContext) => Promise<unknown>;
export type ClientCase = [title: string, options: Record<string, unknown>, script: ClientScript, expected: unknown];

/**
 * `cases` on the fake (ports from `firstPort` on) and as real ioredis (`subject` and `verb` name
 * the real-server describe blocks), keys prefixed `keyPrefix`; `base` options for every case's client.
 */
export function runOnFakeAndRealIoredis(cases: ClientCase[], opts: { firstPort: number; keyPrefix: string; base?: Record<string, unknown>; subject: string; verb: string }): void {
  let port = opts.firstPort;
  const base = opts.base ?? {};
  const expectedOf = (expected: unknown, key: string) => (typeof expected === 'function' ? (expected as (k: string) => unknown)(key) : expected);

  async function run(make: (own: Record<string, unknown>) => Client, options: Record<string, unknown>, script: ClientScript, key: string, expected: unknown) {
    const others: Client[] = [];
    const r = make({ ...base, ...options });
    const other = (own: Record<string, unknown> = {}) => {
      const c = make(own);
      others.push(c);
      return c;
    };
    try {
      await r.ping(); // ready: what the client sends while connecting is the handshake's
      expect(await script(r, { key, other })).toEqual(expectedOf(expected, key));
    } finally {
      [r, ...others].forEach((c) => c.disconnect());
    }
  }

  it.each(cases)('%s: on the fake', async (_title, options, script, expected) => {
    const p = port++;
    await run((own) => new Redis({ port: p, ...own } as never) as unknown as Client, options, script, `${opts.keyPrefix}:${p}`, expected);
  });

  describeOnRealServers(
    opts.subject,
    (server) => {
      it.each(cases)('%s: as real ioredis', async (_title, options, script, expected) => {
        const RealRedis = jest.requireActual('ioredis');
        const Real = RealRedis.default ?? RealRedis;
        await run((own) => new Real(server.url, own) as Client, options, script, `${opts.keyPrefix}:${process.pid}:${port++}`, expected);
      });
    },
    opts.verb,
  );
}
