/**
 * Under the jest setup file, CONFIG and the ACL users are kept as they were when each test started
 * and given back after it, as clocks and versions are: a `CONFIG SET` or `ACL SETUSER` made in
 * `beforeAll` holds in every test of the file; what a test sets, creates, changes or deletes is
 * undone before the next test. (Until then the reset put CONFIG back to its defaults and removed
 * every ACL user after each test: settings made in `beforeAll` held for the first test only.)
 *
 * The scenarios run in a child jest (what a user's jest run does); each parent test checks that
 * the child tests of its behaviour passed.
 */
import { runChildJest } from '../helpers/child-jest';

const childFile = `
const Redis = require('ioredis');
const { resetAllKeyspaces } = require('ioredis-mock-streams');

const PORT = 43_100;
const admin = new Redis({ port: PORT }); // module scope: open for the whole file
let asAlice; // made in beforeAll, authenticated as alice
let shared; // made in beforeAll, authenticated in a test as a user that test creates
let sharedCloses = 0;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  await admin.config('SET', 'notify-keyspace-events', 'KEA', 'maxmemory-policy', 'allkeys-lru');
  await admin.call('ACL', 'SETUSER', 'alice', 'on', '>alice-pw', '~app:*', '+@all');
  await admin.call('ACL', 'SETUSER', 'carol', 'on', '>carol-pw', '~c:*', '+get', '+set', '(+ping ~sel:*)');
  await admin.call('ACL', 'SETUSER', 'erin', 'on', '>erin-pw', '~*', '+@read');
  asAlice = new Redis({ port: PORT });
  await asAlice.auth('alice', 'alice-pw');
  shared = new Redis({ port: PORT, retryStrategy: () => 5 });
  shared.on('close', () => sharedCloses++);
});
afterAll(() => {
  admin.disconnect();
  asAlice.disconnect();
  shared.disconnect();
});

const carolAtStart = async () => admin.call('ACL', 'GETUSER', 'carol');
let carolBefore;

describe.each([1, 2])('round %i', (round) => {
  it('config from beforeAll: holds', async () => {
    expect(await admin.config('GET', 'notify-keyspace-events')).toEqual(['notify-keyspace-events', 'AKE']);
    expect(await admin.config('GET', 'maxmemory-policy')).toEqual(['maxmemory-policy', 'allkeys-lru']);
    // and it is in force: a write publishes its keyspace event
    const sub = new Redis({ port: PORT });
    const events = [];
    sub.on('message', (channel, message) => events.push([channel, message]));
    await sub.subscribe('__keyevent@0__:set');
    await admin.set('k', 'v');
    await sleep(10);
    expect(events).toEqual([['__keyevent@0__:set', 'k']]);
  });

  it('config changed by a test: changes', async () => {
    await admin.config('SET', 'notify-keyspace-events', '', 'hz', '50', 'maxmemory-policy', 'noeviction', 'slowlog-log-slower-than', '0', 'maxclients', '7', 'latency-tracking', 'no');
    expect(await admin.config('GET', 'hz')).toEqual(['hz', '50']);
  });

  it('config changed by a test: is undone before the next test', async () => {
    expect(await admin.config('GET', 'notify-keyspace-events')).toEqual(['notify-keyspace-events', 'AKE']);
    expect(await admin.config('GET', 'maxmemory-policy')).toEqual(['maxmemory-policy', 'allkeys-lru']);
    expect(await admin.config('GET', 'hz')).toEqual(['hz', '10']);
    expect(await admin.config('GET', 'slowlog-log-slower-than')).toEqual(['slowlog-log-slower-than', '10000']);
    expect(await admin.config('GET', 'maxclients')).toEqual(['maxclients', '10000']);
    expect(await admin.config('GET', 'latency-tracking')).toEqual(['latency-tracking', 'yes']);
    // slowlog-log-slower-than 0 logged every command; back at 10000 ms a quick one is not
    await admin.call('SLOWLOG', 'RESET');
    await admin.ping();
    expect(await admin.call('SLOWLOG', 'LEN')).toBe(0);
  });

  it('user from beforeAll: can AUTH', async () => {
    const c = new Redis({ port: PORT });
    expect(await c.auth('alice', 'alice-pw')).toBe('OK');
    expect(await c.call('ACL', 'WHOAMI')).toBe('alice');
    await expect(c.auth('alice', 'wrong')).rejects.toThrow(/WRONGPASS/);
  });

  it('user from beforeAll: its beforeAll connection stays authenticated, with its permissions', async () => {
    expect(await asAlice.call('ACL', 'WHOAMI')).toBe('alice');
    expect(await asAlice.set('app:1', 'v')).toBe('OK');
    await expect(asAlice.set('other', 'v')).rejects.toThrow(/NOPERM/);
  });

  it('users changed by a test: change', async () => {
    carolBefore = await carolAtStart();
    await admin.call('ACL', 'SETUSER', 'carol', 'resetpass', '>new-pw', 'resetkeys', '~other:*', '-get', 'clearselectors', '(+del ~d:*)', 'off');
    expect(await admin.call('ACL', 'DELUSER', 'erin')).toBe(1);
    await admin.call('ACL', 'SETUSER', 'dave', 'on', '>dave-pw', '~*', '+@all');
    await admin.call('ACL', 'SETUSER', 'default', '>default-pw');
    await admin.call('CONFIG', 'SET', 'requirepass', 'other-pw');
    expect(await shared.auth('dave', 'dave-pw')).toBe('OK');
    expect(await shared.call('ACL', 'WHOAMI')).toBe('dave');
  });

  it('users changed by a test: a user it changed is given back as it was', async () => {
    expect(await admin.call('ACL', 'GETUSER', 'carol')).toEqual(carolBefore);
    const c = new Redis({ port: PORT });
    expect(await c.auth('carol', 'carol-pw')).toBe('OK');
    await expect(c.auth('carol', 'new-pw')).rejects.toThrow(/WRONGPASS/);
    expect(await c.set('c:1', 'v')).toBe('OK');
    expect(await c.get('c:1')).toBe('v');
  });

  it('users changed by a test: a user it created is gone', async () => {
    expect(await admin.call('ACL', 'USERS')).toEqual(['alice', 'carol', 'default', 'erin']);
    const c = new Redis({ port: PORT });
    await expect(c.auth('dave', 'dave-pw')).rejects.toThrow(/WRONGPASS/);
  });

  it('users changed by a test: a user it deleted is back', async () => {
    const c = new Redis({ port: PORT });
    expect(await c.auth('erin', 'erin-pw')).toBe('OK');
    expect(await c.get('x')).toBe(null); // +@read
    await expect(c.set('x', 'v')).rejects.toThrow(/NOPERM/);
  });

  it('users changed by a test: the default user is back without a password', async () => {
    const c = new Redis({ port: PORT });
    expect(await c.ping()).toBe('PONG');
    expect(await c.config('GET', 'requirepass')).toEqual(['requirepass', '']);
  });

  it('users changed by a test: a connection authenticated as a user it created was closed, as by ACL DELUSER', async () => {
    expect(sharedCloses).toBe(round);
    // ioredis reconnected it (retryStrategy), as the default user
    for (let i = 0; i < 100 && shared.status !== 'ready'; i++) await sleep(5);
    expect(await shared.call('ACL', 'WHOAMI')).toBe('default');
  });

  it('a server a test first used: configured by the test', async () => {
    const c = new Redis({ port: PORT + round });
    await c.config('SET', 'hz', '30');
    await c.call('ACL', 'SETUSER', 'frank', 'on', 'nopass');
  });

  it('a server a test first used: goes back to the defaults', async () => {
    const c = new Redis({ port: PORT + round });
    expect(await c.config('GET', 'hz')).toEqual(['hz', '10']);
    expect(await c.call('ACL', 'USERS')).toEqual(['default']);
  });

  it('resetAllKeyspaces() in a test: puts the defaults back for that test', async () => {
    resetAllKeyspaces();
    expect(await admin.config('GET', 'notify-keyspace-events')).toEqual(['notify-keyspace-events', '']);
    expect(await admin.call('ACL', 'USERS')).toEqual(['default']);
  });

  it('resetAllKeyspaces() in a test: what beforeAll set is back in the next test', async () => {
    expect(await admin.config('GET', 'notify-keyspace-events')).toEqual(['notify-keyspace-events', 'AKE']);
    expect(await admin.call('ACL', 'USERS')).toEqual(['alice', 'carol', 'default', 'erin']);
    expect(await asAlice.call('ACL', 'WHOAMI')).toBe('alice');
    expect(await asAlice.set('app:2', 'v')).toBe('OK');
  });
});
`;

