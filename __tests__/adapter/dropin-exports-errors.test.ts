/**
 * The fake as a drop-in for `ioredis`:
 * - error replies are instances of the installed ioredis's `ReplyError` (redis-errors' class,
 *   resolved from that ioredis) and of the class real ioredis delivers them as (ioredis 6:
 *   `SimpleError`, name 'ReplyError'; ioredis 5: `ReplyError`), with ioredis's `command`
 *   ({ name, args } as sent, keys prefixed) and EXEC's `previousErrors`;
 * - the package exports ioredis's named exports (Command, ScanStream, Pipeline, connectors,
 *   print, defaultOptions, ReplyError), also as statics of the class, like `require('ioredis')`.
 * Truth: real ioredis (the installed major: 6.0.0, or 5.11.1 under IOREDIS_MAJOR=5) on
 * redis-server (REDIS_URL).
 */
import * as IORedisModule from 'ioredis';
import Redis from 'ioredis-mock-streams';
import * as api from 'ioredis-mock-streams';

type AnyClient = Record<string, any>;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const realIoredis = require('ioredis') as typeof IORedisModule & Record<string, any>;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const major = Number((require('ioredis/package.json') as { version: string }).version.split('.')[0]);

interface ErrorShape {
  ctor: string;
  name: string;
  message: string;
  isIoredisReplyError: boolean;
  command?: unknown;
  previousErrors?: unknown;
}
const shape = (e: any): ErrorShape => ({
  ctor: e.constructor.name,
  name: e.name,
  message: e.message,
  isIoredisReplyError: e instanceof realIoredis.ReplyError,
  ...('command' in e ? { command: e.command } : {}),
  ...('previousErrors' in e ? { previousErrors: e.previousErrors.map(shape) } : {}),
});
const failure = (p: Promise<unknown>) => p.then(() => 'no error', shape);

/** Error replies of several paths, for a client with keyPrefix `prefix` and a string at `h`. */
async function errorPaths(r: AnyClient): Promise<Record<string, unknown>> {
  return {
    streamMethod: await failure(r.xlen('h')),
    callUpper: await failure(r.call('XLEN', 'h')),
    builtin: await failure(r.lpush('h', 'x')),
    script: await failure(r.eval("return redis.call('xpending', KEYS[1], 'g')", 1, 'h')),
    execAbort: await failure(r.multi().xlen('h', 'x').exec()),
    insideExec: await r.multi().xlen('h').exec().then((pairs: [Error][]) => pairs.map(([e]) => shape(e))),
    inPipeline: await r.pipeline().xlen('h').exec().then((pairs: [Error][]) => pairs.map(([e]) => shape(e))),
  };
}

function expected(prefix: string): Record<string, unknown> {
  const ctor = major >= 6 ? 'SimpleError' : 'ReplyError';
  const err = (message: string, command?: unknown) => ({ ctor, name: 'ReplyError', message, isIoredisReplyError: true, ...(command ? { command } : {}) });
  const wrongType = 'WRONGTYPE Operation against a key holding the wrong kind of value';
  return {
    streamMethod: err(wrongType, { name: 'xlen', args: [`${prefix}h`] }),
    callUpper: err(wrongType, { name: 'XLEN', args: [`${prefix}h`] }),
    builtin: err(wrongType, { name: 'lpush', args: [`${prefix}h`, 'x'] }),
    script: { ...err(expect.stringMatching(/^WRONGTYPE Operation against a key holding the wrong kind of value script: \w+, on @user_script:1\.$/) as never, { name: 'eval', args: ["return redis.call('xpending', KEYS[1], 'g')", '1', `${prefix}h`] }) },
    execAbort: {
      ...err('EXECABORT Transaction discarded because of previous errors.', { name: 'exec', args: [] }),
      previousErrors: [err("ERR wrong number of arguments for 'xlen' command", { name: 'xlen', args: [`${prefix}h`, 'x'] })],
    },
    insideExec: [err(wrongType)],
    inPipeline: [err(wrongType, { name: 'xlen', args: [`${prefix}h`] })],
  };
}

describe(`error replies as the installed ioredis ${major} delivers them`, () => {
  it('are instances of the installed ioredis ReplyError, of its class, with command and previousErrors', async () => {
    const r = new Redis({ port: 36_931, keyPrefix: 'app:' }) as unknown as AnyClient;
    await r.flushall();
    await r.set('h', 'v');
    expect(await errorPaths(r)).toEqual(expected('app:'));
    r.disconnect();
  });

  it('exports the installed ioredis ReplyError as ReplyError', () => {
    expect(api.ReplyError).toBe(realIoredis.ReplyError);
    expect((Redis as unknown as AnyClient).ReplyError).toBe(realIoredis.ReplyError);
  });
});

describe('ioredis named exports', () => {
  const NAMES = ['Command', 'ScanStream', 'Pipeline', 'AbstractConnector', 'SentinelConnector', 'SentinelIterator', 'ReplyError'] as const;
  it.each(NAMES)('exports ioredis %s, named and as a static of the class, the installed ioredis own class', (name) => {
    expect((api as AnyClient)[name]).toBe(realIoredis[name]);
    expect((Redis as unknown as AnyClient)[name]).toBe(realIoredis[name]);
  });

  it('exports print and defaultOptions like ioredis', () => {
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    api.print(null, 'OK');
    api.print(new Error('boom'));
    expect(log.mock.calls).toEqual([['Reply: OK'], ['Error: Error: boom']]);
    log.mockRestore();
    expect(api.defaultOptions).toEqual(realIoredis.defaultOptions);
    expect(typeof new api.Command('get', ['k']).toWritable).toBe('function');
  });
});

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) console.warn('REDIS_URL not set: error classes of real ioredis skipped');
// skip: no real server URL (REDIS_URL): real ioredis's error classes need a server; CI sets it
(REDIS_URL ? describe : describe.skip)(`error replies: real ioredis ${major} on redis-server`, () => {
  it('match the fake', async () => {
    const prefix = `dropin-err:${process.pid}:`;
    const r = new realIoredis.default(REDIS_URL!, { keyPrefix: prefix, db: 12 }) as unknown as AnyClient;
    try {
      await r.set('h', 'v');
      expect(await errorPaths(r)).toEqual(expected(prefix));
    } finally {
      await r.del('h');
      r.disconnect();
    }
  });
});
