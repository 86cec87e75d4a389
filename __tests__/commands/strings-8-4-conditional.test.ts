/**
 * Redis 8.4's conditional string commands (lib/commands/strings.ts SET IF*,
 * lib/commands/strings-conditional.ts DELEX / DIGEST / MSETEX) and the XXH3-64 they use
 * (lib/bytes/xxh3.ts): replies, errors, keyspace events, TTLs, version gating, and — over
 * `serve` — MULTI, Lua, COMMAND INFO/DOCS and the replication stream.
 *
 * Expected digests: xxHash's own sanity vectors (cli/xsum_sanity_check.c XSUM_XXH3_testdata,
 * seed 0, over its generated buffer), redis.io's DIGEST example, and values computed by the
 * xxhash C library 0.8.3 (python xxhash 4.0.1) for the integer and short values.
 */
import type * as net from 'net';
import { type RedisServer, serve } from 'ioredis-mock-streams/server';
import { xxh3 } from '../../lib/bytes/xxh3';
import { Harness } from '../helpers/harness';
import { RawClient, connectSocket } from '../server/raw-client';

function harness(version?: Harness['version']): Harness & { dirtyCount: number } {
  const h = new Harness() as Harness & { dirtyCount: number };
  if (version) h.version = version;
  h.dirtyCount = 0;
  (h.db as { dirty?: (n: number) => void }).dirty = (n) => (h.dirtyCount += n);
  return h;
}

const WRONGTYPE = 'WRONGTYPE Operation against a key holding the wrong kind of value';

/** xxHash's sanity buffer (XSUM_fillTestBuffer): byte i = top byte of PRIME32·PRIME64^i mod 2^64. */
function sanityBuffer(len: number): Buffer {
  const buf = Buffer.alloc(len);
  let gen = 2654435761n;
  for (let i = 0; i < len; i++) {
    buf[i] = Number(gen >> 56n);
    gen = (gen * 11400714785074694797n) & 0xffffffffffffffffn;
  }
  return buf;
}

describe('XXH3-64 (lib/bytes/xxh3.ts)', () => {
  // one length per code path: empty, 1-3, 4-8, 9-16, 17-128, 129-240, one block (overlapping /
  // aligned last stripe), 2 and 3 blocks (scrambles), as xxHash lists them
  const vectors: [number, string][] = [
    [0, '2d06800538d394c2'],
    [1, 'c44bdff4074eecdb'],
    [6, '27b56a84cd2d7325'],
    [12, 'a713daf0dfbb77e7'],
    [24, 'a3fe70bf9d3510eb'],
    [48, '397da259ecba1f11'],
    [80, 'bcdefbbb2c47c90a'],
    [195, 'cd94217ee362ec3a'],
    [403, 'cdeb804d65c6dea4'],
    [512, '617e49599013cb6b'],
    [2048, 'dd59e2c3a5f038e0'],
    [2240, '6e73a90539cf2948'],
    [2367, 'cb37aeb9e5d361ed'],
  ];
  it.each(vectors)('matches xxHash’s sanity vector for %i bytes', (len, hex) => {
    expect(xxh3(sanityBuffer(2367).subarray(0, len)).toString(16).padStart(16, '0')).toBe(hex);
  });

  it('matches the xxhash C library (0.8.3) on 1 MiB (1024 blocks, scrambled on 32-bit halves)', () => {
    const b = Buffer.alloc(1 << 20);
    for (let i = 0; i < b.length; i++) b[i] = ((i * 2654435761) >>> 13) & 255;
    expect(xxh3(b).toString(16).padStart(16, '0')).toBe('e2786b358eab4a67');
    expect(xxh3(Buffer.alloc(1 << 20, 7)).toString(16).padStart(16, '0')).toBe('05ec48a321114887');
  });
});

