/**
 * The set commands (lib/commands/sets.ts, set-algebra.ts) on the unit harness: encodings and
 * their conversions, replies, errors in Redis's order, keyspace events, reply bounds, SSCAN
 * cursors, binary members. Expected values were read on redis-server 7.0.15 and the post-7.4
 * build (4f8cdc2a); __tests__/engine/sets-real-server.test.ts replays such sequences on both.
 */
import { Harness } from '../helpers/harness';
import { RedisSet, compareIntText, isInt64Text } from '../../lib/model/set';
import { createConnection } from '../../lib/engine';

function encodingOf(h: Harness, key: string): string | undefined {
  const v = h.keys.get(key);
  return v instanceof RedisSet ? v.encoding() : undefined;
}

describe('set encodings follow t_set.c (defaults: intset 512, listpack 128 entries / 64 bytes)', () => {
  it('an integer first member makes an intset, kept ascending; a string converts it to a listpack that keeps that order', () => {
    const h = new Harness();
    expect(h.run('SADD', 's', '30', '-2', '100000')).toBe(3);
    expect(encodingOf(h, 's')).toBe('intset');
    expect(h.run('SMEMBERS', 's')).toEqual(['-2', '30', '100000']);
    expect(h.run('SADD', 's', 'b', 'a')).toBe(2);
    expect(encodingOf(h, 's')).toBe('listpack');
    expect(h.run('SMEMBERS', 's')).toEqual(['-2', '30', '100000', 'b', 'a']);
  });

  it('SADD with more members than set-max-listpack-entries makes a hash table at once, even when they repeat (7.2+ size hint)', () => {
    const h = new Harness();
    expect(h.run('SADD', 'd', 'x', ...Array(200).fill('x'))).toBe(1);
    expect(encodingOf(h, 'd')).toBe('hashtable');
    h.version = '7.0';
    expect(h.run('SADD', 'd7', 'x', ...Array(200).fill('x'))).toBe(1);
    expect(encodingOf(h, 'd7')).toBe('hashtable'); // 7.0: no listpack sets at all
    expect(h.run('SADD', 'i7', '1')).toBe(1);
    expect(h.run('SADD', 'i7', ...Array(600).fill('1'))).toBe(0);
    expect(encodingOf(h, 'i7')).toBe('intset'); // 7.0 ignores the size hint (checked on 7.0.15)
    h.version = '8.0';
    expect(h.run('SADD', 'i8', '1')).toBe(1);
    expect(h.run('SADD', 'i8', ...Array(600).fill('1'))).toBe(0);
    expect(encodingOf(h, 'i8')).toBe('hashtable'); // the 4f8cdc2a build converts by the hint
  });

  it('an intset passes set-max-intset-entries into a hash table; a long string or a 65th-byte member too', () => {
    const h = new Harness();
    h.run('SADD', 'i', ...Array.from({ length: 512 }, (_, i) => String(i)));
    expect(encodingOf(h, 'i')).toBe('intset');
    h.run('SADD', 'i', '512');
    expect(encodingOf(h, 'i')).toBe('hashtable');
    h.run('SADD', 'l', 'a');
    h.run('SADD', 'l', 'x'.repeat(65));
    expect(encodingOf(h, 'l')).toBe('hashtable');
    h.run('SADD', 'big', '1', '2', '3');
    h.run('SADD', 'big', '99999999999999999999'); // beyond int64: a string
    expect(encodingOf(h, 'big')).toBe('listpack');
  });

  it('the last member removed deletes the key; SREM stops counting there', () => {
    const h = new Harness();
    h.run('SADD', 's', '1', '2', '3');
    expect(h.run('SREM', 's', '1', '2', '3', '4', '5')).toBe(3);
    expect(h.keys.has('s')).toBe(false);
    expect(h.notifications).toEqual([
      ['n', 'new', 's'],
      ['s', 'sadd', 's'],
      ['s', 'srem', 's'],
      ['g', 'del', 's'],
    ]);
  });

  it('canonical 64-bit integers only are intset members', () => {
    for (const s of ['0', '-1', '9223372036854775807', '-9223372036854775808', '12']) expect(isInt64Text(s)).toBe(true);
    for (const s of ['', '-', '-0', '01', '+1', ' 1', '9223372036854775808', '-9223372036854775809', '1.0', '1e3']) expect(isInt64Text(s)).toBe(false);
    const sorted = ['5', '-10', '9223372036854775807', '-9223372036854775808', '0', '-2', '10'].sort(compareIntText);
    expect(sorted).toEqual(['-9223372036854775808', '-10', '-2', '0', '5', '10', '9223372036854775807']);
  });
});

