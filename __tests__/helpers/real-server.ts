/**
 * The same script on the fake and on a real server: `itOnServer` runs a test with a client of
 * real ioredis (the major the suite runs on: 6, or 5 under test:ioredis5) connected to the
 * server at REDIS_URL, in db 12 (keys named by the test, deleted by its script). Without
 * REDIS_URL the test is skipped and a warning says which comparison was not made.
 *
 * The families' differential tests (command sequences on a fresh engine connection and on both
 * real servers) share the rest: `describeOnRealServers`, `connectReal` (each file its own db),
 * `expectSameOutcomes`, `expectSameDirty` and `sequenceRows`.
 */
import { CommandError } from '../../lib/errors';
import { toResp2Plain } from '../../lib/reply/reply';

/* eslint-disable @typescript-eslint/no-explicit-any */
export type AnyClient = Record<string, any>;

const warned = new Set<string>();

/**
 * `it(title)` with a real ioredis client (`options` added to `{ db: 12 }`) on REDIS_URL, closed
 * after `body`; skipped with a visible warning naming `what` when REDIS_URL is not set.
 */
export function itOnServer(title: string, what: string, options: Record<string, unknown>, body: (client: AnyClient) => Promise<void>): void {
  const url = process.env.REDIS_URL;
  if (!url) {
    if (!warned.has(what)) console.warn(`REDIS_URL not set: ${what} on real ioredis skipped`);
    warned.add(what);
    // skip: no real server URL (REDIS_URL / REDIS_UNSTABLE_URL): nothing to compare with; CI sets both
    it.skip(title, () => undefined);
    return;
  }
  it(title, async () => {
    const RealRedis = jest.requireActual('ioredis');
    const client = new (RealRedis.default ?? RealRedis)(url, { db: 12, ...options }) as AnyClient;
    try {
      await body(client);
    } finally {
      client.disconnect();
    }
  });
}

/** Major version of the ioredis the suite runs on (6, or 5 under test:ioredis5). */
export const ioredisMajor = Number((require('ioredis/package.json') as { version: string }).version.split('.')[0]);
/** Exact version of that ioredis (6.0.0, 6.1.0 under IOREDIS_VERSION=6.1, 5.11.1). */
export const ioredisVersion = (require('ioredis/package.json') as { version: string }).version;

/**
 * The client setups a reply-shape script runs under, as `[title, options, numbers]`: default
 * options, and on ioredis 6 also `replyMapping: 'resp3'` (numbers: doubles arrive as numbers)
 * and `protocol: 2`.
 */
export function replyShapeCases(): [string, Record<string, unknown>, boolean][] {
  const cases: [string, Record<string, unknown>, boolean][] = [['default options', {}, false]];
  if (ioredisMajor === 6) cases.push(["replyMapping 'resp3'", { replyMapping: 'resp3' }, true], ['protocol 2', { protocol: 2 }, false]);
  return cases;
}

/**
 * An integer reply's decimal text as the installed ioredis reads it: both parsers add the digits
 * up in doubles, ioredis 6's decoder as `n * 10 + byte - 48`, ioredis 5's redis-parser as
 * `n * 10 + (byte - 48)`, so past 2^53 the number can differ from Number(text) and between the
 * two (9223372036854775806 reads …776000 and …778000).
 */
export function integerAsRead(text: string): number {
  let n = 0;
  // ioredis 6.1's decoder subtracts first too (n * 10 + (byte - 48)), as redis-parser does
  const late = ioredisMajor >= 6 && ioredisVersion.startsWith('6.0.');
  for (const c of text.replace('-', '')) n = late ? n * 10 + c.charCodeAt(0) - 48 : n * 10 + (c.charCodeAt(0) - 48);
  return text.startsWith('-') ? -n : n;
}

/**
 * A RESP3 double's text (`,<text>\r\n`) as ioredis 6 with `replyMapping: 'resp3'` delivers it:
 * decoded by the installed ioredis 6's own RESP3 decoder (ioredis/built/resp/decoder), not a
 * copy of its arithmetic — the oracle the fake's reading (lib/adapter/encoding.ts
 * `doubleAsRead`) is checked against. ioredis 6 only (ioredis 5 has no RESP3 decoder).
 */
export function doubleAsIoredisReads(text: string): number {
  const { Decoder } = jest.requireActual('ioredis/built/resp/decoder') as { Decoder: new (config: Record<string, unknown>) => { write(chunk: Buffer): void } };
  let value: unknown;
  const decoder = new Decoder({ onReply: (v: unknown) => (value = v), onErrorReply: () => undefined, onPush: () => undefined, getTypeMapping: () => ({}) });
  decoder.write(Buffer.from(`,${text}\r\n`, 'latin1'));
  if (typeof value !== 'number') throw new Error(`ioredis decoded ,${text} as ${String(value)}`);
  return value;
}