describe('DIGEST', () => {
  it('answers redis.io’s example digest, 16 lower-case hex digits', () => {
    const h = harness();
    h.run('SET', 'key1', 'Hello world');
    expect(h.run('DIGEST', 'key1')).toBe('b6acb9d84a38ff74');
  });

  it('hashes the bytes of values of every XXH3 length class, binary ones included', () => {
    const h = harness();
    for (const len of [0, 2, 6, 12, 80, 195, 403, 2367]) {
      const bytes = sanityBuffer(2367).subarray(0, len).toString('latin1');
      h.run('SET', `k${len}`, bytes);
      expect(h.run('DIGEST', `k${len}`)).toBe(xxh3(Buffer.from(bytes, 'latin1')).toString(16).padStart(16, '0'));
    }
    expect(h.run('DIGEST', 'k0')).toBe('2d06800538d394c2');
    expect(h.run('DIGEST', 'k403')).toBe('cdeb804d65c6dea4');
  });

  it('hashes an integer-encoded value as its decimal text', () => {
    const h = harness();
    h.run('SET', 'n', '12345');
    h.run('SET', 'neg', '-999');
    expect(h.run('OBJECT', 'ENCODING', 'n')).toBe('int');
    expect(h.run('DIGEST', 'n')).toBe('f34099ede96b5581');
    expect(h.run('DIGEST', 'neg')).toBe('9d5a3ec4ad3f47e8');
    h.run('INCR', 'n');
    expect(h.run('DIGEST', 'n')).not.toBe('f34099ede96b5581');
  });

  it('answers nil with a keymiss event for a missing key, WRONGTYPE for another type, the arity error', () => {
    const h = harness();
    expect(h.run('DIGEST', 'nokey')).toBeNull();
    expect(h.notifications).toEqual([['m', 'keymiss', 'nokey']]);
    h.run('LPUSH', 'list', 'a');
    expect(h.error('DIGEST', 'list')).toBe(WRONGTYPE);
    expect(h.error('DIGEST', 'a', 'b')).toBe("ERR wrong number of arguments for 'digest' command");
  });
});

