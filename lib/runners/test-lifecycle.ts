/**
 * What a test runner's setup entry does around each test, whatever the runner: the jest setup
 * (`ioredis-mock-streams/jest`), the vitest one (`ioredis-mock-streams/vitest`) and the node:test
 * one (`ioredis-mock-streams/register`) each call `installTestLifecycle` with their runner's hooks.
 *
 * - After each test every keyspace is emptied as FLUSHALL empties a server: the blocked calls of
 *   clients created outside tests (module scope, beforeAll: a BullMQ Worker, a QueueEvents) stay
 *   blocked, a blocked XREADGROUP failing as after FLUSHALL (trial 7: the reset used to reject
 *   them all with "Connection is closed.", and a worker made in beforeAll lost its BZPOPMIN); the
 *   blocked calls of the clients the test created (they are closed next) reject with "Connection
 *   is closed." and a warning names the test and their commands. Clocks and versions go back to
 *   the defaults — except that a
 *   client created outside tests (module scope, beforeAll) with `streams: { clock, redisVersion }`
 *   and still open keeps that configuration: its keyspace gets them again (issue 23: such a client
 *   used to run the second test on wall time and 8.10). Likewise a clock or version set outside
 *   tests with `streamsKeyspace(client).setClock()` / `setRedisVersion()` (module scope,
 *   beforeAll): what each keyspace had when the outermost test started is given back after it.
 *   CONFIG and the ACL users likewise: each server's, as they were when the outermost test
 *   started (set at module scope or in beforeAll, or by a test before), are given back after it —
 *   a parameter the test set goes back to its value then (as CONFIG SET sets it), a user it
 *   created is removed (its connections closed, as ACL DELUSER closes them), a user it changed or
 *   deleted comes back as it was; a server created during the test goes back to the defaults.
 *   The ACL LOG is emptied. (Until then CONFIG went back to its defaults and every ACL user was
 *   removed after each test: what beforeAll set held for the first test only.)
 * - Once every afterEach hook of a test has run (at the next test's first beforeEach hook, or when
 *   the file's tests are done), the clients created during that test (in it or its beforeEach
 *   hooks) are closed, like a connection whose test is over, and handed to the spin guard as
 *   orphans: a loop the test left running sees "Connection is closed.", and if it keeps sending
 *   commands without ever letting the event loop turn, its commands stop settling (so the runner
 *   can report and exit) and a warning names the test. Clients created outside tests (module
 *   scope, beforeAll/before hooks) stay open.
 *   A command a later test sends to such a client (a module's client made on first use and kept,
 *   as unstorage's driver and many apps do) still rejects with "Connection is closed.", and a
 *   warning (once per client) names both tests and the two fixes.
 * - `globalThis.__IOREDIS_MOCK_STREAMS_KEEP_CLIENTS__ = true` treats the clients created during
 *   tests as those of beforeAll: never closed by the lifecycle (their blocked calls stay blocked
 *   across the reset; the test file's own afterAll may still quit them). Keyspaces are still reset
 *   after each test.
 * - `globalThis.__IOREDIS_MOCK_STREAMS_KEEP_STATE__ = true` keeps keyspaces and clients between
 *   tests.
 *
 * Tests inside tests (node:test's `t.test()`) are tracked as a stack: a subtest's clients close
 * as a test's do (when the next test or subtest starts, or the file's tests are done), its parent's
 * likewise; keyspaces are reset when an outermost test
 * ends (not in the middle of its parent).
 */
import { onClientCreated } from '../adapter/client-registry';
import { CLOSE_NOW } from '../adapter/lifecycle';
import { markOrphan, onClosedUse, onSpin, orphanTestOf } from '../adapter/spin-guard';
import { type ServerState, type SettingsSnapshot, allKeyspaces, allServers, stopRunningScripts } from '../engine/registry';
import { closingForTestEnd, connectionClosedError } from '../engine/connection/order';
import type { Keyspace } from '../keyspace/keyspace';
import { globalClock } from '../clock/global-clock';
import { type StreamId, compareIds, formatId } from '../model/stream-id';
import { DEFAULT_REDIS_VERSION } from '../version';
import { streamsKeyspace } from '../index';

/** A runner's hooks, as its setup entry hands them over. */
export interface RunnerHooks {
  /** Register a hook run before each test (it gets the runner's test context, if any). */
  beforeEach(fn: (context?: unknown) => void): void;
  /** Register a hook run after each test. */
  afterEach(fn: (context?: unknown) => void): void;
  /** Register a hook run once the tests of the file (or the process) are done, if the runner has one. */
  afterAll?(fn: () => void): void;
  /** The name of the test a beforeEach hook runs for (from its context or the runner's state). */
  testName(context?: unknown): string | undefined;
}

