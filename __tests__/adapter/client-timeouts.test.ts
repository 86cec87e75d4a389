/**
 * ioredis's client options `commandTimeout` and `blockingTimeout` on the fake client, as real
 * ioredis (5.11.1 and 6.0.0) gives them against a real server (lib/adapter/command-timeouts.ts):
 * a command unanswered after `commandTimeout` ms rejects with a plain `Error('Command timed out')`;
 * a blocking command unanswered after `blockingTimeout` (its own timeout + 100 ms grace when it has
 * one) resolves null. Only the client gives up: the BLPOP stays blocked on the connection, a GET
 * sent after it waits behind it, and an element pushed later is popped by it and lost.
 * The timers are the global setTimeout's at the call (fake timers hold them, as they hold ioredis's).
 */
import Redis from 'ioredis-mock-streams';
import { itOnServer, type AnyClient } from '../helpers/real-server';

type Make = (options: Record<string, unknown>) => AnyClient;

/** 'about N' when `ms` is within [N - 15, N + 240] (timers run late on a busy machine), else the ms. */
const about = (ms: number, n: number): string | number => (ms >= n - 15 && ms <= n + 240 ? `about ${n}` : ms);

async function timed<T>(p: Promise<T>): Promise<{ outcome: unknown; ms: number }> {
  const start = Date.now();
  const outcome = await p.then(
    (v) => ['resolved', v],
    (e: Error) => ['rejected', e.constructor.name, e.message],
  );
  return { outcome, ms: Date.now() - start };
}

/** The same script on a fake or a real server: every outcome and its timing. */
async function timeoutsScript(make: Make, prefix: string): Promise<unknown> {
  const list = `${prefix}:l`;
  const stream = `${prefix}:s`;
  const other = make({});
  const out: Record<string, unknown> = {};
  try {
    await other.del(list, stream);
    await other.xgroup('CREATE', stream, 'g', '$', 'MKSTREAM');

    const client = make({ commandTimeout: 100 });
    try {
      await client.ping();
      const blpop = await timed(client.blpop(list, 0));
      out.commandTimeoutBlpop = [blpop.outcome, about(blpop.ms, 100)];
      // the BLPOP still blocks the connection: a GET sent now waits behind it and times out too
      const get = await timed(client.get(list));
      out.getBehindIt = [get.outcome, about(get.ms, 100)];
      // an element pushed now is popped by the BLPOP the client gave up on
      await other.rpush(list, 'v1');
      await new Promise((r) => setTimeout(r, 30));
      out.llenAfterPush = await other.llen(list);
      const xread = await timed(client.xread('BLOCK', 0, 'STREAMS', stream, '$'));
      out.commandTimeoutXread = [xread.outcome, about(xread.ms, 100)];
    } finally {
      client.disconnect();
    }

    for (const [name, run] of [
      ['blpop 0', (c: AnyClient) => c.blpop(list, 0)],
      ['blpopBuffer 0', (c: AnyClient) => c.blpopBuffer(list, 0)],
      ["call('BLPOP', …, 0)", (c: AnyClient) => c.call('BLPOP', list, '0')],
      ['xread BLOCK 0', (c: AnyClient) => c.xread('BLOCK', 0, 'STREAMS', stream, '$')],
      ['xreadgroup BLOCK 0', (c: AnyClient) => c.xreadgroup('GROUP', 'g', 'c1', 'BLOCK', 0, 'STREAMS', stream, '>')],
    ] as const) {
      const c = make({ blockingTimeout: 100 });
      try {
        await c.ping();
        const r = await timed(run(c));
        out[`blockingTimeout ${name}`] = [r.outcome, about(r.ms, 100)];
      } finally {
        c.disconnect();
      }
    }
    // a blocking command's own timeout + blockingTimeoutGrace: BLPOP 0.2 behind a blocked BLPOP
    // resolves null at 200 + 150 ms; alone, the server answers it at 200 ms (no timer fires)
    const c = make({ blockingTimeout: 1000, blockingTimeoutGrace: 150 });
    try {
      await c.ping();
      const alone = await timed(c.blpop(list, 0.2));
      out.ownTimeoutAlone = [alone.outcome, about(alone.ms, 200)];
      c.blpop(list, 0).catch(() => undefined);
      const behind = await timed(c.blpop(list, 0.2));
      out.ownTimeoutBehindBlocked = [behind.outcome, about(behind.ms, 350)];
    } finally {
      c.disconnect();
    }
    // a pipeline: each command's timers start with exec(); a callback gets the timed-out outcome
    const pairs = (x: [Error | null, unknown][]) => x.map(([e, v]) => (e ? [e.constructor.name, e.message] : [null, v]));
    const p1 = make({ commandTimeout: 100 });
    const p2 = make({ blockingTimeout: 100 });
    try {
      await p1.ping();
      await p2.ping();
      const calledBack: unknown[] = [];
      const r1 = await timed(
        p1
          .pipeline()
          .blpop(list, 0, (e: Error | null) => calledBack.push(e?.message))
          .get(list)
          .exec(),
      );
      out.pipelineCommandTimeout = [pairs((r1.outcome as [string, [Error | null, unknown][]])[1]), about(r1.ms, 100), calledBack];
      const r2 = await timed(p2.pipeline().blpop(list, 0).xread('BLOCK', 0, 'STREAMS', stream, '$').exec());
      out.pipelineBlockingTimeout = [r2.outcome, about(r2.ms, 100)];
      // multi() (fresh clients): BLPOP inside answers nil at once; a transaction held behind a
      // blocked call rejects
      const m2 = make({ blockingTimeout: 100 });
      const m1 = make({ commandTimeout: 100 });
      try {
        await m2.ping();
        await m1.ping();
        const r3 = await timed(m2.multi().blpop(list, 0).exec());
        out.multiBlockingTimeout = [r3.outcome, r3.ms < 50 ? 'at once' : r3.ms];
        m1.blpop(list, 0).catch(() => undefined);
        const r4 = await timed(m1.multi().get(list).exec());
        out.multiBehindBlocked = [r4.outcome, about(r4.ms, 100)];
      } finally {
        m1.disconnect();
        m2.disconnect();
      }
    } finally {
      p1.disconnect();
      p2.disconnect();
    }
    await other.del(list, stream);
  } finally {
    other.disconnect();
  }
  return out;
}

