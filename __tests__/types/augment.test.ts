/**
 * lib/ioredis-augment.ts: code that writes `import Redis from 'ioredis'` (mocked with this
 * package) type-checks with the `streams` option and the `…Buffer` stream twins, and those
 * methods really answer with Buffers.
 *
 * This file is compiled by `npm run typecheck` (tsconfig.test.json), so the calls below are
 * themselves the type test. Because that project includes every file of lib/, the last block
 * also compiles small programs with the TypeScript API to check that a user who imports
 * nothing but 'ioredis-mock-streams' gets the additions, and one who does not import it
 * does not.
 */
import * as path from 'node:path';
import * as ts from 'typescript';
import Redis, { type RedisOptions } from 'ioredis';
import { createFakeClock, resetAllKeyspaces, streamsKeyspace } from 'ioredis-mock-streams';

jest.mock('ioredis', () => require('ioredis-mock-streams'));

/** True when A and B are the same type. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** Compiles only when T is `true`. */
function assertType<T extends true>(): T | void {
  return undefined;
}

const b = (s: string) => Buffer.from(s);

let port = 21_000;
const clients: Redis[] = [];
function client(options: RedisOptions = {}): Redis {
  const redis = new Redis({ port: port++, ...options });
  clients.push(redis);
  return redis;
}

afterEach(() => {
  for (const c of clients.splice(0)) c.disconnect();
  resetAllKeyspaces();
});

describe('the streams option on ioredis options', () => {
  it('is accepted by new Redis() and configures the keyspace', async () => {
    const redis = new Redis({ port: port++, streams: { redisVersion: '7.0' } });
    clients.push(redis);
    expect(streamsKeyspace(redis).redisVersion).toBe('7.0');
    // 7.0 has no XREADGROUP CLAIM.
    await expect(redis.call('XREADGROUP', 'GROUP', 'g', 'c', 'CLAIM', '10', 'STREAMS', 's', '>')).rejects.toThrow(/syntax error/);
  });

  it('takes a clock, also through a RedisOptions variable', async () => {
    const options: RedisOptions = { streams: { clock: createFakeClock({ now: Date.UTC(2024, 0, 1) }) } };
    const redis = client(options);
    expect(await redis.xadd('s', '*', 'f', 'v')).toBe('1704067200000-0');
  });
});