const PREFIX = '[ioredis-mock-streams]';

interface TestRecord {
  name: string | undefined;
  clients: { disconnect(): void }[];
}

const keepState = () => Boolean((globalThis as Record<string, unknown>).__IOREDIS_MOCK_STREAMS_KEEP_STATE__);
const keepClients = () => Boolean((globalThis as Record<string, unknown>).__IOREDIS_MOCK_STREAMS_KEEP_CLIENTS__);

/** Tests running now, outermost first (more than one only for tests inside tests). */
const running: TestRecord[] = [];
/** Tests that ended, whose clients close once all their afterEach hooks have run. */
let ended: TestRecord[] = [];
/**
 * The XREAD calls still blocked across the last reset (clients created outside tests: a BullMQ
 * QueueEvents), by keyspace and stream key, with the ID each waits for entries after and the
 * test whose reset they survived. Checked when the next test ends (`warnUnreachedReaders`).
 */
let carriedReaders: { ks: WeakRef<Keyspace>; key: string; after: StreamId; test: string | undefined }[] = [];

/**
 * The commands waiting behind blocked calls (Connection.waiting: its length) when the outermost
 * test started: those were sent before it (beforeAll, module scope, an earlier test or file).
 */
let queuedAtStart = new Map<object, number>();
/** Orphaned clients whose use by a later test was already warned about. */
const warnedClosedUse = new WeakSet<object>();
/** The clients this lifecycle closed (not those their test had closed already). */
const closedByLifecycle = new WeakSet<object>();
/** The last test that started, and whether it has ended. */
let lastTest: string | undefined;
let lastTestEnded = false;
let listening = false;

/** Clients created outside any test with `streams` options: their configuration survives the reset. */
interface LastingClient {
  client: WeakRef<object>;
  clock?: unknown;
  redisVersion?: unknown;
}
let lasting: LastingClient[] = [];

/**
 * Each keyspace's clock and version when the outermost test started, where they are not the
 * defaults (set outside tests: module scope, beforeAll): given back after the test's reset.
 */
let outsideTests: { ks: WeakRef<Keyspace>; clock: Keyspace['clock'] | undefined; version: Keyspace['redisVersion'] | undefined }[] = [];

function recordOutsideConfiguration(): void {
  outsideTests = [];
  for (const ks of allKeyspaces()) {
    // only what was given for a database itself: one that follows db 0 follows it again after the reset
    const clock = ks.configuredClock;
    const version = ks.configuredVersion;
    if ((clock !== null && clock !== globalClock) || (version !== null && version !== DEFAULT_REDIS_VERSION)) {
      outsideTests.push({ ks: new WeakRef(ks), clock: clock ?? undefined, version: version ?? undefined });
    }
  }
}

/**
 * Each server's CONFIG and ACL users when the outermost test started (`test`: the number of that
 * test), given back after it; a server created during the test goes back to the defaults. The
 * snapshot of the test before is reused while nothing changed (ServerState.settingsSnapshot).
 */
const settingsAtStart = new WeakMap<ServerState, { snapshot: SettingsSnapshot; test: number }>();
let outermostTests = 0;

function recordSettings(): void {
  const test = ++outermostTests;
  for (const server of allServers()) {
    const previous = settingsAtStart.get(server);
    settingsAtStart.set(server, { snapshot: server.settingsSnapshot(previous?.snapshot), test });
  }
}

function restoreSettings(): void {
  for (const server of allServers()) {
    const atStart = settingsAtStart.get(server);
    if (atStart !== undefined && atStart.test === outermostTests) server.restoreSettings(atStart.snapshot);
    else server.config.reset(); // created during the test: the defaults (the ACL users with them)
  }
}

function reapplyOutsideConfiguration(): void {
  for (const o of outsideTests) {
    const ks = o.ks.deref();
    if (ks === undefined) continue;
    if (o.version !== undefined) ks.setRedisVersion(o.version);
    try {
      if (o.clock !== undefined) ks.setClock(o.clock);
    } catch {
      // a clock that no longer accepts timers, or calls blocked on the clock a test set: the
      // keyspace keeps the clock it has
    }
  }
}

/** The `streams` clock/version a client was created with, if any. */
function streamsOptionsOf(client: object): { clock?: unknown; redisVersion?: unknown } | undefined {
  const streams = (client as { options?: { streams?: { clock?: unknown; redisVersion?: unknown } } }).options?.streams;
  if (!streams || typeof streams !== 'object' || (streams.clock === undefined && streams.redisVersion === undefined)) return undefined;
  return streams;
}

