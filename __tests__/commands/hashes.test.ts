import { Harness } from '../helpers/harness';
import { RedisHash } from '../../lib/model/hash';
import { PairsReply } from '../../lib/reply/reply';
import { fromKeyValue, toKeyValue } from '../../lib/keyspace/key-values';

const WRONGTYPE = 'WRONGTYPE Operation against a key holding the wrong kind of value';

describe('hash commands (engine-owned)', () => {
  let h: Harness;
  beforeEach(() => {
    h = new Harness();
  });

  it('keeps __proto__ as a field like any other and answers HGETALL in insertion order', () => {
    expect(h.run('HSET', 'k', '__proto__', 'v', 'f', 'v')).toBe(2);
    expect(h.run('HSET', 'k', 'a', '1', '__proto__', 'w')).toBe(1);
    expect(h.run('HGETALL', 'k')).toEqual(['__proto__', 'w', 'f', 'v', 'a', '1']);
    expect(h.run('HLEN', 'k')).toBe(3);
    expect(h.keys.get('k')).toBeInstanceOf(RedisHash);
  });

  it('treats fields and values as bytes (non-UTF-8, NUL, empty field)', () => {
    const f = '\xff\x00\xc3';
    h.run('HSET', 'k', f, '\xfe\xfe', '', 'e');
    expect(h.run('HGET', 'k', f)).toBe('\xfe\xfe');
    expect(h.run('HSTRLEN', 'k', f)).toBe(2);
    expect(h.run('HSTRLEN', 'k', '')).toBe(1);
    expect(h.run('HEXISTS', 'k', '\xff\x00')).toBe(0);
  });

  it('sends hset/hdel events and deletes the key with its last field (del of class g)', () => {
    h.run('HSET', 'k', 'a', '1', 'b', '2');
    expect(h.run('HDEL', 'k', 'a', 'b', 'c')).toBe(2);
    expect(h.keys.has('k')).toBe(false);
    expect(h.notifications).toEqual([
      ['n', 'new', 'k'],
      ['h', 'hset', 'k'],
      ['h', 'hdel', 'k'],
      ['g', 'del', 'k'],
    ]);
  });

  it('answers WRONGTYPE after the argument checks (HINCRBY increment first)', () => {
    h.keys.set('s', 'x');
    expect(h.error('HINCRBY', 's', 'f', 'x')).toBe('ERR value is not an integer or out of range');
    expect(h.error('HINCRBY', 's', 'f', '1')).toBe(WRONGTYPE);
    expect(h.error('HGET', 's', 'f')).toBe(WRONGTYPE);
    expect(h.error('HSCAN', 's', 'x')).toBe('ERR invalid cursor');
  });

  it('HINCRBY is exact in 64 bits and refuses overflow without changing the value', () => {
    expect(h.run('HINCRBY', 'k', 'n', '9007199254740993')).toBe(9007199254740993n);
    expect(h.run('HINCRBY', 'k', 'n', '1')).toBe(9007199254740994n);
    h.run('HSET', 'k', 'm', '9223372036854775807');
    expect(h.error('HINCRBY', 'k', 'm', '1')).toBe('ERR increment or decrement would overflow');
    expect(h.run('HGET', 'k', 'm')).toBe('9223372036854775807');
  });

  it('HINCRBYFLOAT sums in long double and prints as Redis (0.1 + 0.2 = 0.3)', () => {
    h.run('HINCRBYFLOAT', 'k', 'f', '0.1');
    expect(h.run('HINCRBYFLOAT', 'k', 'f', '0.2')).toBe('0.3');
    expect(h.error('HINCRBYFLOAT', 'k', 'f', 'inf')).toBe('ERR value is NaN or Infinity');
    h.run('HSET', 'k', 'big', '1e4932');
    expect(h.error('HINCRBYFLOAT', 'k', 'big', '1e4932')).toBe('ERR increment would produce NaN or Infinity');
  });

  describe('HRANDFIELD', () => {
    beforeEach(() => {
      h.run('HSET', 'k', 'a', '1', 'b', '2', 'c', '3');
    });

    it('gives distinct fields for a positive count and |count| fields for a negative one', () => {
      const two = h.run('HRANDFIELD', 'k', '2') as string[];
      expect(new Set(two).size).toBe(2);
      expect(h.run('HRANDFIELD', 'k', '10')).toEqual(['a', 'b', 'c']);
      expect((h.run('HRANDFIELD', 'k', '-7') as string[]).length).toBe(7);
    });

    it('answers RESP3 [field, value] pairs with WITHVALUES', () => {
      const typed = h.runTyped('HRANDFIELD', 'k', '-2', 'WITHVALUES');
      expect(typed).toBeInstanceOf(PairsReply);
      for (const [f, v] of (typed as PairsReply).items) expect(h.run('HGET', 'k', f as string)).toBe(v);
      expect((h.run('HRANDFIELD', 'k', '-2', 'WITHVALUES') as string[]).length).toBe(4);
    });

    it('refuses counts Redis refuses, before looking at the key', () => {
      expect(h.error('HRANDFIELD', 'k', '-9223372036854775808')).toBe(
        'ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807',
      );
      expect(h.error('HRANDFIELD', 'k', '-9223372036854770000', 'WITHVALUES')).toBe('ERR value is out of range');
      expect(h.error('HRANDFIELD', 'nokey', '1', 'x')).toBe('ERR syntax error');
      // beyond what the fake builds (Redis streams it until the client is dropped)
      expect(h.error('HRANDFIELD', 'k', '-4611686018427387903')).toBe('ERR value is out of range');
    });
  });

  describe('HSCAN', () => {
    it('pages a hashtable hash with a cursor and returns each field once', () => {
      for (let i = 0; i < 600; i++) h.run('HSET', 'k', `f${i}`, `${i}`);
      const seen = new Set<string>();
      let cursor = '0';
      let calls = 0;
      do {
        const [next, items] = h.run('HSCAN', 'k', cursor, 'COUNT', '50', 'NOVALUES') as [string, string[]];
        for (const f of items) {
          expect(seen.has(f)).toBe(false);
          seen.add(f);
        }
        if (calls === 2) h.run('HDEL', 'k', 'f599', 'f0'); // deletions during the scan
        cursor = next;
        calls++;
      } while (cursor !== '0');
      expect(seen.has('f598')).toBe(true);
      expect(seen.size).toBeGreaterThanOrEqual(599);
      expect(calls).toBeGreaterThan(10);
    });

    it('answers a listpack hash whole with cursor 0; NOVALUES is unknown before 7.4', () => {
      h.run('HSET', 'k', 'a', '1', 'b', '2');
      expect(h.run('HSCAN', 'k', '0', 'COUNT', '1', 'MATCH', 'b')).toEqual(['0', ['b', '2']]);
      h.version = '7.0';
      expect(h.error('HSCAN', 'k', '0', 'NOVALUES')).toBe('ERR syntax error');
      expect(h.run('HSCAN', 'k', '-1')).toEqual(['0', ['a', '1', 'b', '2']]); // strtoul wraps
    });
  });

  describe('field expiration (7.4)', () => {
    it('is an unknown command before 7.4', () => {
      h.version = '7.0';
      expect(h.error('HPEXPIRE', 'k', '10', 'FIELDS', '1', 'a')).toMatch(/^ERR unknown command 'HPEXPIRE'/);
    });

    it('expires fields on the keyspace clock, with hexpired then del when the hash empties', () => {
      h.run('HSET', 'k', 'a', '1', 'b', '2');
      expect(h.run('HPEXPIRE', 'k', '100', 'FIELDS', '2', 'a', 'zz')).toEqual([1, -2]);
      expect(h.run('HPTTL', 'k', 'FIELDS', '2', 'a', 'b')).toEqual([100, -1]);
      expect(h.run('HTTL', 'k', 'FIELDS', '1', 'a')).toEqual([1]);
      h.now += 101; // past the deadline (at it the field is kept: hashTypeIsExpired expireAt < now)
      expect(h.run('HGETALL', 'k')).toEqual(['b', '2']);
      h.run('HPEXPIRE', 'k', '5', 'FIELDS', '1', 'b');
      h.now += 6;
      h.notifications.length = 0;
      expect(h.run('HLEN', 'k')).toBe(0);
      expect(h.keys.has('k')).toBe(false);
      expect(h.notifications).toEqual([
        ['h', 'hexpired', 'k'],
        ['g', 'del', 'k'],
      ]);
    });

    it('orders a listpack by expiry (listpackex), NX/XX/GT/LT as Redis, 2 for a past time', () => {
      h.run('HSET', 'k', 'a', '1', 'b', '2', 'c', '3');
      h.run('HPEXPIRE', 'k', '500', 'FIELDS', '1', 'c');
      h.run('HPEXPIRE', 'k', '300', 'FIELDS', '1', 'b');
      expect(h.run('HKEYS', 'k')).toEqual(['b', 'c', 'a']);
      expect((h.keys.get('k') as RedisHash).encoding()).toBe('listpackex');
      expect(h.run('HPEXPIRE', 'k', '900', 'XX', 'FIELDS', '2', 'a', 'b')).toEqual([0, 1]);
      expect(h.run('HPEXPIRE', 'k', '100', 'GT', 'FIELDS', '1', 'b')).toEqual([0]);
      expect(h.run('HPEXPIRE', 'k', '100', 'LT', 'FIELDS', '2', 'b', 'a')).toEqual([1, 1]);
      expect(h.run('HPEXPIRE', 'k', '100', 'NX', 'FIELDS', '1', 'a')).toEqual([0]);
      expect(h.run('HPERSIST', 'k', 'FIELDS', '2', 'a', 'zz')).toEqual([1, -2]);
      expect(h.run('HKEYS', 'k')).toEqual(['b', 'c', 'a']);
      expect(h.run('HPEXPIRE', 'k', '0', 'FIELDS', '1', 'a')).toEqual([2]);
      expect(h.notifications.slice(-2)).toEqual([
        ['h', 'hpersist', 'k'],
        ['h', 'hdel', 'k'],
      ]);
    });

    it('HINCRBY keeps the TTL, HSET drops it', () => {
      h.run('HSET', 'k', 'n', '1');
      h.run('HPEXPIRE', 'k', '1000', 'FIELDS', '1', 'n');
      h.run('HINCRBY', 'k', 'n', '2');
      expect(h.run('HPTTL', 'k', 'FIELDS', '1', 'n')).toEqual([1000]);
      h.run('HSET', 'k', 'n', '0');
      expect(h.run('HPTTL', 'k', 'FIELDS', '1', 'n')).toEqual([-1]);
    });

    it('keeps field TTLs through COPY (KeyValue) and builds a RedisHash from a KeyValue', () => {
      h.run('HSET', 'k', 'a', '1', 'b', '2');
      h.run('HPEXPIREAT', 'k', '4102444800000', 'FIELDS', '1', 'b');
      const kv = toKeyValue(h.keys.get('k'))!;
      expect(kv).toEqual({ type: 'hash', value: [['b', '2'], ['a', '1']], fieldExpiries: new Map([['b', 4102444800000]]), listpack: true, listpackEx: true });
      const back = fromKeyValue(kv) as RedisHash;
      expect(back).toBeInstanceOf(RedisHash);
      expect(back.expireAtOf('b')).toBe(4102444800000);
      expect([...back.entries()].map((e) => e.field)).toEqual(['b', 'a']);
    });
  });

  describe('HGETDEL / HGETEX / HSETEX (8.0)', () => {
    it('are unknown commands before 8.0', () => {
      h.version = '7.4';
      expect(h.error('HGETDEL', 'k', 'FIELDS', '1', 'a')).toMatch(/^ERR unknown command 'HGETDEL'/);
      expect(h.error('HSETEX', 'k', 'FIELDS', '1', 'a', 'b')).toMatch(/^ERR unknown command 'HSETEX'/);
    });

    it('HGETDEL answers the values and deletes the fields, the key with the last one', () => {
      h.run('HSET', 'k', 'a', '1', 'b', '2');
      expect(h.run('HGETDEL', 'k', 'FIELDS', '3', 'a', 'zz', 'a')).toEqual(['1', null, null]);
      expect(h.run('HGETDEL', 'k', 'FIELDS', '1', 'b')).toEqual(['2']);
      expect(h.keys.has('k')).toBe(false);
      expect(h.notifications.slice(-2)).toEqual([
        ['h', 'hdel', 'k'],
        ['g', 'del', 'k'],
      ]);
      expect(h.error('HGETDEL', 'k', 'FIELDS', '0', 'a')).toBe('ERR Number of fields must be a positive integer');
      expect(h.error('HGETDEL', 'k', 'FIELDZ', '1', 'a')).toBe('ERR Mandatory argument FIELDS is missing or not at the right position');
    });

    it('HGETEX reads then sets or removes TTLs', () => {
      h.run('HSET', 'k', 'a', '1', 'b', '2');
      expect(h.run('HGETEX', 'k', 'PX', '500', 'FIELDS', '2', 'a', 'zz')).toEqual(['1', null]);
      expect(h.run('HPTTL', 'k', 'FIELDS', '1', 'a')).toEqual([500]);
      expect(h.run('HGETEX', 'k', 'PERSIST', 'FIELDS', '1', 'a')).toEqual(['1']);
      expect(h.run('HPTTL', 'k', 'FIELDS', '1', 'a')).toEqual([-1]);
      expect(h.run('HGETEX', 'k', 'EXAT', '1', 'FIELDS', '2', 'a', 'b')).toEqual(['1', '2']);
      expect(h.keys.has('k')).toBe(false);
      expect(h.error('HGETEX', 'k', 'EX', '-1', 'FIELDS', '1', 'a')).toBe('ERR invalid expire time, must be >= 0');
    });

    it('HSETEX sets fields with FNX/FXX and a TTL option', () => {
      expect(h.run('HSETEX', 'k', 'FXX', 'FIELDS', '1', 'a', '1')).toBe(0);
      expect(h.keys.has('k')).toBe(false);
      expect(h.run('HSETEX', 'k', 'FNX', 'PX', '100', 'FIELDS', '2', 'a', '1', 'b', '2')).toBe(1);
      expect(h.run('HPTTL', 'k', 'FIELDS', '2', 'a', 'b')).toEqual([100, 100]);
      expect(h.run('HSETEX', 'k', 'FNX', 'FIELDS', '1', 'a', 'x')).toBe(0);
      expect(h.run('HSETEX', 'k', 'KEEPTTL', 'FIELDS', '1', 'a', 'x')).toBe(1);
      expect(h.run('HPTTL', 'k', 'FIELDS', '1', 'a')).toEqual([100]);
      expect(h.run('HSETEX', 'k', 'FIELDS', '1', 'a', 'y')).toBe(1);
      expect(h.run('HPTTL', 'k', 'FIELDS', '1', 'a')).toEqual([-1]);
      expect(h.error('HSETEX', 'k', 'EX', '1', 'PX', '1', 'FIELDS', '1', 'a', 'b')).toBe(
        'ERR Only one of EX, PX, EXAT, PXAT or KEEPTTL arguments can be specified',
      );
      expect(h.error('HSETEX', 'k', 'FNX', 'FXX', 'FIELDS', '1', 'a', 'b')).toBe('ERR Only one of FXX or FNX arguments can be specified');
      expect(h.error('HSETEX', 'k', 'FIELDS', '2', 'a', 'b')).toBe("ERR wrong number of arguments for 'hsetex' command");
      expect(h.error('HSETEX', 'k', 'FIELDS', 'x', 'a', 'b')).toBe('ERR invalid number of fields');
      expect(h.error('HSETEX', 'k', 'NOPE', 'FIELDS', '1', 'a', 'b')).toBe('ERR unknown argument: NOPE');
    });
  });

  it('MEMORY USAGE answers an approximate positive size, nil for a missing key', () => {
    h.run('HSET', 'k', 'a', '1');
    expect(h.run('MEMORY', 'USAGE', 'k')).toBeGreaterThan(0);
    expect(h.run('MEMORY', 'USAGE', 'k', 'SAMPLES', '0')).toBeGreaterThan(0);
    expect(h.run('MEMORY', 'USAGE', 'nokey')).toBeNull();
    expect(h.error('MEMORY', 'USAGE', 'k', 'SAMPLES')).toBe('ERR syntax error');
    expect(h.error('MEMORY', 'USAGE', 'k', 'SAMPLES', '-1')).toBe('ERR syntax error');
  });
});
