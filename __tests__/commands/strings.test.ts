/**
 * The string family (lib/commands/strings.ts, incr.ts, bitops.ts) on the in-memory harness:
 * replies, keyspace events, TTL handling, per-version rules and byte semantics. The same
 * behaviours are compared with real servers in __tests__/differential/strings-real-server.test.ts.
 */
import { Harness } from '../helpers/harness';
import { stringEncoding } from '../../lib/model/string-encoding';

function harness(): Harness & { dirtyCount: number } {
  const h = new Harness() as Harness & { dirtyCount: number };
  h.dirtyCount = 0;
  (h.db as { dirty?: (n: number) => void }).dirty = (n) => (h.dirtyCount += n);
  return h;
}

describe('SET and its options', () => {
  it('answers OK, nil for a refused NX/XX, and the old value with GET', () => {
    const h = harness();
    expect(h.run('SET', 'k', 'v')).toBe('OK');
    expect(h.run('SET', 'k', 'w', 'NX')).toBeNull();
    expect(h.run('SET', 'k', 'w', 'XX', 'GET')).toBe('v');
    expect(h.run('SET', 'k', 'x', 'NX', 'GET')).toBe('w');
    expect(h.run('SET', 'missing', 'x', 'XX', 'GET')).toBeNull();
    expect(h.keys.has('missing')).toBe(false);
    expect(h.run('GET', 'k')).toBe('w');
  });

  it('rejects conflicting options with a syntax error but accepts repeats', () => {
    const h = harness();
    for (const opts of [['NX', 'XX'], ['XX', 'NX'], ['KEEPTTL', 'EX', '1'], ['EX', '1', 'PX', '1'], ['PXAT', '1', 'EXAT', '1'], ['EX'], ['PERSIST'], ['FOO']]) {
      expect(h.error('SET', 'k', 'v', ...opts)).toBe('ERR syntax error');
    }
    expect(h.run('SET', 'k', 'v', 'EX', '10', 'EX', '20', 'nx', 'nx', 'GET')).toBeNull();
    expect(h.ttls.get('k')).toBe(h.now + 20_000);
  });

  it('checks the expire time before the type, with the command name in the error', () => {
    const h = harness();
    h.keys.set('list', ['a']);
    expect(h.error('SET', 'list', 'v', 'GET', 'EX', '0')).toBe("ERR invalid expire time in 'set' command");
    expect(h.error('SET', 'list', 'v', 'GET', 'EX', 'x')).toBe('ERR value is not an integer or out of range');
    expect(h.error('SET', 'list', 'v', 'GET')).toMatch(/^WRONGTYPE/);
    expect(h.error('SET', 'k', 'v', 'EX', '9223372036854776')).toBe("ERR invalid expire time in 'set' command");
    expect(h.error('SET', 'k', 'v', 'PX', '9223372036854775807')).toBe("ERR invalid expire time in 'set' command");
    expect(h.error('SETEX', 'k', '-1', 'v')).toBe("ERR invalid expire time in 'setex' command");
    expect(h.error('PSETEX', 'k', '0', 'v')).toBe("ERR invalid expire time in 'psetex' command");
    expect(h.run('SET', 'k', 'v', 'PXAT', '9223372036854775807')).toBe('OK');
  });

  it('drops the TTL unless KEEPTTL, and sends new, set and expire events in that order', () => {
    const h = harness();
    h.run('SET', 'k', 'v', 'EX', '100');
    expect(h.notifications).toEqual([['n', 'new', 'k'], ['$', 'set', 'k'], ['g', 'expire', 'k']]);
    h.run('SET', 'k', 'w', 'KEEPTTL');
    expect(h.ttls.get('k')).toBe(h.now + 100_000);
    h.run('SET', 'k', 'x');
    expect(h.ttls.has('k')).toBe(false);
    expect(h.dirtyCount).toBe(3);
  });

  it('overwrites a key of any type without GET', () => {
    const h = harness();
    h.keys.set('k', new Set(['a']));
    expect(h.run('SET', 'k', 'v')).toBe('OK');
    expect(h.keys.get('k')).toBe('v');
  });
});

