/**
 * Run a test body as the fake answers for ioredis 5, under either installed major: under ioredis 6
 * the adapter is given the command table of the `ioredis5` dev dependency (as key-prefix.test.ts
 * compares both majors in one process), so `installedIoredisMajor()` is 5 while the body runs.
 * Lets an ioredis-5 case run under `npm test` instead of only under `npm run test:ioredis5`.
 */
import { dirname } from 'path';
import { commandTable, commandTableAt, installedIoredisMajor, useCommandTable } from '../../lib/adapter/command-table';

export async function asIoredis5(body: () => Promise<void>): Promise<void> {
  const installed = installedIoredisMajor();
  const table = commandTable();
  if (installed !== 5) useCommandTable(commandTableAt(dirname(require.resolve('ioredis5/package.json'))));
  try {
    expect(installedIoredisMajor()).toBe(5);
    await body();
  } finally {
    useCommandTable(installed === 5 ? table : undefined);
  }
}