/**
 * One script, two tests: `it(title)` runs `script(client, key)` on a fake client (`port`,
 * `options`) and `itOnServer` runs it with real ioredis on REDIS_URL (key suffixed with the
 * process id), each expecting `expected`.
 */
export function itOnFakeAndServer(
  title: string,
  what: string,
  setup: { port: number; key: string; options?: Record<string, unknown> },
  script: (client: AnyClient, key: string) => Promise<unknown>,
  expected: unknown,
): void {
  const options = setup.options ?? {};
  it(title, async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const Fake = require('ioredis-mock-streams') as new (options: object) => AnyClient;
    const client = new Fake({ port: setup.port, ...options });
    try {
      expect(await script(client, setup.key)).toEqual(expected);
    } finally {
      client.disconnect();
    }
  });
  itOnServer('as real ioredis on redis-server', what, options, async (client) => {
    expect(await script(client, `${setup.key}:${process.pid}`)).toEqual(expected);
  });
}

// ---------------------------------------------------------------------------------------------
// Differential sequences: the same commands on a fresh engine connection and on a real server

/** A command's outcome on either side: its reply, plain, or its error text. */
export type Outcome = { ok: unknown } | { err: string };

/** A real server these tests compare with: the URL's variable, the version emulated for it, its URL. */
export interface RealServer {
  readonly envName: 'REDIS_URL' | 'REDIS_UNSTABLE_URL';
  readonly version: '7.0' | '8.0';
  readonly url: string;
}

/**
 * One `describe` per real server: `REDIS_URL` (redis-server 7.0.15, emulated 7.0) and
 * `REDIS_UNSTABLE_URL` (the post-7.4 build, emulated 8.0), titled `<subject> answer as <env>
 * does (emulated <version>)`. A server whose URL is unset is skipped with a warning naming
 * `subject` (CI sets both).
 */
export function describeOnRealServers(subject: string, body: (server: RealServer) => void, verb = 'answer'): void {
  for (const [envName, version] of [
    ['REDIS_URL', '7.0'],
    ['REDIS_UNSTABLE_URL', '8.0'],
  ] as const) {
    const url = process.env[envName];
    // eslint-disable-next-line no-console
    if (!url) console.warn(`${envName} not set: ${subject} not checked against a real server`);
    // skip: no server URL (REDIS_URL / REDIS_UNSTABLE_URL): skipped with the warning printed above; CI sets both
    (url ? describe : describe.skip)(`${subject} ${verb} as ${envName} does (emulated ${version})`, () => body({ envName, version, url: url ?? '' }));
  }
}

/**
 * A connected real ioredis client (RESP2, no retries, no CLIENT SETINFO) on database `db`,
 * flushed unless `flush` is false (a test that writes no key). `options` are added (e.g.
 * `stringNumbers: true`).
 */
export async function connectReal(url: string, db: number, options: Record<string, unknown> = {}, flush = true): Promise<AnyClient> {
  const RealRedis = jest.requireActual('ioredis');
  const client = new (RealRedis.default ?? RealRedis)(url, { lazyConnect: true, enableReadyCheck: false, maxRetriesPerRequest: 0, disableClientInfo: true, protocol: 2, ...options }) as AnyClient;
  await client.connect();
  await client.call('SELECT', String(db));
  if (flush) await client.call('FLUSHDB');
  return client;
}

/** A reply made comparable (`argv`: the command that answered it). */
export type Plain = (reply: unknown, argv: readonly string[]) => unknown;

/** Replies as byte strings: Buffers as latin1 text, integers as their exact decimal text (for clients with stringNumbers). */
export function bytesReply(v: unknown): unknown {
  if (Buffer.isBuffer(v)) return v.toString('latin1');
  if (typeof v === 'bigint' || typeof v === 'number') return String(v);
  if (Array.isArray(v)) return v.map((x) => bytesReply(x));
  return v;
}

/** Replies as byte strings with integers as numbers: Buffers as latin1 text, bigints as numbers (as ioredis reads them). */
export function bytesNumbersReply(v: unknown): unknown {
  if (Buffer.isBuffer(v)) return v.toString('latin1');
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map((x) => bytesNumbersReply(x));
  return v;
}

/** A command for a test's failure output: each argument cut at 40 characters. */
export const cutArgs = (argv: readonly string[]): string[] => argv.map((a) => a.slice(0, 40));

