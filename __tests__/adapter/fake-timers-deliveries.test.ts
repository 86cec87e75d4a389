/**
 * The package's own deliveries under every fake timers users install (README "Time under test
 * control"): pub/sub messages, tracking invalidations, macrotask reply batches, the spin guard's
 * turn, the reconnect delay, realClock and serve's clock, waitForBlocked, the manual clock's
 * tickAsync and replication pings never wait for the test to advance a fake clock; BLOCK timeouts
 * on the default (global) clock follow the fake one. lib/clock/real-timers.ts says what each fake
 * replaces. `@sinonjs/fake-timers` `install()` is what `sinon.useFakeTimers()` does; here it also
 * replaces the functions of Node's `timers` module (the real global and jest's are one for it).
 */
import { MessageChannel } from 'worker_threads';
import { performance } from 'perf_hooks';
import * as timers from 'timers';
import FakeTimers from '@sinonjs/fake-timers';
import Redis, { createFakeClock, realClock, setReplyTiming, streamsKeyspace } from 'ioredis-mock-streams';
import { AdjustableClock } from '../../lib/clock/adjustable-clock';
import { SPIN_LIMIT } from '../../lib/adapter/spin-guard';
import { Replication } from '../../lib/engine/replication';

/** One real turn of the event loop (a MessageChannel message: no fake timers replace it). */
const realTurn = () =>
  new Promise<void>((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.once('message', () => {
      port1.close();
      resolve();
    });
    port2.postMessage(null);
  });

/** Wait `ms` of real time, whatever the fake timers. */
async function realWait(ms: number): Promise<void> {
  const end = performance.now() + ms;
  while (performance.now() < end) await realTurn();
}

/** `p`'s outcome, or 'pending' after `ms` of real time. */
async function within<T>(p: Promise<T>, ms: number): Promise<T | 'pending'> {
  let done = false;
  let out: T | 'pending' = 'pending';
  let err: unknown;
  let failed = false;
  p.then(
    (v) => ((done = true), (out = v)),
    (e) => ((done = true), (failed = true), (err = e)),
  );
  const end = performance.now() + ms;
  while (!done && performance.now() < end) await realTurn();
  if (failed) throw err;
  return out;
}

interface Fake {
  name: string;
  install(): { advance(ms: number): void; uninstall(): void };
}

const jestFake = (legacyFakeTimers: boolean): Fake['install'] => () => {
  jest.useFakeTimers({ legacyFakeTimers });
  return { advance: (ms) => jest.advanceTimersByTime(ms), uninstall: () => jest.useRealTimers() };
};
const sinonFake = (config: FakeTimers.FakeTimerInstallOpts): Fake['install'] => () => {
  const clock = FakeTimers.install(config);
  return { advance: (ms) => void clock.tick(ms), uninstall: () => clock.uninstall() };
};

const FAKES: Fake[] = [
  { name: 'jest modern fake timers', install: jestFake(false) },
  { name: 'jest legacy fake timers', install: jestFake(true) },
  { name: '@sinonjs/fake-timers install() (sinon.useFakeTimers())', install: sinonFake({}) },
  { name: '@sinonjs/fake-timers install({ shouldAdvanceTime: true })', install: sinonFake({ shouldAdvanceTime: true }) },
  {
    name: "@sinonjs/fake-timers with vitest's toFake plus nextTick and queueMicrotask",
    install: sinonFake({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'Date', 'nextTick', 'queueMicrotask'] }),
  },
];

let port = 7_400;

