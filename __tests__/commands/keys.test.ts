/**
 * The generic key commands (lib/commands/keys.ts, expire.ts, object.ts) on the unit harness:
 * replies, errors in Redis's order, keyspace events, dirty counts, versions, binary keys.
 * (Against real servers: __tests__/differential/keys-real-server.test.ts; the keyspace
 * machinery — active expiry, SCAN's key index, notify config — in __tests__/engine/keys-engine.test.ts.)
 */
import { Harness } from '../helpers/harness';

const BIN = '\xff\xfe\x00k'; // not UTF-8

// keymiss (class m) is checked in __tests__/differential/keyspace-events-keymiss-key-commands-real-server.test.ts
describe('DEL, UNLINK, EXISTS, TOUCH, TYPE', () => {
  it('counts each key deleted once, each existing key named as often as it is named', () => {
    const h = new Harness();
    h.db.store('a', '1');
    h.db.store(BIN, 'v');
    expect(h.run('exists', 'a', 'a', BIN, 'nokey')).toBe(3);
    expect(h.run('touch', 'a', 'nokey')).toBe(1);
    expect(h.run('del', 'a', 'a', BIN, 'nokey')).toBe(2);
    expect(h.run('unlink', 'a')).toBe(0);
    expect(h.notifications.filter(([c]) => c !== 'm')).toEqual([
      ['g', 'del', 'a'],
      ['g', 'del', BIN],
    ]);
    expect(h.dirtyCount).toBe(2);
  });

  it('answers TYPE for every type, none for a missing or expired key', () => {
    const h = new Harness();
    h.db.store('s', 'x');
    h.db.store('l', ['a']);
    h.db.store('set', new Set(['a']));
    h.db.store('z', new Map());
    h.db.store('h', { f: 'v' });
    h.db.store('m', { redisType: 'zset' });
    expect(['s', 'l', 'set', 'z', 'h', 'm', 'nokey'].map((k) => h.run('type', k))).toEqual(['string', 'list', 'set', 'zset', 'hash', 'zset', 'none']);
    h.db.setTtlAt('s', h.now + 10);
    h.now += 10;
    expect(h.run('type', 's')).toBe('none');
    expect(h.notifications.filter(([c]) => c !== 'm')).toEqual([['x', 'expired', 's']]);
  });
});

