/**
 * SORT and SORT_RO (lib/commands/sort.ts) on the command harness: numeric and ALPHA orders, BY
 * and GET patterns, LIMIT clamping, STORE with its keyspace events and dirty counts, and the
 * errors in Redis's order. Expected values were observed on redis-server 7.0.15 and the post-7.4
 * 4f8cdc2a build (sort.c); __tests__/engine/sort-real-server.test.ts replays sequences on both.
 */
import { RedisList } from '../../lib/model/list';
import { Harness } from '../helpers/harness';
import { lookupByPattern, parseSort, sortScore } from '../../lib/commands/sort';
import Redis from 'ioredis-mock-streams';

const BIN = '\xff\x00\xfe';
const SCORE_ERR = "ERR One or more scores can't be converted into double";

// keymiss (class m) is checked in __tests__/differential/keyspace-events-keymiss-key-commands-real-server.test.ts
describe('SORT', () => {
  it("sorts BY a pattern with a LIMIT short of the whole with Redis's pqsort: equal or missing weights end where that quicksort leaves them", () => {
    // replies recorded on redis-server 7.0.15 and the post-7.4 build
    const h = new Harness();
    h.run('RPUSH', 'l', ...Array.from({ length: 12 }, (_, i) => String(i)));
    h.run('SET', 'k1', 'x');
    expect(h.run('SORT', 'l', 'BY', 'k*', 'LIMIT', '7', '3', 'ALPHA')).toEqual(['7', '8', '9']);
    expect(h.run('SORT', 'l', 'BY', 'k*', 'LIMIT', '0', '5', 'ALPHA', 'DESC')).toEqual(['1', '2', '3', '4', '5']);
    expect(h.run('SORT', 'l', 'BY', 'k*', 'LIMIT', '2', '100', 'ALPHA')).toEqual(['2', '3', '4', '5', '6', '7', '8', '9', '10', '1']);
    // the whole vector: qsort (glibc's merge sort, stable)
    expect(h.run('SORT', 'l', 'BY', 'k*', 'ALPHA')).toEqual(['0', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '1']);
    expect(h.run('SORT', 'l', 'BY', 'nosuch*', 'LIMIT', '1', '4')).toEqual(['1', '10', '11', '2']); // equal scores: compared as strings
  });

  it('sorts a list numerically, ties by bytes, DESC reverses, the empty text is 0', () => {
    const h = new Harness();
    h.run('RPUSH', 'l', '3', '1', '2', '10', '-5', '1.5', '', '01');
    expect(h.run('SORT', 'l')).toEqual(['-5', '', '01', '1', '1.5', '2', '3', '10']);
    expect(h.run('SORT', 'l', 'DESC')).toEqual(['10', '3', '2', '1.5', '1', '01', '', '-5']);
    expect(h.dirtyCount).toBe(8); // the RPUSH's 8 elements; SORT changes nothing
  });

  it('sorts ALPHA in byte order, binary elements included', () => {
    const h = new Harness();
    h.run('RPUSH', 'l', 'b', BIN, 'a', 'B', '10', '9');
    expect(h.run('SORT', 'l', 'ALPHA')).toEqual(['10', '9', 'B', 'a', 'b', BIN]);
    expect(h.run('SORT_RO', 'l', 'ALPHA', 'DESC', 'LIMIT', '0', '2')).toEqual([BIN, 'b']);
  });

  it('refuses a value that is not a double, after the options and the type check', () => {
    const h = new Harness();
    h.run('RPUSH', 'l', '1', 'a');
    expect(h.error('SORT', 'l')).toBe(SCORE_ERR);
    expect(h.error('SORT', 'l', 'STORE', 'd')).toBe(SCORE_ERR);
    expect(h.run('EXISTS', 'd')).toBe(0);
    expect(h.error('SORT', 'l', 'LIMIT', 'x', '1')).toBe('ERR value is not an integer or out of range');
    expect(h.error('SORT', 'l', 'LIMIT', '1')).toBe('ERR syntax error');
    expect(h.error('SORT_RO', 'l', 'STORE', 'd')).toBe('ERR syntax error');
    h.run('SET', 's', 'v');
    expect(h.error('SORT', 's', 'foo')).toBe('ERR syntax error');
    expect(h.error('SORT', 's')).toBe('WRONGTYPE Operation against a key holding the wrong kind of value');
  });

  it('reads numbers as the version does: strtod on 7.0, fast_float on 8.0', () => {
    expect(sortScore(' 1', '7.0')).toBe(1);
    expect(sortScore(' 1', '8.10')).toBeNull();
    expect(sortScore('0x10', '7.0')).toBe(16);
    expect(sortScore('0x10', '8.10')).toBeNull();
    expect(sortScore('1e400', '7.0')).toBeNull();
    expect(sortScore('1e400', '8.10')).toBe(Infinity);
    expect(sortScore('1e-400', '8.10')).toBe(0);
    expect(sortScore('nan', '8.10')).toBeNull();
    expect(sortScore('7\x00x', '8.10')).toBe(7); // a C string ends at NUL
    expect(sortScore('', '7.0')).toBe(0);
    expect(sortScore('  ', '7.0')).toBeNull();
  });

  it('clamps LIMIT as sort.c does', () => {
    const h = new Harness();
    h.run('RPUSH', 'l', '5', '4', '3', '2', '1');
    expect(h.run('SORT', 'l', 'LIMIT', '1', '2')).toEqual(['2', '3']);
    expect(h.run('SORT', 'l', 'LIMIT', '-5', '100', 'DESC')).toEqual(['5', '4', '3', '2', '1']);
    expect(h.run('SORT', 'l', 'LIMIT', '10', '2')).toEqual([]);
    expect(h.run('SORT', 'l', 'LIMIT', '0', '0')).toEqual([]);
    expect(h.run('SORT', 'l', 'LIMIT', '3', '-7')).toEqual(['4', '5']);
    expect(h.run('SORT', 'l', 'LIMIT', '9223372036854775807', '9223372036854775807')).toEqual([]);
    expect(h.run('SORT', 'l', 'LIMIT', '1', '2', 'BY', 'nosort', 'DESC')).toEqual(['2', '3']);
    expect(h.run('SORT', 'l', 'LIMIT', '1', '2', 'BY', 'nosort')).toEqual(['4', '3']);
  });

  it('weighs by BY keys and hash fields, GETs #, keys and fields (nil when missing)', () => {
    const h = new Harness();
    h.run('RPUSH', 'l', '1', '2', '3', BIN);
    h.run('MSET', 'w_1', '30', 'w_2', '10', 'w_3', '20', `w_${BIN}`, '-1');
    h.run('HSET', 'h_1', 'f', 'x');
    h.run('HSET', 'h_2', 'f', 'y');
    expect(h.run('SORT', 'l', 'BY', 'w_*')).toEqual([BIN, '2', '3', '1']);
    expect(h.run('SORT', 'l', 'BY', 'w_*', 'GET', '#', 'GET', 'h_*->f', 'GET', 'h_*->', 'GET', 'const')).toEqual([
      BIN, null, null, null, '2', 'y', null, null, '3', null, null, null, '1', 'x', null, null,
    ]);
    // a missing BY value sorts first in ALPHA
    expect(h.run('SORT', 'l', 'BY', 'h_*->f', 'ALPHA', 'DESC')).toEqual(['2', '1', expect.any(String), expect.any(String)]);
    expect(lookupByPattern(h.ctx(), 'w_*->', '1')).toBeUndefined(); // key `w_1->` is missing
    expect(lookupByPattern(h.ctx(), '#', BIN)).toBe(BIN);
  });

  it('keeps the native order with a constant BY: list order, sorted-set score order', () => {
    const h = new Harness();
    h.run('ZADD', 'z', '3', 'a', '1', 'b', '2', 'c', '1', 'd');
    expect(h.run('SORT', 'z', 'BY', 'nosort')).toEqual(['b', 'd', 'c', 'a']);
    expect(h.run('SORT', 'z', 'BY', 'nosort', 'DESC', 'LIMIT', '1', '2')).toEqual(['c', 'd']);
    expect(h.run('SORT', 'z', 'ALPHA')).toEqual(['a', 'b', 'c', 'd']);
    expect(h.run('OBJECT', 'ENCODING', 'z')).toBe('skiplist'); // sort.c zsetConvert
  });

  it('STORE writes a list (l sortstore, dirty += length); an empty result deletes (g del, dirty 1)', () => {
    const h = new Harness();
    h.run('SADD', 's', 'b', 'a', 'c');
    h.run('SET', 'd', 'old');
    h.notifications.length = 0;
    h.dirtyCount = 0;
    // a set with a constant BY and STORE is sorted ALPHA
    expect(h.run('SORT', 's', 'BY', 'nosort', 'STORE', 'd')).toBe(3);
    expect(h.keys.get('d')).toBeInstanceOf(RedisList);
    expect(h.run('LRANGE', 'd', '0', '-1')).toEqual(['a', 'b', 'c']);
    expect(h.notifications).toEqual([['l', 'sortstore', 'd']]);
    expect(h.dirtyCount).toBe(3);
    expect(h.run('SORT', 's', 'ALPHA', 'GET', '#', 'GET', 'nokey_*', 'LIMIT', '0', '1', 'STORE', 'd')).toBe(2);
    expect(h.run('LRANGE', 'd', '0', '-1')).toEqual(['a', '']);
    h.notifications.length = 0;
    h.dirtyCount = 0;
    expect(h.run('SORT', 'nokey', 'STORE', 'd')).toBe(0);
    expect(h.run('EXISTS', 'd')).toBe(0);
    expect(h.notifications.filter(([c]) => c !== 'm')).toEqual([['g', 'del', 'd']]);
    expect(h.dirtyCount).toBe(1);
    expect(h.run('SORT', 'nokey', 'STORE', 'd')).toBe(0);
    expect(h.dirtyCount).toBe(1);
  });

  it('parses options in order, the last ASC/DESC winning, a constant BY sticking', () => {
    const a = parseSort(['SORT', 'k', 'DESC', 'ASC', 'BY', 'x', 'BY', 'w_*', 'GET', '#', 'GET', 'a_*'], false);
    expect(a).toMatchObject({ desc: false, by: 'w_*', dontSort: true, gets: ['#', 'a_*'] });
  });
});

