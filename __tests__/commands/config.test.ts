/**
 * CONFIG GET/SET/RESETSTAT/REWRITE/HELP on the fake, with texts checked on redis-server 7.0.15
 * and the post-7.4 build; the stream node limits drive macro-node splitting and `~` trimming.
 */
import type IORedisReal from 'ioredis';
import Redis, { resetAllKeyspaces } from 'ioredis-mock-streams';

let port = 41_000;
const client = (opts: Record<string, unknown> = {}) =>
  new Redis({ port, ...opts } as never) as unknown as IORedisReal & Record<string, any>;

beforeEach(() => {
  port++;
});

async function error(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected an error reply');
}

describe('CONFIG GET / SET', () => {
  it('answers the compiled-in defaults of the stream node limits', async () => {
    const r = client();
    expect(await r.config('GET', 'stream-node-max-entries')).toEqual(['stream-node-max-entries', '100']);
    expect(await r.call('CONFIG', 'GET', 'stream-node-max-bytes')).toEqual(['stream-node-max-bytes', '4096']);
    r.disconnect();
  });

  it('sets several parameters at once and shares them with every client of the keyspace', async () => {
    const a = client();
    const b = client();
    const other = client({ port: port + 5000 });
    expect(await a.config('SET', 'stream-node-max-entries', '7', 'stream-node-max-bytes', '1k')).toBe('OK');
    expect(await b.config('GET', 'stream-node-*')).toEqual(['stream-node-max-entries', '7', 'stream-node-max-bytes', '1000']);
    expect(await other.config('GET', 'stream-node-max-entries')).toEqual(['stream-node-max-entries', '100']);
    [a, b, other].forEach((c) => c.disconnect());
  });

  it('answers an exact name as given, patterns with every match, each name once', async () => {
    const r = client();
    expect(await r.config('GET', 'STREAM-NODE-MAX-ENTRIES', 'stream-node-max-entries')).toEqual(['STREAM-NODE-MAX-ENTRIES', '100']);
    expect(await r.config('GET', 'maxmemory', 'maxmemory*')).toEqual([
      'maxmemory', '0', 'maxmemory-policy', 'noeviction', 'maxmemory-samples', '5', 'maxmemory-clients', '0', 'maxmemory-eviction-tenacity', '10',
    ]);
    expect(await r.config('GET', 'nosuch', 'x\\*')).toEqual([]);
    expect(await r.config('GET', '*lazy-flush')).toEqual(['replica-lazy-flush', 'no', 'slave-lazy-flush', 'no']);
    r.disconnect();
  });

  it('normalises values as Redis does (memory units, yes/no case, enums, clamped hz, event classes, save)', async () => {
    const r = client();
    await r.config('SET', 'maxmemory', '1gb', 'appendonly', 'YES', 'maxmemory-policy', 'ALLKEYS-LRU', 'hz', '0');
    expect(await r.config('GET', 'maxmemory')).toEqual(['maxmemory', '1073741824']);
    expect(await r.config('GET', 'appendonly')).toEqual(['appendonly', 'yes']);
    expect(await r.config('GET', 'maxmemory-policy')).toEqual(['maxmemory-policy', 'allkeys-lru']);
    expect(await r.config('GET', 'hz')).toEqual(['hz', '1']);
    await r.config('SET', 'hz', '5000', 'notify-keyspace-events', 'KEAxx', 'save', '100 10 200 5');
    expect(await r.config('GET', 'hz')).toEqual(['hz', '500']);
    expect(await r.config('GET', 'notify-keyspace-events')).toEqual(['notify-keyspace-events', 'AKE']);
    expect(await r.config('GET', 'save')).toEqual(['save', '100 10 200 5']);
    await r.config('SET', 'notify-keyspace-events', 'Kx', 'maxmemory', '')
    expect(await r.config('GET', 'notify-keyspace-events')).toEqual(['notify-keyspace-events', 'xK']);
    expect(await r.config('GET', 'maxmemory')).toEqual(['maxmemory', '0']);
    // an alias is a parameter of its own sharing the value; setting both is not a duplicate
    expect(await r.config('SET', 'lua-time-limit', '1', 'busy-reply-threshold', '2')).toBe('OK');
    expect(await r.config('GET', 'lua-time-limit')).toEqual(['lua-time-limit', '2']);
    r.disconnect();
  });

  it('is restored to the defaults by resetAllKeyspaces', async () => {
    const r = client();
    await r.config('SET', 'stream-node-max-entries', '3', 'hz', '50');
    resetAllKeyspaces({ keepClocks: true });
    expect(await r.config('GET', 'stream-node-max-entries', 'hz')).toEqual(['stream-node-max-entries', '100', 'hz', '10']);
    r.disconnect();
  });

  it('works in pipelines and MULTI', async () => {
    const r = client();
    const out = await r.pipeline().config('SET', 'hz', '20').config('GET', 'hz').exec();
    expect(out).toEqual([
      [null, 'OK'],
      [null, ['hz', '20']],
    ]);
    expect(await r.multi().config('GET', 'hz').exec()).toEqual([[null, ['hz', '20']]]);
    r.disconnect();
  });

  describe('error cases', () => {
    it('unknown parameters, immutable and protected ones, duplicates, odd argument counts', async () => {
      const r = client();
      expect(await error(r.config('SET', 'nosuch', '1'))).toBe("ERR Unknown option or number of arguments for CONFIG SET - 'nosuch'");
      expect(await error(r.config('SET', 'hz', 'abc', 'nosuch', '1'))).toBe("ERR Unknown option or number of arguments for CONFIG SET - 'nosuch'");
      expect(await error(r.config('SET', 'hz', '10', 'databases', '3', 'nosuch', '1'))).toBe(
        "ERR CONFIG SET failed (possibly related to argument 'databases') - can't set immutable config",
      );
      expect(await error(r.config('SET', 'dbfilename', 'x.rdb'))).toBe(
        "ERR CONFIG SET failed (possibly related to argument 'dbfilename') - can't set protected config",
      );
      expect(await error(r.config('SET', 'stream-node-max-entries', '100', 'STREAM-node-max-entries', '5'))).toBe(
        "ERR CONFIG SET failed (possibly related to argument 'STREAM-node-max-entries') - duplicate parameter",
      );
      expect(await error(r.config('SET', 'hz', '1', 'maxmemory'))).toBe('ERR syntax error');
      r.disconnect();
    });

    it('bad values, with nothing changed when any pair fails', async () => {
      const r = client();
      expect(await error(r.config('SET', 'stream-node-max-entries', 'abc'))).toBe(
        "ERR CONFIG SET failed (possibly related to argument 'stream-node-max-entries') - argument couldn't be parsed into an integer",
      );
      expect(await error(r.config('SET', 'stream-node-max-entries', '-1'))).toBe(
        "ERR CONFIG SET failed (possibly related to argument 'stream-node-max-entries') - argument must be between 0 and 9223372036854775807 inclusive",
      );
      expect(await error(r.config('SET', 'stream-node-max-bytes', '99999999999999999999'))).toBe(
        "ERR CONFIG SET failed (possibly related to argument 'stream-node-max-bytes') - argument must be between 0 and 9223372036854775807 inclusive",
      );
      expect(await error(r.config('SET', 'maxmemory', '1.5gb'))).toBe(
        "ERR CONFIG SET failed (possibly related to argument 'maxmemory') - argument must be a memory value",
      );
      expect(await error(r.config('SET', 'appendonly', 'maybe'))).toBe(
        "ERR CONFIG SET failed (possibly related to argument 'appendonly') - argument must be 'yes' or 'no'",
      );
      expect(await error(r.config('SET', 'stream-node-max-entries', '5', 'maxmemory-policy', 'foo'))).toBe(
        "ERR CONFIG SET failed (possibly related to argument 'maxmemory-policy') - argument(s) must be one of the following: volatile-lru, volatile-lfu, volatile-random, volatile-ttl, allkeys-lru, allkeys-lfu, allkeys-random, noeviction",
      );
      expect(await r.config('GET', 'stream-node-max-entries')).toEqual(['stream-node-max-entries', '100']);
      expect(await error(r.config('SET', 'lua-time-limit', 'abc'))).toBe(
        "ERR CONFIG SET failed (possibly related to argument 'lua-time-limit') - argument couldn't be parsed into an integer",
      );
      expect(await error(r.config('SET', 'notify-keyspace-events', 'Q'))).toBe(
        "ERR CONFIG SET failed (possibly related to argument 'notify-keyspace-events') - Invalid event class character. Use 'Ag$lshzxeKEtmdn'.",
      );
      expect(await error(r.config('SET', 'save', '0 0'))).toBe(
        "ERR CONFIG SET failed (possibly related to argument 'save') - Invalid save parameters",
      );
      r.disconnect();
    });

    it('arity and subcommands; REWRITE without a config file; HELP wording per version; not from scripts', async () => {
      const r = client();
      expect(await error(r.call('CONFIG'))).toBe("ERR wrong number of arguments for 'config' command");
      expect(await error(r.call('CONFIG', 'GET'))).toBe("ERR wrong number of arguments for 'config|get' command");
      expect(await error(r.call('CONFIG', 'SET', 'hz'))).toBe("ERR wrong number of arguments for 'config|set' command");
      expect(await error(r.call('CONFIG', 'RESETSTAT', 'x'))).toBe("ERR wrong number of arguments for 'config|resetstat' command");
      expect(await error(r.call('CONFIG', 'foo'))).toBe("ERR unknown subcommand 'foo'. Try CONFIG HELP.");
      expect(await r.call('CONFIG', 'RESETSTAT')).toBe('OK');
      expect(await error(r.call('CONFIG', 'REWRITE'))).toBe('ERR The server is running without a config file');
      const help = (await r.call('CONFIG', 'HELP')) as string[];
      expect(help[0]).toBe('CONFIG <subcommand> [<arg> [value] [opt] ...]. Subcommands are:');
      expect(help[help.length - 1]).toBe('    Print this help.');
      const old = client({ streams: { redisVersion: '7.0' } });
      const help70 = (await old.call('CONFIG', 'HELP')) as string[];
      expect(help70[help70.length - 1]).toBe('    Prints this help.');
      expect(await error(r.eval("return redis.call('config', 'get', 'hz')", 0))).toMatch(/This Redis command is not allowed from script/);
      [r, old].forEach((c) => c.disconnect());
    });

    it('knows set-max-listpack-* and loglevel "nothing" from 7.2 on', async () => {
      const r = client({ streams: { redisVersion: '7.0' } });
      expect(await r.config('GET', 'set-max-listpack-entries')).toEqual([]);
      expect(await error(r.config('SET', 'loglevel', 'nothing'))).toBe(
        "ERR CONFIG SET failed (possibly related to argument 'loglevel') - argument(s) must be one of the following: debug, verbose, notice, warning",
      );
      r.disconnect();
    });
  });
});

