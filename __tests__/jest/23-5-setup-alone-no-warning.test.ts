/**
 * Issue 23, item 5, the other side: with the setup file alone (whether the file imports ioredis or
 * not), or with `jest.unmock('ioredis')` (real ioredis), there is no warning.
 */
const warnings: string[] = [];
const warn = jest.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void warnings.push(args.join(' ')));
require('ioredis-mock-streams/jest');

afterAll(() => warn.mockRestore());

it('the setup file alone gives the fake and no warning', () => {
  const Redis = require('ioredis');
  expect(typeof Redis.prototype.constructor).toBe('function');
  expect(Redis).toBe(require('ioredis-mock-streams'));
  expect(warnings).toEqual([]);
});

export {}; // a module, not a script: its names stay its own
