/**
 * Issue 10 (3): `quit()` while the client's own read is blocked. Real ioredis sends QUIT on
 * the connection, where it waits behind the read: a later XADD serves the read (the entry is
 * delivered and pending), commands sent before QUIT run, then QUIT answers OK and the
 * connection closes. It used to release the read at once, like `disconnect()`.
 */
import Redis, { streamsKeyspace } from 'ioredis-mock-streams';
import { settled } from '../helpers/settled';

let port = 47_100;
beforeEach(() => {
  port++;
});

describe('quit() behind a blocked read of the same client', () => {
  it('waits for the read, keeps the write queued behind it, then answers OK and closes', async () => {
    const reader = new Redis({ port });
    const producer = new Redis({ port });
    await producer.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM');
    const read = reader.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 0, 'STREAMS', 's', '>');
    const write = reader.xadd('audit', '*', 'seen', '1');
    const quit = reader.quit();
    expect(await settled(quit)).toBe(false);
    expect(reader.status).toBe('ready');

    await producer.xadd('s', '5-0', 'job', 'a');
    expect(await read).toEqual([['s', [['5-0', ['job', 'a']]]]]);
    expect(await write).toMatch(/^\d+-0$/);
    expect(await quit).toBe('OK');
    // as ioredis: QUIT answered while still ready; the socket's close comes a moment later
    expect(reader.status).toBe('ready');
    await expect(reader.xlen('s')).rejects.toThrow('Connection is closed.');
    expect(reader.status).toBe('end');

    // the entry was delivered (pending for c), the queued write was not lost
    expect(await producer.xpending('s', 'g')).toEqual([1, '5-0', '5-0', [['c', '1']]]);
    expect(await producer.xlen('audit')).toBe(1);
    expect(streamsKeyspace(producer).blockedCount).toBe(0);
    producer.disconnect();
  });

  it('disconnect() still releases the blocked read and the commands behind it at once', async () => {
    const reader = new Redis({ port });
    const read = reader.xread('BLOCK', 0, 'STREAMS', 's', '$');
    const len = reader.xlen('s');
    reader.disconnect();
    await expect(read).rejects.toThrow('Connection is closed.');
    await expect(len).rejects.toThrow('Connection is closed.');
    expect(streamsKeyspace(new Redis({ port, lazyConnect: true })).blockedCount).toBe(0);
  });
});