// lazyfreed_objects after each deletion, recorded on redis-server 7.0.15 and the post-7.4 build (Redis's
// unit/lazyfree 'lazy free a stream with all types of metadata', 'lazy free a stream with deleted cgroup')
describe.each(['7.0', '8.10'] as const)('UNLINK and lazyfree (%s)', (version) => {
  const members = (n: number, prefix = 'm') => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);

  it('hands a value of free effort above 64 to the lazyfree thread: UNLINK, DEL with lazyfree-lazy-user-del', () => {
    const h = new Harness();
    h.version = version;
    const counts: number[] = [];
    const unlink = (...cmd: string[]) => {
      h.run(...cmd);
      h.run('unlink', cmd[1]);
      counts.push(h.lazyfreedCount);
    };
    unlink('sadd', 's', ...members(64));
    unlink('sadd', 's', ...members(65)); // 7.0: a hashtable of 65; 7.2+: a listpack up to 128
    unlink('sadd', 's', ...members(300).map((_, i) => String(i))); // an intset: effort 1
    h.run('sadd', 's', ...members(300));
    h.run('del', 's');
    counts.push(h.lazyfreedCount);
    h.config.set([['lazyfree-lazy-user-del', 'yes']], version);
    h.run('sadd', 's', ...members(300));
    h.run('del', 's');
    counts.push(h.lazyfreedCount);
    h.config.set([['lazyfree-lazy-user-del', 'no']], version);
    unlink('zadd', 'z', ...members(165).flatMap((m, i) => [String(i), m]));
    unlink('rpush', 'l', ...Array.from({ length: 30000 }, (_, i) => String(i).padStart(5, '0'))); // 26 nodes
    for (let i = 0; i < 100000; i += 5000) h.run('rpush', 'l', ...Array.from({ length: 5000 }, (_, j) => `xxxxxxxxxx${String(i + j).padStart(6, '0')}`));
    unlink('llen', 'l'); // 100,000 elements of 16 bytes: more than 64 nodes
    expect(counts).toEqual(version === '7.0' ? [0, 1, 1, 1, 2, 3, 3, 4] : [0, 0, 0, 0, 1, 2, 2, 3]);
  });

  it('weighs a stream by its radix tree nodes and groups × (1 + the PEL of the first group by name)', () => {
    const h = new Harness();
    h.version = version;
    h.config.set([['stream-node-max-entries', '1']], version);
    const stream = (group: string, other: string) => {
      h.run('xadd', 'st', '1-0', 'f', 'v');
      h.db.getStream('st')!.entries.limits = h.config.nodeLimits; // the keyspace's store does this
      for (let i = 2; i <= 20; i++) h.run('xadd', 'st', `${i}-0`, 'f', 'v');
      h.run('xgroup', 'create', 'st', other, '0');
      h.run('xgroup', 'create', 'st', group, '0');
      h.run('xreadgroup', 'group', group, 'c', 'count', '20', 'streams', 'st', '>');
      expect(h.run('xinfo', 'stream', 'st')).toContain(42); // radix-tree-nodes
      h.run('unlink', 'st');
      return h.lazyfreedCount;
    };
    expect(stream('a', 'g')).toBe(1); // 42 + 2 × (1 + 20)
    expect(stream('b', 'a')).toBe(1); // 42 + 2 × (1 + 0): 'a' comes first
  });
});

describe('RENAME, RENAMENX, MOVE, SWAPDB', () => {
  it('moves the value with its TTL and drops the destination’s, with new, rename_from, rename_to', () => {
    const h = new Harness();
    h.db.store('src', 'v');
    h.db.setTtlAt('src', h.now + 5000);
    h.db.store('dst', 'old');
    h.db.setTtlAt('dst', h.now + 99_000);
    expect(h.run('rename', 'src', 'dst')).toBe('OK');
    expect(h.keys.get('dst')).toBe('v');
    expect(h.run('pttl', 'dst')).toBe(5000);
    expect(h.run('exists', 'src')).toBe(0);
    expect(h.notifications.filter(([c]) => c !== 'm')).toEqual([
      ['n', 'new', 'dst'],
      ['g', 'rename_from', 'src'],
      ['g', 'rename_to', 'dst'],
    ]);
    expect(h.dirtyCount).toBe(1);
  });

  it('answers no such key for a missing source even when both names are equal', () => {
    const h = new Harness();
    expect(h.error('rename', 'a', 'a')).toBe('ERR no such key');
    expect(h.error('renamenx', 'a', 'b')).toBe('ERR no such key');
    h.db.store('a', '1');
    h.db.store('b', '2');
    expect(h.run('rename', 'a', 'a')).toBe('OK');
    expect(h.run('renamenx', 'a', 'a')).toBe(0);
    expect(h.run('renamenx', 'a', 'b')).toBe(0);
    expect(h.run('renamenx', 'a', BIN)).toBe(1);
    expect(h.keys.get(BIN)).toBe('1');
  });

  it('MOVE checks the index, then the database, then the key; the TTL moves too', () => {
    const h = new Harness();
    h.db.store('k', 'v');
    h.db.setTtlAt('k', h.now + 3000);
    expect(h.error('move', 'k', 'abc')).toBe('ERR value is not an integer or out of range');
    expect(h.error('move', 'k', '2147483648')).toBe('ERR value is out of range, value must between -2147483648 and 2147483647');
    expect(h.error('move', 'k', '16')).toBe('ERR DB index is out of range');
    expect(h.error('move', 'nokey', '0')).toBe('ERR source and destination objects are the same');
    expect(h.run('move', 'nokey', '1')).toBe(0);
    h.sibling(2).db.store('taken', 'x');
    h.db.store('taken', 'y');
    expect(h.run('move', 'taken', '2')).toBe(0);
    expect(h.run('move', 'k', '2')).toBe(1);
    expect(h.run('exists', 'k')).toBe(0);
    expect(h.sibling(2).run('pttl', 'k')).toBe(3000);
    expect(h.notifications.filter(([c]) => c !== 'm')).toEqual([['g', 'move_from', 'k']]);
    expect(h.sibling(2).notifications).toEqual([
      ['n', 'new', 'k'],
      ['g', 'move_to', 'k'],
    ]);
  });

  it('SWAPDB parses both indexes before the range check', () => {
    const h = new Harness();
    expect(h.error('swapdb', 'x', 'y')).toBe('ERR invalid first DB index');
    expect(h.error('swapdb', '0', '2147483648')).toBe('ERR invalid second DB index');
    expect(h.error('swapdb', '0', '16')).toBe('ERR DB index is out of range');
    h.db.store('a', '1');
    expect(h.run('swapdb', '0', '1')).toBe('OK');
    expect(h.run('dbsize')).toBe(0);
    expect(h.sibling(1).keys.get('a')).toBe('1');
    expect(h.notifications).toEqual([]);
  });
});

