import { Harness } from '../helpers/harness';
import { createGroup, group, pendingEntries, setupClaimState, xaddChecked, xdelChecked } from '../helpers/cg-state';
import { formatId } from '../../lib/model/stream-id';

// State is built with XADD / XGROUP CREATE / XREADGROUP / XDEL; the model is read for what no
// reply shows (seen-time, active-time, NACK order).

describe('XCLAIM', () => {
  let h: Harness;
  beforeEach(() => {
    h = new Harness();
  });

  it('claims an entry idle at least min-idle-time, resetting its idle time', () => {
    setupClaimState(h, 1);
    h.now += 200;
    expect(h.run('XCLAIM', 's', 'g', 'c2', 10, '1-0')).toEqual([['1-0', ['f', 'v']]]);
    expect(pendingEntries(h)).toEqual([['1-0', 'c2', 0, 2n]]);
    expect(group(h).getConsumer('c1')?.pel.size).toBe(0);
    expect(group(h).getConsumer('c2')?.pel.size).toBe(1);
  });

  it('does not claim entries idle less than min-idle-time', () => {
    setupClaimState(h, 1);
    h.now += 5;
    expect(h.run('XCLAIM', 's', 'g', 'c2', 10, '1-0')).toEqual([]);
    expect(pendingEntries(h)).toEqual([['1-0', 'c1', 5, 1n]]);
  });

  it('claims an entry whose idle time equals min-idle-time', () => {
    setupClaimState(h, 1);
    h.now += 10;
    expect(h.run('XCLAIM', 's', 'g', 'c2', 10, '1-0', 'JUSTID')).toEqual(['1-0']);
  });

  it('treats a negative min-idle-time as 0', () => {
    setupClaimState(h, 1);
    expect(h.run('XCLAIM', 's', 'g', 'c2', -5, '1-0', 'JUSTID')).toEqual(['1-0']);
  });

  it('JUSTID returns only IDs and does not increment the delivery count', () => {
    setupClaimState(h, 1);
    h.now += 200;
    expect(h.run('XCLAIM', 's', 'g', 'c2', 10, '1-0')).toEqual([['1-0', ['f', 'v']]]);
    expect(pendingEntries(h)[0][3]).toBe(2n);
    h.now += 200;
    expect(h.run('XCLAIM', 's', 'g', 'c3', 10, '1-0', 'JUSTID')).toEqual(['1-0']);
    expect(pendingEntries(h)).toEqual([['1-0', 'c3', 0, 2n]]);
  });

  it('RETRYCOUNT sets the delivery count; a negative RETRYCOUNT counts as not given', () => {
    setupClaimState(h, 3);
    h.run('XCLAIM', 's', 'g', 'c3', 0, '1-0', 'RETRYCOUNT', 7, 'JUSTID');
    h.run('XCLAIM', 's', 'g', 'c3', 0, '2-0', 'RETRYCOUNT', -1);
    h.run('XCLAIM', 's', 'g', 'c3', 0, '3-0', 'RETRYCOUNT', -5, 'JUSTID');
    expect(pendingEntries(h).map((p) => p[3])).toEqual([7n, 2n, 1n]);
  });

  it('the delivery count wraps like an unsigned 64-bit counter', () => {
    setupClaimState(h, 1);
    h.run('XCLAIM', 's', 'g', 'c1', 0, '1-0', 'RETRYCOUNT', '9223372036854775807', 'JUSTID');
    h.run('XCLAIM', 's', 'g', 'c1', 0, '1-0');
    h.run('XCLAIM', 's', 'g', 'c1', 0, '1-0');
    // redis-server 7.0.15 shows the wrapped unsigned counter read as signed (addReplyLongLong)
    expect(pendingEntries(h)[0][3]).toBe(-9223372036854775807n);
  });

  it('IDLE and TIME set the delivery time; out-of-range values mean now; the last one wins', () => {
    setupClaimState(h, 4);
    const now = h.now;
    h.run('XCLAIM', 's', 'g', 'c4', 0, '1-0', 'IDLE', 5000, 'JUSTID');
    h.run('XCLAIM', 's', 'g', 'c4', 0, '2-0', 'TIME', 1000, 'JUSTID');
    h.run('XCLAIM', 's', 'g', 'c4', 0, '3-0', 'TIME', now + 1, 'JUSTID');
    h.run('XCLAIM', 's', 'g', 'c4', 0, '4-0', 'IDLE', 5000, 'TIME', 0, 'JUSTID');
    expect(pendingEntries(h).map((p) => p[2])).toEqual([5000, now - 1000, 0, now]);
    h.run('XCLAIM', 's', 'g', 'c4', 0, '1-0', 'IDLE', -5, 'JUSTID');
    h.run('XCLAIM', 's', 'g', 'c4', 0, '2-0', 'IDLE', now + 1, 'JUSTID');
    h.run('XCLAIM', 's', 'g', 'c4', 0, '3-0', 'TIME', -1, 'JUSTID');
    expect(pendingEntries(h).map((p) => p[2])).toEqual([0, 0, 0, now]);
  });

  it('FORCE creates the pending entry of an existing entry that is not pending', () => {
    xaddChecked(h, 's', '1-0', '2-0');
    createGroup(h, 's', 'g');
    expect(h.run('XCLAIM', 's', 'g', 'c3', 0, '1-0')).toEqual([]);
    expect(h.run('XCLAIM', 's', 'g', 'c3', 1000, '1-0', 'FORCE')).toEqual([['1-0', ['f', 'v']]]);
    expect(h.run('XCLAIM', 's', 'g', 'c3', 0, '2-0', 'FORCE', 'JUSTID')).toEqual(['2-0']);
    expect(pendingEntries(h)).toEqual([
      ['1-0', 'c3', 0, 2n],
      ['2-0', 'c3', 0, 1n],
    ]);
    expect(h.run('XCLAIM', 's', 'g', 'c4', 0, '9-0', 'FORCE')).toEqual([]);
    expect(pendingEntries(h)).toHaveLength(2);
  });

  it('FORCE does not bypass the idle test of an entry already pending', () => {
    setupClaimState(h, 1);
    h.now += 2;
    expect(h.run('XCLAIM', 's', 'g', 'c3', 1000, '1-0', 'FORCE')).toEqual([]);
    expect(pendingEntries(h)).toEqual([['1-0', 'c1', 2, 1n]]);
  });

  it('removes deleted entries from the PEL instead of claiming them', () => {
    setupClaimState(h, 3);
    xdelChecked(h, 's', '2-0');
    expect(h.run('XCLAIM', 's', 'g', 'Bob', 0, '1-0', '2-0', '3-0')).toEqual([
      ['1-0', ['f', 'v']],
      ['3-0', ['f', 'v']],
    ]);
    expect(pendingEntries(h).map((p) => p[0])).toEqual(['1-0', '3-0']);
    expect(group(h).getConsumer('c1')?.pel.size).toBe(0);
  });

  it('removes deleted entries even when nothing is idle enough', () => {
    setupClaimState(h, 3);
    xdelChecked(h, 's', '2-0');
    expect(h.run('XCLAIM', 's', 'g', 'c2', 999999, '2-0', '3-0')).toEqual([]);
    expect(pendingEntries(h).map((p) => p[0])).toEqual(['1-0', '3-0']);
  });

  it('processes a repeated ID each time it appears', () => {
    setupClaimState(h, 2);
    h.now += 5;
    expect(h.run('XCLAIM', 's', 'g', 'c2', 0, '1-0', '1-0', '1-0')).toEqual([
      ['1-0', ['f', 'v']],
      ['1-0', ['f', 'v']],
      ['1-0', ['f', 'v']],
    ]);
    expect(pendingEntries(h)[0]).toEqual(['1-0', 'c2', 0, 4n]);
    h.now += 20;
    // The first occurrence resets the idle time, so the repeat is not idle enough.
    expect(h.run('XCLAIM', 's', 'g', 'c3', 10, '2-0', '2-0', 'JUSTID')).toEqual(['2-0']);
  });

  it('reads IDs until the first argument that is not an ID', () => {
    setupClaimState(h, 2);
    expect(h.run('XCLAIM', 's', 'g', 'c2', 0, '1-0', '2', 'JUSTID')).toEqual(['1-0', '2-0']);
    expect(h.error('XCLAIM', 's', 'g', 'c2', 0, '1-0', 'JUSTID', '2-0')).toBe("ERR Unrecognized XCLAIM option '2-0'");
    expect(h.error('XCLAIM', 's', 'g', 'c2', 0, '-')).toBe("ERR Unrecognized XCLAIM option '-'");
  });

  it('accepts zero IDs', () => {
    setupClaimState(h, 1);
    expect(h.run('XCLAIM', 's', 'g', 'c2', 0, 'JUSTID')).toEqual([]);
  });

  it('options are case-insensitive and may repeat', () => {
    setupClaimState(h, 2);
    expect(h.run('XCLAIM', 's', 'g', 'c2', 0, '1-0', '2-0', 'justid', 'force', 'JUSTID')).toEqual(['1-0', '2-0']);
  });

  it('LASTID moves last-delivered-id forward, never back, and leaves entries-read alone', () => {
    setupClaimState(h, 2);
    const entriesRead = group(h).entriesRead;
    expect(h.run('XCLAIM', 's', 'g', 'c4', 0, 'LASTID', '10-0')).toEqual([]);
    expect(formatId(group(h).lastId)).toBe('10-0');
    h.run('XCLAIM', 's', 'g', 'c4', 0, 'LASTID', '5-0');
    expect(formatId(group(h).lastId)).toBe('10-0');
    expect(group(h).entriesRead).toBe(entriesRead);
  });

  it('claims XNACKed entries whatever the min-idle-time (8.8)', () => {
    setupClaimState(h, 1);
    expect(h.run('XNACK', 's', 'g', 'FAIL', 'IDS', 1, '1-0')).toBe(1);
    expect(h.run('XCLAIM', 's', 'g', 'c2', 99999, '1-0')).toEqual([['1-0', ['f', 'v']]]);
    expect(pendingEntries(h)).toEqual([['1-0', 'c2', 0, 2n]]);
    expect(group(h).nackedCount).toBe(0);
  });

  it('neither wakes blocked readers nor touches the key (WATCH stays valid, as on 7.0.15)', () => {
    setupClaimState(h, 2);
    const touched: string[] = [];
    h.db.touch = (key) => void touched.push(key);
    xdelChecked(h, 's', '2-0');
    touched.length = 0;
    h.run('XCLAIM', 's', 'g', 'c2', 0, '1-0', '2-0', 'LASTID', '9-0');
    expect(touched).toEqual([]);
    expect(h.signals).toEqual([]);
  });

  describe('consumer bookkeeping', () => {
    it('7.2+: creates the consumer and sets seen-time even when nothing is claimed', () => {
      setupClaimState(h, 1);
      const t0 = h.now;
      h.now += 100;
      expect(h.run('XCLAIM', 's', 'g', 'c2', 999999, '1-0')).toEqual([]);
      const c2 = group(h).getConsumer('c2');
      expect(c2 && [c2.seenTime, c2.activeTime]).toEqual([t0 + 100, -1]);
      expect(h.events).toEqual([['xgroup-createconsumer', 's']]);
      h.now += 100;
      h.run('XCLAIM', 's', 'g', 'c1', 999999, '1-0');
      const c1 = group(h).getConsumer('c1');
      expect(c1 && [c1.seenTime, c1.activeTime]).toEqual([t0 + 200, t0]);
      h.now += 100;
      h.run('XCLAIM', 's', 'g', 'c2', 0, '1-0', 'JUSTID');
      expect([c2?.seenTime, c2?.activeTime]).toEqual([t0 + 300, t0 + 300]);
      expect(h.events).toHaveLength(1);
    });

    it('7.0: looks up or creates the consumer only when it claims an entry', () => {
      h.version = '7.0';
      setupClaimState(h, 1);
      const t0 = h.now;
      h.now += 200;
      expect(h.run('XCLAIM', 's', 'g', 'c2', 999999, '1-0')).toEqual([]);
      expect(h.run('XCLAIM', 's', 'g', 'c2', 0, 'JUSTID')).toEqual([]);
      expect(group(h).getConsumer('c2')).toBeUndefined();
      h.run('XCLAIM', 's', 'g', 'c1', 999999, '1-0');
      expect(group(h).getConsumer('c1')?.seenTime).toBe(t0);
      expect(h.events).toEqual([]);
      h.run('XCLAIM', 's', 'g', 'c2', 0, '1-0');
      expect(group(h).getConsumer('c2')?.seenTime).toBe(t0 + 200);
      expect(h.events).toEqual([['xgroup-createconsumer', 's']]);
    });
  });

  describe('error cases', () => {
    it('looks up the key and group before parsing anything', () => {
      expect(h.error('XCLAIM', 'nokey', 'g', 'c', 'abc', '1-0')).toBe("NOGROUP No such key 'nokey' or consumer group 'g'");
      xaddChecked(h, 's', '1-0');
      expect(h.error('XCLAIM', 's', 'g', 'c', 'abc', '1-0', 'FOO')).toBe("NOGROUP No such key 's' or consumer group 'g'");
      h.keys.set('str', 'x');
      expect(h.error('XCLAIM', 'str', 'g', 'c', 'abc', '1-0')).toBe('WRONGTYPE Operation against a key holding the wrong kind of value');
    });

    it('rejects a min-idle-time that is not a canonical integer', () => {
      setupClaimState(h, 1);
      for (const bad of ['abc', '01', '+1', '1.5', '', '9223372036854775808']) {
        expect(h.error('XCLAIM', 's', 'g', 'c', bad, '1-0')).toBe('ERR Invalid min-idle-time argument for XCLAIM');
      }
    });

    it('rejects bad option values with the option-specific texts', () => {
      setupClaimState(h, 1);
      expect(h.error('XCLAIM', 's', 'g', 'c', 0, '1-0', 'IDLE', 'x')).toBe('ERR Invalid IDLE option argument for XCLAIM');
      expect(h.error('XCLAIM', 's', 'g', 'c', 0, '1-0', 'IDLE', '+1')).toBe('ERR Invalid IDLE option argument for XCLAIM');
      expect(h.error('XCLAIM', 's', 'g', 'c', 0, '1-0', 'TIME', 'x')).toBe('ERR Invalid TIME option argument for XCLAIM');
      expect(h.error('XCLAIM', 's', 'g', 'c', 0, '1-0', 'RETRYCOUNT', '01')).toBe('ERR Invalid RETRYCOUNT option argument for XCLAIM');
      expect(h.error('XCLAIM', 's', 'g', 'c', 0, '1-0', 'LASTID', 'x')).toBe('ERR Invalid stream ID specified as stream command argument');
      expect(h.error('XCLAIM', 's', 'g', 'c', 0, '1-0', 'LASTID', '+')).toBe('ERR Invalid stream ID specified as stream command argument');
    });

    it('names unrecognized options, including an option missing its value', () => {
      setupClaimState(h, 1);
      expect(h.error('XCLAIM', 's', 'g', 'c', 0, '1-0', 'FOO')).toBe("ERR Unrecognized XCLAIM option 'FOO'");
      expect(h.error('XCLAIM', 's', 'g', 'c', 0, '1-0', 'IDLE')).toBe("ERR Unrecognized XCLAIM option 'IDLE'");
      expect(h.error('XCLAIM', 's', 'g', 'c', 0, '1-0', 'FORCE', 'FOO', 'IDLE', 'x')).toBe("ERR Unrecognized XCLAIM option 'FOO'");
      expect(h.error('XCLAIM', 's', 'g', 'c', 0, '1-0', 'IDLE', 'x', 'FOO')).toBe('ERR Invalid IDLE option argument for XCLAIM');
    });

    it('shows tokens and names as C %s does: cut at NUL, CR/LF as spaces', () => {
      setupClaimState(h, 1);
      expect(h.error('XCLAIM', 's', 'g', 'c', 0, '1-0', 'a\nb\rc')).toBe("ERR Unrecognized XCLAIM option 'a b c'");
      expect(h.error('XCLAIM', 's', 'g', 'c', 0, '1-0', 'a\0b')).toBe("ERR Unrecognized XCLAIM option 'a'");
      expect(h.error('XCLAIM', 's\nx', 'g\0y', 'c', 0, '1-0')).toBe("NOGROUP No such key 's x' or consumer group 'g'");
    });

    it('changes nothing when an option is bad', () => {
      setupClaimState(h, 1);
      h.now += 100;
      h.error('XCLAIM', 's', 'g', 'c2', 0, '1-0', 'LASTID', '9-0', 'FOO');
      expect(pendingEntries(h)).toEqual([['1-0', 'c1', 100, 1n]]);
      expect(formatId(group(h).lastId)).toBe('1-0');
      expect(group(h).getConsumer('c2')).toBeUndefined();
    });

    it('checks arity', () => {
      expect(h.error('XCLAIM', 's', 'g', 'c', 0)).toBe("ERR wrong number of arguments for 'xclaim' command");
    });
  });
});
