// An ESM TypeScript project ("type": "module"), checked with moduleResolution nodenext and
// bundler, then run: the default import is the constructible client class; stream replies are
// typed (XREADGROUP as ioredis 6 types it, also on ioredis 5); the client is an ioredis Redis.
import Redis, { createFakeClock, resetAllKeyspaces, streamsKeyspace } from 'ioredis-mock-streams';
import { Redis as IORedis } from 'ioredis';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | void {
  return undefined;
}
function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`consumer check failed: ${what}`);
}

const clock = createFakeClock({ now: Date.UTC(2024, 0, 1) });
const redis = new Redis({ streams: { clock, redisVersion: '7.0' } });
const asIoredis: IORedis = redis;
void asIoredis;

await redis.xgroup('CREATE', 'jobs', 'g', '$', 'MKSTREAM');
const id = await redis.xadd('jobs', '*', 'job', 'a');
check(id === '1704067200000-0', 'XADD * takes its ID from the fake clock');

const read = await redis.xreadgroup('GROUP', 'g', 'c', 'COUNT', 10, 'STREAMS', 'jobs', '>');
assertType<Equal<typeof read, [key: string, entries: [id: string, fields: string[] | null][]][] | null>>();
check(JSON.stringify(read) === JSON.stringify([['jobs', [[id, ['job', 'a']]]]]), 'XREADGROUP reply');

const claimed = await redis.xautoclaim('jobs', 'g', 'c2', 0, '0-0');
assertType<Equal<typeof claimed, [nextStart: string, claimed: [id: string, fields: string[]][], deletedIds: string[]]>>();
check(claimed[1][0][0] === id, 'XAUTOCLAIM reply');

const pending = await redis.xpending('jobs', 'g');
assertType<Equal<typeof pending, [count: number, smallestId: string | null, largestId: string | null, consumers: [name: string, count: string][] | null]>>();
check(pending[0] === 1, 'XPENDING summary');

const blocked = redis.duplicate().xreadgroup('GROUP', 'g', 'c', 'BLOCK', 5000, 'STREAMS', 'jobs', '>');
await clock.tickAsync(5000);
check((await blocked) === null, 'BLOCK times out on the fake clock');
check(streamsKeyspace(redis).redisVersion === '7.0', 'streamsKeyspace');

resetAllKeyspaces();
redis.disconnect();
console.log('esm-ts consumer: ok');