describe('KEYS, SCAN, RANDOMKEY, DBSIZE', () => {
  it('KEYS matches glob patterns bytewise and is not exponential', () => {
    const h = new Harness();
    for (const k of ['hello', 'hallo', 'hxllo', 'heeeello', BIN]) h.db.store(k, 'v');
    expect((h.run('keys', 'h?llo') as string[]).sort()).toEqual(['hallo', 'hello', 'hxllo']);
    expect(h.run('keys', 'h[^e]llo')).toEqual(['hallo', 'hxllo']);
    expect(h.run('keys', '\xff*')).toEqual([BIN]);
    h.db.store('a'.repeat(40), '1');
    const start = Date.now();
    expect(h.run('keys', 'a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b')).toEqual([]);
    expect(h.run('keys', '*?'.repeat(5000))).toEqual([]);
    expect(Date.now() - start).toBeLessThan(2000);
  });

  it('SCAN options and errors as each version reads them', () => {
    const h = new Harness();
    h.db.store('k1', 'v');
    h.db.store('l1', ['x']);
    expect(h.error('scan', '0', 'count', '0')).toBe('ERR syntax error');
    expect(h.error('scan', '0', 'count', 'x')).toBe('ERR value is not an integer or out of range');
    expect(h.error('scan', '0', 'match')).toBe('ERR syntax error');
    expect(h.error('scan', 'abc')).toBe('ERR invalid cursor');
    expect(h.error('scan', '-1')).toBe('ERR invalid cursor');
    expect(h.error('scan', '0', 'type', 'foo')).toBe("ERR unknown type name 'foo'");
    expect(h.error('scan', '0', 'novalues')).toBe('ERR NOVALUES option can only be used in HSCAN');
    expect(h.run('scan', '0', 'type', 'LIST')).toEqual(['0', ['l1']]);
    expect(h.run('scan', '0', 'match', 'k*', 'count', '100')).toEqual(['0', ['k1']]);
    h.version = '7.0';
    expect(h.run('scan', '-1')).toEqual(['0', []]);
    expect((h.run('scan', '') as [string, string[]])[1]).toHaveLength(2);
    expect(h.error('scan', ' 1')).toBe('ERR invalid cursor');
    expect(h.run('scan', '0', 'type', 'foo')).toEqual(['0', []]);
    expect(h.error('scan', '0', 'novalues')).toBe('ERR syntax error');
  });

  it('DBSIZE counts keys, RANDOMKEY answers one of them or nil', () => {
    const h = new Harness();
    expect(h.run('randomkey')).toBeNull();
    expect(h.run('dbsize')).toBe(0);
    h.db.store('a', '1');
    h.db.store(BIN, '1');
    expect([BIN, 'a']).toContain(h.run('randomkey'));
    expect(h.run('dbsize')).toBe(2);
  });
});