// replies of redis-server 7.0.15 and the post-7.4 build (Redis's unit/acl-v2 'Test sort with ACL permissions')
describe.each([
  ['7.0', 38_101],
  ['8.10', 38_102],
] as const)('SORT under ACL (%s)', (version, port) => {
  it('refuses BY and GET patterns to a user who cannot read every key with SORT', async () => {
    const admin = new Redis({ port, streams: { redisVersion: version } } as never) as any;
    const u = new Redis({ port, streams: { redisVersion: version } } as never) as any;
    const by = 'ERR BY option of SORT denied due to insufficient ACL permissions.';
    const get = 'ERR GET option of SORT denied due to insufficient ACL permissions.';
    await admin.set('v1', '1');
    await admin.lpush('mylist', '1');
    await admin.call('acl', 'setuser', 'sorter', 'on', 'nopass', '(+sort', '+sort_ro', '~mylist)');
    await u.call('auth', 'sorter', 'x');
    await expect(u.call('sort', 'mylist', 'by', 'v*')).rejects.toThrow(by);
    await expect(u.call('sort_ro', 'mylist', 'by', 'v*')).rejects.toThrow(by);
    await expect(u.call('sort', 'mylist', 'get', '#')).rejects.toThrow(get); // GET # too
    await expect(u.call('sort', 'mylist', 'by', 'nosort', 'get', '#')).rejects.toThrow(get);
    await expect(u.call('sort', 'mylist', 'by', 'v*', 'limit', 'a', 'b')).rejects.toThrow(by); // in argument order
    await expect(u.call('sort', 'mylist', 'limit', 'a', 'b', 'by', 'v*')).rejects.toThrow('ERR value is not an integer or out of range');
    await expect(u.call('sort', 'mylist', 'foo', 'by', 'v*')).rejects.toThrow('ERR syntax error');
    expect(await u.call('sort', 'mylist', 'by', 'nosort')).toEqual(['1']); // a constant BY reads no key
    for (const keys of [['~mylist', '~v*'], ['~mylist', '%W~*']]) {
      await admin.call('acl', 'setuser', 'sorter', 'resetkeys', ...keys.map((k, i) => (i === 0 ? `(+sort ${k}` : i === keys.length - 1 ? `${k})` : k)));
      await expect(u.call('sort', 'mylist', 'by', 'v*')).rejects.toThrow(by);
    }
    for (const all of ['%R~*', '%RW~*', '~*']) {
      await admin.call('acl', 'setuser', 'sorter', `(+sort ~mylist`, `${all})`);
      expect(await u.call('sort', 'mylist', 'by', 'v*', 'get', '#')).toEqual(['1']);
    }
    u.disconnect();
    admin.disconnect();
  });
});
