/**
 * Issue 23, item 5: a test file that keeps `jest.mock('ioredis', () => require('ioredis-mock'))`
 * after the setup file was added silently got plain ioredis-mock (XGROUP "Unsupported command",
 * TYPE of a stream `list`, no reset). The setup file now warns, naming the line to remove.
 *
 * Here the setup file is required first, as `setupFilesAfterEnv` loads it, and the file's own mock
 * is registered after it with `jest.doMock` (a `jest.mock` would be hoisted above the require).
 */
const warnings: string[] = [];
const warn = jest.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void warnings.push(args.join(' ')));
require('ioredis-mock-streams/jest');
// a project's own ioredis-mock: the one the package's runtime is built from (its dev dependency)
const plainMockPath = require.resolve('ioredis-mock', { paths: [require('path').dirname(require.resolve('@ioredis-mock-streams/mock-runtime/package.json'))] });
jest.doMock('ioredis', () => require(plainMockPath));

afterAll(() => warn.mockRestore());

it('warns once, before the tests, that the file gets plain ioredis-mock, and says to remove the jest.mock line', () => {
  // what the file gets: ioredis-mock's own class, not this package's
  expect(require('ioredis')).toBe(require(plainMockPath));
  expect(require('ioredis')).not.toBe(require('ioredis-mock-streams'));
  expect(warnings).toEqual([
    "[ioredis-mock-streams] this test file mocks 'ioredis' itself (e.g. jest.mock('ioredis', () => require('ioredis-mock')), left from a migration), " +
      "which replaces the mock of the setup file 'ioredis-mock-streams/jest': the file gets plain ioredis-mock — no consumer groups " +
      '(XGROUP: "Unsupported command"), TYPE of a stream "list", nothing reset between tests. ' +
      'Remove that jest.mock line: the setup file already mocks ioredis in every test file.',
  ]);
});

export {}; // a module, not a script: its names stay its own