describe('set replies and errors', () => {
  it('answers the basics, binary members included', () => {
    const h = new Harness();
    const bin = '\xff\x00\x80a';
    expect(h.run('SADD', 's', bin, 'b')).toBe(2);
    expect(h.run('SISMEMBER', 's', bin)).toBe(1);
    expect(h.run('SISMEMBER', 's', '\xff')).toBe(0);
    expect(h.run('SMISMEMBER', 's', 'b', 'z', bin)).toEqual([1, 0, 1]);
    expect(h.run('SMISMEMBER', 'nokey', 'a')).toEqual([0]);
    expect(h.run('SCARD', 's')).toBe(2);
    expect(h.run('SCARD', 'nokey')).toBe(0);
    expect(h.run('SMEMBERS', 's')).toEqual([bin, 'b']);
    expect(h.run('SMEMBERS', 'nokey')).toEqual([]);
  });

  it('WRONGTYPE on another type, for every key of the algebra, before anything is stored', () => {
    const h = new Harness();
    h.keys.set('str', 'x');
    h.run('SADD', 'dst', 'e');
    const wrong = 'WRONGTYPE Operation against a key holding the wrong kind of value';
    for (const argv of [['SADD', 'str', 'a'], ['SCARD', 'str'], ['SINTER', 'nokey', 'str'], ['SUNIONSTORE', 'dst', 'nokey', 'str'], ['SDIFFSTORE', 'dst', 'str'], ['SINTERCARD', '2', 'nokey', 'str'], ['SMOVE', 'dst', 'str', 'e']]) {
      expect(h.error(...argv)).toBe(wrong);
    }
    expect(h.run('SMEMBERS', 'dst')).toEqual(['e']);
    expect(h.run('SMOVE', 'nokey', 'str', 'e')).toBe(0); // a missing source answers before the types
  });

  it('checks SPOP/SRANDMEMBER counts before the key, with Redis texts', () => {
    const h = new Harness();
    h.keys.set('str', 'x');
    expect(h.error('SPOP', 'str', 'x')).toBe('ERR value is out of range, must be positive');
    expect(h.error('SPOP', 'str', '-1')).toBe('ERR value is out of range, must be positive');
    expect(h.error('SPOP', 's', '1', '2')).toBe('ERR syntax error');
    expect(h.error('SRANDMEMBER', 's', '1', '2')).toBe('ERR syntax error');
    expect(h.error('SRANDMEMBER', 'str', 'x')).toBe('ERR value is not an integer or out of range');
    expect(h.error('SRANDMEMBER', 'str', '-9223372036854775808')).toBe(
      'ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807',
    );
    expect(h.error('SPOP', 'str', '0')).toMatch(/^WRONGTYPE/);
  });

  it('SPOP with a count answers a set (one element for 1), empty for 0 or a missing key; SRANDMEMBER an array', () => {
    const h = new Harness();
    h.run('SADD', 's', 'a');
    expect(h.run('SPOP', 's', '1')).toEqual(['a']);
    expect(h.keys.has('s')).toBe(false);
    expect(h.run('SPOP', 's', '3')).toEqual([]);
    expect(h.run('SPOP', 's')).toBeNull();
    expect(h.run('SRANDMEMBER', 's')).toBeNull();
    expect(h.run('SRANDMEMBER', 's', '5')).toEqual([]);
    h.run('SADD', 's', 'a', 'b');
    expect(h.run('SPOP', 's', '0')).toEqual([]);
    expect(h.run('SRANDMEMBER', 's', '0')).toEqual([]);
  });

  it('SRANDMEMBER with a huge negative count answers an error instead of allocating it; a missing key still answers []', () => {
    const h = new Harness();
    h.run('SADD', 's', 'a');
    expect(h.error('SRANDMEMBER', 's', '-9223372036854775807')).toMatch(/^ERR \[ioredis-mock-streams\] SRANDMEMBER would answer 9223372036854775807 elements/);
    expect(h.run('SRANDMEMBER', 'nokey', '-9223372036854775807')).toEqual([]);
    expect(h.run('SRANDMEMBER', 's', '9223372036854775807')).toEqual(['a']);
    expect((h.run('SRANDMEMBER', 's', '-1000') as string[]).length).toBe(1000);
  });

  it('SPOP and SRANDMEMBER pick uniformly: every member turns up, repeats only with a negative count', () => {
    for (const members of [['1', '2', '3', '4', '5'], ['a', 'b', 'c', 'd', 'e'], Array.from({ length: 200 }, (_, i) => `m${i}`)]) {
      const h = new Harness();
      h.run('SADD', 's', ...members);
      const counts = new Map<string, number>();
      for (let i = 0; i < 200; i++) for (const m of h.run('SRANDMEMBER', 's', '-50') as string[]) counts.set(m, (counts.get(m) ?? 0) + 1);
      expect([...counts.keys()].sort()).toEqual([...members].sort());
      const expected = 10_000 / members.length;
      for (const c of counts.values()) expect(Math.abs(c - expected)).toBeLessThan(expected * 0.5 + 15);
      for (const n of [2, Math.floor(members.length * 0.9), members.length - 1]) {
        const picked = h.run('SRANDMEMBER', 's', String(n)) as string[];
        expect(new Set(picked).size).toBe(n);
      }
      const popped = h.run('SPOP', 's', String(members.length - 1)) as string[];
      expect(new Set([...popped, ...(h.run('SMEMBERS', 's') as string[])])).toEqual(new Set(members));
    }
  });

  it('SINTERCARD checks numkeys, then the option words, then LIMIT', () => {
    const h = new Harness();
    h.run('SADD', 's', 'a', 'b', 'c');
    h.run('SADD', 't', 'b', 'c', 'd');
    expect(h.error('SINTERCARD', '0', 's')).toBe('ERR numkeys should be greater than 0');
    expect(h.error('SINTERCARD', 'a', 's')).toBe('ERR numkeys should be greater than 0');
    expect(h.error('SINTERCARD', '3', 's', 't')).toBe("ERR Number of keys can't be greater than number of args");
    expect(h.error('SINTERCARD', '1', 's', 't')).toBe('ERR syntax error');
    expect(h.error('SINTERCARD', '1', 's', 'LIMIT')).toBe('ERR syntax error');
    expect(h.error('SINTERCARD', '1', 's', 'LIMIT', '-1')).toBe("ERR LIMIT can't be negative");
    expect(h.error('SINTERCARD', '1', 's', 'limit', 'x')).toBe("ERR LIMIT can't be negative");
    expect(h.run('SINTERCARD', '2', 's', 't')).toBe(2);
    expect(h.run('SINTERCARD', '2', 's', 't', 'LIMIT', '1')).toBe(1);
    expect(h.run('SINTERCARD', '2', 's', 'nokey', 'LIMIT', '0')).toBe(0);
  });
});