let run: ReturnType<typeof runChildJest>;
beforeAll(() => {
  run = runChildJest(childFile, { verbose: true });
}, 70_000);

/** The child's result lines of the tests whose names contain `part`, in both rounds. */
function results(part: string): string[] {
  return run.output.split('\n').filter((line) => line.includes(part) && /[✓✕○]/.test(line)).map((line) => line.trim().replace(/ \(\d+ ms\)$/, ''));
}

function expectPassed(part: string): void {
  const lines = results(part);
  // (the child's whole output is in the first test's failure)
  if (lines.length === 0 || lines.some((l) => !l.startsWith('✓'))) throw new Error(`child tests "${part}" did not all pass:\n${lines.join('\n')}`);
}

it('the child jest ran every test and passed', () => {
  if (run.timedOut || run.status !== 0 || !/Tests:\s+30 passed, 30 total/.test(run.output)) throw new Error(`child jest failed:\n${run.output}`);
});

it('a CONFIG SET made in beforeAll holds in every test of the file', () => {
  expectPassed('config from beforeAll: holds');
});

it('a CONFIG SET made in one test is undone before the next', () => {
  expectPassed('config changed by a test: is undone before the next test');
});

it('an ACL user made in beforeAll can AUTH in every test', () => {
  expectPassed('user from beforeAll: can AUTH');
  expectPassed('user from beforeAll: its beforeAll connection stays authenticated');
});

it('an ACL user a test creates is gone in the next test', () => {
  expectPassed('a user it created is gone');
});

it('an ACL user a test changes is given back as it was', () => {
  expectPassed('a user it changed is given back as it was');
});

it('an ACL user a test deletes is back in the next test', () => {
  expectPassed('a user it deleted is back');
});

it('the default user a test gave a password is back as it was', () => {
  expectPassed('the default user is back without a password');
});

it('a server first used in a test goes back to the defaults', () => {
  expectPassed('a server a test first used: goes back to the defaults');
});

it('what beforeAll set is back after a test that called resetAllKeyspaces()', () => {
  expectPassed("resetAllKeyspaces() in a test: what beforeAll set is back in the next test");
});

it('a connection authenticated as a user the test created is closed after the test, as by ACL DELUSER', () => {
  expectPassed('a connection authenticated as a user it created was closed');
});
