/**
 * The list family on the command harness: the RedisList model (ring buffer, listpack sizes,
 * listpack/quicklist conversions) and every list command's replies, errors, keyspace events and
 * dirty counts. Expected values were observed on redis-server 7.0.15 and the post-7.4 4f8cdc2a
 * build (t_list.c); the differential test (__tests__/engine/lists-real-server.test.ts) replays
 * sequences on both.
 */
import { RedisList, lpEntryBytes } from '../../lib/model/list';
import { NIL_ARRAY } from '../../lib/reply/reply';
import { ServerConfig } from '../../lib/config/server-config';
import { Harness } from '../helpers/harness';

/** A harness whose Db counts dirty and reads a CONFIG (list-max-listpack-size). */
function harness(fill?: number): Harness & { changes: number; config: ServerConfig } {
  const h = new Harness() as Harness & { changes: number; config: ServerConfig };
  h.changes = 0;
  // the harness's Db reads the harness's own ServerConfig
  if (fill !== undefined) h.config.set([['list-max-listpack-size', String(fill)]], '8.10');
  Object.assign(h.db, { dirty: (n: number) => (h.changes += n) });
  return h;
}

const bytes = (...codes: number[]) => String.fromCharCode(...codes);

describe('RedisList (lib/model/list.ts)', () => {
  it('pushes and pops at both ends across the ring buffer wrap and its growth', () => {
    const l = new RedisList();
    const mirror: string[] = [];
    for (let i = 0; i < 100; i++) {
      if (i % 3 === 0) {
        l.pushLeft(`l${i}`);
        mirror.unshift(`l${i}`);
      } else {
        l.pushRight(`r${i}`);
        mirror.push(`r${i}`);
      }
      if (i % 7 === 0) expect(l.popLeft()).toBe(mirror.shift());
      if (i % 11 === 0) expect(l.popRight()).toBe(mirror.pop());
    }
    expect(l.toArray()).toEqual(mirror);
    expect(l.length).toBe(mirror.length);
    while (l.length > 0) expect(l.popRight()).toBe(mirror.pop());
    expect(l.popLeft()).toBeUndefined();
    expect(l.popRight()).toBeUndefined();
  });

  it('inserts and removes inside the list moving the nearer end', () => {
    const l = RedisList.of(['a', 'b', 'c', 'd', 'e']);
    l.insertAt(1, 'x');
    l.insertAt(5, 'y');
    expect(l.toArray()).toEqual(['a', 'x', 'b', 'c', 'd', 'y', 'e']);
    expect(l.removeAt(1)).toBe('x');
    expect(l.removeAt(4)).toBe('y');
    expect(l.toArray()).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(l.removeEqual('c', 0, false)).toBe(1);
    expect(l.range(0, 3, true)).toEqual(['e', 'd', 'b', 'a']);
  });

  it('sizes listpack entries as listpack.c (integers by width, strings by length class)', () => {
    expect(lpEntryBytes('127')).toBe(2); // 7-bit uint + backlen
    expect(lpEntryBytes('-1')).toBe(3); // 13-bit int
    expect(lpEntryBytes('32767')).toBe(4);
    expect(lpEntryBytes('8388607')).toBe(5);
    expect(lpEntryBytes('2147483647')).toBe(6);
    expect(lpEntryBytes('9223372036854775807')).toBe(10);
    expect(lpEntryBytes('9223372036854775808')).toBe(21); // not an int64: a 19-byte string
    expect(lpEntryBytes('01')).toBe(4); // not canonical: a string
    expect(lpEntryBytes('-0')).toBe(4);
    expect(lpEntryBytes('x'.repeat(63))).toBe(65);
    expect(lpEntryBytes('x'.repeat(64))).toBe(67); // 12-bit length, 2-byte backlen
    expect(lpEntryBytes('x'.repeat(4096))).toBe(4103); // 32-bit length
    expect(RedisList.of(['a', 'b', 'c']).listpackBytes).toBe(7 + 3 * 3);
  });

  it('answers quicklist on 7.0 and follows list-max-listpack-size from 7.2', () => {
    const l = RedisList.of(['a', 'b', 'c'], 3);
    expect(l.encoding(undefined, '7.0')).toBe('quicklist');
    expect(l.encoding(undefined, '8.10')).toBe('listpack');
    l.growing(3, 1, 1);
    l.pushRight('d');
    expect(l.encoding(undefined, '8.10')).toBe('quicklist');
    l.popRight();
    l.shrinking(3);
    expect(l.encoding(undefined, '8.10')).toBe('quicklist'); // 3 > 3/2
    l.popRight();
    l.popRight();
    l.shrinking(3);
    expect(l.encoding(undefined, '8.10')).toBe('listpack');
  });

  it('clones independently with the same encoding', () => {
    const l = RedisList.of(['a', 'b', 'c', 'd'], 3);
    const c = l.clone();
    c.pushRight('e');
    expect(l.toArray()).toEqual(['a', 'b', 'c', 'd']);
    expect(c.isQuicklist).toBe(true);
  });
});