describe('GET family', () => {
  it('sends keymiss for a missing key and WRONGTYPE for another type', () => {
    const h = harness();
    expect(h.run('GET', 'nope')).toBeNull();
    expect(h.notifications).toEqual([['m', 'keymiss', 'nope']]);
    h.keys.set('l', ['a']);
    expect(h.error('GET', 'l')).toMatch(/^WRONGTYPE/);
    expect(h.run('MGET', 'l', 'nope')).toEqual([null, null]);
  });

  it('reads values an emulator stored as Buffer or number as their bytes', () => {
    const h = harness();
    h.keys.set('b', Buffer.from([0xff, 0x00]));
    h.keys.set('n', 42);
    expect(h.run('GET', 'b')).toBe('\xff\x00');
    expect(h.run('STRLEN', 'b')).toBe(2);
    expect(h.run('INCR', 'n')).toBe(43);
  });

  it('GETEX sets, removes or keeps the TTL; a past PXAT deletes the key', () => {
    const h = harness();
    h.run('SET', 'k', 'v');
    h.notifications.length = 0;
    expect(h.run('GETEX', 'k', 'PX', '500')).toBe('v');
    expect(h.ttls.get('k')).toBe(h.now + 500);
    expect(h.run('GETEX', 'k', 'PERSIST')).toBe('v');
    expect(h.run('GETEX', 'k', 'PERSIST')).toBe('v');
    expect(h.run('GETEX', 'k', 'PXAT', String(h.now))).toBe('v');
    expect(h.keys.has('k')).toBe(false);
    expect(h.notifications).toEqual([['g', 'expire', 'k'], ['g', 'persist', 'k'], ['g', 'del', 'k']]);
    expect(h.error('GETEX', 'k', 'KEEPTTL')).toBe('ERR syntax error');
    expect(h.run('GETEX', 'k', 'EX', '-1')).toBeNull(); // missing key: nil before the expire check
  });

  it('GETDEL deletes and GETSET replaces, dropping the TTL', () => {
    const h = harness();
    h.run('SET', 'k', 'v', 'EX', '10');
    expect(h.run('GETSET', 'k', 'w')).toBe('v');
    expect(h.ttls.has('k')).toBe(false);
    expect(h.run('GETDEL', 'k')).toBe('w');
    expect(h.run('GETDEL', 'k')).toBeNull();
  });
});

