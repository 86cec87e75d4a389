import { Harness } from '../helpers/harness';
import { group, pendingEntries, readNew, setupClaimState, xaddChecked, xdelChecked } from '../helpers/cg-state';

// State is built with XADD / XGROUP CREATE / XREADGROUP / XDEL; the model is read for what no
// reply shows (seen-time, active-time, NACK order).

const E = (i: string) => [i, ['f', 'v']];

describe('XAUTOCLAIM', () => {
  let h: Harness;
  beforeEach(() => {
    h = new Harness();
  });

  it('claims entries idle at least min-idle-time, as entries', () => {
    setupClaimState(h, 2);
    h.now += 200;
    expect(h.run('XAUTOCLAIM', 's', 'g', 'c2', 10, '0-0')).toEqual(['0-0', [E('1-0'), E('2-0')], []]);
    expect(pendingEntries(h)).toEqual([
      ['1-0', 'c2', 0, 2n],
      ['2-0', 'c2', 0, 2n],
    ]);
    expect(group(h).getConsumer('c1')?.pel.size).toBe(0);
  });

  it('skips entries idle less than min-idle-time and claims idle == min-idle-time', () => {
    setupClaimState(h, 3);
    h.now += 50;
    readNew(h, 's', 'g', 'c1'); // nothing new
    h.run('XCLAIM', 's', 'g', 'c1', 0, '2-0', 'JUSTID'); // 2-0 delivered again now
    h.now += 10;
    expect(h.run('XAUTOCLAIM', 's', 'g', 'c2', 50, '-', 'JUSTID')).toEqual(['0-0', ['1-0', '3-0'], []]);
    expect(h.run('XAUTOCLAIM', 's', 'g', 'c3', 10, '-', 'JUSTID')).toEqual(['0-0', ['2-0'], []]);
  });

  it('acts as an iterator via the returned cursor', () => {
    setupClaimState(h, 5);
    h.now += 200;
    expect(h.run('XAUTOCLAIM', 's', 'g', 'c2', 10, '-', 'COUNT', 2)).toEqual(['3-0', [E('1-0'), E('2-0')], []]);
    expect(h.run('XAUTOCLAIM', 's', 'g', 'c2', 10, '3-0', 'COUNT', 2)).toEqual(['5-0', [E('3-0'), E('4-0')], []]);
    expect(h.run('XAUTOCLAIM', 's', 'g', 'c2', 10, '5-0', 'COUNT', 1)).toEqual(['0-0', [E('5-0')], []]);
  });

  it('accepts an exclusive start', () => {
    setupClaimState(h, 5);
    expect(h.run('XAUTOCLAIM', 's', 'g', 'c2', 0, '(4-0', 'COUNT', 1, 'JUSTID')).toEqual(['0-0', ['5-0'], []]);
    expect(h.run('XAUTOCLAIM', 's', 'g', 'c2', 0, '(5-0', 'JUSTID')).toEqual(['0-0', [], []]);
    expect(h.run('XAUTOCLAIM', 's', 'g', 'c2', 0, '(18446744073709551615-18446744073709551614')).toEqual(['0-0', [], []]);
    expect(h.run('XAUTOCLAIM', 's', 'g', 'c2', 0, '+')).toEqual(['0-0', [], []]);
    expect(h.run('XAUTOCLAIM', 's', 'g', 'c2', 0, '(+1', 'JUSTID')).toEqual(['0-0', ['2-0', '3-0', '4-0', '5-0'], []]);
  });

  it('removes deleted entries from the PEL and reports them', () => {
    setupClaimState(h, 3);
    xdelChecked(h, 's', '2-0');
    expect(h.run('XAUTOCLAIM', 's', 'g', 'Bob', 0, '0-0')).toEqual(['0-0', [E('1-0'), E('3-0')], ['2-0']]);
    expect(pendingEntries(h).map((p) => p[0])).toEqual(['1-0', '3-0']);
  });

  it('counts deleted entries against COUNT', () => {
    setupClaimState(h, 3);
    xdelChecked(h, 's', '1-0');
    xdelChecked(h, 's', '2-0');
    expect(h.run('XAUTOCLAIM', 's', 'g', 'Bob', 0, '0-0', 'COUNT', 1)).toEqual(['2-0', [], ['1-0']]);
    expect(h.run('XAUTOCLAIM', 's', 'g', 'Bob', 0, '2-0', 'COUNT', 1)).toEqual(['3-0', [], ['2-0']]);
    expect(h.run('XAUTOCLAIM', 's', 'g', 'Bob', 0, '3-0', 'COUNT', 1)).toEqual(['0-0', [E('3-0')], []]);
    expect(pendingEntries(h)).toEqual([['3-0', 'Bob', 0, 2n]]);
  });

  it('removes deleted entries whatever their idle time', () => {
    setupClaimState(h, 5);
    xdelChecked(h, 's', '1-0', '2-0', '3-0');
    h.now += 2;
    expect(h.run('XAUTOCLAIM', 's', 'g', 'c4', 99999, '-', 'COUNT', 2)).toEqual(['3-0', [], ['1-0', '2-0']]);
    expect(h.run('XAUTOCLAIM', 's', 'g', 'c4', 0, '-', 'COUNT', 2)).toEqual(['5-0', [E('4-0')], ['3-0']]);
    expect(pendingEntries(h)).toEqual([
      ['4-0', 'c4', 0, 2n],
      ['5-0', 'c1', 2, 1n],
    ]);
  });

  it('examines at most COUNT*10 PEL entries', () => {
    setupClaimState(h, 25);
    h.now += 50;
    expect(h.run('XAUTOCLAIM', 's', 'g', 'c2', 100000, '(11-0', 'COUNT', 1, 'JUSTID')).toEqual(['22-0', [], []]);
    expect(h.run('XAUTOCLAIM', 's', 'g', 'c2', 100000, '(15-0', 'COUNT', 1, 'JUSTID')).toEqual(['0-0', [], []]);
    expect(h.run('XAUTOCLAIM', 's', 'g', 'c2', 100000, '-', 'COUNT', 3, 'JUSTID')).toEqual(['0-0', [], []]);
    expect(h.run('XAUTOCLAIM', 's', 'g', 'c2', 40, '-', 'COUNT', 1, 'JUSTID')).toEqual(['2-0', ['1-0'], []]);
    // 1-0 was just claimed (idle 0): the scan goes on to 2-0 and 3-0.
    expect(h.run('XAUTOCLAIM', 's', 'g', 'c2', 40, '-', 'COUNT', 2, 'JUSTID')).toEqual(['4-0', ['2-0', '3-0'], []]);
  });

  it('defaults COUNT to 100', () => {
    setupClaimState(h, 105);
    const reply = h.run('XAUTOCLAIM', 's', 'g', 'c2', 0, '-', 'JUSTID') as [string, string[], string[]];
    expect(reply[0]).toBe('101-0');
    expect(reply[1]).toHaveLength(100);
  });

  it('JUSTID returns IDs and keeps delivery counts', () => {
    setupClaimState(h, 2);
    expect(h.run('XAUTOCLAIM', 's', 'g', 'c2', 0, '0', 'JUSTID')).toEqual(['0-0', ['1-0', '2-0'], []]);
    expect(pendingEntries(h).map((p) => [p[1], p[3]])).toEqual([
      ['c2', 1n],
      ['c2', 1n],
    ]);
    expect(h.run('XAUTOCLAIM', 's', 'g', 'c3', 0, '0', 'justid', 'count', 5, 'JUSTID')).toEqual(['0-0', ['1-0', '2-0'], []]);
    h.run('XAUTOCLAIM', 's', 'g', 'c3', 0, '0');
    expect(pendingEntries(h).map((p) => p[3])).toEqual([2n, 2n]);
  });

  it('claims XNACKed entries whatever the min-idle-time (8.8)', () => {
    setupClaimState(h, 3);
    h.run('XNACK', 's', 'g', 'FAIL', 'IDS', 1, '2-0');
    expect(h.run('XAUTOCLAIM', 's', 'g', 'c2', 99999, '-')).toEqual(['0-0', [E('2-0')], []]);
    expect(pendingEntries(h)[1]).toEqual(['2-0', 'c2', 0, 2n]);
    expect(group(h).nackedCount).toBe(0);
  });

  it('removes deleted XNACKed entries', () => {
    setupClaimState(h, 2);
    h.run('XNACK', 's', 'g', 'FAIL', 'IDS', 1, '1-0');
    xdelChecked(h, 's', '1-0');
    expect(h.run('XAUTOCLAIM', 's', 'g', 'c2', 99999, '-')).toEqual(['0-0', [], ['1-0']]);
    expect(group(h).pel.size).toBe(1);
    expect(group(h).nackedCount).toBe(0);
  });

  it('neither wakes blocked readers nor touches the key (WATCH stays valid, as on 7.0.15)', () => {
    setupClaimState(h, 2);
    const touched: string[] = [];
    h.db.touch = (key) => void touched.push(key);
    xdelChecked(h, 's', '2-0');
    touched.length = 0;
    h.run('XAUTOCLAIM', 's', 'g', 'c2', 0, '-');
    expect(touched).toEqual([]);
    expect(h.signals).toEqual([]);
  });

  describe('consumer bookkeeping', () => {
    it('7.2+: creates the consumer and sets seen-time even when nothing is claimed', () => {
      setupClaimState(h, 1);
      const t0 = h.now;
      h.now += 100;
      expect(h.run('XAUTOCLAIM', 's', 'g', 'c2', 99999, '0')).toEqual(['0-0', [], []]);
      const c2 = group(h).getConsumer('c2');
      expect(c2 && [c2.seenTime, c2.activeTime]).toEqual([t0 + 100, -1]);
      expect(h.events).toEqual([['xgroup-createconsumer', 's']]);
      h.now += 100;
      h.run('XAUTOCLAIM', 's', 'g', 'c2', 0, '0', 'JUSTID');
      expect([c2?.seenTime, c2?.activeTime]).toEqual([t0 + 200, t0 + 200]);
    });

    it('7.0: looks up or creates the consumer only when it claims an entry', () => {
      h.version = '7.0';
      setupClaimState(h, 2);
      const t0 = h.now;
      xdelChecked(h, 's', '1-0');
      h.events.length = 0;
      h.now += 200;
      expect(h.run('XAUTOCLAIM', 's', 'g', 'c1', 99999, '0')).toEqual(['0-0', [], ['1-0']]);
      expect(h.run('XAUTOCLAIM', 's', 'g', 'c2', 99999, '0')).toEqual(['0-0', [], []]);
      expect(group(h).getConsumer('c1')?.seenTime).toBe(t0);
      expect(group(h).getConsumer('c2')).toBeUndefined();
      expect(h.events).toEqual([]);
      h.run('XAUTOCLAIM', 's', 'g', 'c2', 0, '0');
      expect(group(h).getConsumer('c2')?.seenTime).toBe(t0 + 200);
      expect(h.events).toEqual([['xgroup-createconsumer', 's']]);
    });
  });

  describe('error cases', () => {
    it('rejects a bad min-idle-time before anything else', () => {
      expect(h.error('XAUTOCLAIM', 'nokey', 'g', 'c', 'x', '(')).toBe('ERR Invalid min-idle-time argument for XAUTOCLAIM');
      for (const bad of ['', '01', '+1', '1.5']) {
        expect(h.error('XAUTOCLAIM', 'nokey', 'g', 'c', bad, '0')).toBe('ERR Invalid min-idle-time argument for XAUTOCLAIM');
      }
    });

    it('rejects a bad start', () => {
      for (const bad of ['x', '', '(', '(-', '(+', '1-0-0']) {
        expect(h.error('XAUTOCLAIM', 'nokey', 'g', 'c', 0, bad)).toBe('ERR Invalid stream ID specified as stream command argument');
      }
      expect(h.error('XAUTOCLAIM', 'nokey', 'g', 'c', 0, '(18446744073709551615-18446744073709551615')).toBe(
        'ERR invalid start ID for the interval',
      );
    });

    it('checks COUNT before the key', () => {
      for (const bad of ['0', '-1', 'x', '1.5', '+1', '01', '', '576460752303423488', '9223372036854775807', '99999999999999999999']) {
        expect(h.error('XAUTOCLAIM', 'nokey', 'g', 'c', 0, '-', 'COUNT', bad)).toBe('ERR COUNT must be > 0');
      }
      expect(h.error('XAUTOCLAIM', 'nokey', 'g', 'c', 0, '-', 'COUNT', '576460752303423487')).toBe(
        "NOGROUP No such key 'nokey' or consumer group 'g'",
      );
      expect(h.error('XAUTOCLAIM', 'nokey', 'g', 'c', 0, '-', 'COUNT', 5, 'COUNT', 0)).toBe('ERR COUNT must be > 0');
    });

    it('fails a COUNT of 2^43 or more after the group check: its work array cannot be allocated', () => {
      // Both redis-server 7.0.15 and the 4f8cdc2a tree (differential spot check); smaller
      // COUNTs fail or not depending on the machine's memory.
      xaddChecked(h, 's', '1-0');
      h.run('XGROUP', 'CREATE', 's', 'g', '0');
      const tooHigh = 'ERR Insufficient memory, failed allocating transient memory, COUNT too high.';
      expect(h.error('XAUTOCLAIM', 's', 'g', 'c', 0, '0', 'COUNT', '8796093022208')).toBe(tooHigh);
      expect(h.error('XAUTOCLAIM', 's', 'g', 'c', 0, '0', 'COUNT', '576460752303423487')).toBe(tooHigh);
      expect(h.error('XAUTOCLAIM', 's', 'nog', 'c', 0, '0', 'COUNT', '576460752303423487')).toBe(
        "NOGROUP No such key 's' or consumer group 'nog'",
      );
      // The failed calls did not create the consumer (Redis allocates before the lookup).
      expect(h.run('XINFO', 'CONSUMERS', 's', 'g')).toEqual([]);
      expect(h.run('XAUTOCLAIM', 's', 'g', 'c', 0, '0', 'COUNT', '8796093022207')).toEqual(['0-0', [], []]);
      expect(h.run('XINFO', 'CONSUMERS', 's', 'g')).toHaveLength(1);
    });

    it('answers syntax error for unknown options and a COUNT without value', () => {
      expect(h.error('XAUTOCLAIM', 'nokey', 'g', 'c', 0, '-', 'COUNT')).toBe('ERR syntax error');
      expect(h.error('XAUTOCLAIM', 'nokey', 'g', 'c', 0, '-', 'FOO')).toBe('ERR syntax error');
      expect(h.error('XAUTOCLAIM', 'nokey', 'g', 'c', 0, '-', 'JUSTID', 'FOO')).toBe('ERR syntax error');
      h.keys.set('str', 'x');
      expect(h.error('XAUTOCLAIM', 'str', 'g', 'c', 0, '0', 'FOO')).toBe('ERR syntax error');
    });

    it('then checks the key type, key and group', () => {
      h.keys.set('str', 'x');
      expect(h.error('XAUTOCLAIM', 'str', 'g', 'c', 0, '0')).toBe('WRONGTYPE Operation against a key holding the wrong kind of value');
      expect(h.error('XAUTOCLAIM', 'nokey', 'g', 'c', -5, '+')).toBe("NOGROUP No such key 'nokey' or consumer group 'g'");
      xaddChecked(h, 's', '1-0');
      expect(h.error('XAUTOCLAIM', 's', 'g', 'c', 0, '0')).toBe("NOGROUP No such key 's' or consumer group 'g'");
      expect(h.error('XAUTOCLAIM', 's\nx', 'g\0y', 'c', 0, '0')).toBe("NOGROUP No such key 's x' or consumer group 'g'");
    });

    it('checks arity', () => {
      expect(h.error('XAUTOCLAIM', 's', 'g', 'c', 0)).toBe("ERR wrong number of arguments for 'xautoclaim' command");
    });
  });
});