describe('SET with IFEQ / IFNE / IFDEQ / IFDNE (8.4)', () => {
  it('IFEQ sets only when the value is equal; a missing key is not created', () => {
    const h = harness();
    h.run('SET', 'k', 'hello');
    expect(h.run('SET', 'k', 'world', 'IFEQ', 'different')).toBeNull();
    expect(h.run('GET', 'k')).toBe('hello');
    expect(h.run('SET', 'k', 'world', 'ifeq', 'hello')).toBe('OK');
    expect(h.run('GET', 'k')).toBe('world');
    expect(h.run('SET', 'missing', 'v', 'IFEQ', 'x')).toBeNull();
    expect(h.keys.has('missing')).toBe(false);
  });

  it('IFNE sets when the value differs or the key is missing', () => {
    const h = harness();
    h.run('SET', 'k', 'hello');
    expect(h.run('SET', 'k', 'world', 'IFNE', 'hello')).toBeNull();
    expect(h.run('SET', 'k', 'world', 'IfNe', 'other')).toBe('OK');
    expect(h.run('SET', 'missing', 'v', 'IFNE', 'x')).toBe('OK');
    expect(h.run('GET', 'missing')).toBe('v');
  });

  it('IFDEQ / IFDNE compare the digest (in either case); a missing key: IFDEQ refuses, IFDNE sets', () => {
    const h = harness();
    h.run('SET', 'k', 'hello');
    const d = h.run('DIGEST', 'k') as string;
    expect(d).toBe('9555e8555c62dcfd');
    expect(h.run('SET', 'k', 'x', 'IFDEQ', '9555e8555c62dcfe')).toBeNull();
    expect(h.run('SET', 'k', 'x', 'IFDNE', d)).toBeNull();
    expect(h.run('GET', 'k')).toBe('hello');
    expect(h.run('SET', 'k', 'world', 'IFDEQ', d.toUpperCase())).toBe('OK');
    expect(h.run('SET', 'k', 'again', 'IFDNE', d)).toBe('OK');
    expect(h.run('GET', 'k')).toBe('again');
    expect(h.run('SET', 'm1', 'v', 'IFDEQ', '1234567890')).toBeNull();
    expect(h.keys.has('m1')).toBe(false);
    expect(h.run('SET', 'm2', 'v', 'IFDNE', '1234567890')).toBe('OK');
  });

  it('compares an integer-encoded value by its text', () => {
    const h = harness();
    h.run('SET', 'n', '12345');
    expect(h.run('SET', 'n', 'world', 'IFEQ', '12345')).toBe('OK');
    h.run('SET', 'n', '12345');
    expect(h.run('SET', 'n', 'world', 'IFDEQ', 'f34099ede96b5581')).toBe('OK');
  });

  it('with GET answers the old value whether or not the condition held (nil when missing)', () => {
    const h = harness();
    h.run('SET', 'k', 'hello');
    expect(h.run('SET', 'k', 'world', 'IFEQ', 'different', 'GET')).toBe('hello');
    expect(h.run('GET', 'k')).toBe('hello');
    expect(h.run('SET', 'k', 'world', 'GET', 'IFEQ', 'hello')).toBe('hello');
    expect(h.run('GET', 'k')).toBe('world');
    expect(h.run('SET', 'missing', 'v', 'IFNE', 'x', 'GET')).toBeNull();
    expect(h.run('GET', 'missing')).toBe('v');
  });

  it('answers WRONGTYPE for a key of another type, met or not, and leaves it', () => {
    const h = harness();
    h.run('LPUSH', 'list', 'element');
    for (const cond of ['IFEQ', 'IFNE', 'IFDEQ', 'IFDNE']) expect(h.error('SET', 'list', 'v', cond, 'element')).toBe(WRONGTYPE);
    expect(h.run('TYPE', 'list')).toBe('list');
  });

  it('takes a TTL option when the condition holds, drops the TTL otherwise, KEEPTTL keeps it', () => {
    const h = harness();
    h.run('SET', 'k', 'hello', 'EX', '100');
    expect(h.run('SET', 'k', 'world', 'IFEQ', 'nope', 'EX', '10')).toBeNull();
    expect(h.ttls.get('k')).toBe(h.now + 100_000);
    expect(h.run('SET', 'k', 'world', 'IFEQ', 'hello', 'KEEPTTL')).toBe('OK');
    expect(h.ttls.get('k')).toBe(h.now + 100_000);
    expect(h.run('SET', 'k', 'w2', 'PX', '5000', 'IFNE', 'x')).toBe('OK');
    expect(h.ttls.get('k')).toBe(h.now + 5000);
    expect(h.run('SET', 'k', 'w3', 'IFNE', 'x')).toBe('OK');
    expect(h.ttls.has('k')).toBe(false);
  });

  it('rejects IF* with NX/XX, two conditions, a missing value and a bad expire (syntax, then the time)', () => {
    const h = harness();
    h.run('SET', 'k', 'v');
    for (const opts of [['IFEQ', 'v', 'NX'], ['XX', 'IFEQ', 'v'], ['NX', 'IFNE', 'v'], ['IFEQ', 'v', 'IFNE', 'w'], ['IFDEQ', 'a', 'IFDEQ', 'a'], ['IFEQ'], ['IFEQ', 'v', 'EX']]) {
      expect([opts, h.error('SET', 'k', 'x', ...opts)]).toEqual([opts, 'ERR syntax error']);
    }
    expect(h.error('SET', 'k', 'x', 'IFEQ', 'v', 'EX', '0')).toBe("ERR invalid expire time in 'set' command");
    expect(h.run('GET', 'k')).toBe('v');
  });

  it('sends set (and expire) only when it sets, counts one change, and nothing when refused', () => {
    const h = harness();
    h.run('SET', 'k', 'hello');
    h.notifications.length = 0;
    h.dirtyCount = 0;
    h.run('SET', 'k', 'x', 'IFEQ', 'nope');
    expect(h.notifications).toEqual([]);
    expect(h.dirtyCount).toBe(0);
    h.run('SET', 'k', 'x', 'IFEQ', 'hello', 'EX', '5');
    expect(h.notifications).toEqual([['$', 'set', 'k'], ['g', 'expire', 'k']]);
    h.run('SET', 'new', 'v', 'IFDNE', '0');
    expect(h.notifications.slice(2)).toEqual([['n', 'new', 'new'], ['$', 'set', 'new']]);
    expect(h.dirtyCount).toBe(2);
  });

  it('is a syntax error before 8.4 (7.0 and 8.2 modes), as on redis-server 7.0.15 and the post-7.4 build', () => {
    for (const v of ['7.0', '8.2'] as const) {
      const h = harness(v);
      h.run('SET', 'k', 'v');
      for (const cond of ['IFEQ', 'IFNE', 'IFDEQ', 'IFDNE']) expect(h.error('SET', 'k', 'x', cond, 'v')).toBe('ERR syntax error');
    }
    expect(harness('8.4').run('SET', 'k', 'x', 'IFNE', 'v')).toBe('OK');
  });
});