describe('stream node limits from CONFIG', () => {
  const radixTreeKeys = async (r: IORedisReal & Record<string, any>, key: string) => {
    const info = (await r.xinfo('STREAM', key)) as unknown[];
    return info[info.indexOf('radix-tree-keys') + 1];
  };

  it('splits macro nodes after stream-node-max-entries entries, at the next XADD', async () => {
    const r = client();
    for (let i = 1; i <= 5; i++) await r.xadd('s', `${i}-0`, 'f', 'v');
    expect(await radixTreeKeys(r, 's')).toBe(1);
    await r.config('SET', 'stream-node-max-entries', '2');
    for (let i = 6; i <= 10; i++) await r.xadd('s', `${i}-0`, 'f', 'v');
    expect(await radixTreeKeys(r, 's')).toBe(4); // [1..5] is full: [6,7] [8,9] [10] (as on 7.0.15 and the 7.4+ build)
    expect(await r.xtrim('s', 'MAXLEN', '~', 4)).toBe(5); // whole nodes only: [1..5]
    expect(await r.xlen('s')).toBe(5);
    r.disconnect();
  });

  it('treats 0 as "no limit" for the entry count and splits by listpack bytes', async () => {
    const r = client();
    await r.config('SET', 'stream-node-max-entries', '0');
    for (let i = 1; i <= 250; i++) await r.xadd('s', `${i}-0`, 'f', 'v');
    expect(await radixTreeKeys(r, 's')).toBe(1);
    await r.config('SET', 'stream-node-max-bytes', '100');
    for (let i = 251; i <= 260; i++) await r.xadd('s', `${i}-0`, 'field', 'x'.repeat(30));
    // each new node holds what fits under 100 listpack bytes: 2 entries of this size
    expect(await radixTreeKeys(r, 's')).toBe(6);
    r.disconnect();
  });

  it('derives the default `~` trim work limit from stream-node-max-entries (100 × it), as Redis does', async () => {
    const r = client();
    await r.config('SET', 'stream-node-max-entries', '1');
    for (let i = 1; i <= 250; i++) await r.xadd('s', `${i}-1`, 'f', 'v');
    expect(await r.xtrim('s', 'MAXLEN', '~', 0)).toBe(100); // checked on 7.0.15 and the 7.4+ build
    expect(await r.xlen('s')).toBe(150);
    r.disconnect();
  });
});
