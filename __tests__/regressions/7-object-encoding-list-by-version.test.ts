/**
 * OBJECT ENCODING of a small list follows the emulated version: "quicklist" on 7.0 (every list),
 * "listpack" from 7.2 (checked on redis-server 7.0.15 and the post-7.4 4f8cdc2a build; found by
 * a new-user trial comparing with 7.0.15).
 */
import Redis from 'ioredis-mock-streams';

describe('OBJECT ENCODING of a small list', () => {
  it.each([
    ['7.0', 'quicklist'],
    ['7.2', 'listpack'],
    ['8.10', 'listpack'],
  ])('on %s answers %s (strings and Buffers), other types unchanged', async (version, encoding) => {
    const r = new Redis({ port: 47_100, streams: { redisVersion: version } } as never);
    await r.flushall();
    await r.rpush('l', 'a', 'b');
    await r.set('s', 'x');
    expect(await r.object('ENCODING', 'l')).toBe(encoding);
    expect(await (r as unknown as { objectBuffer(...a: string[]): Promise<Buffer> }).objectBuffer('ENCODING', 'l')).toEqual(Buffer.from(encoding));
    expect(await r.object('ENCODING', 's')).toBe('embstr');
    r.disconnect();
  });
});