/** Give the keyspaces of open lasting clients their creation configuration again (creation order). */
function reapplyLastingConfiguration(): void {
  lasting = lasting.filter((l) => {
    const client = l.client.deref() as { status?: string } | undefined;
    if (client === undefined || client.status === 'end') return false;
    let ks: ReturnType<typeof streamsKeyspace>;
    try {
      ks = streamsKeyspace(client as never);
      if (l.redisVersion !== undefined) ks.setRedisVersion(l.redisVersion as string);
    } catch {
      return false; // not a client of this copy of the package, or closed meanwhile
    }
    try {
      if (l.clock !== undefined) ks.setClock(l.clock as never);
    } catch {
      // calls blocked on a clock the test set: the keyspace keeps it (kept for the next reset)
    }
    return true;
  });
}

/** Start listening for clients and spins (once per module instance, however many setups ran). */
function listen(): void {
  if (listening) return;
  listening = true;
  onClientCreated((client) => {
    const test = running[running.length - 1];
    if (test !== undefined) test.clients.push(client as { disconnect(): void });
    else {
      const streams = streamsOptionsOf(client);
      if (streams) lasting.push({ client: new WeakRef(client), clock: streams.clock, redisVersion: streams.redisVersion });
    }
  });
  onClosedUse((client, command) => {
    const owner = orphanTestOf(client);
    const now = running[running.length - 1];
    if (owner === undefined || now === undefined || warnedClosedUse.has(client) || !closedByLifecycle.has(client)) return;
    warnedClosedUse.add(client);
    console.warn(
      `${PREFIX} during test "${now.name ?? '(unknown)'}", ${command.toUpperCase()} was sent to a client created during test "${owner}", ` +
        'which was closed when that test ended (the clients a test creates are closed after it), so it rejects with "Connection is closed.". ' +
        'A client several tests share (made on first use and kept in a module) should be created at module scope or in beforeAll, ' +
        'or set globalThis.__IOREDIS_MOCK_STREAMS_KEEP_CLIENTS__ = true to keep the clients tests create open as those of beforeAll. ' +
        'If it is a loop that outlived its test, stop it inside the test.',
    );
  });
  onSpin(({ client, commands, parked, sinceClosed }) => {
    const owner = orphanTestOf(client);
    if (owner !== undefined) {
      console.warn(
        `${PREFIX} a client created by test "${owner}" keeps sending commands after the test ended ` +
          `(${commands} ${sinceClosed ? 'since it was closed' : 'without letting the event loop turn'}): a loop outlived its test. The client was closed; ` +
          `${parked ? 'its commands no longer settle' : 'its commands now wait for the event loop'}. ` +
          'Stop the loop inside the test (e.g. a flag the loop checks, then await the loop).',
      );
    } else if (lastTest !== undefined && lastTestEnded) {
      console.warn(
        `${PREFIX} a client keeps sending commands after test "${lastTest}" ended (${commands} without letting ` +
          'the event loop turn): a loop outlived its test; its commands now wait for the event loop. ' +
          'Stop the loop inside the test (e.g. a flag the loop checks, then await the loop).',
      );
    }
  });
}

/** The engine connection of a fake ioredis client (lib/adapter/lifecycle.ts `CONN`). */
const CONN = Symbol.for('ioredis-mock-streams.connection');
/** A fake Cluster's node connections (lib/cluster/in-process.ts). */
const NODE_CONNECTIONS = Symbol.for('ioredis-mock-streams.nodeConnections');

/** The engine connections of the clients the tests created (a Cluster: its nodes'). */
function connectionsOf(tests: TestRecord[]): Set<object> {
  const out = new Set<object>();
  for (const test of tests) {
    for (const client of test.clients as unknown as Record<symbol, unknown>[]) {
      const conn = client[CONN];
      if (typeof conn === 'object' && conn !== null) out.add(conn);
      const nodes = client[NODE_CONNECTIONS];
      if (typeof nodes === 'function') for (const c of (nodes as () => Iterable<object>).call(client)) out.add(c);
    }
  }
  return out;
}

/** The command a connection is blocked in (CLIENT LIST `cmd`), as the warning names it. */
function blockedCommandOf(conn: object): string {
  const name = (conn as { lastCommand?: unknown }).lastCommand;
  return typeof name === 'string' && name !== '' && name !== 'NULL' ? name.toUpperCase() : 'a blocking command';
}