/** `argv` on the real client (arguments sent as bytes, reply read as Buffers), made plain by `plain`. */
export async function realOutcome(client: AnyClient, argv: readonly string[], plain: Plain = bytesReply): Promise<Outcome> {
  try {
    return { ok: plain(await client.callBuffer(argv[0], ...argv.slice(1).map((a) => Buffer.from(a, 'latin1'))), argv) };
  } catch (e) {
    return { err: (e as Error).message };
  }
}

/** `argv` on an engine connection, its RESP2 reply made plain by `plain`; a library error is marked `(library)`. */
export async function fakeOutcome(fake: { execute(argv: string[]): unknown }, argv: readonly string[], plain: Plain = bytesReply): Promise<Outcome> {
  try {
    return { ok: plain(toResp2Plain((await fake.execute([...argv])) as never), argv) };
  } catch (e) {
    return { err: e instanceof CommandError ? e.message : `(library) ${(e as Error).message}` };
  }
}

/**
 * Run `steps` on both sides, one command at a time (the real one first), expecting the same
 * outcome for each, shown with `label(argv)`. `skip(argv, expected)` leaves a step's comparison
 * out (it still runs on both).
 */
export async function expectSameOutcomes(
  real: AnyClient,
  fake: { execute(argv: string[]): unknown },
  steps: readonly (readonly string[])[],
  options: { plainReal?: Plain; plainFake?: Plain; label?: (argv: readonly string[]) => unknown; skip?: (argv: readonly string[], expected: Outcome) => boolean } = {},
): Promise<void> {
  const label = options.label ?? ((argv) => argv);
  for (const argv of steps) {
    const expected = await realOutcome(real, argv, options.plainReal);
    const got = await fakeOutcome(fake, argv, options.plainFake);
    if (options.skip?.(argv, expected)) continue;
    expect({ argv: label(argv), ...got }).toEqual({ argv: label(argv), ...expected });
  }
}

const dirtyIn = (info: string) => Number(/rdb_changes_since_last_save:(\d+)/.exec(info)?.[1]);

/**
 * INFO's rdb_changes_since_last_save (server.dirty) on both sides before `body`, then expects
 * both to have grown by the same count.
 */
export async function expectSameDirty(real: AnyClient, fake: { execute(argv: string[]): unknown }, body: () => Promise<void>): Promise<void> {
  const realDirty = async () => dirtyIn(String(await real.call('INFO', 'persistence')));
  const fakeDirty = async () => dirtyIn(String(toResp2Plain((await fake.execute(['INFO', 'persistence'])) as never)));
  const [realBefore, fakeBefore] = [await realDirty(), await fakeDirty()];
  await body();
  const realChanges = (await realDirty()) - realBefore;
  const fakeChanges = (await fakeDirty()) - fakeBefore;
  expect({ dirty: fakeChanges }).toEqual({ dirty: realChanges });
}

/** `it.each` rows of numbered sequences: `[index, title, sequence]`, the title from `text` of each command, cut at `max`. */
export function sequenceRows<T>(sequences: readonly T[][], text: (step: T) => string = (s) => (s as unknown as string[]).join(' '), max = 120): [number, string, T[]][] {
  return sequences.map((seq, i) => [i, seq.map(text).join(' | ').slice(0, max), seq]);
}

/**
 * The keyspace events of db 9 on the real server at `url` while `steps` run there with
 * `notify-keyspace-events` set to `flags` (`channel message` strings, in order); each step's
 * error is ignored when `ignoreErrors`. The server's flags go back to '' and db 9 is flushed.
 * `afterSet` runs once the flags are set (e.g. to check CONFIG GET).
 */
export async function realKeyspaceEvents(
  url: string,
  flags: string,
  steps: readonly string[][],
  options: { ignoreErrors?: boolean; afterSet?: (real: AnyClient) => Promise<void> } = {},
): Promise<string[]> {
  const real = await connectReal(url, 9);
  const realSub = await connectReal(url, 9, {}, false);
  const events: string[] = [];
  realSub.on('pmessage', (_p: string, channel: string, message: string) => events.push(`${channel} ${message}`));
  try {
    await real.call('CONFIG', 'SET', 'notify-keyspace-events', flags);
    await options.afterSet?.(real);
    await realSub.psubscribe('__key*@9__:*');
    for (const step of steps) {
      const sent = real.call(step[0], ...step.slice(1));
      await (options.ignoreErrors ? sent.catch(() => undefined) : sent);
    }
    await real.call('PING');
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    await real.call('CONFIG', 'SET', 'notify-keyspace-events', '');
    await real.call('FLUSHDB');
    real.disconnect();
    realSub.disconnect();
  }
  return events;
}