describe('Buffer twins of the stream commands', () => {
  async function withPending(): Promise<Redis> {
    const redis = client();
    await redis.xgroup('CREATE', 'jobs', 'g', '$', 'MKSTREAM');
    await redis.xadd('jobs', '1-0', 'job', 'a');
    await redis.xadd('jobs', '2-0', 'job', 'b');
    return redis;
  }

  it('xreadgroupBuffer returns keys, IDs and fields as Buffers, and null on a BLOCK timeout', async () => {
    const clock = createFakeClock({ now: 1_000 });
    const redis = client({ streams: { clock } });
    await redis.xgroup('CREATE', 'jobs', 'g', '$', 'MKSTREAM');
    await redis.xadd('jobs', '1-0', 'job', 'a');

    const reply = await redis.xreadgroupBuffer('GROUP', 'g', 'c', 'COUNT', 10, 'STREAMS', 'jobs', '>');
    assertType<Equal<typeof reply, [key: Buffer, entries: [id: Buffer, fields: Buffer[] | null][]][] | null>>();
    expect(reply).toEqual([[b('jobs'), [[b('1-0'), [b('job'), b('a')]]]]]);
    const [[key, [[id, fields]]]] = reply!;
    expect(Buffer.isBuffer(key)).toBe(true);
    expect(Buffer.isBuffer(id)).toBe(true);
    expect(fields!.every((f) => Buffer.isBuffer(f))).toBe(true);

    const blocked = redis.xreadgroupBuffer('GROUP', 'g', 'c', 'BLOCK', 500, 'NOACK', 'STREAMS', 'jobs', '>');
    await clock.tickAsync(500);
    expect(await blocked).toBeNull();
  });

  it('xreadgroupBuffer history reads give null fields for deleted entries', async () => {
    const redis = await withPending();
    await redis.xreadgroupBuffer('GROUP', 'g', 'c', 'STREAMS', 'jobs', '>');
    await redis.xdelBuffer('jobs', '1-0');
    const reply = await redis.xreadgroupBuffer('GROUP', 'g', 'c', 'STREAMS', 'jobs', '0');
    expect(reply).toEqual([[b('jobs'), [[b('1-0'), null], [b('2-0'), [b('job'), b('b')]]]]]);
  });

  it('xpendingBuffer, xautoclaimBuffer, xclaimBuffer, xackBuffer answer like ioredis does on a server', async () => {
    const redis = await withPending();
    await redis.xreadgroup('GROUP', 'g', 'c', 'STREAMS', 'jobs', '>');

    const summary = await redis.xpendingBuffer('jobs', 'g');
    assertType<Equal<(typeof summary)[0], number>>();
    expect(summary).toEqual([2, b('1-0'), b('2-0'), [[b('c'), b('2')]]]);
    const extended = await redis.xpendingBuffer('jobs', 'g', '-', '+', 10);
    expect(extended.map(([pid, owner, , count]) => [pid, owner, count])).toEqual([
      [b('1-0'), b('c'), 1],
      [b('2-0'), b('c'), 1],
    ]);
    expect(typeof extended[0][2]).toBe('number');

    const justIds = await redis.xautoclaimBuffer('jobs', 'g', 'c2', 0, '0-0', 'COUNT', 1, 'JUSTID');
    assertType<Equal<typeof justIds, [nextStart: Buffer, claimedIds: Buffer[], deletedIds: Buffer[]]>>();
    expect(justIds).toEqual([b('2-0'), [b('1-0')], []]);
    const claimed = await redis.xautoclaimBuffer('jobs', 'g', 'c2', 0, '2-0');
    expect(claimed).toEqual([b('0-0'), [[b('2-0'), [b('job'), b('b')]]], []]);

    const entries = await redis.xclaimBuffer('jobs', 'g', 'c', 0, '1-0', 'RETRYCOUNT', 5);
    assertType<Equal<typeof entries, [id: Buffer, fields: Buffer[]][]>>();
    expect(entries).toEqual([[b('1-0'), [b('job'), b('a')]]]);
    const ids = await redis.xclaimBuffer('jobs', 'g', 'c', 0, '2-0', 'JUSTID');
    assertType<Equal<typeof ids, Buffer[]>>();
    expect(ids).toEqual([b('2-0')]);

    const acked = await redis.xackBuffer('jobs', 'g', '1-0', '2-0');
    assertType<Equal<typeof acked, number>>();
    expect(acked).toBe(2);
  });

  it('xinfoBuffer, xlenBuffer, xtrimBuffer, xsetidBuffer, xdelexBuffer, xgroupBuffer', async () => {
    const redis = await withPending();
    const groups = await redis.xinfoBuffer('GROUPS', 'jobs');
    expect(groups).toEqual([[b('name'), b('g'), b('consumers'), 0, b('pending'), 0, b('last-delivered-id'), b('0-0'), b('entries-read'), null, b('lag'), 2]]);
    expect(await redis.xlenBuffer('jobs')).toBe(2);
    expect(await redis.xtrimBuffer('jobs', 'MAXLEN', 1)).toBe(1);
    expect(await redis.xsetidBuffer('jobs', '5-0')).toEqual(b('OK'));
    expect(await redis.xdelexBuffer('jobs', 'IDS', 2, '2-0', '9-0')).toEqual([1, -1]);
    expect(await redis.xgroupBuffer('CREATE', 'jobs', 'g2', '$')).toEqual(b('OK'));
    expect(await redis.xgroupBuffer('CREATECONSUMER', 'jobs', 'g2', 'c')).toBe(1);
    expect(await redis.xgroupBuffer('DESTROY', 'jobs', 'g2')).toBe(1);
  });

  it('works in pipeline() and with a callback', async () => {
    const redis = await withPending();
    const results = await redis
      .pipeline()
      .xreadgroupBuffer('GROUP', 'g', 'c', 'COUNT', 1, 'STREAMS', 'jobs', '>')
      .xackBuffer('jobs', 'g', '1-0')
      .exec();
    expect(results).toEqual([
      [null, [[b('jobs'), [[b('1-0'), [b('job'), b('a')]]]]]],
      [null, 1],
    ]);
    const viaCallback = await new Promise<Buffer | null | undefined>((resolve, reject) => {
      redis.xreadgroupBuffer('GROUP', 'g', 'c', 'STREAMS', 'jobs', '>', (err, reply) => (err ? reject(err) : resolve(reply?.[0][1][0][0])));
    });
    expect(viaCallback).toEqual(b('2-0'));
  });
});