describe('DELEX (8.4)', () => {
  it('without a condition deletes a key of any type as DEL: 1, then 0', () => {
    const h = harness();
    h.run('SET', 's', 'v');
    h.run('HSET', 'h', 'f', 'v');
    h.run('ZADD', 'z', '1', 'm');
    for (const k of ['s', 'h', 'z']) expect(h.run('DELEX', k)).toBe(1);
    expect(h.run('DELEX', 's')).toBe(0);
    expect(h.run('DBSIZE')).toBe(0);
  });

  it('IFEQ / IFNE / IFDEQ / IFDNE delete only when the condition holds', () => {
    const h = harness();
    h.run('SET', 'k', 'hello');
    expect(h.run('DELEX', 'k', 'IFEQ', 'world')).toBe(0);
    expect(h.run('DELEX', 'k', 'IFNE', 'hello')).toBe(0);
    expect(h.run('DELEX', 'k', 'IFDEQ', '9555e8555c62dcfe')).toBe(0);
    expect(h.run('DELEX', 'k', 'IFDNE', '9555E8555C62DCFD')).toBe(0);
    expect(h.run('GET', 'k')).toBe('hello');
    expect(h.run('DELEX', 'k', 'ifeq', 'hello')).toBe(1);
    for (const [cond, arg] of [['IFNE', 'other'], ['IFDEQ', '9555e8555c62dcfd'], ['IFDNE', '0000000000000000']]) {
      h.run('SET', 'k', 'hello');
      expect([cond, h.run('DELEX', 'k', cond, arg)]).toEqual([cond, 1]);
      expect(h.keys.has('k')).toBe(false);
    }
  });

  it('compares an integer-encoded value and the empty string by their text', () => {
    const h = harness();
    h.run('SET', 'n', '-999');
    expect(h.run('DELEX', 'n', 'IFEQ', '-999')).toBe(1);
    h.run('SET', 'e', '');
    expect(h.run('DELEX', 'e', 'IFEQ', 'x')).toBe(0);
    expect(h.run('DELEX', 'e', 'IFDEQ', '2d06800538d394c2')).toBe(1);
  });

  it('answers 0 for a missing key under every condition', () => {
    const h = harness();
    for (const cond of ['IFEQ', 'IFNE', 'IFDEQ', 'IFDNE']) expect(h.run('DELEX', 'nokey', cond, '1234567890')).toBe(0);
  });

  it('refuses a condition on another type than a string (Redis 8.10.2\'s text), whatever the condition, and keeps the key', () => {
    const h = harness();
    h.run('LPUSH', 'list', 'element');
    for (const cond of ['IFEQ', 'IFNE', 'IFDEQ', 'IFDNE', 'FOO']) {
      expect(h.error('DELEX', 'list', cond, 'element')).toBe('ERR Key should be of string type if conditions are specified');
    }
    expect(h.run('TYPE', 'list')).toBe('list');
  });

  it('checks the argument count before the key, the key before the condition name', () => {
    const h = harness();
    expect(h.error('DELEX', 'nokey', 'IFEQ')).toBe("ERR wrong number of arguments for 'delex' command");
    h.run('SET', 'k', 'x');
    expect(h.error('DELEX', 'k', 'IFEQ')).toBe("ERR wrong number of arguments for 'delex' command");
    expect(h.error('DELEX', 'k', 'IFEQ', 'x', 'extra')).toBe("ERR wrong number of arguments for 'delex' command");
    expect(h.error('DELEX', 'k', 'EQ', 'x')).toMatch(/Invalid condition/);
    expect(h.run('DELEX', 'nokey', 'INVALID', 'x')).toBe(0); // a missing key: 0 before the name is read
    expect(h.run('GET', 'k')).toBe('x');
  });

  it('refuses an IFDEQ/IFDNE digest that is not 16 characters when it compares one (SET too; nothing written), any case accepted', () => {
    const h = harness();
    h.run('SET', 'k', 'hello');
    const digest = h.run('DIGEST', 'k') as string;
    for (const bad of [digest.slice(1), `0${digest}`, '']) {
      expect(h.error('DELEX', 'k', 'IFDEQ', bad)).toBe('ERR must be exactly 16 hexadecimal characters');
      expect(h.error('DELEX', 'k', 'IFDNE', bad)).toBe('ERR must be exactly 16 hexadecimal characters');
      expect(h.error('SET', 'k', 'new', 'IFDEQ', bad)).toBe('ERR must be exactly 16 hexadecimal characters');
      expect(h.error('SET', 'k', 'new', 'IFDNE', bad)).toBe('ERR must be exactly 16 hexadecimal characters');
    }
    expect(h.run('GET', 'k')).toBe('hello');
    // not read when there is no value to compare (Redis's string.tcl: a 10-digit digest on a missing key)
    expect(h.run('DELEX', 'nokey', 'IFDEQ', '1234567890')).toBe(0);
    expect(h.run('SET', 'nokey', 'v', 'IFDEQ', '1234567890')).toBeNull();
    expect(h.run('SET', 'nokey', 'v', 'IFDNE', '1234567890')).toBe('OK');
    expect(h.run('SET', 'k', 'world', 'IFDEQ', digest.toUpperCase())).toBe('OK');
  });

  it('sends del and counts one change when it deletes, nothing otherwise', () => {
    const h = harness();
    h.run('SET', 'k', 'v');
    h.notifications.length = 0;
    h.dirtyCount = 0;
    h.run('DELEX', 'k', 'IFEQ', 'w');
    h.run('DELEX', 'nokey');
    expect(h.notifications).toEqual([]);
    h.run('DELEX', 'k', 'IFEQ', 'v');
    expect(h.notifications).toEqual([['g', 'del', 'k']]);
    expect(h.dirtyCount).toBe(1);
  });

  it('is an unknown command before 8.4', () => {
    const h = harness('8.2');
    expect(h.error('DELEX', 'k')).toBe("ERR unknown command 'DELEX', with args beginning with: 'k' ");
    expect(harness('7.0').error('DIGEST', 'k')).toBe("ERR unknown command 'DIGEST', with args beginning with: 'k' ");
  });
});

