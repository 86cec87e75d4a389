/**
 * keyPrefix follows the command table of the ioredis that is installed, not a table pinned by
 * this package: ioredis 6.0.0 (@ioredis/commands 2.0.0) prefixes the keys of XGROUP and XINFO
 * subcommands and XACKDEL; ioredis 5.11 (1.10.0) prefixes none of those, but XNACK and XDELEX.
 *
 * Truth is real ioredis: what each major puts on the wire (a loopback RESP listener records it;
 * prefixing is client-side, so this covers commands redis-server 7.0 lacks), and, with REDIS_URL,
 * the keys a sequence of 7.0 commands leaves on a real server compared with the fake's.
 * Both majors run in one process: `ioredis` (the dev dependency, 6.0.0) and `ioredis5`
 * (an npm alias of ioredis 5.11.1); the fake is pointed at each one's table in turn.
 */
import { dirname } from 'node:path';
import Redis, { type RedisVersion, type StreamsMockOptions } from 'ioredis-mock-streams';
import { commandTable, commandTableAt, useCommandTable } from '../../lib/adapter/command-table';
import { applyKeyPrefix } from '../../lib/adapter/keys';
import { fakeVersionFor } from '../differential/differential';
import { startCapture, type Capture } from '../helpers/resp-capture';

interface RealClient {
  call(...args: unknown[]): Promise<unknown>;
  connect(): Promise<void>;
  disconnect(): void;
  on(event: string, fn: (...a: unknown[]) => void): unknown;
}
type RealCtor = new (...args: unknown[]) => RealClient;

const MAJORS = ['ioredis', 'ioredis5'].map((name) => {
  const dir = dirname(require.resolve(`${name}/package.json`));
  return { name, dir, table: commandTableAt(dir), Client: require(name) as RealCtor };
});

/** Command shapes (name first) and which argument positions (after the name) are keys. */
const SHAPES: { argv: string[]; keys: { 5: number[]; 6: number[] } }[] = [
  { argv: ['XADD', 's', '1-0', 'f', 'v'], keys: { 5: [0], 6: [0] } },
  { argv: ['XGROUP', 'CREATE', 's', 'g', '0', 'MKSTREAM'], keys: { 5: [], 6: [1] } },
  { argv: ['XGROUP', 'SETID', 's', 'g', '0'], keys: { 5: [], 6: [1] } },
  { argv: ['XGROUP', 'CREATECONSUMER', 's', 'g', 'c'], keys: { 5: [], 6: [1] } },
  { argv: ['XGROUP', 'DELCONSUMER', 's', 'g', 'c'], keys: { 5: [], 6: [1] } },
  { argv: ['XGROUP', 'DESTROY', 's', 'g'], keys: { 5: [], 6: [1] } },
  { argv: ['XGROUP', 'HELP'], keys: { 5: [], 6: [] } },
  { argv: ['xgroup', 'create', 's', 'g', '$'], keys: { 5: [], 6: [1] } },
  { argv: ['XINFO', 'STREAM', 's'], keys: { 5: [], 6: [1] } },
  { argv: ['XINFO', 'STREAM', 's', 'FULL', 'COUNT', '1'], keys: { 5: [], 6: [1] } },
  { argv: ['XINFO', 'GROUPS', 's'], keys: { 5: [], 6: [1] } },
  { argv: ['XINFO', 'CONSUMERS', 's', 'g'], keys: { 5: [], 6: [1] } },
  { argv: ['XINFO', 'HELP'], keys: { 5: [], 6: [] } },
  { argv: ['XACKDEL', 's', 'g', 'KEEPREF', 'IDS', '1', '1-0'], keys: { 5: [], 6: [0] } },
  { argv: ['XNACK', 's', 'g', 'FAIL', 'IDS', '1', '1-0'], keys: { 5: [0], 6: [0] } },
  { argv: ['XDELEX', 's', 'IDS', '1', '1-0'], keys: { 5: [0], 6: [0] } },
  { argv: ['XREAD', 'COUNT', '1', 'STREAMS', 's', 't', '0', '0'], keys: { 5: [3, 4], 6: [3, 4] } },
  { argv: ['XREAD', 'BLOCK', '0', 'STREAMS', 's', '$'], keys: { 5: [3], 6: [3] } },
  { argv: ['XREADGROUP', 'GROUP', 'g', 'c', 'COUNT', '2', 'STREAMS', 's', 't', '>', '>'], keys: { 5: [6, 7], 6: [6, 7] } },
  { argv: ['XACK', 's', 'g', '1-0'], keys: { 5: [0], 6: [0] } },
  { argv: ['XAUTOCLAIM', 's', 'g', 'c', '0', '0-0'], keys: { 5: [0], 6: [0] } },
  { argv: ['XCLAIM', 's', 'g', 'c', '0', '1-0'], keys: { 5: [0], 6: [0] } },
  { argv: ['XPENDING', 's', 'g', '-', '+', '10'], keys: { 5: [0], 6: [0] } },
  { argv: ['XSETID', 's', '1-0'], keys: { 5: [0], 6: [0] } },
  { argv: ['XTRIM', 's', 'MAXLEN', '0'], keys: { 5: [0], 6: [0] } },
  { argv: ['XDEL', 's', '1-0'], keys: { 5: [0], 6: [0] } },
  { argv: ['XRANGE', 's', '-', '+'], keys: { 5: [0], 6: [0] } },
];

