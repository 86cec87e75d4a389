import { test } from 'node:test';
import assert from 'node:assert/strict';
import Redis from 'ioredis';
import { createFakeClock } from 'ioredis-mock-streams';

test('node --import ioredis-mock-streams/register: import Redis from "ioredis" is the fake', async () => {
  const clock = createFakeClock({ now: Date.UTC(2024, 0, 1) });
  const redis = new Redis({ streams: { clock } });
  assert.equal(await redis.xadd('s', '*', 'f', 'v'), '1704067200000-0');
  redis.disconnect();
});

test('keyspaces are reset between tests', async () => {
  const redis = new Redis();
  assert.equal(await redis.xlen('s'), 0);
  redis.disconnect();
});