describe('set algebra', () => {
  it('SINTERSTORE ends an intset when every member is an integer, even from hash tables', () => {
    const h = new Harness();
    const ints = Array.from({ length: 129 }, (_, i) => String(i + 1));
    h.run('SADD', 'a', 'a', 'b', 'c', '444', ...ints);
    h.run('SADD', 'b', 'e', 'f', 'g', '111', ...ints);
    expect(encodingOf(h, 'a')).toBe('hashtable');
    expect(h.run('SINTERSTORE', 'r', 'a', 'b')).toBe(129);
    expect(encodingOf(h, 'r')).toBe('intset');
    h.run('SADD', 'x', 'a', 'b', 'c', '1', '3', '6');
    h.run('SADD', 'y', 'e', '1', '2', '3');
    expect(h.run('SINTERSTORE', 'r2', 'x', 'y')).toBe(2);
    expect(encodingOf(h, 'r2')).toBe('intset');
    expect(h.run('SMEMBERS', 'r2')).toEqual(['1', '3']);
  });

  it('SUNIONSTORE/SDIFFSTORE start from an intset: 200 integers and a string make a hash table', () => {
    const h = new Harness();
    h.run('SADD', 'a', ...Array.from({ length: 200 }, (_, i) => String(i)));
    h.run('SADD', 'b', 'foo');
    expect(h.run('SUNIONSTORE', 'u', 'a', 'b')).toBe(201);
    expect(encodingOf(h, 'u')).toBe('hashtable');
    expect(h.run('SDIFFSTORE', 'd', 'a', 'b')).toBe(200);
    expect(encodingOf(h, 'd')).toBe('intset');
  });

  it('orders replies as the result set iterates: intsets ascending, intersections in the smallest set’s order', () => {
    const h = new Harness();
    h.run('SADD', 'i', '3', '1', '2');
    h.run('SADD', 'l', 'c', '2', 'a', '1', 'b');
    expect(h.run('SINTER', 'l', 'i')).toEqual(['1', '2']);
    expect(h.run('SUNION', 'i', 'i')).toEqual(['1', '2', '3']);
    expect(h.run('SDIFF', 'l', 'i')).toEqual(['c', 'a', 'b']);
    expect(h.run('SDIFF', 'l', 'l')).toEqual([]);
    expect(h.run('SDIFF', 'nokey', 'l')).toEqual([]);
  });

  it('STORE with an empty result deletes the destination (g del), never stores an empty set', () => {
    const h = new Harness();
    h.keys.set('dst', 'old string');
    h.run('SADD', 'a', 'x');
    expect(h.run('SINTERSTORE', 'dst', 'a', 'nokey')).toBe(0);
    expect(h.keys.has('dst')).toBe(false);
    h.run('SADD', 'dst', 'e');
    expect(h.run('SDIFFSTORE', 'dst', 'a', 'a')).toBe(0);
    expect(h.keys.has('dst')).toBe(false);
    expect(h.run('SUNIONSTORE', 'dst', 'nokey')).toBe(0);
    expect(h.notifications.filter(([, , k]) => k === 'dst')).toEqual([
      ['g', 'del', 'dst'],
      ['n', 'new', 'dst'],
      ['s', 'sadd', 'dst'],
      ['g', 'del', 'dst'],
    ]);
  });
});