describe('EXPIRE family, TTL, PERSIST', () => {
  it('checks options before the time, then the overflows, in Redis’s order and words', () => {
    const h = new Harness();
    h.db.store('k', 'v');
    expect(h.error('expire', 'k', 'abc', 'nx', 'zz')).toBe('ERR Unsupported option zz');
    expect(h.error('expire', 'k', '10', 'XX', 'NX')).toBe('ERR NX and XX, GT or LT options at the same time are not compatible');
    expect(h.error('expire', 'k', '10', 'gt', 'lt')).toBe('ERR GT and LT options at the same time are not compatible');
    expect(h.error('expire', 'k', 'abc')).toBe('ERR value is not an integer or out of range');
    expect(h.error('EXPIRE', 'k', '9223372036854776')).toBe("ERR invalid expire time in 'expire' command");
    expect(h.error('expire', 'k', '-9223372036854776')).toBe("ERR invalid expire time in 'expire' command");
    expect(h.error('expire', 'k', '9223370399119966')).toBe("ERR invalid expire time in 'expire' command");
    expect(h.error('pexpire', 'k', '9223372036854770000')).toBe("ERR invalid expire time in 'pexpire' command");
    expect(h.run('pexpireat', 'k', '9223372036854770000')).toBe(1);
    expect(h.run('ttl', 'k')).toBeGreaterThan(9e15);
    expect(h.run('pexpire', 'k', '-9223372036854775808')).toBe(1);
    expect(h.run('exists', 'k')).toBe(0);
  });

  it('NX/XX/GT/LT conditions; a past time deletes with del, a future one sends expire', () => {
    const h = new Harness();
    h.db.store('k', 'v');
    expect(h.run('expire', 'k', '100', 'XX')).toBe(0);
    expect(h.run('expire', 'k', '100', 'GT')).toBe(0);
    expect(h.run('expire', 'k', '100', 'LT')).toBe(1);
    expect(h.run('expire', 'k', '200', 'NX')).toBe(0);
    expect(h.run('expire', 'k', '50', 'GT')).toBe(0);
    expect(h.run('expire', 'k', '200', 'gt')).toBe(1);
    expect(h.run('ttl', 'k')).toBe(200);
    expect(h.run('expireat', 'nokey', '1')).toBe(0);
    expect(h.run('expireat', 'k', '1')).toBe(1);
    expect(h.run('exists', 'k')).toBe(0);
    expect(h.notifications.filter(([c]) => c !== 'm')).toEqual([
      ['g', 'expire', 'k'],
      ['g', 'expire', 'k'],
      ['g', 'del', 'k'],
    ]);
    expect(h.dirtyCount).toBe(3);
  });

  it('GT/LT: the same far time twice is not later (EXPIREAT beyond 2^53 ms, found by the core fuzzer)', () => {
    // redis-server 7.0.15 and the post-7.4 build: 1, then 0 for GT
    const h = new Harness();
    h.db.store('d', 'v');
    expect(h.run('EXPIREAT', 'd', '9223372036854775', 'NX')).toBe(1);
    expect(h.run('EXPIREAT', 'd', '9223372036854775', 'GT')).toBe(0);
    expect(h.run('EXPIREAT', 'd', '9223372036854775', 'LT')).toBe(0);
    expect(h.run('PEXPIREAT', 'd', '9223372036854775000', 'GT')).toBe(0);
    expect(h.run('EXPIREAT', 'd', '9223372036854774', 'LT')).toBe(1);
  });

  it('PEXPIRETIME of PXAT INT64_MAX answers INT64_MAX (a double held 2^63, whose digits are no int64: redis-cli refused the reply)', () => {
    // redis-server 7.0.15: SET k v PXAT 9223372036854775807, PEXPIRETIME k → 9223372036854775807
    const h = new Harness();
    h.db.store('far', 'v');
    expect(h.run('PEXPIREAT', 'far', '9223372036854775807')).toBe(1);
    expect(h.run('PEXPIRETIME', 'far')).toBe(9223372036854775807n);
    expect(h.run('EXPIRETIME', 'far')).toBe(9223372036854776);
  });

  it('TTL rounds to the nearest second; EXPIRETIME/PEXPIRETIME answer the absolute time; PERSIST', () => {
    const h = new Harness();
    expect(['ttl', 'pttl', 'expiretime', 'pexpiretime', 'persist'].map((c) => h.run(c, 'nokey'))).toEqual([-2, -2, -2, -2, 0]);
    h.db.store(BIN, 'v');
    expect(['ttl', 'pttl', 'expiretime', 'pexpiretime', 'persist'].map((c) => h.run(c, BIN))).toEqual([-1, -1, -1, -1, 0]);
    expect(h.run('pexpire', BIN, '1499')).toBe(1);
    expect(h.run('ttl', BIN)).toBe(1);
    expect(h.run('pexpire', BIN, '1500')).toBe(1);
    expect(h.run('ttl', BIN)).toBe(2);
    expect(h.run('pexpiretime', BIN)).toBe(h.now + 1500);
    expect(h.run('expiretime', BIN)).toBe(Math.floor((h.now + 1500 + 500) / 1000));
    expect(h.run('persist', BIN)).toBe(1);
    expect(h.run('ttl', BIN)).toBe(-1);
    expect(h.notifications.at(-1)).toEqual(['g', 'persist', BIN]);
  });
});