describe.each(FAKES)('under $name', (fake) => {
  let fakes: ReturnType<Fake['install']>;
  const clients: InstanceType<typeof Redis>[] = [];
  const make = (options: object = {}) => {
    const r = new Redis({ port, ...options });
    clients.push(r);
    return r;
  };
  beforeEach(() => {
    port++;
    fakes = fake.install();
  });
  afterEach(() => {
    for (const c of clients.splice(0)) c.disconnect();
    fakes.uninstall();
    setReplyTiming('microtask');
  });

  it('a PUBLISH reaches the subscribers (channel and pattern) without the fake clock moving', async () => {
    const sub = make();
    const pub = make();
    const seen: string[] = [];
    sub.on('message', (channel: string, message: string) => seen.push(`${channel}:${message}`));
    sub.on('pmessage', (pattern: string, channel: string, message: string) => seen.push(`${pattern}>${channel}:${message}`));
    await sub.subscribe('news');
    await sub.psubscribe('n*');
    expect(await pub.publish('news', 'hello')).toBe(2);
    await realWait(20);
    expect(seen).toEqual(['news:hello', 'n*>news:hello']);
  });

  it('an SPUBLISH reaches the shard-channel subscribers (smessage, smessageBuffer) without the fake clock moving', async () => {
    const sub = make();
    const pub = make();
    const seen: string[] = [];
    sub.on('smessage', (channel: string, message: string) => seen.push(`${channel}:${message}`));
    sub.on('smessageBuffer', (channel: Buffer, message: Buffer) => seen.push(`buffers ${channel.toString()}:${message.toString()}`));
    await sub.ssubscribe('orders');
    expect(await pub.spublish('orders', 'placed')).toBe(1);
    await realWait(20);
    expect(seen).toEqual(['orders:placed', 'buffers orders:placed']);
  });

  it("keyspace notifications reach the subscribers; a key's TTL follows the fake clock", async () => {
    const sub = make();
    const writer = make();
    const seen: string[] = [];
    sub.on('pmessage', (_pattern: string, channel: string, message: string) => seen.push(`${channel}=${message}`));
    await writer.config('SET', 'notify-keyspace-events', 'KEA');
    await sub.psubscribe('__key*__:*');
    // (with shouldAdvanceTime the fake clock moves with real time: a TTL a loaded machine cannot pass meanwhile)
    const ttl = fake.name.includes('shouldAdvanceTime') ? 5_000 : 100;
    await writer.set('n', '1', 'PX', ttl);
    await realWait(20);
    expect(seen).toEqual(['__keyspace@0__:n=set', '__keyevent@0__:set=n', '__keyspace@0__:n=expire', '__keyevent@0__:expire=n']);
    seen.length = 0;
    fakes.advance(ttl + 1); // past the deadline (the key is kept during its deadline ms)
    await realWait(20);
    if (fake.name.startsWith('jest legacy')) {
      // legacy fake timers leave Date alone: the TTL runs on real time, the expiry timer is a fake
      // one, so the key expires once both have passed
      await realWait(100);
      fakes.advance(100);
      await realWait(20);
    }
    expect(seen).toEqual(['__keyspace@0__:n=expired', '__keyevent@0__:expired=n']);
  });

  it('a tracking redirection gets its invalidations (default mode and BCAST)', async () => {
    const sub = make({ protocol: 2 });
    const tracker = make();
    const bcast = make();
    const writer = make();
    const seen: string[] = [];
    sub.on('message', (channel: string, keys: string) => seen.push(`${channel}:${keys}`));
    const id = String(await sub.client('ID'));
    await sub.subscribe('__redis__:invalidate');
    await tracker.call('CLIENT', 'TRACKING', 'on', 'REDIRECT', id);
    await tracker.get('k1');
    await writer.set('k1', 'x');
    await realWait(20);
    expect(seen).toEqual(['__redis__:invalidate:k1']);
    await bcast.call('CLIENT', 'TRACKING', 'on', 'REDIRECT', id, 'BCAST', 'PREFIX', 'b:');
    await writer.set('b:1', 'x');
    await realWait(20);
    expect(seen).toEqual(['__redis__:invalidate:k1', '__redis__:invalidate:b:1']);
  });

  it("setReplyTiming('macrotask'): replies arrive a turn later, without the fake clock moving", async () => {
    setReplyTiming('macrotask');
    const r = make();
    expect(await within(r.set('k', 'v'), 5_000)).toBe('OK');
    expect(await within(r.get('k'), 5_000)).toBe('v');
  });

  it('a loop of commands that answer at once lets the event loop turn', async () => {
    const r = make();
    let turned = false;
    void realTurn().then(() => (turned = true));
    let i = 0;
    const loop = (async () => {
      for (; i < 4 * SPIN_LIMIT && !turned; i++) await r.xlen('s');
    })();
    expect(await within(loop, 5_000)).toBeUndefined();
    expect(turned).toBe(true);
    expect(i).toBeLessThan(4 * SPIN_LIMIT);
  });

  it('a killed connection reconnects after the retryStrategy delay in real time; disconnect() while reconnecting cancels it', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const a = make({ retryStrategy: () => 20 });
      const b = make();
      const id = String(await a.client('ID'));
      await b.client('KILL', 'ID', id);
      expect(await within(a.ping(), 2_000)).toBe('PONG');
      expect(a.status).toBe('ready');

      const c = make({ retryStrategy: () => 300 });
      await b.client('KILL', 'ID', String(await c.client('ID')));
      await realWait(20);
      expect(c.status).toBe('reconnecting');
      c.disconnect();
      await realWait(400); // past the delay: the cleared timer does not reconnect
      expect(c.status).toBe('end');
      // fake-timers warns when its clearTimeout is handed a native timer (and leaves it running)
      expect(warn.mock.calls.map((args) => String(args[0])).filter((w) => /native timer/.test(w))).toEqual([]);
    } finally {
      warn.mockRestore();
    }
  });

  it('realClock and the clock of serve() (AdjustableClock) time out in real time', async () => {
    const r = make({ streams: { clock: realClock } });
    const t0 = performance.now();
    expect(await within(r.blpop('nothing', 0.05), 2_000)).toBeNull();
    expect(performance.now() - t0).toBeGreaterThanOrEqual(45);
    const adjustable = new AdjustableClock();
    let fired = false;
    adjustable.schedule(() => (fired = true), 30);
    await realWait(300);
    expect(fired).toBe(true);
  });

  it('waitForBlocked() resolves once a call blocks, and its timeout counts', async () => {
    const reader = make();
    const waiting = streamsKeyspace(reader).waitForBlocked();
    await realWait(10);
    const read = reader.blpop('q', 0);
    await expect(within(waiting, 1_000)).resolves.toBeUndefined();
    await make().rpush('q', 'x');
    expect(await within(read, 1_000)).toEqual(['q', 'x']);
    await expect(within(streamsKeyspace(reader).waitForBlocked(1, { timeoutMs: 30 }), 10_000)).rejects.toThrow('waitForBlocked(1): 0 calls are blocked after 30 ms');
  });

  it("the manual clock's tickAsync() answers a BLOCK", async () => {
    const clock = createFakeClock({ now: 1_000 });
    const r = make({ streams: { clock } });
    const read = r.blpop('q', 5);
    await within(streamsKeyspace(r).waitForBlocked(), 1_000);
    await within(clock.tickAsync(5_000), 1_000);
    expect(await within(read, 1_000)).toBeNull();
  });

  it('replicas are pinged every repl-ping-replica-period seconds of real time', async () => {
    const replication = new Replication(() => 1, () => '8.10', () => true);
    const written: string[] = [];
    let pinged!: () => void;
    const ping = new Promise<void>((resolve) => (pinged = resolve));
    const link = { write: (data: string) => void (written.push(data), pinged()), close: () => undefined };
    const t0 = performance.now();
    replication.attach(link);
    try {
      await within(ping, 5_000);
      expect(performance.now() - t0).toBeGreaterThanOrEqual(990);
      expect(written[0]).toBe('*1\r\n$4\r\nPING\r\n');
    } finally {
      replication.detach(link);
    }
  });

  it('a BLOCK on the default clock follows the fake clock: not before it moves, at the deadline when it does', async () => {
    const r = make();
    const read = r.blpop('q', 5);
    await within(streamsKeyspace(r).waitForBlocked(), 1_000);
    await realWait(30);
    expect(await within(read, 10)).toBe('pending');
    fakes.advance(5_000);
    expect(await within(read, 1_000)).toBeNull();
  });
});

describe('the package loaded while @sinonjs/fake-timers is installed', () => {
  it("still delivers on Node's own timers: the fakes found at load are unwrapped to the functions they replaced", async () => {
    const original = { setTimeout: timers.setTimeout, clearTimeout: timers.clearTimeout, setImmediate: timers.setImmediate, nextTick: process.nextTick };
    const clock = FakeTimers.install();
    try {
      expect(timers.setImmediate).not.toBe(original.setImmediate); // the module's function is a fake now
      let real: typeof import('../../lib/clock/real-timers') | undefined;
      jest.isolateModules(() => {
        real = require('../../lib/clock/real-timers');
      });
      expect(real!.realSetTimeout).toBe(original.setTimeout);
      expect(real!.realClearTimeout).toBe(original.clearTimeout);
      expect(real!.realSetImmediate).toBe(original.setImmediate);
      expect(real!.realNextTick).toBe(original.nextTick);
      await within(new Promise((resolve) => real!.realSetImmediate(resolve)), 1_000);
    } finally {
      clock.uninstall();
    }
  });
});
