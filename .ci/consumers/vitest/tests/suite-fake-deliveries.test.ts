// The package's own deliveries under vi.useFakeTimers() (lib/clock/real-timers.ts): pub/sub messages,
// the reconnect delay and realClock BLOCK timeouts never wait for the test to advance the fake clock
// (also with `toFake` including nextTick and queueMicrotask: threads pools; vitest refuses nextTick in forks).
import { MessageChannel } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import Redis from 'ioredis';
import { realClock } from 'ioredis-mock-streams';

const realTurn = () => new Promise<void>((resolve) => {
  const { port1, port2 } = new MessageChannel();
  port1.once('message', () => { port1.close(); resolve(); });
  port2.postMessage(null);
});
async function within<T>(p: Promise<T>, ms: number): Promise<T | 'pending'> {
  let out: T | 'pending' = 'pending';
  let done = false;
  p.then((v) => { out = v; done = true; }, () => { done = true; });
  const end = performance.now() + ms;
  while (!done && performance.now() < end) await realTurn();
  return out;
}
const realWait = (ms: number) => within(new Promise<never>(() => undefined), ms);

const ALL = ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'Date', 'performance', 'nextTick', 'queueMicrotask'] as const;
const nextTickFakeable = (() => {
  try {
    vi.useFakeTimers({ toFake: ['nextTick'] });
    return true;
  } catch {
    return false; // forks: "vi.useFakeTimers({ toFake: ["nextTick"] }) is not supported in node:child_process"
  } finally {
    vi.useRealTimers();
  }
})();

describe.each([
  ['vi.useFakeTimers()', () => vi.useFakeTimers()],
  ['vi.useFakeTimers({ shouldAdvanceTime: true })', () => vi.useFakeTimers({ shouldAdvanceTime: true })],
  ...(nextTickFakeable ? [["vi.useFakeTimers({ toFake: [… 'nextTick', 'queueMicrotask'] })", () => vi.useFakeTimers({ toFake: [...ALL] })] as const] : []),
])('under %s', (_name, install) => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a PUBLISH reaches the subscriber', async () => {
    install();
    const sub = new Redis();
    const pub = new Redis();
    const seen: string[] = [];
    sub.on('message', (channel: string, message: string) => seen.push(`${channel}:${message}`));
    await sub.subscribe('news');
    expect(await pub.publish('news', 'hello')).toBe(1);
    await realWait(20);
    expect(seen).toEqual(['news:hello']);
  });

  it('a killed connection reconnects after the retryStrategy delay, in real time', async () => {
    install();
    const a = new Redis({ retryStrategy: () => 20 });
    const b = new Redis();
    await b.client('KILL', 'ID', String(await a.client('ID')));
    expect(await within(a.ping(), 2000)).toBe('PONG');
  });

  it('realClock: a BLOCK times out in real time', async () => {
    install();
    const r = new Redis({ streams: { clock: realClock } });
    expect(await within(r.blpop('nothing', 0.05), 2000)).toBeNull();
  });
});
