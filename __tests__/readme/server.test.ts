// README:begin
import { createClient } from 'redis';
import { serve, type RedisServer } from 'ioredis-mock-streams/server';

let server: RedisServer;
beforeAll(async () => {
  server = await serve(); // 127.0.0.1, a free port; wall time that the test can move
});
afterAll(() => server.close());

it('times a blocked XREADGROUP out when the server clock moves, then serves a new entry', async () => {
  const client = await createClient({ url: server.url }).connect();
  const reader = await client.duplicate().connect(); // blocking reads get their own connection
  await client.xGroupCreate('jobs', 'workers', '$', { MKSTREAM: true });

  const idle = reader.xReadGroup('workers', 'w1', { key: 'jobs', id: '>' }, { BLOCK: 5000 });
  await server.waitForBlocked(); // the read reached the server and waits
  await server.tick(5000); // no 5 s wait: its deadline passes now
  expect(await idle).toBeNull();

  const read = reader.xReadGroup('workers', 'w1', { key: 'jobs', id: '>' }, { BLOCK: 0 });
  await server.waitForBlocked();
  const id = await client.xAdd('jobs', '*', { job: 'send-email' });
  expect(await read).toEqual([{ name: 'jobs', messages: [{ id, message: { job: 'send-email' } }] }]);
  expect(await client.xPending('jobs', 'workers')).toMatchObject({ pending: 1, consumers: [{ name: 'w1', deliveriesCounter: 1 }] });

  // another process (or a jest globalSetup server) moves the clock over the wire
  const before = Number(await client.sendCommand(['MOCKCLOCK', 'GET']));
  expect(Number(await client.sendCommand(['MOCKCLOCK', 'TICK', '30000']))).toBeGreaterThanOrEqual(before + 30_000);

  client.destroy();
  reader.destroy();
});
// README:end

import { readFileSync } from 'fs';
import { join } from 'path';

describe('README: A real server', () => {
  it('shows this test file as written', () => {
    const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## A real server: node-redis, redis-cli, other processes'));
    const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
    const self = readFileSync(__filename, 'utf8');
    expect(blocks).toContain(self.slice(self.indexOf('// README:begin\n') + '// README:begin\n'.length, self.indexOf('// README:end')));
  });
});