describe('MSETEX (8.4)', () => {
  it('sets every pair with the shared expiry and answers 1', () => {
    const h = harness();
    expect(h.run('MSETEX', '2', 'a', '1', 'b', '2', 'EX', '100')).toBe(1);
    expect(h.run('MGET', 'a', 'b')).toEqual(['1', '2']);
    expect(h.ttls.get('a')).toBe(h.now + 100_000);
    expect(h.ttls.get('b')).toBe(h.now + 100_000);
    expect(h.run('MSETEX', '1', 'c', 'x', 'pxat', String(h.now + 5000))).toBe(1);
    expect(h.ttls.get('c')).toBe(h.now + 5000);
  });

  it('without an expiry drops the TTL as MSET does; KEEPTTL keeps it; replaces another type', () => {
    const h = harness();
    h.run('SET', 'a', 'v', 'EX', '100');
    h.run('SET', 'b', 'v', 'EX', '100');
    h.run('LPUSH', 'l', 'x');
    expect(h.run('MSETEX', '2', 'a', 'new', 'l', 'str')).toBe(1);
    expect(h.ttls.has('a')).toBe(false);
    expect(h.run('GET', 'l')).toBe('str');
    expect(h.run('MSETEX', '1', 'b', 'kept', 'KEEPTTL')).toBe(1);
    expect(h.ttls.get('b')).toBe(h.now + 100_000);
  });

  it('NX sets nothing and answers 0 when any key exists; XX when any is missing', () => {
    const h = harness();
    h.run('SET', 'old', 'v');
    expect(h.run('MSETEX', '2', 'n1', 'a', 'old', 'b', 'NX', 'EX', '10')).toBe(0);
    expect(h.keys.has('n1')).toBe(false);
    expect(h.run('MSETEX', '2', 'old', 'a', 'n1', 'b', 'XX')).toBe(0);
    expect(h.run('GET', 'old')).toBe('v');
    expect(h.run('MSETEX', '2', 'n1', 'a', 'n2', 'b', 'EX', '10', 'NX')).toBe(1);
    expect(h.run('MSETEX', '2', 'n1', 'c', 'old', 'd', 'XX')).toBe(1);
    expect(h.run('MGET', 'n1', 'old')).toEqual(['c', 'd']);
  });

  it('sends new/set/expire per key and counts one change per pair', () => {
    const h = harness();
    h.run('SET', 'a', 'v');
    h.notifications.length = 0;
    h.dirtyCount = 0;
    h.run('MSETEX', '2', 'a', '1', 'b', '2', 'PX', '500');
    expect(h.notifications).toEqual([['$', 'set', 'a'], ['g', 'expire', 'a'], ['n', 'new', 'b'], ['$', 'set', 'b'], ['g', 'expire', 'b']]);
    expect(h.dirtyCount).toBe(2);
  });

  it('errors: numkeys, the pairs, the options (syntax), the expire time, the arity', () => {
    const h = harness();
    expect(h.error('MSETEX', '0', 'a', 'b')).toBe('ERR invalid numkeys value');
    expect(h.error('MSETEX', 'x', 'a', 'b')).toBe('ERR invalid numkeys value');
    expect(h.error('MSETEX', '2', 'a', 'b', 'c')).toBe('ERR wrong number of key-value pairs');
    for (const opts of [['NX', 'XX'], ['EX', '10', 'PX', '5'], ['KEEPTTL', 'EX', '1'], ['EX'], ['GET'], ['IFEQ', 'x'], ['EX', '1', 'EX', '2']]) {
      expect([opts, h.error('MSETEX', '1', 'a', 'b', ...opts)]).toEqual([opts, 'ERR syntax error']);
    }
    expect(h.error('MSETEX', '1', 'a', 'b', 'EX', '0')).toBe("ERR invalid expire time in 'msetex' command");
    expect(h.error('MSETEX', '1', 'a', 'b', 'EX', 'x')).toBe('ERR value is not an integer or out of range');
    expect(h.error('MSETEX', '1', 'a')).toBe("ERR wrong number of arguments for 'msetex' command");
    expect(h.keys.has('a')).toBe(false);
  });

  it('is an unknown command before 8.4', () => {
    expect(harness('8.2').error('MSETEX', '1', 'a', 'b')).toBe("ERR unknown command 'MSETEX', with args beginning with: '1' 'a' 'b' ");
  });
});