/** Close the clients of the tests that ended (all their hooks have run by now). */
function closeClientsOfEndedTests(): void {
  const tests = ended;
  ended = [];
  for (const test of tests) {
    for (const client of test.clients) {
      markOrphan(client, test.name ?? '(unknown)');
      // the test closed it itself (quit(), disconnect()): a later use is the test's own doing
      if ((client as { status?: unknown }).status !== 'end') closedByLifecycle.add(client);
      try {
        // what this close rejects is the setup's doing, not the test's (no unhandled rejection)
        closingForTestEnd(() => {
          client.disconnect();
          // ended now (not when its socket would close): the next test sees it `end`
          (client as { [CLOSE_NOW]?: () => void })[CLOSE_NOW]?.();
        });
      } catch {
        // already closed
      }
    }
  }
}

function testStarts(name: string | undefined): void {
  if (keepState()) ended = [];
  else closeClientsOfEndedTests();
  if (running.length === 0 && !keepState()) {
    recordOutsideConfiguration();
    recordSettings();
    queuedAtStart = queuedBehindBlockedCalls();
  }
  running.push({ name, clients: [] });
  lastTest = name;
  lastTestEnded = false;
}

function testEnds(): void {
  const test = running.pop();
  lastTestEnded = true;
  if (test === undefined || keepState()) return;
  // kept: as clients of beforeAll, left to the test file (their blocked calls stay blocked)
  if (!keepClients()) ended.push(test);
  if (running.length > 0) return; // a test inside a test: its parent goes on with the keyspaces
  // the blocked calls of the clients this test (and its subtests) created: they are closed once
  // its afterEach hooks ran, so the reset ends their reads as that close would; the blocked calls
  // of clients created outside tests (a BullMQ Worker or QueueEvents made in beforeAll) stay
  // blocked across the reset, as across a FLUSHALL on a server
  const own = connectionsOf(ended);
  const leaked: string[] = [];
  for (const ks of allKeyspaces()) {
    for (const client of ks.blocking.blockedClients()) {
      if (!own.has(client)) continue;
      leaked.push(blockedCommandOf(client));
      // rejections of the setup's doing (SETUP_CLOSE): no unhandled rejection for the test
      closingForTestEnd(() => {
        ks.blocking.releaseClient(client, connectionClosedError());
        // what the client sent behind the blocked call is rejected too, as its close rejects it:
        // run after the reset, it would write into the next test's keyspace
        (client as { dropWaiting?: () => void }).dropWaiting?.();
      });
    }
  }
  let scripts = 0;
  for (const server of allServers()) if (server.busyScript !== null) scripts++;
  if (scripts > 0) {
    console.warn(
      `${PREFIX} test "${test.name ?? '(unknown)'}" ended with ${scripts} script${scripts === 1 ? '' : 's'} still running (EVAL/FCALL in slices); ` +
        'the reset after it stopped them, their callers rejecting with an error. End long scripts inside the test (SCRIPT KILL / FUNCTION KILL) or fix the loop.',
    );
  }
  if (leaked.length > 0) {
    const n = leaked.length;
    console.warn(
      `${PREFIX} test "${test.name ?? '(unknown)'}" ended with ${n} blocked call${n === 1 ? '' : 's'} ` +
        `(BLPOP, BZPOPMIN, XREAD … BLOCK and the like) of clients it created: ${[...new Set(leaked)].join(', ')}. ` +
        'The test\'s clients are closed once it ends, so the reset rejected them with "Connection is closed.". ' +
        'Await or stop blocking reads inside the test, or create the clients that several tests share ' +
        '(a worker, a QueueEvents) at module scope or in beforeAll: their blocked reads stay blocked across tests. ' +
        '(An afterEach at the top of the test file that stops a worker runs after this reset under jest and node:test: declare it inside a describe.)',
    );
  }
  warnCommandsBehindSharedBlockedCalls(test.name, own);
  warnUnreachedReaders(test.name);
  carriedReaders = readersCarriedAcross(test.name);
  stopRunningScripts();
  // the keys go as with FLUSHALL: other blocked calls stay blocked (XREADGROUP fails, its group gone)
  for (const ks of allKeyspaces()) ks.restoreDefaults({ keepBlocked: true, keepConfig: true });
  restoreSettings();
  reapplyLastingConfiguration();
  reapplyOutsideConfiguration();
}

/** Each blocked connection with the commands waiting behind its blocked call (Connection.waiting), if any. */
function* queuesBehindBlockedCalls(): Iterable<[client: object, waiting: unknown[]]> {
  for (const ks of allKeyspaces()) {
    for (const client of ks.blocking.blockedClients()) {
      const waiting = (client as { waiting?: unknown }).waiting;
      if (Array.isArray(waiting) && waiting.length > 0) yield [client, waiting];
    }
  }
}