// `new` (class n, dbAdd/setKey of a missing key) re-read on 7.0.15 and the post-7.4 build: the same
// (keymiss, class m: __tests__/differential/keyspace-events-keymiss-key-commands-real-server.test.ts)
describe('keyspace events as t_set.c sends them (sequence read on the 4f8cdc2a build)', () => {
  it('sends sadd/srem/del, SMOVE srem then sadd only when added, spop then del, *store and del', () => {
    const h = new Harness();
    const script: string[][] = [
      ['SADD', 'a', '1', '2'], ['SADD', 'a', '1'], ['SREM', 'a', '9'], ['SREM', 'a', '1', '2'], ['SADD', 'b', 'x', 'y'],
      ['SMOVE', 'b', 'c', 'x'], ['SMOVE', 'b', 'c', 'y'], ['SADD', 'd', '1'], ['SMOVE', 'c', 'd', 'x'], ['SADD', 'e', '1', '2', '3'],
      ['SPOP', 'e'], ['SPOP', 'e', '5'], ['SADD', 'f', 'a'], ['SPOP', 'f'], ['SADD', 'g', '1', '2'], ['SINTERSTORE', 'h', 'g', 'g'],
      ['SINTERSTORE', 'h', 'g', 'nokey'], ['SUNIONSTORE', 'h', 'g'], ['SDIFFSTORE', 'h', 'g', 'g'], ['SUNIONSTORE', 'h', 'g'],
      ['SDIFFSTORE', 'h', 'g'], ['SPOP', 'g', '0'], ['SADD', 'z', '1', '2', '3', '4', '5', '6'], ['SPOP', 'z', '5'], ['SPOP', 'z', '1'],
    ];
    for (const argv of script) h.run(...argv);
    expect(h.notifications.filter(([c]) => c !== 'm').map(([, e, k]) => `${e} ${k}`)).toEqual([
      'new a', 'sadd a', 'srem a', 'del a', 'new b', 'sadd b', 'srem b', 'new c', 'sadd c', 'srem b', 'del b', 'sadd c',
      'new d', 'sadd d', 'srem c', 'sadd d', 'new e', 'sadd e', 'spop e', 'spop e', 'del e', 'new f', 'sadd f', 'spop f',
      'del f', 'new g', 'sadd g', 'new h', 'sinterstore h', 'del h', 'new h', 'sunionstore h', 'del h', 'new h',
      'sunionstore h', 'sdiffstore h', 'new z', 'sadd z', 'spop z', 'spop z', 'del z',
    ]);
  });
});