describe('OBJECT', () => {
  it('ENCODING of strings and model values, nil for a missing key', () => {
    const h = new Harness();
    h.db.store('i', '12345');
    h.db.store('e', 'x'.repeat(44));
    h.db.store('r', 'x'.repeat(45));
    h.db.store('m', { redisType: 'hash', encoding: (_c: unknown, v: string) => `enc-${v}` });
    expect(['i', 'e', 'r', 'm', 'nokey'].map((k) => h.run('object', 'encoding', k))).toEqual(['int', 'embstr', 'raw', 'enc-8.10', null]);
  });

  it('IDLETIME counts whole seconds since the last access; OBJECT itself is no access', () => {
    const h = new Harness();
    h.now = 1_700_000_000_900;
    h.db.store('k', 'v');
    h.now += 2200;
    expect(h.run('object', 'idletime', 'k')).toBe(3);
    expect(h.run('object', 'idletime', 'k')).toBe(3);
    h.run('touch', 'k');
    expect(h.run('object', 'idletime', 'k')).toBe(0);
    expect(h.error('object', 'freq', 'k')).toMatch(/^ERR An LFU maxmemory policy is not selected/);
    h.config.set([['maxmemory-policy', 'allkeys-lfu']], h.version);
    expect(h.run('object', 'freq', 'k')).toBe(5);
    expect(h.error('object', 'idletime', 'k')).toMatch(/^ERR An LFU maxmemory policy is selected/);
  });

  it('REFCOUNT of shared integers; HELP; argument errors', () => {
    const h = new Harness();
    h.db.store('one', '1');
    h.db.store('big', '10000');
    expect(h.run('object', 'refcount', 'one')).toBe(2147483647);
    expect(h.run('object', 'refcount', 'big')).toBe(1);
    expect(h.run('object', 'refcount', 'nokey')).toBeNull();
    expect((h.run('object', 'help') as string[]).at(-1)).toBe('    Print this help.');
    h.version = '7.0';
    expect((h.run('object', 'help') as string[]).at(-1)).toBe('    Prints this help.');
    expect(h.error('object', 'encoding')).toBe("ERR wrong number of arguments for 'object|encoding' command");
    expect(h.error('object', 'help', 'x')).toBe("ERR wrong number of arguments for 'object|help' command");
    expect(h.error('object', 'foo', 'bar')).toBe("ERR unknown subcommand 'foo'. Try OBJECT HELP.");
  });
});
