/**
 * A client blocked on a key with a byte past 0x7f (`BLPOP k\xff`, `BZPOPMIN é` as UTF-8 bytes)
 * is served by a push from another client, with the keyspace events of the push and of serving it.
 * The engine re-ran the blocked call with the signalled store key re-encoded as UTF-8
 * (`k\xff` became `k\xc3\xbf`): the call found nothing, blocked again and timed out. Found by the
 * keyspace-events fuzzer (__tests__/differential/core/events-fuzz.ts, seeds 5001/5035/5037/5095).
 * Replies and events recorded on redis-server 7.0.15 and the post-7.4 build (the same on both).
 */
import { createConnection } from '../../lib/engine';
import { toResp2Plain } from '../../lib/reply/reply';

const EXPECTED_EVENTS = [
  '__keyspace@14__:k\xff rpush', '__keyevent@14__:rpush k\xff', '__keyspace@14__:k\xff lpop', '__keyevent@14__:lpop k\xff',
  '__keyspace@14__:\xc3\xa9 zadd', '__keyevent@14__:zadd \xc3\xa9', '__keyspace@14__:\xc3\xa9 zpopmin', '__keyevent@14__:zpopmin \xc3\xa9',
  '__keyspace@14__:\xc3\xa9 del', '__keyevent@14__:del \xc3\xa9',
];

describe.each([['7.0', 48_790], ['8.0', 48_791]] as const)('a call blocked on a non-ASCII key (%s mode)', (version, port) => {
  it('is served by the push, with its keyspace events', async () => {
    const [a, b, c, sub] = [0, 1, 2, 3].map(() => createConnection({ port, streams: { redisVersion: version } }));
    const events: string[] = [];
    sub.onPush((msg) => {
      const items = toResp2Plain(msg) as string[];
      if (items[0] === 'pmessage') events.push(`${items[2]} ${items[3]}`);
    });
    try {
      await a.execute(['CONFIG', 'SET', 'notify-keyspace-events', 'KEA']);
      for (const conn of [a, b, c]) await conn.execute(['SELECT', '14']);
      await sub.execute(['PSUBSCRIBE', '__key*@14__:*']);
      const list = a.execute(['BLPOP', 'k\xff', '1']);
      const zset = b.execute(['BZPOPMIN', '\xc3\xa9', '1']);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(toResp2Plain(await c.execute(['RPUSH', 'k\xff', 'a', 'b']))).toBe(2);
      expect(toResp2Plain(await c.execute(['ZADD', '\xc3\xa9', '1', 'm']))).toBe(1);
      expect(toResp2Plain(await list)).toEqual(['k\xff', 'a']);
      expect(toResp2Plain(await zset)).toEqual(['\xc3\xa9', 'm', '1']);
      await sub.execute(['PING']);
      expect(events).toEqual(EXPECTED_EVENTS);
    } finally {
      for (const conn of [a, b, c, sub]) conn.close();
    }
  });
});