describe('byte strings', () => {
  it('APPEND, STRLEN and SETRANGE count bytes and keep the TTL', () => {
    const h = harness();
    const bytes = Buffer.from('ÿþ€', 'utf8').toString('latin1'); // 7 bytes
    expect(h.run('APPEND', 'k', bytes)).toBe(7);
    h.ttls.set('k', h.now + 1000);
    expect(h.run('SETRANGE', 'k', '9', '\x00\xff')).toBe(11);
    expect(h.run('GET', 'k')).toBe(`${bytes}\x00\x00\x00\xff`);
    expect(h.ttls.get('k')).toBe(h.now + 1000);
    expect(h.run('SETRANGE', 'new', '2', '')).toBe(0);
    expect(h.keys.has('new')).toBe(false);
    expect(h.error('SETRANGE', 'k', '-1', 'x')).toBe('ERR offset is out of range');
    expect(h.error('SETRANGE', 'k', '536870912', 'x')).toBe('ERR string exceeds maximum allowed size (proto-max-bulk-len)');
    expect(h.error('SETRANGE', 'k', '9223372036854775807', 'x')).toBe('ERR string exceeds maximum allowed size (proto-max-bulk-len)');
  });

  it('GETRANGE clamps a too negative end to 0 in 7.x and answers "" from 8.0', () => {
    const h = harness();
    h.run('SET', 'k', 'hello');
    expect(h.run('GETRANGE', 'k', '0', '-100')).toBe('');
    expect(h.run('GETRANGE', 'k', '-3', '-1')).toBe('llo');
    h.version = '7.4';
    expect(h.run('GETRANGE', 'k', '0', '-100')).toBe('h');
    expect(h.run('SUBSTR', 'k', '-100', '-99')).toBe('h');
    expect(h.run('GETRANGE', 'nokey', '0', '-1')).toBe('');
  });

  it('GETRANGE and BITCOUNT compare two negative indexes near -2^63 exactly (start > end: empty, 0)', () => {
    // 7.0.15 and the post-7.4 build: "" for each; they are one apart, the same double
    const h = harness();
    h.run('SET', 'k', 'hello');
    for (const version of ['7.0', '8.0'] as const) {
      h.version = version;
      expect(h.run('GETRANGE', 'k', '-9223372036854775807', '-9223372036854775808')).toBe('');
      expect(h.run('SUBSTR', 'k', '-9223372036854775806', '-9223372036854775807')).toBe('');
      expect(h.run('GETRANGE', 'k', '-9007199254740993', '-9007199254740994')).toBe('');
    }
    h.version = '7.0';
    expect(h.run('GETRANGE', 'k', '-9223372036854775808', '-9223372036854775807')).toBe('h'); // start < end: clamped to 0, 0
    // BITCOUNT's same test: 0 on 7.0.15 and the post-7.4 build (the fake counted the first byte)
    for (const version of ['7.0', '8.0'] as const) {
      h.version = version;
      expect(h.run('BITCOUNT', 'k', '-9223372036854775807', '-9223372036854775808')).toBe(0);
      expect(h.run('BITCOUNT', 'k', '-9223372036854775807', '-9223372036854775808', 'BIT')).toBe(0);
      expect(h.run('BITCOUNT', 'k', '-9223372036854775808', '-9223372036854775807')).toBe(3); // 'h' = 0x68
    }
  });

  it('LCS answers the subsequence, its length or the match ranges', () => {
    const h = harness();
    h.run('MSET', 'a', 'ohmytext', 'b', 'mynewtext');
    expect(h.run('LCS', 'a', 'b')).toBe('mytext');
    expect(h.run('LCS', 'a', 'b', 'LEN')).toBe(6);
    expect(h.run('LCS', 'a', 'b', 'IDX', 'MINMATCHLEN', '4', 'WITHMATCHLEN')).toEqual(['matches', [[[4, 7], [5, 8], 4]], 'len', 6]);
    expect(h.error('LCS', 'a', 'b', 'LEN', 'IDX')).toBe('ERR If you want both the length and indexes, please just use IDX.');
  });
});

describe('MSET / MSETNX', () => {
  it('counts one change per pair and refuses MSETNX when any key exists', () => {
    const h = harness();
    expect(h.error('MSET', 'a', '1', 'b')).toBe("ERR wrong number of arguments for 'mset' command");
    expect(h.run('MSETNX', 'a', '1', 'a', '2')).toBe(1);
    expect(h.run('GET', 'a')).toBe('2');
    expect(h.run('MSETNX', 'a', '1', 'c', '2')).toBe(0);
    expect(h.keys.has('c')).toBe(false);
    expect(h.dirtyCount).toBe(2);
    expect(h.notifications).toEqual([['n', 'new', 'a'], ['$', 'set', 'a'], ['$', 'set', 'a']]);
  });
});

describe('INCR family', () => {
  it('is exact in 64 bits, keeps the TTL and refuses overflow', () => {
    const h = harness();
    h.run('SET', 'n', '9007199254740993', 'EX', '10');
    expect(h.run('INCR', 'n')).toBe(9007199254740994n);
    expect(h.ttls.has('n')).toBe(true);
    h.run('SET', 'n', '9223372036854775807');
    expect(h.error('INCR', 'n')).toBe('ERR increment or decrement would overflow');
    expect(h.error('DECRBY', 'n', '-9223372036854775808')).toBe('ERR decrement would overflow');
    h.keys.set('l', ['x']);
    expect(h.error('DECRBY', 'l', '-9223372036854775808')).toBe('ERR decrement would overflow'); // before the type
    expect(h.error('INCRBY', 'l', '1')).toMatch(/^WRONGTYPE/);
    expect(h.run('INCRBYFLOAT', 'f', '0.1')).toBe('0.1');
    expect(h.run('INCRBYFLOAT', 'f', '0.2')).toBe('0.3');
    expect(h.notifications.filter(([t]) => t === '$').map(([, e]) => e)).toEqual(['set', 'incrby', 'set', 'incrbyfloat', 'incrbyfloat']);
  });
});

