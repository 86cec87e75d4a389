/**
 * Issue 22 (found by a new user with the README's BullMQ block): a test file that keeps the
 * one-line route `jest.mock('ioredis', () => require('ioredis-mock-streams'))` next to the setup
 * file gets this package either way, yet the setup file warned that it got plain ioredis-mock.
 * Only a mock that gives something else is warned about (23-5-own-ioredis-mock-warned.test.ts).
 *
 * The setup file is required first, as `setupFilesAfterEnv` loads it; the file's own mock is
 * registered after it with `jest.doMock` (a `jest.mock` would be hoisted above the require).
 */
const warnings: string[] = [];
const warn = jest.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void warnings.push(args.join(' ')));
require('ioredis-mock-streams/jest');
jest.doMock('ioredis', () => require('ioredis-mock-streams'));

afterAll(() => warn.mockRestore());

it('does not warn when the file mocks ioredis with this package itself', async () => {
  const Redis = require('ioredis');
  expect(Redis).toBe(require('ioredis-mock-streams'));
  const redis = new Redis({ port: 22_003 });
  expect(await redis.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM')).toBe('OK');
  expect(await redis.type('s')).toBe('stream');
  redis.disconnect();
  expect(warnings).toEqual([]);
});

export {};