const PREFIX = 'p:';

function expectedArgs(argv: string[], keys: number[]): string[] {
  return argv.slice(1).map((a, i) => (keys.includes(i) ? PREFIX + a : a));
}

afterAll(() => useCommandTable(undefined));

describe.each(MAJORS)('keyPrefix under $name ($table.source)', ({ dir, table, Client }) => {
  const major = Number(table.ioredisVersion.split('.')[0]) as 5 | 6;
  let capture: Capture;
  let real: RealClient;

  beforeAll(async () => {
    capture = await startCapture();
    real = new Client({ port: capture.port, host: '127.0.0.1', keyPrefix: PREFIX, lazyConnect: true, enableReadyCheck: false, maxRetriesPerRequest: 0, protocol: 2 });
    real.on('error', () => undefined);
    await real.connect();
  });
  afterAll(async () => {
    real.disconnect();
    await capture.close();
  });
  beforeEach(() => useCommandTable(table));

  it('is the table of that ioredis, resolved from its own folder', () => {
    expect(table.source).toMatch(new RegExp(`^ioredis ${major}\\.`));
    expect(require(`${dir}/package.json`).version).toBe(table.ioredisVersion);
    useCommandTable(undefined);
    expect(commandTable().ioredisVersion).toBe(require('ioredis/package.json').version);
  });

  it.each(SHAPES)('$argv.0 $argv.1: real ioredis sends the documented keys prefixed, and the fake prefixes the same ones', async ({ argv, keys }) => {
    const before = capture.commands.length;
    await real.call(argv[0], ...argv.slice(1)).catch(() => undefined);
    const sent = capture.commands.slice(before).find((c) => c[0].toUpperCase() === argv[0].toUpperCase());
    expect(sent?.slice(1)).toEqual(expectedArgs(argv, keys[major]));
    expect(applyKeyPrefix(argv[0], argv.slice(1), PREFIX)).toEqual(expectedArgs(argv, keys[major]));
  });
});

const REDIS_URL = process.env.REDIS_URL;
/** Database reserved for this test on the REDIS_URL server. */
const DB = 10;
if (!REDIS_URL) console.warn('REDIS_URL not set: keyPrefix checks against a real server skipped');

/** A sequence of commands redis-server 7.0 has (no idle times), through a client with keyPrefix `p:`. */
const SEQUENCE: string[][] = [
  ['XADD', 's', '1-0', 'f', 'v'],
  ['XGROUP', 'CREATE', 's', 'g', '0', 'MKSTREAM'],
  ['XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', 's', '>'],
  ['XGROUP', 'CREATECONSUMER', 's', 'g', 'c2'],
  ['XINFO', 'GROUPS', 's'],
  ['XINFO', 'STREAM', 's'],
  ['XREAD', 'STREAMS', 's', '0'],
  ['XGROUP', 'SETID', 's', 'g', '$'],
  ['XADD', 't', '1-0', 'f', 'v'],
  ['XGROUP', 'DESTROY', 't', 'g'],
];

async function outcome(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    (reply) => ({ reply }),
    (err: Error) => ({ error: err.message }),
  );
}

// skip: no server URL (REDIS_URL): the real-server comparison needs one; CI sets it
(REDIS_URL ? describe.each(MAJORS) : describe.skip.each(MAJORS))('keyPrefix on a real server: $name', ({ table, Client }) => {
  afterAll(() => useCommandTable(undefined));

  it('leaves the same keys and answers the same as the fake with that ioredis table', async () => {
    const url = new URL(REDIS_URL!);
    url.pathname = `/${DB}`;
    const opts = { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, protocol: 2 };
    const realPrefixed = new Client(url.toString(), { ...opts, keyPrefix: PREFIX });
    const realPlain = new Client(url.toString(), opts);
    await realPrefixed.connect();
    await realPlain.connect();
    useCommandTable(table);
    const info = String(await realPlain.call('INFO', 'server'));
    const redisVersion = (fakeVersionFor(/redis_version:(\S+)/.exec(info)?.[1] ?? '') ?? undefined) as RedisVersion | undefined;
    const fakeOpts = { port: 39_000 + Number(table.ioredisVersion.split('.')[0]), protocol: 2, streams: { redisVersion } } as StreamsMockOptions;
    const fakePrefixed = new Redis({ ...fakeOpts, keyPrefix: PREFIX });
    const fakePlain = new Redis(fakeOpts);
    try {
      await realPlain.call('FLUSHDB');
      await fakePlain.flushdb();
      for (const argv of SEQUENCE) {
        const r = await outcome(realPrefixed.call(argv[0], ...argv.slice(1)));
        const f = await outcome(fakePrefixed.call(argv[0], ...argv.slice(1)));
        expect({ argv, outcome: f }).toEqual({ argv, outcome: r });
      }
      const realKeys = ((await realPlain.call('KEYS', '*')) as string[]).sort();
      expect((await fakePlain.keys('*')).sort()).toEqual(realKeys);
      expect(realKeys).toEqual(Number(table.ioredisVersion.split('.')[0]) >= 6 ? ['p:s', 'p:t'] : ['p:s', 'p:t', 's']);
    } finally {
      realPrefixed.disconnect();
      realPlain.disconnect();
      fakePrefixed.disconnect();
      fakePlain.disconnect();
    }
  });
});