const EXPECTED = {
  commandTimeoutBlpop: [['rejected', 'Error', 'Command timed out'], 'about 100'],
  getBehindIt: [['rejected', 'Error', 'Command timed out'], 'about 100'],
  llenAfterPush: 0,
  commandTimeoutXread: [['rejected', 'Error', 'Command timed out'], 'about 100'],
  'blockingTimeout blpop 0': [['resolved', null], 'about 100'],
  'blockingTimeout blpopBuffer 0': [['resolved', null], 'about 100'],
  "blockingTimeout call('BLPOP', …, 0)": [['resolved', null], 'about 100'],
  'blockingTimeout xread BLOCK 0': [['resolved', null], 'about 100'],
  'blockingTimeout xreadgroup BLOCK 0': [['resolved', null], 'about 100'],
  ownTimeoutAlone: [['resolved', null], 'about 200'],
  ownTimeoutBehindBlocked: [['resolved', null], 'about 350'],
  pipelineCommandTimeout: [
    [
      ['Error', 'Command timed out'],
      ['Error', 'Command timed out'],
    ],
    'about 100',
    ['Command timed out'],
  ],
  multiBlockingTimeout: [['resolved', [[null, null]]], 'at once'],
  multiBehindBlocked: [['rejected', 'Error', 'Command timed out'], 'about 100'],
  pipelineBlockingTimeout: [
    [
      'resolved',
      [
        [null, null],
        [null, null],
      ],
    ],
    'about 100',
  ],
};

describe('commandTimeout and blockingTimeout', () => {
  it('give up on a blocked command as real ioredis does: Command timed out, or null, and the command stays blocked on the connection', async () => {
    expect(await timeoutsScript((o) => new Redis({ port: 36_950, ...o }), 'ct')).toEqual(EXPECTED);
  }, 20_000);

  itOnServer('give the same outcomes and timings with real ioredis on redis-server', 'commandTimeout / blockingTimeout', { db: 14 }, async (client) => {
    const make: Make = (o) => client.duplicate({ db: 14, ...o });
    expect(await timeoutsScript(make, `ct:${process.pid}`)).toEqual(EXPECTED);
  });

  it('commandTimeout rejects a command held by CLIENT PAUSE once the timeout passes', async () => {
    const admin = new Redis({ port: 36_951 });
    const client = new Redis({ port: 36_951, commandTimeout: 100 });
    await client.ping();
    await admin.call('CLIENT', 'PAUSE', '300', 'ALL');
    const r = await timed(client.get('k'));
    expect([r.outcome, about(r.ms, 100)]).toEqual([['rejected', 'Error', 'Command timed out'], 'about 100']);
    client.disconnect();
    admin.disconnect();
  });

  it('commands answered in time keep their replies and leave no timer behind', async () => {
    jest.useFakeTimers();
    try {
      const client = new Redis({ port: 36_952, commandTimeout: 100, blockingTimeout: 100 });
      const pusher = new Redis({ port: 36_952 });
      await client.ping();
      await pusher.ping();
      const before = jest.getTimerCount();
      expect(await client.set('k', 'v')).toBe('OK');
      expect(await client.get('k')).toBe('v');
      await client.rpush('l', 'a');
      expect(await client.blpop('l', 0)).toEqual(['l', 'a']);
      expect(jest.getTimerCount()).toBe(before);
      const blocked = client.blpop('l', 0);
      expect(jest.getTimerCount()).toBe(before + 2); // commandTimeout's and blockingTimeout's
      await pusher.rpush('l', 'b');
      expect(await blocked).toEqual(['l', 'b']);
      expect(jest.getTimerCount()).toBe(before);
      client.disconnect();
      pusher.disconnect();
    } finally {
      jest.useRealTimers();
    }
  });

  it('under jest fake timers the timeouts wait for the fake time, as ioredis its global setTimeout', async () => {
    jest.useFakeTimers();
    try {
      const client = new Redis({ port: 36_953, commandTimeout: 100 });
      const other = new Redis({ port: 36_953, blockingTimeout: 50 });
      await client.ping();
      await other.ping();
      let a: unknown = 'pending';
      let b: unknown = 'pending';
      client.blpop('l', 0).then((v) => (a = v), (e: Error) => (a = e.message));
      other.blpop('l2', 0).then((v) => (b = v));
      await jest.advanceTimersByTimeAsync(49);
      expect([a, b]).toEqual(['pending', 'pending']);
      await jest.advanceTimersByTimeAsync(1);
      expect([a, b]).toEqual(['pending', null]);
      await jest.advanceTimersByTimeAsync(50);
      expect(a).toBe('Command timed out');
      client.disconnect();
      other.disconnect();
    } finally {
      jest.useRealTimers();
    }
  });
});
