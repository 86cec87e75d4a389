/**
 * Properties every call path keeps, whatever it is given:
 * - nothing throws synchronously (methods, `…Buffer` twins, call, callBuffer, send_command,
 *   pipeline, multi, Lua): every call answers a promise, a value or a rejection;
 * - a blocked call settles exactly once, and nothing is delivered twice or lost when clients
 *   disconnect, quit, are reset or the clock jumps; `blockedCount` returns to 0.
 */
import { EventEmitter } from 'events';
import Redis, { createFakeClock, resetAllKeyspaces, streamsKeyspace } from 'ioredis-mock-streams';

type Client = Record<string, any>;
let port = 47_700;
beforeEach(() => {
  port++;
});

const ODD_ARGS: unknown[][] = [
  [],
  [undefined],
  [null],
  [Symbol('s')],
  ['k', Symbol('v')],
  [{ a: 1 }],
  [[['nested']]],
  ['k', { toString: () => { throw new Error('boom'); } }],
  [NaN, -0], // (Infinity sizes crash some ioredis-mock emulators: setbit, not a call-path matter)
  [Buffer.from([0xff, 0x00])],
];

/** Blocking list and sorted-set pops: odd arguments such as (NaN, -0) block forever, as on Redis (timeout 0). */
const BLOCKING_POPS = ['blpop', 'brpop', 'blmove', 'brpoplpush', 'blmpop', 'bzpopmin', 'bzpopmax', 'bzmpop'].flatMap((n) => [n, `${n}Buffer`]);

/** Command methods of the prototype (lifecycle and ioredis Commander methods excluded). */
function commandMethods(): string[] {
  const skip = new Set([...BLOCKING_POPS, 'constructor', 'multi', 'pipeline', 'defineCommand', 'connect', 'disconnect', 'end', 'duplicate', 'quit', 'quitBuffer', 'emit', 'monitor', 'subscribe', 'psubscribe', 'ssubscribe', 'subscribeBuffer', 'psubscribeBuffer', 'ssubscribeBuffer', 'getBuiltinCommands', 'createBuiltinCommand', 'addBuiltinCommand']);
  const names = new Set<string>();
  for (let proto = Redis.prototype as object; proto && proto !== EventEmitter.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const d = Object.getOwnPropertyDescriptor(proto, name);
      if (d && typeof d.value === 'function' && !name.startsWith('_') && !skip.has(name) && !/Stream$/.test(name)) names.add(name);
    }
  }
  return [...names];
}

describe('nothing throws synchronously', () => {
  it('every command method and Buffer twin answers a promise for odd arguments', async () => {
    const r = new Redis({ port }) as unknown as Client;
    const names = commandMethods();
    expect(names.length).toBeGreaterThan(300);
    const results: Promise<unknown>[] = [];
    for (const name of names) {
      for (const args of ODD_ARGS) {
        let out: unknown;
        expect(() => (out = r[name](...args))).not.toThrow();
        if (typeof (out as Promise<unknown>)?.then !== 'function') throw new Error(`${name} answered ${String(out)}`);
        results.push(out as Promise<unknown>);
      }
    }
    await Promise.allSettled(results);
    r.disconnect();
    // the blocking pops, on a client of their own that then disconnects (releasing them)
    const b = new Redis({ port }) as unknown as Client;
    const blocked: Promise<unknown>[] = [];
    for (const name of BLOCKING_POPS) {
      for (const args of ODD_ARGS) {
        let out: unknown;
        expect(() => (out = b[name](...args))).not.toThrow();
        if (typeof (out as Promise<unknown>)?.then !== 'function') throw new Error(`${name} answered ${String(out)}`);
        blocked.push(out as Promise<unknown>);
      }
    }
    b.disconnect();
    await Promise.allSettled(blocked);
  });

  it('call, callBuffer and send_command answer promises for odd names and arguments', async () => {
    const r = new Redis({ port }) as unknown as Client;
    const results: unknown[] = [];
    for (const method of ['call', 'callBuffer', 'send_command']) {
      for (const name of [undefined, null, 5, '', 'NOSUCH', Symbol('x'), 'xadd', 'get', 'eval', 'client', 'multi', 'exec', {}]) {
        for (const args of ODD_ARGS) {
          let out: unknown;
          expect(() => (out = r[method](name, ...args))).not.toThrow();
          results.push(out);
        }
      }
    }
    expect(results.every((p) => typeof (p as Promise<unknown>)?.then === 'function')).toBe(true);
    await Promise.allSettled(results as Promise<unknown>[]);
    r.disconnect();
  });

  it('pipeline() and multi() take odd arguments and answer through exec()', async () => {
    const r = new Redis({ port }) as unknown as Client;
    for (const make of [() => r.pipeline(), () => r.multi()]) {
      const batch = make();
      for (const name of ['xadd', 'get', 'hset', 'eval', 'client', 'xreadgroupBuffer', 'set']) {
        for (const args of ODD_ARGS) expect(() => batch[name](...args)).not.toThrow();
      }
      expect(() => batch.call(undefined, Symbol('x'))).not.toThrow();
      let done: unknown;
      expect(() => (done = batch.exec())).not.toThrow();
      await Promise.allSettled([done as Promise<unknown>]);
    }
    r.disconnect();
  });

  it('Lua scripts answer errors for odd scripts and arguments', async () => {
    const r = new Redis({ port }) as unknown as Client;
    const results: Promise<unknown>[] = [];
    for (const script of [undefined, 'return', 'error()', 'return redis.call()', 'return redis.call({})', "return redis.call('XADD')", 'while true do end']) {
      if (script === 'while true do end') continue; // scripts have no time limit here
      for (const args of ODD_ARGS) results.push(r.eval(script, ...args));
    }
    const settled = await Promise.allSettled(results);
    expect(settled.every((s) => s.status === 'rejected' || s.status === 'fulfilled')).toBe(true);
    r.disconnect();
  });
});

