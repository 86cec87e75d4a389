// A dependency that vitest leaves to Node and that builds its client with `require('ioredis')`
// (BullMQ given `connection: { host, port }`) gets the fake under the setup entry, as under jest:
// vi.mock reaches only what vitest itself imports, and such a client used to wait for a real
// server until the test timed out, silently.
import { createRequire } from 'node:module';
import { expect, it } from 'vitest';
import Redis from 'ioredis';

// resolved as a package in node_modules resolves it (the file need not exist)
const requireFromDependency = createRequire(new URL('../node_modules/some-dependency/index.js', import.meta.url));

it("a dependency's require('ioredis') gives the fake, sharing the test's keyspaces", async () => {
  const Required = requireFromDependency('ioredis');
  expect(Object.keys(Required)).toContain('createFakeClock');
  const fromDependency = new Required({ host: '127.0.0.1', port: 6399, maxRetriesPerRequest: null });
  const fromTest = new Redis({ host: '127.0.0.1', port: 6399 });
  await fromDependency.xadd('jobs', '1-1', 'n', '1');
  expect(await fromTest.xrange('jobs', '-', '+')).toEqual([['1-1', ['n', '1']]]);
});

it('the reset after the previous test emptied what the dependency wrote', async () => {
  const fromDependency = new (requireFromDependency('ioredis'))({ host: '127.0.0.1', port: 6399 });
  expect(await fromDependency.exists('jobs')).toBe(0);
});
