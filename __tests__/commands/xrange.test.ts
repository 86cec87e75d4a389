import { Harness } from '../helpers/harness';

const MAX = '18446744073709551615';
const INVALID = 'ERR Invalid stream ID specified as stream command argument';

function ids(reply: unknown): string[] {
  return (reply as string[][]).map((e) => e[0]);
}

describe('XRANGE', () => {
  let h: Harness;
  beforeEach(() => {
    h = new Harness();
    for (const id of ['0-1', `0-${MAX}`, '1-0', '42-0', '42-42', `${MAX}-${Number.MAX_SAFE_INTEGER}`, `${MAX}-${MAX}`])
      h.run('XADD', 'v', id, 'a', '1');
  });

  it('returns entries between two IDs, inclusive', () => {
    expect(h.run('XRANGE', 'v', '1-0', '42-0')).toEqual([
      ['1-0', ['a', '1']],
      ['42-0', ['a', '1']],
    ]);
    expect(ids(h.run('XRANGE', 'v', '-', '+'))).toHaveLength(7);
  });

  it('completes an incomplete start with seq 0 and an incomplete end with the max seq', () => {
    expect(ids(h.run('XRANGE', 'v', '42', '42'))).toEqual(['42-0', '42-42']);
    expect(ids(h.run('XRANGE', 'v', '0', '0'))).toEqual(['0-1', `0-${MAX}`]);
  });

  it('exclusive ranges', () => {
    expect(ids(h.run('XRANGE', 'v', '(0-1', '(1-0'))).toEqual([`0-${MAX}`]);
    expect(ids(h.run('XRANGE', 'v', '(1-0', '(42-42'))).toEqual(['42-0']);
    expect(ids(h.run('XRANGE', 'v', '(42', '+'))).toEqual(['42-42', `${MAX}-${Number.MAX_SAFE_INTEGER}`, `${MAX}-${MAX}`]);
    expect(ids(h.run('XRANGE', 'v', `(0-${MAX}`, '(42'))).toEqual(['1-0', '42-0', '42-42']);
  });

  it('COUNT limits the reply; the last COUNT wins', () => {
    expect(ids(h.run('XRANGE', 'v', '-', '+', 'COUNT', '2'))).toEqual(['0-1', `0-${MAX}`]);
    expect(ids(h.run('XRANGE', 'v', '-', '+', 'count', '0', 'COUNT', '1'))).toEqual(['0-1']);
  });

  it('COUNT 0 or negative replies a nil array', () => {
    expect(h.run('XRANGE', 'v', '-', '+', 'COUNT', '0')).toBeNull();
    expect(h.run('XRANGE', 'v', '-', '+', 'COUNT', '-1')).toBeNull();
    expect(h.run('XRANGE', 'v', '50', '1', 'COUNT', '0')).toBeNull();
    expect(h.run('XRANGE', 'v', '-', '+', 'COUNT', '1', 'COUNT', '0')).toBeNull();
  });

  it('a missing key replies an empty array even with COUNT 0', () => {
    expect(h.run('XRANGE', 'nokey', '-', '+')).toEqual([]);
    expect(h.run('XRANGE', 'nokey', '-', '+', 'COUNT', '0')).toEqual([]);
  });

  it('start after end replies an empty array', () => {
    expect(h.run('XRANGE', 'v', '50', '1')).toEqual([]);
  });

  it('skips deleted entries across nodes', () => {
    for (let i = 1; i <= 250; i++) h.run('XADD', 'big', `${i}-0`, 'f', String(i));
    for (let i = 2; i <= 249; i++) h.run('XDEL', 'big', `${i}-0`);
    expect(h.run('XRANGE', 'big', '-', '+')).toEqual([
      ['1-0', ['f', '1']],
      ['250-0', ['f', '250']],
    ]);
    expect(h.run('XRANGE', 'big', '2', '249')).toEqual([]);
  });

  describe('error cases', () => {
    it('too few arguments', () => {
      expect(h.error('XRANGE', 'v', '-')).toBe("ERR wrong number of arguments for 'xrange' command");
    });

    it('invalid IDs and exclusive - / +', () => {
      expect(h.error('XRANGE', 'v', '(-', '+')).toBe(INVALID);
      expect(h.error('XRANGE', 'v', '-', '(+')).toBe(INVALID);
      expect(h.error('XRANGE', 'v', '(', '+')).toBe(INVALID);
      expect(h.error('XRANGE', 'v', 'x', '+')).toBe(INVALID);
      expect(h.error('XRANGE', 'v', '1-*', '+')).toBe(INVALID);
    });

    it('an exclusive bound that cannot move', () => {
      expect(h.error('XRANGE', 'v', `(${MAX}-${MAX}`, '+')).toBe('ERR invalid start ID for the interval');
      expect(h.error('XRANGE', 'v', '-', '(0-0')).toBe('ERR invalid end ID for the interval');
      expect(h.error('XRANGE', 'v', '(0-0', '(0-0')).toBe('ERR invalid end ID for the interval');
    });

    it('COUNT syntax and value', () => {
      expect(h.error('XRANGE', 'v', '-', '+', 'FOO')).toBe('ERR syntax error');
      expect(h.error('XRANGE', 'v', '-', '+', 'COUNT')).toBe('ERR syntax error');
      expect(h.error('XRANGE', 'v', '-', '+', 'COUNT', 'x')).toBe('ERR value is not an integer or out of range');
      expect(h.error('XRANGE', 'v', '-', '+', 'COUNT', '1', 'x')).toBe('ERR syntax error');
    });

    it('argument errors come before the key lookup, WRONGTYPE after', () => {
      h.keys.set('str', 'x');
      expect(h.error('XRANGE', 'nokey', 'x', '+')).toBe(INVALID);
      expect(h.error('XRANGE', 'str', 'x', '+')).toBe(INVALID);
      expect(h.error('XRANGE', 'str', '-', '+', 'COUNT', 'x')).toBe('ERR value is not an integer or out of range');
      expect(h.error('XRANGE', 'str', '-', '+')).toBe('WRONGTYPE Operation against a key holding the wrong kind of value');
    });
  });
});