describe('list commands (lib/commands/list.ts)', () => {
  it('LPUSH/RPUSH answer the length, keep binary elements and send lpush/rpush (and new)', () => {
    const h = harness();
    const bin = bytes(0xff, 0x00, 0xfe);
    expect(h.run('LPUSH', 'k', 'a', 'b')).toBe(2);
    expect(h.run('RPUSH', 'k', bin, 'c')).toBe(4);
    expect(h.run('LRANGE', 'k', '0', '-1')).toEqual(['b', 'a', bin, 'c']);
    expect(h.notifications).toEqual([
      ['n', 'new', 'k'],
      ['l', 'lpush', 'k'],
      ['l', 'rpush', 'k'],
    ]);
    expect(h.signals).toEqual(['k']); // dbAdd signals waiters once, when the key appears
    expect(h.changes).toBe(4);
  });

  it('LPUSHX/RPUSHX push only onto an existing list', () => {
    const h = harness();
    expect(h.run('LPUSHX', 'k', 'a', 'b')).toBe(0);
    expect(h.keys.has('k')).toBe(false);
    h.run('RPUSH', 'k', 'x');
    expect(h.run('LPUSHX', 'k', 'a', 'b')).toBe(3);
    expect(h.run('RPUSHX', 'k', 'z')).toBe(4);
    expect(h.run('LRANGE', 'k', '0', '-1')).toEqual(['b', 'a', 'x', 'z']);
  });

  it('LPOP/RPOP: bulk without count, arrays with one, nil / nil array / empty array edges', () => {
    const h = harness();
    expect(h.run('LPOP', 'k')).toBeNull();
    expect(h.runTyped('LPOP', 'k', '2')).toBe(NIL_ARRAY);
    expect(h.runTyped('LPOP', 'k', '0')).toBe(NIL_ARRAY); // missing key before count 0
    h.run('RPUSH', 'k', 'a', 'b', 'c');
    expect(h.run('LPOP', 'k', '0')).toEqual([]);
    expect(h.run('RPOP', 'k', '2')).toEqual(['c', 'b']);
    expect(h.error('LPOP', 'k', '-1')).toBe('ERR value is out of range, must be positive');
    expect(h.error('LPOP', 'k', 'x')).toBe('ERR value is out of range, must be positive');
    expect(h.error('LPOP', 'k', '1', '2')).toBe("ERR wrong number of arguments for 'lpop' command");
    h.notifications.length = 0;
    h.changes = 0;
    expect(h.run('LPOP', 'k', '5')).toEqual(['a']);
    expect(h.keys.has('k')).toBe(false);
    expect(h.notifications).toEqual([
      ['l', 'lpop', 'k'],
      ['g', 'del', 'k'],
    ]);
    expect(h.changes).toBe(1);
  });

  it('LLEN, LINDEX (key before index), LSET (no such key, index out of range)', () => {
    const h = harness();
    expect(h.run('LLEN', 'k')).toBe(0);
    expect(h.run('LINDEX', 'k', 'x')).toBeNull();
    expect(h.error('LSET', 'k', '0', 'v')).toBe('ERR no such key');
    h.run('RPUSH', 'k', 'a', 'b', 'c');
    expect(h.run('LINDEX', 'k', '-1')).toBe('c');
    expect(h.run('LINDEX', 'k', '3')).toBeNull();
    expect(h.run('LINDEX', 'k', '-9223372036854775808')).toBeNull();
    expect(h.error('LINDEX', 'k', 'x')).toBe('ERR value is not an integer or out of range');
    expect(h.error('LSET', 'k', '3', 'v')).toBe('ERR index out of range');
    expect(h.run('LSET', 'k', '-3', 'A')).toBe('OK');
    expect(h.run('LRANGE', 'k', '0', '-1')).toEqual(['A', 'b', 'c']);
    expect(h.notifications.at(-1)).toEqual(['l', 'lset', 'k']);
  });

  it('LSET cuts its index to a C int from 7.2 until the fix (8.10): 2^63-1 sets the last element', () => {
    // found by the core fuzzer (lists on the post-7.4 build); 7.0.15 answers out of range
    const h = harness();
    h.run('RPUSH', 'k', 'a', 'b', 'c');
    h.version = '8.0';
    expect(h.run('LSET', 'k', '9223372036854775807', 'Y')).toBe('OK');
    expect(h.run('LSET', 'k', '4294967297', 'X')).toBe('OK');
    expect(h.error('LSET', 'k', '2147483648', 'Z')).toBe('ERR index out of range');
    expect(h.run('LRANGE', 'k', '0', '-1')).toEqual(['a', 'X', 'Y']);
    for (const version of ['7.0', '8.10'] as const) {
      h.version = version;
      expect(h.error('LSET', 'k', '9223372036854775807', 'v')).toBe('ERR index out of range');
      expect(h.error('LSET', 'k', '4294967297', 'v')).toBe('ERR index out of range');
    }
  });

  it('WRONGTYPE for a key of another type', () => {
    const h = harness();
    h.keys.set('s', 'text');
    for (const argv of [['LPUSH', 's', 'a'], ['LPOP', 's'], ['LLEN', 's'], ['LRANGE', 's', '0', '1'], ['LINDEX', 's', '0'], ['LMOVE', 's', 'd', 'LEFT', 'LEFT'], ['LMPOP', '1', 's', 'LEFT'], ['LPOS', 's', 'a']]) {
      expect(h.error(...argv)).toBe('WRONGTYPE Operation against a key holding the wrong kind of value');
    }
    h.run('RPUSH', 'l', 'a');
    expect(h.error('LMOVE', 'l', 's', 'LEFT', 'LEFT')).toBe('WRONGTYPE Operation against a key holding the wrong kind of value');
    expect(h.run('LRANGE', 'l', '0', '-1')).toEqual(['a']); // nothing moved
  });

  it('LRANGE and LTRIM clamp as addListRangeReply; LTRIM sends ltrim then del', () => {
    const h = harness();
    h.run('RPUSH', 'k', 'a', 'b', 'c', 'd', 'e');
    expect(h.run('LRANGE', 'k', '-100', '1')).toEqual(['a', 'b']);
    expect(h.run('LRANGE', 'k', '3', '100')).toEqual(['d', 'e']);
    expect(h.run('LRANGE', 'k', '4', '2')).toEqual([]);
    expect(h.run('LTRIM', 'nokey', '0', '1')).toBe('OK');
    h.changes = 0;
    expect(h.run('LTRIM', 'k', '1', '-2')).toBe('OK');
    expect(h.run('LRANGE', 'k', '0', '-1')).toEqual(['b', 'c', 'd']);
    expect(h.changes).toBe(2);
    h.notifications.length = 0;
    h.run('LTRIM', 'k', '5', '6');
    expect(h.keys.has('k')).toBe(false);
    expect(h.notifications).toEqual([
      ['l', 'ltrim', 'k'],
      ['g', 'del', 'k'],
    ]);
  });

  it('LREM from the head, from the tail, all; the LONG_MIN count by version', () => {
    const h = harness();
    h.run('RPUSH', 'k', 'a', 'b', 'a', 'c', 'a');
    expect(h.run('LREM', 'k', '-2', 'a')).toBe(2);
    expect(h.run('LRANGE', 'k', '0', '-1')).toEqual(['a', 'b', 'c']);
    expect(h.run('LREM', 'k', '0', 'nope')).toBe(0);
    expect(h.error('LREM', 'k', '-9223372036854775808', 'a')).toBe(
      'ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807',
    );
    h.version = '7.0';
    h.run('RPUSH', 'k', 'a', 'a');
    expect(h.run('LREM', 'k', '-9223372036854775808', 'a')).toBe(3); // every match, from the tail
  });

  it('LINSERT: 0 for a missing key, -1 for a missing pivot, the length otherwise', () => {
    const h = harness();
    expect(h.run('LINSERT', 'k', 'BEFORE', 'p', 'v')).toBe(0);
    expect(h.error('LINSERT', 'k', 'MIDDLE', 'p', 'v')).toBe('ERR syntax error');
    h.run('RPUSH', 'k', 'a', 'b');
    expect(h.run('LINSERT', 'k', 'before', 'x', 'v')).toBe(-1);
    expect(h.run('LINSERT', 'k', 'AFTER', 'a', 'v')).toBe(3);
    expect(h.run('LINSERT', 'k', 'BEFORE', 'a', 'w')).toBe(4);
    expect(h.run('LRANGE', 'k', '0', '-1')).toEqual(['w', 'a', 'v', 'b']);
  });

  it('LPOS: RANK, COUNT, MAXLEN and their error texts', () => {
    const h = harness();
    expect(h.run('LPOS', 'k', 'a')).toBeNull();
    expect(h.run('LPOS', 'k', 'a', 'COUNT', '0')).toEqual([]);
    h.run('RPUSH', 'k', 'a', 'b', 'c', 'a', 'b', 'a');
    expect(h.run('LPOS', 'k', 'a')).toBe(0);
    expect(h.run('LPOS', 'k', 'a', 'RANK', '2')).toBe(3);
    expect(h.run('LPOS', 'k', 'a', 'RANK', '-1')).toBe(5);
    expect(h.run('LPOS', 'k', 'a', 'COUNT', '0')).toEqual([0, 3, 5]);
    expect(h.run('LPOS', 'k', 'a', 'RANK', '-2', 'COUNT', '2')).toEqual([3, 0]);
    expect(h.run('LPOS', 'k', 'a', 'COUNT', '0', 'MAXLEN', '4')).toEqual([0, 3]);
    expect(h.run('LPOS', 'k', 'a', 'RANK', '4')).toBeNull();
    expect(h.error('LPOS', 'k', 'a', 'RANK', '0')).toMatch(/^ERR RANK can't be zero: use 1 to start from the first match/);
    expect(h.error('LPOS', 'k', 'a', 'COUNT', '-1')).toBe("ERR COUNT can't be negative");
    expect(h.error('LPOS', 'k', 'a', 'COUNT', 'x')).toBe("ERR COUNT can't be negative");
    expect(h.error('LPOS', 'k', 'a', 'MAXLEN', '-1')).toBe("ERR MAXLEN can't be negative");
    expect(h.error('LPOS', 'k', 'a', 'RANK')).toBe('ERR syntax error');
    expect(h.error('LPOS', 'k', 'a', 'RANK', '-9223372036854775808')).toMatch(/^ERR value is out of range, value must between/);
    h.version = '7.0';
    expect(h.run('LPOS', 'k', 'a', 'RANK', '-9223372036854775808')).toBe(5);
  });

  it('LMOVE/RPOPLPUSH: events push then pop, the same key rotates, one change each', () => {
    const h = harness();
    expect(h.run('RPOPLPUSH', 'src', 'dst')).toBeNull();
    h.run('RPUSH', 'src', 'a', 'b');
    h.notifications.length = 0;
    h.changes = 0;
    expect(h.run('LMOVE', 'src', 'dst', 'LEFT', 'RIGHT')).toBe('a');
    expect(h.notifications).toEqual([
      ['n', 'new', 'dst'],
      ['l', 'rpush', 'dst'],
      ['l', 'lpop', 'src'],
    ]);
    expect(h.run('RPOPLPUSH', 'src', 'src')).toBe('b');
    expect(h.run('LMOVE', 'src', 'dst', 'left', 'left')).toBe('b');
    expect(h.keys.has('src')).toBe(false);
    expect(h.run('LRANGE', 'dst', '0', '-1')).toEqual(['b', 'a']);
    expect(h.changes).toBe(3);
    expect(h.error('LMOVE', 'src', 'dst', 'UP', 'LEFT')).toBe('ERR syntax error');
  });

  it('LMPOP: the first non-empty list, COUNT, and its argument errors in order', () => {
    const h = harness();
    expect(h.runTyped('LMPOP', '2', 'a', 'b', 'LEFT')).toBe(NIL_ARRAY);
    h.run('RPUSH', 'b', '1', '2', '3');
    expect(h.run('LMPOP', '2', 'a', 'b', 'RIGHT', 'COUNT', '2')).toEqual(['b', ['3', '2']]);
    expect(h.run('LMPOP', '2', 'a', 'b', 'LEFT', 'COUNT', '9')).toEqual(['b', ['1']]);
    expect(h.error('LMPOP', '0', 'a', 'LEFT')).toBe('ERR numkeys should be greater than 0');
    expect(h.error('LMPOP', 'x', 'a', 'LEFT')).toBe('ERR numkeys should be greater than 0');
    expect(h.error('LMPOP', '3', 'a', 'LEFT')).toBe('ERR syntax error');
    expect(h.error('LMPOP', '1', 'a', 'MIDDLE')).toBe('ERR syntax error');
    expect(h.error('LMPOP', '1', 'a', 'LEFT', 'COUNT', '0')).toBe('ERR count should be greater than 0');
    expect(h.error('LMPOP', '1', 'a', 'LEFT', 'COUNT', '1', 'COUNT', '1')).toBe('ERR syntax error');
  });

  it('BLMPOP checks numkeys, LEFT/RIGHT and COUNT before the timeout; hexadecimal timeouts', () => {
    const h = harness();
    expect(h.error('BLMPOP', 'x', '0', 'a', 'LEFT')).toBe('ERR numkeys should be greater than 0');
    expect(h.error('BLMPOP', 'x', '1', 'a', 'LEFT')).toBe('ERR timeout is not a float or out of range');
    expect(h.error('BLPOP', 'k', '0x7FFFFFFFFFFFFF')).toBe('ERR timeout is out of range');
    h.version = '7.0';
    expect(h.error('BLPOP', 'k', '0x7FFFFFFFFFFFFF')).toBe('ERR timeout is negative');
  });

  it('converts listpack ↔ quicklist as t_list.c (list-max-listpack-size 3)', () => {
    const h = harness(3);
    const enc = () => (h.keys.get('k') as RedisList).encoding(h.config, h.version);
    h.run('RPUSH', 'k', 'a', 'b', 'c');
    expect(enc()).toBe('listpack');
    h.run('RPUSH', 'k', 'd');
    expect(enc()).toBe('quicklist');
    h.run('RPOP', 'k', '2');
    expect(enc()).toBe('quicklist'); // 2 elements > 3/2
    h.run('RPOP', 'k');
    expect(enc()).toBe('listpack');
    // LINSERT converts before the pivot is searched, even when it is not found
    h.run('RPUSH', 'k', 'b', 'c');
    expect(h.run('LINSERT', 'k', 'AFTER', 'nope', 'x')).toBe(-1);
    expect(enc()).toBe('quicklist');
  });

  it('adopts a list left in ioredis-mock’s shape (an Array) keeping its TTL', () => {
    const h = harness();
    h.keys.set('k', ['a', 'é']);
    h.ttls.set('k', h.now + 10_000);
    expect(h.run('RPUSH', 'k', 'z')).toBe(3);
    expect(h.run('LRANGE', 'k', '0', '-1')).toEqual(['a', bytes(0xc3, 0xa9), 'z']);
    expect(h.keys.get('k')).toBeInstanceOf(RedisList);
    expect(h.ttls.get('k')).toBe(h.now + 10_000);
  });

  it('keeps LPUSH and RPOP O(1): 100 000 of each in seconds (copying the list would take hours)', () => {
    const h = harness();
    const t = Date.now();
    for (let i = 0; i < 100_000; i++) h.runTyped('LPUSH', 'k', 'xxx');
    for (let i = 0; i < 100_000; i++) h.runTyped('RPOP', 'k');
    expect(h.keys.has('k')).toBe(false);
    expect(Date.now() - t).toBeLessThan(10_000);
  });
});
