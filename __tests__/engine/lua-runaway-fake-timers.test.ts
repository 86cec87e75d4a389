/**
 * Runaway scripts in-process under fake timers (issue 21): the slices of a long script, the
 * busy-reply-threshold and SCRIPT KILL run on real time and real event-loop turns, which jest's
 * modern fake timers (and @sinonjs/fake-timers, as vitest and sinon install them) cannot replace.
 * Then the per-test reset: a script a test left running is stopped (its caller gets an error) so
 * the runner can go on and exit.
 */
import { runChildJest } from '../helpers/child-jest';

require('ioredis-mock-streams/jest');

// eslint-disable-next-line @typescript-eslint/no-var-requires
const Redis = require('ioredis');
// eslint-disable-next-line @typescript-eslint/no-var-requires
const FakeTimers = require('@sinonjs/fake-timers');

/** Wait `ms` of real time whatever the fake timers (busy-wait in short steps that let the loop turn). */
async function realWait(ms: number): Promise<void> {
  const { performance } = require('perf_hooks') as typeof import('perf_hooks');
  const end = performance.now() + ms;
  while (performance.now() < end) await new Promise<void>((resolve) => {
    const { MessageChannel } = require('worker_threads') as typeof import('worker_threads');
    const ch = new MessageChannel();
    ch.port1.once('message', () => {
      ch.port1.close();
      resolve();
    });
    ch.port2.postMessage(null);
  });
}

const KILLED = /^ERR Script killed by user with SCRIPT KILL\.\.\. script: [0-9a-f]{40}, on @user_script:1\.$/;

describe.each([
  ['jest modern fake timers', () => jest.useFakeTimers(), () => jest.useRealTimers()],
  ['jest legacy fake timers', () => jest.useFakeTimers({ legacyFakeTimers: true }), () => jest.useRealTimers()],
  ['@sinonjs/fake-timers on the real global (vitest, sinon)', () => {
    const clock = FakeTimers.withGlobal(globalThis).install();
    return () => clock.uninstall();
  }, undefined],
] as [string, () => unknown, (() => void) | undefined][])('a runaway script under %s', (_name, install, uninstall) => {
  let undo: () => void = () => undefined;
  beforeEach(() => {
    const out = install();
    undo = typeof out === 'function' ? (out as () => void) : uninstall ?? (() => undefined);
  });
  afterEach(() => undo());

  it('runs in slices: another client gets BUSY after busy-reply-threshold and SCRIPT KILL ends it', async () => {
    const a = new Redis({ port: 7_150 });
    const b = new Redis({ port: 7_150 });
    await b.config('SET', 'busy-reply-threshold', '100');
    const running = a.eval('while true do end', 0);
    running.catch(() => undefined);
    const early = b.ping(); // before the threshold: waits, then BUSY
    early.catch(() => undefined);
    await realWait(200);
    await expect(early).rejects.toThrow('BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.');
    await expect(b.get('x')).rejects.toThrow(/^BUSY /);
    expect(await b.script('KILL')).toBe('OK');
    await expect(running).rejects.toThrow(KILLED);
    expect(await b.ping()).toBe('PONG');
  });

  it('that wrote is UNKILLABLE; SHUTDOWN NOSAVE ends it and the server (texts of redis-server 7.0.15 and the post-7.4 build)', async () => {
    // clients that do not reconnect (ioredis's retryStrategy returning null): the commands in
    // flight when the server ends reject; a reconnecting client would send the EVAL again
    const a = new Redis({ port: 7_151, retryStrategy: () => null });
    const b = new Redis({ port: 7_151, retryStrategy: () => null });
    await b.set('kept', 'no');
    await b.config('SET', 'busy-reply-threshold', '100');
    const running = a.eval("redis.call('SET', 'x', '1') while true do end", 0);
    running.catch(() => undefined);
    await realWait(200);
    await expect(b.script('KILL')).rejects.toThrow(/^UNKILLABLE Sorry the script already executed write commands against the dataset\. You can either wait the script termination or kill the server in a hard way using the SHUTDOWN NOSAVE command\.$/);
    await expect(b.shutdown()).rejects.toThrow('BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.');
    await expect(b.shutdown('SAVE')).rejects.toThrow(/^BUSY /);
    await expect(b.shutdown('ABORT')).rejects.toThrow('ERR No shutdown in progress.');
    await expect(b.shutdown('NOSAVE', 'ABORT')).rejects.toThrow('ERR syntax error');
    // the server ends: no reply to anyone, every connection closed, nothing saved
    await expect(b.shutdown('NOSAVE')).rejects.toThrow('Connection is closed.');
    await expect(running).rejects.toThrow('Connection is closed.');
    await expect(b.ping()).rejects.toThrow('Connection is closed.'); // as ioredis without reconnecting
    await expect(a.ping()).rejects.toThrow('Connection is closed.');
    const c = new Redis({ port: 7_151 });
    expect(await c.mget('kept', 'x')).toEqual([null, null]);
    expect(await c.eval('return 1', 0)).toBe(1);
  });
});

describe('a script a test leaves running', () => {
  let running: Promise<unknown>;
  let warn: jest.SpyInstance;
  afterAll(() => warn.mockRestore());

  it('(this test leaves one running under fake timers)', async () => {
    warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    jest.useFakeTimers();
    const a = new Redis({ port: 7_152 });
    running = a.eval('while true do end', 0);
    running.catch(() => undefined);
    await realWait(100);
    jest.useRealTimers();
  });

  it('is stopped by the reset after that test: its caller gets an error, a warning names the test', async () => {
    await expect(running).rejects.toThrow(/^\[ioredis-mock-streams\] a script still running at the reset of the keyspaces \(the end of its test\) was stopped after \d+ ms: a script that never ends fails its test$/);
    expect(warn.mock.calls.map((c) => String(c[0]))).toContainEqual(expect.stringMatching(/test "a script a test leaves running \(this test leaves one running under fake timers\)" ended with 1 script still running/));
    const b = new Redis({ port: 7_152 });
    expect(await b.ping()).toBe('PONG');
  });
});

// ---------------------------------------------------------------------------------------------
// A test whose script never ends, in a child jest: it fails (the runner's timeout), the next
// test runs, and jest exits.


const neverEndingScriptFile = (fakeTimers: boolean) => `
const Redis = require('ioredis');
${fakeTimers ? 'beforeEach(() => jest.useFakeTimers());' : ''}
describe('worker', () => {
  it('awaits a script that never ends', async () => {
    const redis = new Redis();
    expect(await redis.eval('while true do end', 0)).toBe(1);
  }, 1000);

  it('runs the next test', async () => {
    const redis = new Redis();
    expect(await redis.eval('return 2', 0)).toBe(2);
  });
});
`;

describe.each([
  ['off', false],
  ['on (modern)', true],
])('a test whose script never ends, jest fake timers %s', (_label, fakeTimers) => {
  let run: ReturnType<typeof runChildJest>;
  beforeAll(() => {
    run = runChildJest(neverEndingScriptFile(fakeTimers));
  }, 70_000);

  it('fails with the runner timeout, the next test runs, and jest exits', () => {
    expect(run.timedOut).toBe(false);
    expect(run.status).toBe(1);
    expect(run.output).toContain('worker › awaits a script that never ends');
    expect(run.output).toContain('Exceeded timeout of 1000 ms for a test');
    expect(run.output).toMatch(/Tests:\s+1 failed, 1 passed, 2 total/);
    expect(run.output).toMatch(/test "worker awaits a script that never ends" ended with 1 script still running/);
  });
});
