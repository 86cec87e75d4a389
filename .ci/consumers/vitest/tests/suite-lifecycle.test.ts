// The setup entry's per-test lifecycle, as under jest: the clients a test created are closed once
// its afterEach hooks ran, a loop that outlives its test stops and is named in a warning, and so
// is a test that ends with blocked reads. The tests of this file run in order and depend on it.
import { setImmediate as realSetImmediate } from 'node:timers';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import Redis from 'ioredis';

const warnings: string[] = [];
const consoleWarn = console.warn;
console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(' '));
afterAll(() => {
  console.warn = consoleWarn;
});
const macrotasks = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => realSetImmediate(resolve));
};

const LEAKY = 'worker > leaks a running worker loop and a blocked read';

describe('worker', () => {
  const atModuleScope = new Redis();
  let inBeforeAll: Redis;
  let inBeforeEach: Redis | undefined;
  let inTest: Redis | undefined;
  let usedInAfterEach: unknown;
  beforeAll(() => {
    inBeforeAll = new Redis();
  });
  beforeEach(() => {
    inBeforeEach ??= new Redis();
  });
  afterEach(async () => {
    usedInAfterEach ??= await inTest!.ping(); // the test's own afterEach hooks still have its clients
  });

  it('leaks a running worker loop and a blocked read', async () => {
    inTest = new Redis();
    const redis = new Redis();
    await redis.xgroup('CREATE', 'jobs', 'g', '$', 'MKSTREAM');
    void (async () => {
      for (;;) {
        try {
          await redis.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 1000, 'STREAMS', 'jobs', '>');
        } catch {}
      }
    })();
    await macrotasks(1);
    expect(inBeforeEach!.status).toBe('ready');
  });

  it('closes the clients of the previous test once its afterEach hooks ran', async () => {
    expect(usedInAfterEach).toBe('PONG');
    expect(inTest!.status).toBe('end');
    expect(inBeforeEach!.status).toBe('end');
    await expect(inTest!.xlen('jobs')).rejects.toThrow('Connection is closed.');
    expect(inBeforeAll.status).toBe('ready');
    expect(atModuleScope.status).toBe('ready');
    expect(await inBeforeAll.exists('jobs')).toBe(0); // and the keyspace was reset
  });

  it('names the test that ended with a blocked read', () => {
    expect(warnings).toContainEqual(expect.stringContaining(`test "${LEAKY}" ended with 1 blocked call (BLPOP, BZPOPMIN, XREAD … BLOCK and the like)`));
  });

  it('stops the loop that outlived its test, and names that test', async () => {
    await macrotasks(5);
    const orphan = warnings.filter((w) => w.includes('keeps sending commands'));
    expect(orphan).toContainEqual(
      expect.stringContaining(`a client created by test "${LEAKY}" keeps sending commands after the test ended`),
    );
    expect(orphan.filter((w) => w.includes('its commands no longer settle'))).toHaveLength(1); // once per client
  });
});

describe('fake timers', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('vi.useFakeTimers() drives the default clock: XADD * IDs and BLOCK timeouts', async () => {
    vi.useFakeTimers({ now: Date.UTC(2024, 0, 1) });
    const redis = new Redis();
    expect(await redis.xadd('jobs', '*', 'job', 'a')).toBe('1704067200000-0');
    await redis.xgroup('CREATE', 'jobs', 'g', '$');
    const read = redis.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 5000, 'STREAMS', 'jobs', '>');
    await vi.advanceTimersByTimeAsync(4999);
    expect(await Promise.race([read, 'still blocked'])).toBe('still blocked');
    await vi.advanceTimersByTimeAsync(1);
    expect(await read).toBeNull();
    vi.setSystemTime(Date.UTC(2024, 0, 2));
    expect(await redis.xadd('jobs', '*', 'job', 'b')).toBe('1704153600000-0');
  });

  it('a loop of commands that answer at once lets faked timers fire', async () => {
    vi.useFakeTimers();
    const redis = new Redis();
    let fired = false;
    setTimeout(() => (fired = true), 0);
    let i = 0;
    const loop = (async () => {
      for (; i < 40_000 && !fired; i++) await redis.xlen('s');
    })();
    await vi.advanceTimersByTimeAsync(0);
    await loop;
    expect(fired).toBe(true);
    expect(i).toBeLessThan(40_000);
  });
});
