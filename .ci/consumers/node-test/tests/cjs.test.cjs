const { test } = require('node:test');
const assert = require('node:assert/strict');
const Redis = require('ioredis');

test('require("ioredis") is the fake too', async () => {
  const redis = new Redis();
  await redis.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM');
  assert.deepEqual(await redis.xinfo('GROUPS', 's'), [['name', 'g', 'consumers', 0, 'pending', 0, 'last-delivered-id', '0-0', 'entries-read', null, 'lag', 0]]);
  redis.disconnect();
});
