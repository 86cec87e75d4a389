import { Harness } from '../helpers/harness';
import { group, readNew, xadd } from '../helpers/cg-state';

const INVALID_ID = 'ERR Invalid stream ID specified as stream command argument';
const SYNTAX = 'ERR syntax error';
const NOT_INTEGER = 'ERR value is not an integer or out of range';

describe('XPENDING', () => {
  let h: Harness;
  let t0: number;
  beforeEach(() => {
    h = new Harness();
    t0 = h.now;
    xadd(h, 's', '1-0', '2-0', '3-0', '4-0');
    h.run('XGROUP', 'CREATE', 's', 'g', '0');
    readNew(h, 's', 'g', 'consumer-1', 2);
    h.now += 18;
    readNew(h, 's', 'g', 'consumer-2', 2);
    h.run('XGROUP', 'CREATECONSUMER', 's', 'g', 'consumer-0');
    h.now += 46;
  });

  it('XPENDING only group: totals, smallest and greatest ID, counts per consumer as strings', () => {
    expect(h.run('XPENDING', 's', 'g')).toEqual([4, '1-0', '4-0', [['consumer-1', '2'], ['consumer-2', '2']]]);
  });

  it('XPENDING with an empty PEL', () => {
    h.run('XACK', 's', 'g', '1-0', '2-0', '3-0', '4-0');
    expect(h.run('XPENDING', 's', 'g')).toEqual([0, null, null, null]);
    expect(h.run('XPENDING', 's', 'g', '-', '+', 10)).toEqual([]);
  });

  it('XPENDING is able to return pending items: [id, consumer, idle ms, delivery count]', () => {
    expect(h.run('XPENDING', 's', 'g', '-', '+', 10)).toEqual([
      ['1-0', 'consumer-1', 64, 1n],
      ['2-0', 'consumer-1', 64, 1n],
      ['3-0', 'consumer-2', 46, 1n],
      ['4-0', 'consumer-2', 46, 1n],
    ]);
  });

  it('XPENDING can return single consumer items', () => {
    expect(h.run('XPENDING', 's', 'g', '-', '+', 10, 'consumer-1')).toEqual([
      ['1-0', 'consumer-1', 64, 1n],
      ['2-0', 'consumer-1', 64, 1n],
    ]);
    expect(h.run('XPENDING', 's', 'g', '-', '+', 10, 'nobody')).toEqual([]);
    expect(h.run('XPENDING', 's', 'g', '-', '+', 10, '')).toEqual([]);
    expect(h.run('XPENDING', 's', 'g', '-', '+', 10, 'consumer-0')).toEqual([]);
  });

  it('stops after count entries; count 0 or negative gives an empty array', () => {
    expect(h.run('XPENDING', 's', 'g', '-', '+', 1)).toEqual([['1-0', 'consumer-1', 64, 1n]]);
    expect(h.run('XPENDING', 's', 'g', '-', '+', 0)).toEqual([]);
    expect(h.run('XPENDING', 's', 'g', '-', '+', -5)).toEqual([]);
  });

  it('XPENDING with exclusive range intervals works as expected', () => {
    expect((h.run('XPENDING', 's', 'g', '(1-0', '(4-0', 10) as unknown[][]).map((e) => e[0])).toEqual(['2-0', '3-0']);
    // A partial end ID means seq 2^64-1: (4 excludes only 4-18446744073709551615.
    expect((h.run('XPENDING', 's', 'g', '(1', '(4', 10) as unknown[][]).map((e) => e[0])).toEqual(['2-0', '3-0', '4-0']);
    expect((h.run('XPENDING', 's', 'g', '2', '2', 10) as unknown[][]).map((e) => e[0])).toEqual(['2-0']);
    expect(h.run('XPENDING', 's', 'g', '-', '(0', 10)).toEqual([]);
    expect(h.run('XPENDING', 's', 'g', '3', '2', 10)).toEqual([]);
  });

  it('XPENDING with IDLE', () => {
    expect(h.run('XPENDING', 's', 'g', 'IDLE', 99999999, '-', '+', 10, 'consumer-1')).toEqual([]);
    expect(h.run('XPENDING', 's', 'g', 'IDLE', 1, '-', '+', 10, 'consumer-1')).toHaveLength(2);
    expect(h.run('XPENDING', 's', 'g', 'idle', 50, '-', '+', 10)).toEqual([
      ['1-0', 'consumer-1', 64, 1n],
      ['2-0', 'consumer-1', 64, 1n],
    ]);
    expect(h.run('XPENDING', 's', 'g', 'IDLE', 46, '-', '+', 3)).toHaveLength(3);
    // Skipped entries do not use up the count; a negative IDLE filters nothing.
    expect(h.run('XPENDING', 's', 'g', 'IDLE', 60, '-', '+', 1)).toEqual([['1-0', 'consumer-1', 64, 1n]]);
    expect(h.run('XPENDING', 's', 'g', 'IDLE', -5, '-', '+', 10)).toHaveLength(4);
  });

  it('idle time is never negative', () => {
    h.now = t0 - 1000;
    expect(h.run('XPENDING', 's', 'g', '-', '+', 1)).toEqual([['1-0', 'consumer-1', 0, 1n]]);
  });

  it('ignores arguments after the consumer', () => {
    expect(h.run('XPENDING', 's', 'g', '-', '+', 10, 'consumer-1', 'extra')).toHaveLength(2);
    expect(h.run('XPENDING', 's', 'g', '-', '+', 10, 'consumer-1', 'extra', 'extra2')).toHaveLength(2);
    expect(h.run('XPENDING', 's', 'g', 'IDLE', 0, '-', '+', 10, 'consumer-2')).toHaveLength(2);
  });

  it('shows released (XNACK) entries with consumer "" and idle -1 (8.8)', () => {
    h.run('XNACK', 's', 'g', 'FAIL', 'IDS', 2, '3-0', '1-0');
    expect(h.run('XPENDING', 's', 'g', '-', '+', 10)).toEqual([
      ['1-0', '', -1, 1n],
      ['2-0', 'consumer-1', 64, 1n],
      ['3-0', '', -1, 1n],
      ['4-0', 'consumer-2', 46, 1n],
    ]);
    expect(h.run('XPENDING', 's', 'g')).toEqual([4, '1-0', '4-0', [['consumer-1', '1'], ['consumer-2', '1']]]);
    expect(h.run('XPENDING', 's', 'g', '-', '+', 10, 'consumer-1')).toEqual([['2-0', 'consumer-1', 64, 1n]]);
    // Delivery time 0: as idle as can be for the IDLE filter.
    expect((h.run('XPENDING', 's', 'g', 'IDLE', 1000, '-', '+', 10) as unknown[][]).map((e) => e[0])).toEqual(['1-0', '3-0']);
    h.run('XNACK', 's', 'g', 'FAIL', 'IDS', 2, '2-0', '4-0');
    expect(h.run('XPENDING', 's', 'g')).toEqual([4, '1-0', '4-0', []]);
  });

  it('reports the delivery count as a 64-bit integer', () => {
    h.run('XCLAIM', 's', 'g', 'consumer-1', 0, '1-0', 'RETRYCOUNT', '9223372036854775807');
    expect(h.run('XPENDING', 's', 'g', '-', '1-0', 1)).toEqual([['1-0', 'consumer-1', 0, 9223372036854775807n]]);
  });

  it('makes no changes', () => {
    h.run('XPENDING', 's', 'g', '-', '+', 10, 'consumer-1');
    h.run('XPENDING', 's', 'g');
    expect(group(h).getConsumer('consumer-1')?.seenTime).toBe(t0);
    expect(group(h).pel.get({ ms: 1n, seq: 0n })?.deliveryCount).toBe(1n);
  });

  describe('error cases', () => {
    it('argument count must be 3 or 6 to 9', () => {
      expect(h.error('XPENDING', 's')).toBe("ERR wrong number of arguments for 'xpending' command");
      expect(h.error('XPENDING', 's', 'g', '-')).toBe(SYNTAX);
      expect(h.error('XPENDING', 's', 'g', '-', '+')).toBe(SYNTAX);
      expect(h.error('XPENDING', 's', 'g', '-', '+', 10, 'a', 'b', 'c', 'd')).toBe(SYNTAX);
      expect(h.error('XPENDING', 's', 'g', 'IDLE', 0, '-', '+', 10, 'c2', 'extra')).toBe(SYNTAX);
    });

    it('IDLE needs an integer, then start end count', () => {
      expect(h.error('XPENDING', 's', 'g', 'IDLE', 'x', '-', '+')).toBe(NOT_INTEGER);
      expect(h.error('XPENDING', 's', 'g', 'IDLE', 5, '-', '+')).toBe(SYNTAX);
      expect(h.error('XPENDING', 's', 'g', 'IDLE', 'x', '-', '+', 10)).toBe(NOT_INTEGER);
    });

    it('count is parsed before start and end', () => {
      expect(h.error('XPENDING', 's', 'g', '-', '+', 'x')).toBe(NOT_INTEGER);
      expect(h.error('XPENDING', 's', 'g', 'bad', 'bad', 'x')).toBe(NOT_INTEGER);
      expect(h.error('XPENDING', 's', 'g', '-', '+', '1.5')).toBe(NOT_INTEGER);
    });

    it('start, then end: invalid IDs and exclusive bounds past the ends', () => {
      expect(h.error('XPENDING', 's', 'g', 'bad', '+', 10)).toBe(INVALID_ID);
      expect(h.error('XPENDING', 's', 'g', '-', 'bad', 10)).toBe(INVALID_ID);
      expect(h.error('XPENDING', 's', 'g', '(-', '+', 10)).toBe(INVALID_ID);
      expect(h.error('XPENDING', 's', 'g', '-', '(+', 10)).toBe(INVALID_ID);
      expect(h.error('XPENDING', 's', 'g', '(18446744073709551615-18446744073709551615', '+', 10)).toBe(
        'ERR invalid start ID for the interval',
      );
      expect(h.error('XPENDING', 's', 'g', '-', '(0-0', 10)).toBe('ERR invalid end ID for the interval');
    });

    it('arguments are checked before the key (redis-server 7.0.15)', () => {
      h.keys.set('str', 'x');
      expect(h.error('XPENDING', 'nokey', 'g', 'bad', '+', 10)).toBe(INVALID_ID);
      expect(h.error('XPENDING', 'str', 'g', 'bad', '+', 10)).toBe(INVALID_ID);
      expect(h.error('XPENDING', 'str', 'g')).toBe('WRONGTYPE Operation against a key holding the wrong kind of value');
    });

    it('NOGROUP for a missing key or group', () => {
      expect(h.error('XPENDING', 'nokey', 'g')).toBe("NOGROUP No such key 'nokey' or consumer group 'g'");
      expect(h.error('XPENDING', 's', 'nog', '-', '+', 10)).toBe("NOGROUP No such key 's' or consumer group 'nog'");
      expect(h.error('XPENDING', 's', 'a\nb')).toBe("NOGROUP No such key 's' or consumer group 'a b'");
      expect(h.error('XPENDING', 's', 'a\x00b')).toBe("NOGROUP No such key 's' or consumer group 'a'");
    });
  });
});