/** Each such queue with its length now. */
function queuedBehindBlockedCalls(): Map<object, number> {
  return new Map(Array.from(queuesBehindBlockedCalls(), ([, waiting]) => [waiting, waiting.length]));
}

/**
 * Commands sent during this test that wait behind a blocked call of a client created outside
 * tests (module scope, beforeAll): that connection runs them only once the call returns, as a
 * server serves one client's commands in order, so a test awaiting one hung until its timeout with
 * nothing saying why. Warns naming the test and the blocked command; the commands stay queued (the
 * client is not the test's to close). What was queued before the test started is not its doing.
 */
function warnCommandsBehindSharedBlockedCalls(testName: string | undefined, own: Set<object>): void {
  for (const [client, waiting] of queuesBehindBlockedCalls()) {
    if (own.has(client)) continue;
    const n = waiting.length - (queuedAtStart.get(waiting) ?? 0);
    if (n <= 0) continue;
    console.warn(
      `${PREFIX} test "${testName ?? '(unknown)'}" ended with ${n} call${n === 1 ? '' : 's'} sent during it (a pipeline or MULTI counts as one) waiting behind a blocked ` +
        `${blockedCommandOf(client)} of a client created outside tests (module scope or beforeAll): a connection serves its commands in order, ` +
        "as on a server, so they run only once that call returns — after this reset, in the next test's keyspace, or never if nothing " +
        'serves a BLOCK 0 — and a test awaiting one times out. Give blocking reads a client of their own (e.g. client.duplicate()), or end ' +
        'the blocked call within the test (a write it waits for).',
    );
  }
  queuedAtStart = new Map();
}

/**
 * The blocked XREAD calls that outlive this test's reset (clients created outside tests): each
 * stream key with the ID the call waits for entries after.
 */
function readersCarriedAcross(testName: string | undefined): typeof carriedReaders {
  const out: typeof carriedReaders = [];
  // (the test's own reads were released above: what still waits belongs to clients made outside tests)
  for (const ks of allKeyspaces()) {
    for (const [key, requests] of ks.blocking.waitingKeys()) {
      for (const request of requests) {
        const after = request.waitsAfter?.get(key);
        if (after !== undefined) out.push({ ks: new WeakRef(ks), key, after, test: testName });
      }
    }
  }
  return out;
}

/**
 * A stream written during this test (emptied by the last reset, so every entry is this test's)
 * whose first entry is not after the ID a read carried across that reset waits after: that reader
 * skips those entries (all of them while it still waits after that ID; those up to it if a later
 * entry served it). Redis makes `*` IDs from the clock, so
 * this happens when the clock went back across the reset (fake timers started at the same time in
 * every test) — a real server's IDs only grow. Warns once per stream key and test.
 */
function warnUnreachedReaders(testName: string | undefined): void {
  const carried = carriedReaders;
  carriedReaders = [];
  const warned = new Set<string>();
  for (const c of carried) {
    const ks = c.ks.deref();
    if (ks === undefined || warned.has(c.key)) continue;
    const stream = ks.store.peekRaw(c.key) as { length?: unknown; firstId?: StreamId } | undefined;
    if (typeof stream !== 'object' || stream === null || typeof stream.length !== 'number' || stream.length === 0 || stream.firstId === undefined) continue;
    const first = stream.firstId;
    if (compareIds(first, c.after) > 0) continue;
    warned.add(c.key);
    console.warn(
      `${PREFIX} test "${testName ?? '(unknown)'}" wrote entries to stream "${c.key}" (the first ${formatId(first)}) that an XREAD blocked ` +
        `since before the reset after test "${c.test ?? '(unknown)'}" skips: it waits for entries after ${formatId(c.after)}, an ID from before that reset ` +
        '(its client was created outside tests, e.g. a BullMQ QueueEvents in beforeAll). XADD * makes IDs from the clock: did it ' +
        'go back across the reset (fake timers started at the same time in each test)? Keep time moving forward across tests ' +
        "(e.g. a later `now` in each test) and IDs given explicitly above the earlier ones, or create the reader in each test.",
    );
  }
}

/**
 * Register the per-test behaviour (see the module comment) with a runner's hooks. Call it once
 * per test file (where the runner scopes hooks to a file) or once per process.
 */
export function installTestLifecycle(hooks: RunnerHooks): void {
  listen();
  hooks.beforeEach((context) => testStarts(hooks.testName(context)));
  hooks.afterEach(() => testEnds());
  hooks.afterAll?.(() => {
    if (keepState()) ended = [];
    else closeClientsOfEndedTests();
  });
}