describe('bitmaps', () => {
  it('SETBIT pads with zero bytes and counts a change only when something changed', () => {
    const h = harness();
    expect(h.run('SETBIT', 'b', '9', '1')).toBe(0);
    expect(h.run('GET', 'b')).toBe('\x00\x40');
    expect(h.run('SETBIT', 'b', '9', '1')).toBe(1);
    expect(h.dirtyCount).toBe(1);
    expect(h.error('SETBIT', 'b', '4294967296', '1')).toBe('ERR bit offset is not an integer or out of range');
    expect(h.error('SETBIT', 'b', '0', '2')).toBe('ERR bit is not an integer or out of range');
  });

  it('BITOP DIFF, DIFF1, ANDOR and ONE exist from 8.2', () => {
    const h = harness();
    h.run('MSET', 'x', '\x0f', 'y', '\x3c', 'z', '\x01');
    expect(h.run('BITOP', 'DIFF', 'd', 'x', 'y', 'z')).toBe(1);
    expect(h.run('GET', 'd')).toBe('\x02');
    h.run('BITOP', 'DIFF1', 'd', 'x', 'y', 'z');
    expect(h.run('GET', 'd')).toBe('\x30');
    h.run('BITOP', 'ANDOR', 'd', 'x', 'y', 'z');
    expect(h.run('GET', 'd')).toBe('\x0d');
    h.run('BITOP', 'ONE', 'd', 'x', 'y', 'z');
    expect(h.run('GET', 'd')).toBe('\x32');
    expect(h.error('BITOP', 'diff1', 'd', 'x')).toBe('ERR BITOP DIFF1 must be called with at least two source keys.');
    h.version = '8.0';
    expect(h.error('BITOP', 'ONE', 'd', 'x', 'y')).toBe('ERR syntax error');
  });

  it('BITCOUNT looks the key up before its arguments in 7.x', () => {
    const h = harness();
    expect(h.error('BITCOUNT', 'nokey', 'a', 'b')).toBe('ERR value is not an integer or out of range');
    h.version = '7.2';
    expect(h.run('BITCOUNT', 'nokey', 'a', 'b')).toBe(0);
    expect(h.run('BITPOS', 'nokey', '0', 'x')).toBe(0);
  });

  it('BITFIELD wraps, saturates or fails as OVERFLOW says', () => {
    const h = harness();
    expect(h.run('BITFIELD', 'f', 'SET', 'u8', '0', '250', 'INCRBY', 'u8', '0', '10', 'OVERFLOW', 'SAT', 'INCRBY', 'u8', '0', '300', 'OVERFLOW', 'FAIL', 'INCRBY', 'u8', '0', '1')).toEqual([0, 4, 255, null]);
    expect(h.run('BITFIELD', 'f', 'SET', 'i64', '0', '-9223372036854775808', 'INCRBY', 'i64', '0', '-1')).toEqual([-72057594037927936n, 9223372036854775807n]);
    expect(h.error('BITFIELD_RO', 'f', 'INCRBY', 'i8', '0', '1')).toBe('ERR BITFIELD_RO only supports the GET subcommand');
  });
});

describe('stringEncoding', () => {
  it('is int for canonical 64-bit integers, embstr up to 44 bytes, raw beyond', () => {
    expect(stringEncoding('1234')).toBe('int');
    expect(stringEncoding('-9223372036854775808')).toBe('int');
    expect(stringEncoding('9223372036854775808')).toBe('embstr');
    expect(stringEncoding('01')).toBe('embstr');
    expect(stringEncoding('')).toBe('embstr');
    expect(stringEncoding('x'.repeat(44))).toBe('embstr');
    expect(stringEncoding('x'.repeat(45))).toBe('raw');
  });
});
