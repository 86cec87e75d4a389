/**
 * `serve()` options and start-up configuration as a redis-server takes them (a fresh-user trial):
 * - `serve({ password: 5 })` started, then the first connection threw in the server's connection
 *   handler and ended the process; every option's shape is now checked at the call
 *   (StreamsMockError naming the option), as createFakeClock and createUpstashHandler check theirs;
 * - `config: { requirepass }` (and `serve --requirepass`) was shown by CONFIG GET but not
 *   enforced (PING answered PONG; `redis-server --requirepass s3cret` answers NOAUTH), and the
 *   `password` option was enforced but CONFIG GET requirepass said "": both are now the server's
 *   requirepass; a CONFIG SET requirepass also holds for connections opened after it (each new
 *   connection put the option's password back);
 * - CONFIG SET proto-max-bulk-len was not enforced by the RESP parser (7.0.15: `ERR Protocol
 *   error: invalid bulk length` for a longer bulk), and `maxBulkLen` was not what CONFIG GET said;
 * - `server.waitForBlocked()` with nothing blocked never settled (the in-process
 *   `streamsKeyspace(redis).waitForBlocked` rejects after 2000 ms): now the same, `{ timeoutMs }`;
 * - CLIENT PAUSE … ALL held MOCKCLOCK too, so on a manual clock no other process could ever end
 *   the pause;
 * - `serve --save` (no value) was refused; redis-server takes it as `save ""`.
 */
import { StreamsMockError } from 'ioredis-mock-streams';
import { serve } from 'ioredis-mock-streams/server';
import Redis, { createFakeClock } from 'ioredis-mock-streams';
import { serverArguments } from '../../lib/cli';
import { RawClient } from '../server/raw-client';

describe('serve() options of the wrong shape are refused at the call', () => {
  it.each([
    [{ password: 5 }, 'serve: password must be a string, got number'],
    ['abc', 'serve(options): options must be an object'],
    [{ nope: 1 }, 'serve: unknown option "nope"'],
    [{ maxBulkLen: Number.NaN }, 'serve: maxBulkLen must be a whole number of bytes (proto-max-bulk-len, at least 1048576), got NaN'],
    [{ maxBulkLen: 1000 }, 'serve: maxBulkLen must be a whole number of bytes (proto-max-bulk-len, at least 1048576), got 1000'],
    [{ clockCommand: 'yes' }, 'serve: clockCommand must be true or false, got yes'],
    [{ cluster: 'x' }, 'serve: cluster must be true or a number of masters 1-1000, got x'],
    [{ host: '' }, `serve: host must be an interface address such as '127.0.0.1', got ""`],
    [{ config: [] }, 'serve: config must be an object of CONFIG parameters and values'],
    [{ config: null }, 'serve: config must be an object of CONFIG parameters and values'],
    [{ clock: { now: () => 'x', schedule: () => ({ cancel() {} }) } }, 'clock.now() returned "x"'],
    [{ password: 'a', config: { requirepass: 'b' } }, 'serve: the password option and config requirepass say different things; give one of them'],
  ])('serve(%j) rejects with a StreamsMockError', async (options, message) => {
    const started = serve(options as never);
    await expect(started).rejects.toThrow(StreamsMockError);
    await expect(started).rejects.toThrow(message);
  });
});

describe('requirepass at start-up', () => {
  it('config: { requirepass } is enforced from the first connection, as redis-server --requirepass', async () => {
    const server = await serve({ config: { requirepass: 's3cret' } });
    const c = await RawClient.connect(server.port);
    try {
      expect(await c.call('PING')).toBe('-NOAUTH Authentication required.\r\n');
      expect(await c.call('AUTH', 's3cret')).toBe('+OK\r\n');
      expect(await c.call('PING')).toBe('+PONG\r\n');
    } finally {
      c.close();
      await server.close();
    }
  });

  it('the password option is the requirepass CONFIG GET answers; a CONFIG SET of it holds for later connections', async () => {
    const server = await serve({ password: 'pw' });
    const a = await RawClient.connect(server.port);
    try {
      expect(await a.call('AUTH', 'pw')).toBe('+OK\r\n');
      expect(await a.call('CONFIG', 'GET', 'requirepass')).toBe('*2\r\n$11\r\nrequirepass\r\n$2\r\npw\r\n');
      expect(await a.call('CONFIG', 'SET', 'requirepass', 'other')).toBe('+OK\r\n');
      const b = await RawClient.connect(server.port);
      try {
        expect(await b.call('AUTH', 'pw')).toBe('-WRONGPASS invalid username-password pair or user is disabled.\r\n');
        expect(await b.call('AUTH', 'other')).toBe('+OK\r\n');
      } finally {
        b.close();
      }
    } finally {
      a.close();
      await server.close();
    }
  });
});

