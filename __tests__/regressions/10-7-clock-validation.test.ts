/**
 * Issue 10, item 7: what a keyspace accepts as a clock and a Redis version, and what happens
 * when a clock misbehaves: a StreamsMockError that says the fix, and no command half-applied.
 */
import FakeTimers from '@sinonjs/fake-timers';
import * as fs from 'fs';
import * as path from 'path';
import Redis, { StreamsMockError, createFakeClock, streamsKeyspace, type Clock } from 'ioredis-mock-streams';

let port = 50_700;
const client = (streams?: object) => new Redis({ port: ++port, ...(streams ? { streams } : {}) } as never) as any;

/** A custom clock that answers `value` for now() and schedules on a fake clock. */
function clockAnswering(value: unknown): Clock {
  const base = createFakeClock({ now: 1_000 });
  return { kind: 'custom', now: () => value as number, schedule: (fn, ms) => base.schedule(fn, ms) };
}

describe('clock now() values', () => {
  it.each([
    ['2^64', 2 ** 64],
    ['NaN', NaN],
    ['a negative number', -1],
    ['a string', '1700000000000'],
    ['undefined', undefined],
  ])('rejects a command with a StreamsMockError when now() returns %s, before changing anything', async (_label, value) => {
    const r = client();
    const ks = streamsKeyspace(r);
    ks.setClock(clockAnswering(value));
    const err = await r.xadd('s', '*', 'f', 'v').then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(StreamsMockError);
    expect((err as Error).message).toMatch(/clock\.now\(\) returned .*; it must return ms since the Unix epoch as a number from 0 to 2\^53 - 1/);
    ks.setClock(createFakeClock({ now: 5 }));
    expect(await r.exists('s')).toBe(0);
    r.disconnect();
  });

  it('drops the fraction of a fractional now(), as Redis keeps whole ms', async () => {
    const r = client({ clock: clockAnswering(1_500.75) });
    expect(await r.xadd('s', '*', 'f', 'v')).toBe('1500-0');
    r.disconnect();
  });
});

describe('clock schedule() handles', () => {
  it('rejects a blocked read whose timer has no cancel(), and a later XADD still answers and stores its entry', async () => {
    const base = createFakeClock({ now: 1_000 });
    const badClock: Clock = { kind: 'custom', now: () => base.now(), schedule: (fn, ms) => (base.schedule(fn, ms), {}) as never };
    const r = client({ clock: badClock });
    const writer = r.duplicate();
    await r.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM');
    const read = r.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 100, 'STREAMS', 's', '>').then(() => null, (e: unknown) => e);
    const err = await read;
    expect(err).toBeInstanceOf(StreamsMockError);
    expect((err as Error).message).toMatch(/clock\.schedule\(\) returned \[object Object\]; it must return an object with a cancel\(\) method/);
    expect(streamsKeyspace(r).blockedCount).toBe(0);
    expect(await writer.xadd('s', '1-0', 'f', 'v')).toBe('1-0');
    expect(await writer.xlen('s')).toBe(1);
    base.tick(1_000); // the orphaned timer fires into nothing
    expect(await r.xpending('s', 'g')).toEqual([0, null, null, null]);
    r.disconnect();
    writer.disconnect();
  });
});

describe('accepted clocks', () => {
  it('takes a @sinonjs/fake-timers clock directly: IDs from its now, BLOCK on its timers', async () => {
    const sinon = FakeTimers.createClock(7_000);
    const r = client({ clock: sinon });
    expect(await r.xadd('s', '*', 'f', 'v')).toBe('7000-0');
    let answered: unknown = 'pending';
    const read = r.xread('BLOCK', 100, 'STREAMS', 's', '$').then((v: unknown) => (answered = v));
    await Promise.resolve();
    sinon.tick(99);
    await Promise.resolve();
    expect(answered).toBe('pending');
    sinon.tick(1);
    await read;
    expect(answered).toBeNull();
    // the same sinon clock given again is the same keyspace clock
    streamsKeyspace(r).setClock(sinon as never);
    expect(streamsKeyspace(r).clock).toBe(streamsKeyspace(r).clock);
    r.disconnect();
  });

  it('refuses other values with a StreamsMockError that lists what is accepted', () => {
    expect(() => client({ clock: Date.now })).toThrow(StreamsMockError);
    expect(() => client({ clock: { now: () => 1 } })).toThrow(
      /streams\.clock: clock must be createFakeClock\(\), globalClock, realClock, a @sinonjs\/fake-timers clock/,
    );
    expect(() => client({ clokc: createFakeClock() })).toThrow('[ioredis-mock-streams] invalid option streams.clokc: unknown option; streams takes clock and redisVersion');
    expect(() => new Redis({ port: ++port, streams: 5 } as never)).toThrow('invalid option streams: expected an object');
  });
});

describe('createFakeClock arguments', () => {
  it('takes a start time as a number or Date, or { now, loopLimit }', () => {
    expect(createFakeClock(5).now()).toBe(5);
    expect(createFakeClock(new Date(7)).now()).toBe(7);
    expect(createFakeClock({ now: 9 }).now()).toBe(9);
    expect(createFakeClock().now()).toBe(0);
  });

  it.each([
    ['a string', '5', /createFakeClock takes \{ now, loopLimit \} or a start time, got "5"/],
    ['an unknown option', { start: 5 }, /createFakeClock: unknown option "start"; the options are now and loopLimit/],
    ['a negative start', { now: -1 }, /createFakeClock: now must be ms since the Unix epoch/],
    ['an invalid Date', new Date(NaN), /createFakeClock: now must be ms since the Unix epoch/],
    ['a zero loopLimit', { loopLimit: 0 }, /loopLimit must be a whole number >= 1/],
  ])('refuses %s with a StreamsMockError', (_label, arg, message) => {
    expect(() => createFakeClock(arg as never)).toThrow(StreamsMockError);
    expect(() => createFakeClock(arg as never)).toThrow(message);
  });

  it('refuses negative, infinite and non-number ticks', () => {
    const clock = createFakeClock();
    expect(() => clock.tick(-1)).toThrow('[ioredis-mock-streams] tick must be a finite number of ms >= 0, got -1');
    expect(() => clock.tick(Infinity)).toThrow(StreamsMockError);
    expect(() => clock.tick('1' as never)).toThrow(StreamsMockError);
  });
});

describe('redisVersion', () => {
  it.each([
    ['8.10', '8.10'],
    ['7.0', '7.0'],
    ['7.0.15', '7.0'],
    ['8.2.1', '8.2'],
  ])('accepts %j as %s', (given, expected) => {
    const r = client({ redisVersion: given });
    expect(streamsKeyspace(r).redisVersion).toBe(expected);
    r.disconnect();
  });

  it.each([[7], [8.1], ['8'], [' 8.2'], ['8.2 '], ['v8.2'], ['6.2'], ['8.3']])('refuses %j with a StreamsMockError', (given) => {
    expect(() => client({ redisVersion: given })).toThrow(StreamsMockError);
    expect(() => client({ redisVersion: given })).toThrow(/give a string "<major>.<minor>"/);
  });
});

describe('package dependencies', () => {
  it('has no schema library (zod cost most of the import time)', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8'));
    expect(Object.keys(pkg.dependencies)).not.toContain('zod');
  });
});