// Never called: each line must fail to compile (checked by `npm run typecheck`).
function mistakesAreTypeErrors(redis: Redis): void {
  // @ts-expect-error redisVersion is a string
  new Redis({ streams: { redisVersion: 7 } });
  // @ts-expect-error a clock needs now(), schedule() and kind
  new Redis({ streams: { clock: Date.now } });
  // @ts-expect-error XREADGROUP starts with GROUP
  void redis.xreadgroupBuffer('g', 'c', 'STREAMS', 's', '>');
  // @ts-expect-error XREADGROUP needs STREAMS
  void redis.xreadgroupBuffer('GROUP', 'g', 'c', 'COUNT', 1);
  // @ts-expect-error Buffer twins do not reply with strings
  const ids: Promise<string[]> = redis.xclaimBuffer('s', 'g', 'c', 0, '1-0', 'JUSTID');
  void ids;
}
void mistakesAreTypeErrors;

describe('what a user of the published types sees', () => {
  const root = path.resolve(__dirname, '../..');
  const consumerFile = path.join(root, '__tests__', 'types', 'consumer.virtual.ts');
  const options: ts.CompilerOptions = {
    strict: true,
    esModuleInterop: true,
    skipLibCheck: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    types: ['node'],
    baseUrl: root,
    paths: { 'ioredis-mock-streams': ['lib/index.ts'] },
  };

  /** Type errors of a one-file program `source` (only what it imports is compiled with it). */
  function typeErrors(source: string): string[] {
    const host = ts.createCompilerHost(options);
    const { getSourceFile, fileExists, readFile } = host;
    host.getSourceFile = (name, version, ...rest) =>
      path.resolve(name) === consumerFile ? ts.createSourceFile(name, source, version) : getSourceFile.call(host, name, version, ...rest);
    host.fileExists = (name) => path.resolve(name) === consumerFile || fileExists.call(host, name);
    host.readFile = (name) => (path.resolve(name) === consumerFile ? source : readFile.call(host, name));
    const program = ts.createProgram([consumerFile], options, host);
    return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  }

  const usage = `
    import Redis from 'ioredis';
    const redis = new Redis({ streams: { redisVersion: '7.0' } });
    export const claimed: Promise<[Buffer, Buffer[], Buffer[]]> =
      redis.xautoclaimBuffer('s', 'g', 'c', 0, '0-0', 'JUSTID');
  `;

  it('gets the additions from any import of ioredis-mock-streams, even a type-only one', () => {
    expect(typeErrors(`import type { Clock } from 'ioredis-mock-streams';\nexport type C = Clock;\n${usage}`)).toEqual([]);
  }, 60_000);

  it('does not get them without importing ioredis-mock-streams', () => {
    const errors = typeErrors(usage).join('\n');
    expect(errors).toMatch(/'streams' does not exist/);
    expect(errors).toMatch(/Property 'xautoclaimBuffer' does not exist/);
  }, 60_000);
});
