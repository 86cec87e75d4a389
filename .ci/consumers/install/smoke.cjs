// Installed from the tarball next to a given ioredis: stream commands and ioredis-mock's own
// commands work, keyPrefix follows that ioredis, and (when the project lists ioredis-mock itself)
// installStreams() equips its class too.
const assert = require('node:assert/strict');
const Redis = require('ioredis-mock-streams');
const { installStreams } = Redis;

(async () => {
  const version = require('ioredis/package.json').version;
  const r = new Redis();
  await r.xadd('s', '1-0', 'f', 'v');
  await r.xgroup('CREATE', 's', 'g', '0');
  assert.deepEqual(await r.xreadgroup('GROUP', 'g', 'c', 'STREAMS', 's', '>'), [['s', [['1-0', ['f', 'v']]]]]);
  assert.deepEqual(await r.xread('STREAMS', 's', '0'), [['s', [['1-0', ['f', 'v']]]]]);
  await r.zadd('z', 1, 'a', 2.5, 'b');
  assert.deepEqual(await r.zrange('z', 0, -1, 'WITHSCORES'), ['a', '1', 'b', '2.5']);
  await r.hset('h', { f: 'v' });
  assert.deepEqual(await r.hgetall('h'), { f: 'v' });
  r.disconnect();
  let own = 'none';
  try {
    const RedisMock = require('ioredis-mock');
    installStreams(RedisMock);
    const m = new RedisMock({ port: 7777 });
    assert.equal(await m.xadd('s', '1-0', 'f', 'v'), '1-0');
    assert.equal(await m.xlen('s'), 1);
    m.disconnect();
    own = require('ioredis-mock/package.json').version;
  } catch (e) {
    if (e.code !== 'MODULE_NOT_FOUND') throw e;
  }
  console.log(`install smoke: ok (ioredis ${version}, project's own ioredis-mock: ${own})`);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
