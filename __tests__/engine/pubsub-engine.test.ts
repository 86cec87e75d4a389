/**
 * PUBLISH, PUBSUB and sharded pub/sub as engine commands (pubsub.c; replies checked on
 * redis-server 7.0.15 and the post-7.4 build): receiver counts as Redis counts them, messages
 * as bytes to engine connections and ioredis clients alike, shard channels apart from channels.
 */
import Redis from 'ioredis-mock-streams';
import { Connection } from '../../lib/engine';
import { PushReply, SimpleString } from '../../lib/reply/reply';
import { engineConnections, errorOf } from '../helpers/engine-connections';

const engine = engineConnections(53_100);
const conn = engine.conn;
function pushesOf(c: Connection): unknown[] {
  const out: unknown[] = [];
  c.onPush((m) => out.push(m));
  return out;
}
const tick = (): Promise<void> => new Promise((r) => setImmediate(r));
const BIN = '\xff\xfe\x00\x80'; // not UTF-8

describe('PUBLISH', () => {
  it('counts channel subscribers plus every (connection, pattern) subscription that matches', async () => {
    const a = conn();
    const b = conn();
    await a.execute(['SUBSCRIBE', 'news']);
    await a.execute(['PSUBSCRIBE', 'n*', 'ne?s']);
    await b.execute(['PSUBSCRIBE', 'n*']);
    const pub = conn();
    // a: news + n* + ne?s, b: n*
    expect(await pub.execute(['PUBLISH', 'news', 'x'])).toBe(4);
    expect(await pub.execute(['PUBLISH', 'nope', 'x'])).toBe(2);
    expect(await pub.execute(['PUBLISH', 'other', 'x'])).toBe(0);
  });

  it('delivers binary channels and payloads intact to engine connections and ioredis messageBuffer listeners', async () => {
    const sub = conn();
    const pushed = pushesOf(sub);
    await sub.execute(['SUBSCRIBE', BIN]);
    await sub.execute(['PSUBSCRIBE', '\xff*']);
    const redis = new Redis({ port: engine.port });
    const got: Buffer[][] = [];
    redis.on('messageBuffer', (ch: Buffer, msg: Buffer) => got.push([ch, msg]));
    await redis.subscribe(Buffer.from(BIN, 'latin1'));
    pushed.length = 0;
    expect(await conn().execute(['PUBLISH', BIN, `pay${BIN}`])).toBe(3);
    await tick();
    expect(pushed).toEqual([new PushReply(['message', BIN, `pay${BIN}`]), new PushReply(['pmessage', '\xff*', BIN, `pay${BIN}`])]);
    expect(got.map(([c, m]) => [c.toString('latin1'), m.toString('latin1')])).toEqual([[BIN, `pay${BIN}`]]);
    redis.disconnect();
  });

  it('is refused on a RESP2 subscribed connection, allowed under RESP3', async () => {
    const sub = conn();
    await sub.execute(['SSUBSCRIBE', 's']);
    expect(await errorOf(sub.execute(['PUBLISH', 'a', 'b']))).toBe(
      "ERR Can't execute 'publish': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context",
    );
    expect(await errorOf(sub.execute(['PUBSUB', 'NUMPAT']))).toContain("ERR Can't execute 'pubsub|numpat'");
    expect(await errorOf(sub.execute(['HELLO', '3']))).toContain("ERR Can't execute 'hello'");
    const sub3 = conn();
    await sub3.execute(['HELLO', '3']);
    await sub3.execute(['SSUBSCRIBE', 's']);
    expect(await sub3.execute(['PUBLISH', 'a', 'b'])).toBe(0);
  });
});