describe('XREVRANGE', () => {
  let h: Harness;
  beforeEach(() => {
    h = new Harness();
    for (const id of ['0-1', '1-0', '42-0', '42-42', `${MAX}-${MAX}`]) h.run('XADD', 'v', id, 'a', '1');
  });

  it('returns entries from end down to start (end first in the arguments)', () => {
    expect(ids(h.run('XREVRANGE', 'v', '+', '-'))).toEqual([`${MAX}-${MAX}`, '42-42', '42-0', '1-0', '0-1']);
    expect(ids(h.run('XREVRANGE', 'v', '42', '1'))).toEqual(['42-42', '42-0', '1-0']);
    expect(ids(h.run('XREVRANGE', 'v', '+', '-', 'COUNT', '2'))).toEqual([`${MAX}-${MAX}`, '42-42']);
  });

  it('exclusive bounds', () => {
    expect(ids(h.run('XREVRANGE', 'v', '(42', '-', 'COUNT', '1'))).toEqual(['42-42']);
    expect(ids(h.run('XREVRANGE', 'v', '+', '(42-0'))).toEqual([`${MAX}-${MAX}`, '42-42']);
  });

  it('- + in the wrong order replies an empty array; COUNT 0 a nil array', () => {
    expect(h.run('XREVRANGE', 'v', '-', '+')).toEqual([]);
    expect(h.run('XREVRANGE', 'v', '+', '-', 'COUNT', '0')).toBeNull();
    expect(h.run('XREVRANGE', 'nokey', '+', '-')).toEqual([]);
  });

  it('walks backwards across nodes and skips deleted entries', () => {
    for (let i = 1; i <= 250; i++) h.run('XADD', 'big', `${i}-0`, 'f', 'v');
    h.run('XDEL', 'big', '250-0', '150-0', '101-0');
    expect(ids(h.run('XREVRANGE', 'big', '+', '-', 'COUNT', '3'))).toEqual(['249-0', '248-0', '247-0']);
    const middle = Array.from({ length: 48 }, (_, k) => `${149 - k}-0`); // 149-0 … 102-0
    expect(ids(h.run('XREVRANGE', 'big', '151', '99'))).toEqual(['151-0', ...middle, '100-0', '99-0']);
  });

  describe('error cases', () => {
    it('the exclusive start is the last argument', () => {
      expect(h.error('XREVRANGE', 'v', '(0-0', '-')).toBe('ERR invalid end ID for the interval');
      expect(h.error('XREVRANGE', 'v', '+', `(${MAX}-${MAX}`)).toBe('ERR invalid start ID for the interval');
    });

    it('arity, syntax and WRONGTYPE', () => {
      expect(h.error('XREVRANGE', 'v', '+')).toBe("ERR wrong number of arguments for 'xrevrange' command");
      expect(h.error('XREVRANGE', 'v', '+', '-', 'LIMIT', '1')).toBe('ERR syntax error');
      h.keys.set('str', 'x');
      expect(h.error('XREVRANGE', 'str', '+', '-')).toBe('WRONGTYPE Operation against a key holding the wrong kind of value');
    });
  });
});