describe('SSCAN', () => {
  it('answers a small set whole with cursor 0 (COUNT ignored), MATCH applied; a missing key before the options', () => {
    const h = new Harness();
    h.run('SADD', 's', 'a1', 'b', 'a2');
    expect(h.run('SSCAN', 's', '0', 'COUNT', '1')).toEqual(['0', ['a1', 'b', 'a2']]);
    expect(h.run('SSCAN', 's', '0', 'MATCH', 'a*')).toEqual(['0', ['a1', 'a2']]);
    expect(h.run('SSCAN', 'nokey', '0', 'bad')).toEqual(['0', []]);
    expect(h.error('SSCAN', 's', '0', 'COUNT', '0')).toBe('ERR syntax error');
    expect(h.error('SSCAN', 's', '0', 'COUNT', 'x')).toBe('ERR value is not an integer or out of range');
    expect(h.error('SSCAN', 's', '0', 'TYPE', 'set')).toBe('ERR syntax error');
    expect(h.error('SSCAN', 's', '0', 'NOVALUES')).toBe('ERR NOVALUES option can only be used in HSCAN');
    expect(h.error('SSCAN', 's', 'x')).toBe('ERR invalid cursor');
  });

  it('parses cursors per release: 7.2+ string2ull, 7.0 strtoul', () => {
    const h = new Harness();
    h.run('SADD', 's', 'a');
    expect(h.error('SSCAN', 's', '-1')).toBe('ERR invalid cursor');
    expect(h.error('SSCAN', 's', '')).toBe('ERR invalid cursor');
    expect(h.run('SSCAN', 's', ' 1')).toEqual(['0', ['a']]);
    expect(h.error('SSCAN', 's', '18446744073709551616')).toBe('ERR invalid cursor');
    h.version = '7.0';
    expect(h.run('SSCAN', 's', '-1')).toEqual(['0', ['a']]);
    expect(h.run('SSCAN', 's', '')).toEqual(['0', ['a']]);
    expect(h.error('SSCAN', 's', ' 1')).toBe('ERR invalid cursor');
    expect(h.error('SSCAN', 's', '0', 'NOVALUES')).toBe('ERR syntax error');
  });

  it('walks a hash table in pages; members present throughout come exactly once despite removals and additions', () => {
    const h = new Harness();
    const members = Array.from({ length: 1000 }, (_, i) => `m${i}`);
    h.run('SADD', 's', ...members);
    expect(encodingOf(h, 's')).toBe('hashtable');
    const seen: string[] = [];
    let cursor = '0';
    let calls = 0;
    do {
      const [next, page] = h.run('SSCAN', 's', cursor, 'COUNT', '50') as [string, string[]];
      seen.push(...page);
      cursor = next;
      calls++;
      // remove members not yet returned and add new ones while iterating
      h.run('SREM', 's', `m${999 - calls}`);
      h.run('SADD', 's', `new${calls}`);
    } while (cursor !== '0');
    const stayed = members.filter((m) => !/^m(9[0-9][0-9])$/.test(m) || Number(m.slice(1)) < 999 - calls);
    for (const m of stayed) expect(seen.filter((x) => x === m).length).toBe(1);
    expect(calls).toBeGreaterThanOrEqual(20);
  });
});