describe('PUBSUB', () => {
  it('lists active channels, counts subscribers per channel and distinct patterns', async () => {
    const a = conn();
    const b = conn();
    await a.execute(['SUBSCRIBE', 'ch1', 'ch2']);
    await b.execute(['SUBSCRIBE', 'ch1']);
    await a.execute(['PSUBSCRIBE', 'p*']);
    await b.execute(['PSUBSCRIBE', 'p*', 'q*']);
    const c = conn();
    expect(((await c.execute(['PUBSUB', 'CHANNELS'])) as string[]).sort()).toEqual(['ch1', 'ch2']);
    expect(await c.execute(['PUBSUB', 'CHANNELS', '*2'])).toEqual(['ch2']);
    expect(await c.execute(['PUBSUB', 'NUMSUB', 'ch1', 'ch2', 'none'])).toEqual(['ch1', 2, 'ch2', 1, 'none', 0]);
    expect(await c.execute(['PUBSUB', 'NUMSUB'])).toEqual([]);
    expect(await c.execute(['PUBSUB', 'NUMPAT'])).toBe(2);
    await a.execute(['UNSUBSCRIBE', 'ch2']);
    expect(await c.execute(['PUBSUB', 'CHANNELS'])).toEqual(['ch1']);
  });

  it('answers errors and HELP as Redis', async () => {
    const c = conn();
    expect(await errorOf(c.execute(['PUBSUB']))).toBe("ERR wrong number of arguments for 'pubsub' command");
    expect(await errorOf(c.execute(['PUBSUB', 'foo']))).toBe("ERR unknown subcommand 'foo'. Try PUBSUB HELP.");
    expect(await errorOf(c.execute(['PUBSUB', 'NUMPAT', 'x']))).toBe("ERR wrong number of arguments for 'pubsub|numpat' command");
    expect(await errorOf(c.execute(['PUBSUB', 'CHANNELS', 'a', 'b']))).toBe("ERR unknown subcommand or wrong number of arguments for 'CHANNELS'. Try PUBSUB HELP.");
    const help = (await c.execute(['PUBSUB', 'HELP'])) as SimpleString[];
    expect(help[0]).toEqual(new SimpleString('PUBSUB <subcommand> [<arg> [value] [opt] ...]. Subcommands are:'));
    expect(help[help.length - 1]).toEqual(new SimpleString('    Print this help.'));
    const old = conn({ redisVersion: '7.0' } as never);
    const oldHelp = (await old.execute(['PUBSUB', 'HELP'])) as SimpleString[];
    expect(oldHelp.length).toBe(14);
  });
});

describe('sharded pub/sub', () => {
  it('confirms with the shard count and delivers smessage only to shard subscribers', async () => {
    const s = conn();
    const pushed = pushesOf(s);
    await s.execute(['SUBSCRIBE', 'x']);
    await s.execute(['SSUBSCRIBE', 'x', BIN]);
    expect(pushed).toEqual([new PushReply(['subscribe', 'x', 1]), new PushReply(['ssubscribe', 'x', 1]), new PushReply(['ssubscribe', BIN, 2])]);
    pushed.length = 0;
    const pub = conn();
    expect(await pub.execute(['SPUBLISH', BIN, BIN])).toBe(1);
    expect(await pub.execute(['SPUBLISH', 'none', 'm'])).toBe(0);
    expect(pushed).toEqual([new PushReply(['smessage', BIN, BIN])]);
    expect(((await pub.execute(['PUBSUB', 'SHARDCHANNELS'])) as string[]).sort()).toEqual(['x', BIN].sort());
    expect(await pub.execute(['PUBSUB', 'SHARDCHANNELS', 'x*'])).toEqual(['x']);
    expect(await pub.execute(['PUBSUB', 'SHARDNUMSUB', 'x', 'y'])).toEqual(['x', 1, 'y', 0]);
    expect(await pub.execute(['PUBSUB', 'NUMSUB', 'x'])).toEqual(['x', 1]);
    pushed.length = 0;
    await s.execute(['SUNSUBSCRIBE']);
    await s.execute(['SUNSUBSCRIBE']);
    expect(pushed).toEqual([new PushReply(['sunsubscribe', 'x', 1]), new PushReply(['sunsubscribe', BIN, 0]), new PushReply(['sunsubscribe', null, 0])]);
    expect(await pub.execute(['PUBSUB', 'SHARDCHANNELS'])).toEqual([]);
  });

  it('keeps a RESP2 connection in subscriber mode while only shard channels are subscribed, and RESET leaves it', async () => {
    const s = conn();
    await s.execute(['SSUBSCRIBE', 'a']);
    expect(await errorOf(s.execute(['GET', 'k']))).toContain("ERR Can't execute 'get'");
    await s.execute(['RESET']);
    expect(await s.execute(['GET', 'k'])).toBeNull();
    expect(await conn().execute(['PUBSUB', 'SHARDNUMSUB', 'a'])).toEqual(['a', 0]);
  });
});

