/**
 * A published message reaches an ioredis subscriber before the publisher's next reply, as a
 * subscriber's socket has it by then: `await publish(); await ping()` finds it delivered (it was
 * held for a later turn of the event loop: a test asserting a keyspace notification right after
 * the next command saw nothing). Right after `await publish()` alone it is not delivered yet, as
 * with a real server here (measured with real ioredis 6 on 7.0.15: 10 of 10 not yet after the
 * PUBLISH reply, 10 of 10 delivered after the next reply; under load a server varies). Then
 * keyspace events of a clock jump, delivered before the reply of the command that caught up.
 */
describe('pub/sub delivery before the next reply', () => {
  it('after await publish() the message is not there yet; after the next command’s reply it is', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const Redis = require('ioredis-mock-streams');
    const client = new Redis({ port: 48_651 });
    const sub = client.duplicate();
    const seen: string[] = [];
    sub.on('message', (_channel: string, message: string) => seen.push(message));
    await sub.subscribe('deliv');
    const out: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      await client.publish('deliv', `a${i}`);
      const atPublishReply = [...seen];
      await client.ping();
      out.push([atPublishReply, [...seen]]);
      seen.length = 0;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(out).toEqual([
      [[], ['a0']],
      [[], ['a1']],
      [[], ['a2']],
    ]);
    client.disconnect();
    sub.disconnect();
  });

  it('expired events of keys a clock jump made due arrive before the reply of the next command', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const Redis = require('ioredis-mock-streams');
    const clock = Redis.createFakeClock({ now: 1_700_000_000_000 });
    const r = new Redis({ port: 48_652, streams: { clock } });
    const sub = r.duplicate();
    const events: string[] = [];
    sub.on('message', (_channel: string, key: string) => events.push(key));
    await r.config('SET', 'notify-keyspace-events', 'Ex');
    await sub.subscribe('__keyevent@0__:expired');
    await r.set('a', '1', 'PX', 100);
    await r.set('b', '1', 'PX', 200);
    clock.setSystemTime(1_700_000_000_000 + 1_000); // fires no timer
    const exists = await r.exists('a', 'b');
    expect([exists, events]).toEqual([0, ['a', 'b']]);
    r.disconnect();
    sub.disconnect();
  });
});
