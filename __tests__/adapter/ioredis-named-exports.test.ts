/**
 * Every named export of the installed ioredis is a named export of the package (code written for
 * ioredis runs under `jest.mock('ioredis', …)`), ioredis 6.1's error classes included
 * (`MaxRetriesPerRequestError`, `WatchError`, the maintenance timeouts): the same classes, so
 * `err instanceof MaxRetriesPerRequestError` holds for the fake's rejections. Found by a helper
 * running other projects' suites on ioredis 6.1.0, where they were missing (a TypeError at
 * `instanceof`). On ioredis 6.0 and 5 (which export none of them) the getters answer undefined
 * for the classes those versions lack.
 */
import * as fake from 'ioredis-mock-streams';
import { installedIoredisDir } from '../../lib/adapter/command-table';

const ERROR_CLASSES = ['MaxRetriesPerRequestError', 'WatchError', 'CommandTimeoutDuringMaintenanceError', 'SocketTimeoutDuringMaintenanceError'] as const;

/** The installed ioredis's own exports, read from its built/index.js (`ioredis` itself may be mocked). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const real = require(`${installedIoredisDir()}/built/index.js`) as Record<string, unknown>;

describe("the package's named exports", () => {
  it('include every named export of the installed ioredis', () => {
    expect(Object.keys(real).filter((name) => !(name in fake))).toEqual([]);
  });

  it.each(ERROR_CLASSES)('%s is the installed ioredis\'s own class (or absent as there)', (name) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const own = (require(`${installedIoredisDir()}/built/errors`) as Record<string, unknown>)[name];
    expect((fake as Record<string, unknown>)[name]).toBe(own);
    if (name in real) expect(own).toBe(real[name]);
  });

  it('a command that a client giving up on reconnection rejects is an instance of the exported MaxRetriesPerRequestError', async () => {
    const r = new fake.Redis({ port: 56_360, maxRetriesPerRequest: 0 }) as any;
    await r.ping();
    const popped = r.blpop('nothing', 0).catch((e: Error) => e);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const reconnected = new Promise((resolve) => r.once('ready', resolve));
    r.disconnect(true);
    await reconnected;
    const err = await popped;
    expect(err).toBeInstanceOf(fake.MaxRetriesPerRequestError);
    expect(err.message).toBe('Reached the max retries per request limit (which is 0). Refer to "maxRetriesPerRequest" option for details.');
    r.disconnect();
  });
});