describe('CLIENT REPLY', () => {
  it('OFF silences replies until ON, SKIP the next one; both answer nothing themselves', async () => {
    const c = conn();
    const silenced = new PushReply([]);
    expect(await c.execute(['CLIENT', 'REPLY', 'SKIP'])).toEqual(silenced);
    expect(await c.execute(['PING', 'a'])).toEqual(silenced);
    expect(await c.execute(['PING', 'b'])).toBe('b');
    expect(await c.execute(['CLIENT', 'REPLY', 'OFF'])).toEqual(silenced);
    expect(await c.execute(['NOSUCH'])).toEqual(silenced);
    expect(await c.execute(['CLIENT', 'REPLY', 'SKIP'])).toEqual(silenced);
    expect(await c.execute(['CLIENT', 'REPLY', 'ON'])).toEqual(new SimpleString('OK'));
    expect(await c.execute(['PING', 'c'])).toBe('c');
    expect(await errorOf(c.execute(['CLIENT', 'REPLY', 'FOO']))).toBe('ERR syntax error');
  });

  it('leaves pub/sub pushes delivered, and RESET turns replies back on', async () => {
    const s = conn();
    const pushed = pushesOf(s);
    await s.execute(['HELLO', '3']);
    await s.execute(['CLIENT', 'REPLY', 'OFF']);
    await s.execute(['SUBSCRIBE', 'r']);
    expect(await conn().execute(['PUBLISH', 'r', 'm'])).toBe(1);
    await tick();
    expect(pushed).toEqual([new PushReply(['subscribe', 'r', 1]), new PushReply(['message', 'r', 'm'])]);
    expect(await s.execute(['RESET'])).toEqual(new SimpleString('RESET'));
    expect(await s.execute(['PING'])).toEqual(new SimpleString('PONG'));
  });
});

describe('subscriptions inside EXEC', () => {
  it('make the first confirmation the command element of the EXEC reply', async () => {
    const c = conn();
    const pushed = pushesOf(c);
    await c.execute(['HELLO', '3']);
    await c.execute(['SUBSCRIBE', 'foo', BIN]);
    pushed.length = 0;
    await c.execute(['MULTI']);
    await c.execute(['PING', 'abc']);
    await c.execute(['UNSUBSCRIBE', BIN]);
    await c.execute(['SSUBSCRIBE', 's']);
    // SSUBSCRIBE is refused inside EXEC (CLIENT_DENY_BLOCKING, no MULTI exception as SUBSCRIBE
    // has): byte for byte what redis-server 7.0.15 and the post-7.4 build answer to this sequence
    expect(await c.execute(['EXEC'])).toEqual([
      'abc',
      new PushReply(['unsubscribe', BIN, 1]),
      expect.objectContaining({ message: "ERR SSUBSCRIBE isn't allowed for a DENY BLOCKING client" }),
    ]);
    expect(pushed).toEqual([]);
    expect(await conn().execute(['PUBSUB', 'NUMSUB', BIN])).toEqual([BIN, 0]);
    expect(await conn().execute(['PUBSUB', 'SHARDNUMSUB', 's'])).toEqual(['s', 0]);
  });
});
