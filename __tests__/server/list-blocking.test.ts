/**
 * Blocking list pops over the server (BLPOP, BRPOP, BLMOVE, BRPOPLPUSH, BLMPOP) while they wait.
 * The orders and replies below were observed on redis-server 7.0.15 and a 7.4+ build (the
 * immediate paths are in the byte-exact script).
 */
import { createFakeClock } from 'ioredis-mock-streams';
import { type RedisServer, serve } from 'ioredis-mock-streams/server';
import { RawClient, request } from './raw-client';

describe.each(['7.0', '8.10'])('blocking list pops (Redis %s)', (redisVersion) => {
  let server: RedisServer;
  const open: RawClient[] = [];
  const connect = async () => {
    const c = await RawClient.connect(server.port);
    open.push(c);
    return c;
  };
  const blocked = async (w: RawClient, n: number) => {
    for (let i = 0; i < 400; i++) {
      if ((await w.call('INFO', 'clients')).includes(`\r\nblocked_clients:${n}\r\n`)) return;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error(`expected ${n} blocked clients`);
  };

  beforeEach(async () => {
    server = await serve({ redisVersion, clock: createFakeClock({ now: 1_000_000 }) });
  });
  afterEach(async () => {
    for (const c of open.splice(0)) c.close();
    await server.close();
  });

  it('serves waiters first-come-first-served, ignoring a key that becomes a stream', async () => {
    const [a, b, w] = [await connect(), await connect(), await connect()];
    a.write(request('BLPOP', 'k', 'k2', '0'));
    await blocked(w, 1);
    b.write(request('BLMOVE', 'k', 'dst', 'RIGHT', 'LEFT', '0'));
    await blocked(w, 2);
    await w.call('XADD', 'k', '1-1', 'f', 'v');
    await w.call('PING');
    expect(a.pending + b.pending).toBe('');
    await w.call('DEL', 'k');
    expect(await w.call('RPUSH', 'k', 'x', 'y', 'z')).toBe(':3\r\n');
    expect(await a.read()).toEqual(['*2\r\n$1\r\nk\r\n$1\r\nx\r\n']);
    expect(await b.read()).toEqual(['$1\r\nz\r\n']);
    expect(await w.call('LRANGE', 'k', '0', '-1')).toBe('*1\r\n$1\r\ny\r\n');
    expect(await w.call('LRANGE', 'dst', '0', '-1')).toBe('*1\r\n$1\r\nz\r\n');
  });

  it('answers the nil array when the timeout (seconds) passes on the server clock', async () => {
    const [a, w] = [await connect(), await connect()];
    a.write(request('BRPOP', 'k', '1.5'));
    await blocked(w, 1);
    await server.tick(1499);
    await w.call('PING');
    expect(a.pending).toBe('');
    await server.tick(1);
    expect(await a.read()).toEqual(['*-1\r\n']);
  });

  it('BLMPOP waits and pops up to COUNT from the first list pushed', async () => {
    const [a, w] = [await connect(), await connect()];
    a.write(request('BLMPOP', '0', '2', 'x', 'y', 'LEFT', 'COUNT', '2'));
    await blocked(w, 1);
    await w.call('RPUSH', 'y', '1', '2', '3');
    expect(await a.read()).toEqual(['*2\r\n$1\r\ny\r\n*2\r\n$1\r\n1\r\n$1\r\n2\r\n']);
  });

  it('CLIENT UNBLOCK ends a wait as a timeout or with an error', async () => {
    const [a, w] = [await connect(), await connect()];
    const id = (await a.call('CLIENT', 'ID')).slice(1, -2);
    a.write(request('BLPOP', 'k', '0'));
    await blocked(w, 1);
    expect(await w.call('CLIENT', 'UNBLOCK', id)).toBe(':1\r\n');
    expect(await a.read()).toEqual(['*-1\r\n']);
    a.write(request('BLPOP', 'k', '0'));
    await blocked(w, 1);
    expect(await w.call('CLIENT', 'UNBLOCK', id, 'ERROR')).toBe(':1\r\n');
    expect(await a.read()).toEqual(['-UNBLOCKED client unblocked via CLIENT UNBLOCK\r\n']);
    expect(await w.call('CLIENT', 'UNBLOCK', id)).toBe(':0\r\n');
  });
});