async function onServe<T>(redisVersion: '7.0' | '8.2' | '8.4' | '8.10', body: (c: RawClient, server: RedisServer) => Promise<T>): Promise<T> {
  const server = await serve({ redisVersion });
  const c = await RawClient.connect(server.port);
  try {
    return await body(c, server);
  } finally {
    c.close();
    await server.close();
  }
}

describe('the 8.4 string commands over serve', () => {
  it('run inside MULTI/EXEC and queue as unknown before 8.4', async () => {
    const reply = await onServe('8.10', async (c) => {
      await c.call('SET', 'k', 'v');
      await c.call('MULTI');
      await c.call('SET', 'k', 'w', 'IFEQ', 'v');
      await c.call('DIGEST', 'k');
      await c.call('DELEX', 'k', 'IFNE', 'w');
      await c.call('MSETEX', '1', 'k', 'z', 'XX');
      return c.call('EXEC');
    });
    expect(reply).toBe('*4\r\n+OK\r\n$16\r\n95be3f4b2a6d7e7e\r\n:0\r\n:1\r\n'.replace('95be3f4b2a6d7e7e', xxh3(Buffer.from('w')).toString(16).padStart(16, '0')));
    const old = await onServe('8.2', async (c) => {
      await c.call('MULTI');
      const queued = await c.call('DELEX', 'k');
      return [queued, await c.call('EXEC')];
    });
    expect(old).toEqual(["-ERR unknown command 'DELEX', with args beginning with: 'k' \r\n", '-EXECABORT Transaction discarded because of previous errors.\r\n']);
  });

  it('touch a WATCHed key when they change it (not when DELEX refuses)', async () => {
    await onServe('8.10', async (c, server) => {
      const other = await RawClient.connect(server.port);
      try {
        const execAfter = async (key: string, ...change: string[]): Promise<string> => {
          await c.call('WATCH', key);
          await other.call(...change);
          await c.call('MULTI');
          await c.call('PING');
          return c.call('EXEC');
        };
        await c.call('SET', 'k', 'v');
        expect(await execAfter('k', 'DELEX', 'k', 'IFEQ', 'nope')).toBe('*1\r\n+PONG\r\n');
        expect(await execAfter('k', 'DELEX', 'k', 'IFEQ', 'v')).toBe('*-1\r\n');
        expect(await execAfter('m', 'MSETEX', '1', 'm', 'v')).toBe('*-1\r\n');
        expect(await execAfter('m', 'SET', 'm', 'w', 'IFEQ', 'v')).toBe('*-1\r\n');
      } finally {
        other.close();
      }
    });
  });

  it('run from Lua through redis.call', async () => {
    const reply = await onServe('8.4', async (c) => {
      await c.call('SET', 'key1', 'Hello world');
      return c.call('EVAL', "local d = redis.call('DIGEST', KEYS[1]); return {d, redis.call('DELEX', KEYS[1], 'IFDEQ', d), redis.call('MSETEX', 1, KEYS[1], 'x', 'EX', 10)}", '1', 'key1');
    });
    expect(reply).toBe('*3\r\n$16\r\nb6acb9d84a38ff74\r\n:1\r\n:1\r\n');
  });

  it('deliver keyspace notifications (del, set, expire) to a subscriber', async () => {
    await onServe('8.10', async (c, server) => {
      const sub = await RawClient.connect(server.port);
      try {
        await c.call('CONFIG', 'SET', 'notify-keyspace-events', 'KEg$');
        await sub.call('SUBSCRIBE', '__keyspace@0__:k');
        await c.call('SET', 'k', 'v');
        await c.call('SET', 'k', 'w', 'IFEQ', 'nope');
        await c.call('DELEX', 'k', 'IFEQ', 'v');
        await c.call('MSETEX', '1', 'k', 'x', 'EX', '10');
        const frames = await sub.read(4);
        expect(frames.map((f) => f.split('\r\n')[6])).toEqual(['set', 'del', 'set', 'expire']);
      } finally {
        sub.close();
      }
    });
  });

  it('COMMAND INFO / DOCS describe DELEX, DIGEST, MSETEX from 8.4 on, and nothing before', async () => {
    const info = await onServe('8.10', (c) => c.call('COMMAND', 'INFO', 'delex', 'digest', 'msetex'));
    expect(info.startsWith('*3\r\n*10\r\n$5\r\ndelex\r\n:-2\r\n*2\r\n+write\r\n+fast\r\n:1\r\n:1\r\n:1\r\n*3\r\n+@write\r\n+@string\r\n+@fast\r\n')).toBe(true);
    expect(info).toContain('$6\r\ndigest\r\n:2\r\n*2\r\n+readonly\r\n+fast\r\n:1\r\n:1\r\n:1\r\n*3\r\n+@read\r\n+@string\r\n+@fast\r\n');
    expect(info).toContain('$6\r\nmsetex\r\n:-4\r\n*3\r\n+write\r\n+denyoom\r\n+movablekeys\r\n:0\r\n:0\r\n:0\r\n*3\r\n+@write\r\n+@string\r\n+@slow\r\n');
    const docs = await onServe('8.4', (c) => c.call('COMMAND', 'DOCS', 'digest'));
    expect(docs).toBe(
      '*2\r\n$6\r\ndigest\r\n*10\r\n$7\r\nsummary\r\n$40\r\nReturns the XXH3 hash of a string value.\r\n$5\r\nsince\r\n$5\r\n8.4.0\r\n$5\r\ngroup\r\n$6\r\nstring\r\n' +
        '$10\r\ncomplexity\r\n$47\r\nO(N) where N is the length of the string value.\r\n$9\r\narguments\r\n*1\r\n*8\r\n$4\r\nname\r\n$3\r\nkey\r\n$4\r\ntype\r\n$3\r\nkey\r\n$12\r\ndisplay_text\r\n$3\r\nkey\r\n$14\r\nkey_spec_index\r\n:0\r\n',
    );
    const delexDocs = await onServe('8.10', (c) => c.call('COMMAND', 'DOCS', 'delex'));
    expect(delexDocs).toContain('$5\r\ntoken\r\n$5\r\nIFDEQ\r\n');
    const keys = await onServe('8.10', (c) => c.call('COMMAND', 'GETKEYS', 'MSETEX', '2', 'a', '1', 'b', '2', 'EX', '10'));
    expect(keys).toBe('*2\r\n$1\r\na\r\n$1\r\nb\r\n');
    const old = await onServe('8.2', (c) => c.call('COMMAND', 'INFO', 'delex', 'digest', 'msetex'));
    expect(old).toBe('*3\r\n$-1\r\n$-1\r\n$-1\r\n'); // as redis-server 7.0.15 answers an unknown name
  });

  it('propagate DELEX as DEL (nothing when refused) and a relative MSETEX expiry as PXAT', async () => {
    await onServe('8.10', async (c, server) => {
      const socket: net.Socket = await connectSocket(server.port);
      let buf = '';
      socket.on('data', (d: Buffer) => (buf += d.toString('latin1')));
      await c.call('SET', 'k', 'v');
      socket.write('SYNC\r\n');
      try {
        for (let i = 0; i < 50 && !buf.includes('REDIS'); i++) await new Promise((r) => setTimeout(r, 20));
        await c.call('DELEX', 'k', 'IFEQ', 'other');
        await c.call('DELEX', 'k', 'IFEQ', 'v');
        await c.call('MSETEX', '1', 'm', 'x', 'EX', '100');
        await c.call('PING');
        for (let i = 0; i < 50 && !buf.includes('PXAT'); i++) await new Promise((r) => setTimeout(r, 20));
        const cmds = buf.slice(buf.indexOf('*')).replace(/\d{13}/, 'TS');
        expect(cmds).toContain('*2\r\n$3\r\nDEL\r\n$1\r\nk\r\n*6\r\n$6\r\nMSETEX\r\n$1\r\n1\r\n$1\r\nm\r\n$1\r\nx\r\n$4\r\nPXAT\r\n$13\r\nTS\r\n');
        expect(cmds).not.toContain('DELEX');
      } finally {
        socket.destroy();
      }
    });
  });
});