describe('proto-max-bulk-len', () => {
  const setOf = (bytes: number) => `*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$${bytes}\r\n`;

  it('CONFIG SET proto-max-bulk-len applies to the open connection: a longer bulk is a protocol error', async () => {
    const server = await serve();
    const c = await RawClient.connect(server.port);
    try {
      expect(await c.call('CONFIG', 'SET', 'proto-max-bulk-len', '1mb')).toBe('+OK\r\n');
      c.write(setOf(2_000_000));
      expect(await c.read()).toEqual(['-ERR Protocol error: invalid bulk length\r\n']);
    } finally {
      c.close();
      await server.close();
    }
  });

  it('maxBulkLen is the proto-max-bulk-len CONFIG GET answers', async () => {
    const server = await serve({ maxBulkLen: 1048576 });
    const c = await RawClient.connect(server.port);
    try {
      expect(await c.call('CONFIG', 'GET', 'proto-max-bulk-len')).toBe('*2\r\n$18\r\nproto-max-bulk-len\r\n$7\r\n1048576\r\n');
      c.write(setOf(1048577));
      expect(await c.read()).toEqual(['-ERR Protocol error: invalid bulk length\r\n']);
    } finally {
      c.close();
      await server.close();
    }
  });
});

describe('the clock control', () => {
  it('CLIENT PAUSE … ALL does not hold MOCKCLOCK: another process ends the pause on a manual clock', async () => {
    const server = await serve({ clock: createFakeClock({ now: 1_000_000 }) });
    const a = await RawClient.connect(server.port);
    const b = await RawClient.connect(server.port);
    try {
      expect(await a.call('CLIENT', 'PAUSE', '5000', 'ALL')).toBe('+OK\r\n');
      b.write('*1\r\n$4\r\nPING\r\n');
      expect(await a.call('MOCKCLOCK', 'TICK', '4000')).toBe(':1004000\r\n');
      expect(await a.call('MOCKCLOCK', 'TICK', '1000')).toBe(':1005000\r\n'); // the pause ends: the PING runs
      expect(await b.read()).toEqual(['+PONG\r\n']);
      expect(server.now()).toBe(1_005_000); // each TICK moved the clock once
    } finally {
      a.close();
      b.close();
      await server.close();
    }
  });

  it('waitForBlocked counts the in-process clients of the server too, and checks its options', async () => {
    const server = await serve();
    const local = new Redis({ port: server.port });
    try {
      await expect(server.waitForBlocked(1, 50 as never)).rejects.toThrow('options must be an object such as { timeoutMs: 5000 }');
      await expect(server.waitForBlocked(1, { bogus: 1 } as never)).rejects.toThrow('unknown option "bogus" (the one option is timeoutMs)');
      const popped = local.blpop('q', 0);
      await expect(server.waitForBlocked(1, { timeoutMs: Infinity })).resolves.toBeUndefined();
      expect(server.blockedCount).toBe(1);
      const writer = local.duplicate();
      await writer.rpush('q', 'x');
      await expect(popped).resolves.toEqual(['q', 'x']);
      writer.disconnect();
    } finally {
      local.disconnect();
      await server.close();
    }
  });

  it('waitForBlocked rejects after timeoutMs with the count blocked, and resolves once a client blocks', async () => {
    const server = await serve();
    const c = await RawClient.connect(server.port);
    try {
      await expect(server.waitForBlocked(1, { timeoutMs: 50 })).rejects.toThrow('waitForBlocked(1): 0 clients are blocked after 50 ms');
      await expect(server.waitForBlocked(1, { timeoutMs: -1 })).rejects.toThrow(StreamsMockError);
      const waiting = server.waitForBlocked(1, { timeoutMs: 5000 });
      c.write('*3\r\n$5\r\nBLPOP\r\n$1\r\nl\r\n$1\r\n0\r\n');
      await expect(waiting).resolves.toBeUndefined();
      expect(server.blockedCount).toBe(1);
    } finally {
      c.close();
      await server.close();
    }
  });
});

describe('serve --save without a value', () => {
  it('is save "" (redis-server --save: no snapshots), any other parameter without a value stays refused', () => {
    expect(serverArguments(['--save'], false)).toEqual({ config: { save: '' } });
    expect(serverArguments(['--save', '--appendonly', 'no'], false)).toEqual({ config: { save: '', appendonly: 'no' } });
    expect(() => serverArguments(['--appendonly'], false)).toThrow('--appendonly: Bad directive or wrong number of arguments');
  });
});