describe('SMOVE', () => {
  it('moves, converting the destination as SADD would; same key answers membership', () => {
    const h = new Harness();
    h.run('SADD', 'src', '1', 'a', 'b');
    h.run('SADD', 'dst', '2', '3', '4');
    expect(h.run('SMOVE', 'src', 'dst', 'a')).toBe(1);
    expect(encodingOf(h, 'dst')).toBe('listpack');
    expect(h.run('SMOVE', 'src', 'new', '1')).toBe(1);
    expect(encodingOf(h, 'new')).toBe('intset');
    expect(h.run('SMOVE', 'src', 'src', 'b')).toBe(1);
    expect(h.run('SMOVE', 'src', 'src', 'zz')).toBe(0);
    expect(h.run('SMOVE', 'src', 'dst', 'zz')).toBe(0);
  });
});

describe('DUMP/RESTORE/COPY of sets', () => {
  it('writes an intset with the width it grew to (byte-identical to the 4f8cdc2a build), a listpack in order', async () => {
    const conn = createConnection({ port: 47_901, streams: { redisVersion: '8.0' } });
    try {
      const hex = async (argv: string[]) => Buffer.from(await conn.execute(argv) as string, 'latin1').toString('hex');
      await conn.execute(['SADD', 'i', '1', '2', '3', '100000']);
      await conn.execute(['SREM', 'i', '100000']);
      await conn.execute(['SADD', 'i', '-5']);
      expect(await hex(['DUMP', 'i'])).toBe('0b180400000004000000fbffffff0100000002000000030000000c00ef015bf21d65c3bb');
      await conn.execute(['SADD', 'h', ...Array.from({ length: 130 }, (_, i) => String(i + 1)), 'foo']);
      await conn.execute(['SINTERSTORE', 'd1', 'h', 'i']);
      expect(await hex(['DUMP', 'd1'])).toBe('0b0e02000000030000000100020003000c006e7468229744d352');
      expect(await conn.execute(['COPY', 'i', 'i2'])).toBe(1);
      expect(await hex(['DUMP', 'i2'])).toBe(await hex(['DUMP', 'i']));
      expect(await conn.execute(['OBJECT', 'ENCODING', 'h'])).toBe('hashtable');
      expect(await conn.execute(['COPY', 'h', 'h2'])).toBe(1);
      expect(await conn.execute(['OBJECT', 'ENCODING', 'h2'])).toBe('hashtable');
      const payload = await conn.execute(['DUMP', 'i']);
      expect(await conn.execute(['RESTORE', 'i3', '0', payload as string])).toEqual(expect.anything());
      expect(await conn.execute(['SMEMBERS', 'i3'])).toEqual(expect.objectContaining({ items: ['-5', '1', '2', '3'] }));
      expect(await hex(['DUMP', 'i3'])).toBe(await hex(['DUMP', 'i']));
      expect(await conn.execute(['TYPE', 'i3'])).toEqual(expect.objectContaining({ value: 'set' }));
    } finally {
      conn.close();
    }
  });
});