/** A small seeded PRNG (tests may not use Math.random: the run must repeat). */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('blocked calls under disconnects, quits, resets and clock jumps', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`settles every call once and delivers each entry at most once (seed ${seed})`, async () => {
      const rand = prng(seed);
      const clock = createFakeClock({ now: 1_000_000 });
      const admin = new Redis({ port, streams: { clock } }) as unknown as Client;
      await admin.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM');
      const readers: Client[] = [];
      const settles = new Map<Promise<unknown>, number>();
      const delivered: string[] = [];
      const track = (p: Promise<unknown>) => {
        settles.set(p, 0);
        p.then(
          (res: any) => {
            settles.set(p, settles.get(p)! + 1);
            for (const [, entries] of res ?? []) for (const [, fields] of entries) delivered.push(fields[1]);
          },
          () => settles.set(p, settles.get(p)! + 1),
        );
      };
      let added = 0;
      let epoch = 0;
      const addedNow: string[] = [];
      for (let step = 0; step < 60; step++) {
        const x = rand();
        if (x < 0.3 || readers.length === 0) {
          const r = new Redis({ port }) as unknown as Client;
          readers.push(r);
          track(r.xreadgroup('GROUP', 'g', `c${step}`, 'COUNT', 1, 'BLOCK', Math.floor(rand() * 3000), 'STREAMS', 's', '>'));
        } else if (x < 0.55) {
          const value = `${epoch}:${added++}`;
          addedNow.push(value);
          await admin.xadd('s', '*', 'n', value);
        } else if (x < 0.65) {
          readers.splice(Math.floor(rand() * readers.length), 1)[0].disconnect();
        } else if (x < 0.75) {
          const r = readers.splice(Math.floor(rand() * readers.length), 1)[0];
          void r.quit().catch(() => undefined);
        } else if (x < 0.85) {
          await clock.tickAsync(Math.floor(rand() * 2000));
        } else if (x < 0.92) {
          clock.setSystemTime(clock.now() + Math.floor(rand() * 5000) - 2000);
        } else if (x < 0.95) {
          streamsKeyspace(admin as never).reset();
          epoch++;
          addedNow.length = 0;
          await admin.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM');
        } else {
          await clock.tickAsync(0);
        }
      }
      for (const r of readers) r.disconnect();
      await clock.tickAsync(10_000);
      await new Promise((res) => setImmediate(res));
      expect([...settles.values()].every((n) => n === 1)).toBe(true);
      expect(new Set(delivered).size).toBe(delivered.length);
      // nothing lost: every entry of the current stream was delivered once or is still new
      const rest = ((await admin.xreadgroup('GROUP', 'g', 'final', 'STREAMS', 's', '>')) ?? [[null, []]])[0][1].map(
        ([, fields]: [string, string[]]) => fields[1],
      );
      const deliveredNow = delivered.filter((v) => v.startsWith(`${epoch}:`));
      expect([...deliveredNow, ...rest].sort()).toEqual([...addedNow].sort());
      expect(streamsKeyspace(admin as never).blockedCount).toBe(0);
      admin.disconnect();
      resetAllKeyspaces();
    });
  }
});
