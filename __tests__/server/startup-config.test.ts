/**
 * `serve({ config })` and `serve --<name> <value…>`: CONFIG parameters at start-up, as
 * redis-server takes them from its arguments (immutable ones too), with redis-server's reasons
 * for an unknown parameter or a refused value (checked on 7.0.15: `redis-server --foo bar` →
 * "Bad directive or wrong number of arguments"; `--maxmemory-policy nope` → "argument(s) must be
 * one of the following: …").
 */
import { StreamsMockError } from 'ioredis-mock-streams';
import { serve } from 'ioredis-mock-streams/server';
import { serverArguments } from '../../lib/cli';
import { RawClient } from './raw-client';

describe('serve({ config }): CONFIG parameters at start-up', () => {
  it('sets mutable and immutable parameters; CONFIG SET still refuses the immutable ones later', async () => {
    const server = await serve({
      config: { 'notify-keyspace-events': 'KEA', 'enable-debug-command': 'yes', save: '900 1', 'hash-max-listpack-entries': '5', appendonly: 'no' },
    });
    const c = await RawClient.connect(server.port);
    try {
      expect(await c.call('CONFIG', 'GET', 'notify-keyspace-events')).toBe('*2\r\n$22\r\nnotify-keyspace-events\r\n$3\r\nAKE\r\n');
      expect(await c.call('CONFIG', 'GET', 'save')).toBe('*2\r\n$4\r\nsave\r\n$5\r\n900 1\r\n');
      expect(await c.call('CONFIG', 'GET', 'enable-debug-command')).toBe('*2\r\n$20\r\nenable-debug-command\r\n$3\r\nyes\r\n');
      expect(await c.call('CONFIG', 'SET', 'enable-debug-command', 'no')).toBe(
        "-ERR CONFIG SET failed (possibly related to argument 'enable-debug-command') - can't set immutable config\r\n",
      );
      // the setting is honoured: a hash of 6 fields is a hash table, keyspace events are published
      expect(await c.call('HSET', 'h', 'a', '1', 'b', '2', 'c', '3', 'd', '4', 'e', '5', 'f', '6')).toBe(':6\r\n');
      expect(await c.call('OBJECT', 'ENCODING', 'h')).toBe('$9\r\nhashtable\r\n');
      // DEBUG is let through by the setting: SLEEP runs, the others say plainly that the fake runs none of them
      expect(await c.call('DEBUG', 'SLEEP', '0')).toBe('+OK\r\n');
      expect(await c.call('DEBUG', 'OBJECT', 'h')).toBe('-ERR DEBUG OBJECT is not emulated: ioredis-mock-streams runs DEBUG SLEEP only (enable-debug-command is on)\r\n');
    } finally {
      c.close();
      await server.close();
    }
  });

  it('takes the last of one parameter named twice (another case, an alias), as redis-server does', async () => {
    // redis-server 7.0.15 --maxmemory-policy allkeys-lru --MAXMEMORY-POLICY volatile-lru
    // --hash-max-listpack-entries 5 --hash-max-ziplist-entries 6: volatile-lru and 6
    const server = await serve({
      config: { 'maxmemory-policy': 'allkeys-lru', 'MAXMEMORY-POLICY': 'volatile-lru', 'hash-max-listpack-entries': '5', 'hash-max-ziplist-entries': '6' },
    });
    const c = await RawClient.connect(server.port);
    try {
      expect(await c.call('CONFIG', 'GET', 'maxmemory-policy')).toBe('*2\r\n$16\r\nmaxmemory-policy\r\n$12\r\nvolatile-lru\r\n');
      expect(await c.call('CONFIG', 'GET', 'hash-max-listpack-entries')).toBe('*2\r\n$25\r\nhash-max-listpack-entries\r\n$1\r\n6\r\n');
    } finally {
      c.close();
      await server.close();
    }
  });

  it('without the setting, DEBUG is refused as a default redis-server refuses it', async () => {
    const server = await serve({});
    const c = await RawClient.connect(server.port);
    try {
      expect(await c.call('DEBUG', 'SLEEP', '0')).toMatch(/^-ERR DEBUG command not allowed\. If the enable-debug-command option is set to "local"/);
    } finally {
      c.close();
      await server.close();
    }
  });

  it.each([
    [{ foo: 'bar' }, 'serve: config foo "bar": Bad directive or wrong number of arguments'],
    [{ 'maxmemory-policy': 'nope' }, 'serve: config maxmemory-policy "nope": argument(s) must be one of the following: volatile-lru, volatile-lfu, volatile-random, volatile-ttl, allkeys-lru, allkeys-lfu, allkeys-random, noeviction'],
    [{ daemonize: 'yes' }, 'serve: config daemonize: the fake does not daemonize: run it in the background'],
    [{ port: '7000' }, 'serve: config port: give the port option (serve --port)'],
    [{ databases: '4' }, 'serve: config databases: the fake has 16 databases'],
  ])('refuses %j before listening, with the reason', async (config, message) => {
    const err = await serve({ config }).then(
      (s) => s.close().then(() => null),
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StreamsMockError);
    expect((err as Error).message).toContain(message);
  });
});

describe('serve --<name> <value…> (the CLI arguments as redis-server takes them)', () => {
  it('reads each --name and the words up to the next --name as one value; --bind is the host', () => {
    expect(serverArguments(['--save', '', '--save', '900', '1', '--appendonly', 'no', '--Notify-Keyspace-Events', 'KEA', '--bind', '127.0.0.1', '-::1'], false)).toEqual({
      config: { save: '900 1', appendonly: 'no', 'notify-keyspace-events': 'KEA' },
      host: '127.0.0.1',
    });
    expect(serverArguments(['--bind', '-::1'], false)).toEqual({ config: {}, host: '::1' });
    expect(serverArguments(['--bind', '0.0.0.0'], true)).toEqual({ config: {} }); // --host given: it wins
  });

  it('refuses a stray word and a parameter without a value', () => {
    expect(() => serverArguments(['stray'], false)).toThrow('unexpected argument "stray"');
    expect(() => serverArguments(['--appendonly'], false)).toThrow('--appendonly: Bad directive or wrong number of arguments');
  });

  it('refuses several words for a one-argument parameter, as redis-server does ("wrong number of arguments")', () => {
    // redis-server 7.0.15: `--requirepass a b` → FATAL CONFIG FILE ERROR … wrong number of arguments
    expect(() => serverArguments(['--requirepass', 'a', 'b'], false)).toThrow('--requirepass a b: wrong number of arguments');
    expect(() => serverArguments(['--maxmemory', '1', '2'], false)).toThrow('wrong number of arguments');
    // its multi-argument parameters (and one argument holding spaces) are taken
    expect(serverArguments(['--shutdown-on-sigint', 'nosave', 'now', '--requirepass', 'a b', '--client-output-buffer-limit', 'pubsub', '0', '0', '0'], false)).toEqual({
      config: { 'shutdown-on-sigint': 'nosave now', requirepass: 'a b', 'client-output-buffer-limit': 'pubsub 0 0 0' },
    });
  });
});
