/**
 * Issue 10 (4): MULTI/EXEC sent through `call()` while the same client's read is blocked.
 * On a real connection MULTI, the queued commands and EXEC all wait behind the read; EXEC
 * then runs the transaction atomically, where BLOCK answers nil. It used to answer MULTI and
 * QUEUED at once and run EXEC's commands later outside the transaction (a queued
 * `XREADGROUP … BLOCK 0` really blocked and EXEC never answered).
 */
import Redis, { streamsKeyspace } from 'ioredis-mock-streams';
import { settled } from '../helpers/settled';

let port = 47_200;
beforeEach(() => {
  port++;
});

describe('MULTI through call() behind a blocked read', () => {
  it('queues MULTI, the commands and EXEC behind the read, and EXEC answers with BLOCK as nil', async () => {
    const r = new Redis({ port });
    const producer = new Redis({ port });
    await producer.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM');
    const read = r.xreadgroup('GROUP', 'g', 'c1', 'BLOCK', 0, 'STREAMS', 's', '>');
    const multi = r.call('MULTI');
    const queuedRead = r.call('XREADGROUP', 'GROUP', 'g', 'c2', 'BLOCK', '0', 'STREAMS', 's', '>');
    const set = r.set('k', 'v');
    const exec = r.call('EXEC');
    const ping = r.call('PING');
    expect(await settled(multi)).toBe(false);
    expect(await settled(exec)).toBe(false);

    await producer.xadd('s', '1-0', 'f', 'v');
    expect(await read).toEqual([['s', [['1-0', ['f', 'v']]]]]);
    expect(await multi).toBe('OK');
    expect(await queuedRead).toBe('QUEUED');
    expect(await set).toBe('QUEUED');
    expect(await exec).toEqual([null, 'OK']);
    expect(await ping).toBe('PONG');
    expect(await producer.get('k')).toBe('v');
    expect(streamsKeyspace(r).blockedCount).toBe(0);
    r.disconnect();
    producer.disconnect();
  });
});
