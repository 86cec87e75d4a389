import { Harness } from '../helpers/harness';
import { createGroup, group, pendingEntries, setupClaimState, xaddChecked, xdelChecked } from '../helpers/cg-state';
import { formatId } from '../../lib/model/stream-id';
import { isBlockRequest, type Reply } from '../../lib/commands/types';

// State is built with XADD / XGROUP CREATE / XREADGROUP / XDEL; the model is read for what no
// reply shows (seen-time, active-time, NACK order).

/** The PEL in CLAIM order (NACK zone first), as IDs. */
function claimOrder(h: Harness): string[] {
  return [...group(h).pendingByDeliveryTime()].map((pe) => formatId(pe.id));
}
const LLONG_MAX = 9223372036854775807n;

describe('XNACK', () => {
  let h: Harness;
  beforeEach(() => {
    h = new Harness();
  });

  it('SILENT releases the entry and undoes the delivery increment', () => {
    setupClaimState(h, 1);
    expect(h.run('XNACK', 's', 'g', 'SILENT', 'IDS', 1, '1-0')).toBe(1);
    expect(pendingEntries(h)).toEqual([['1-0', '', -1, 0n]]);
    expect(group(h).getConsumer('c1')?.pel.size).toBe(0);
    expect(group(h).nackedCount).toBe(1);
  });

  it('FAIL keeps the delivery count', () => {
    setupClaimState(h, 1);
    expect(h.run('XNACK', 's', 'g', 'FAIL', 'IDS', 1, '1-0')).toBe(1);
    expect(pendingEntries(h)).toEqual([['1-0', '', -1, 1n]]);
  });

  it('FATAL sets the delivery count to LLONG_MAX', () => {
    setupClaimState(h, 1);
    expect(h.run('XNACK', 's', 'g', 'fatal', 'IDS', 1, '1-0')).toBe(1);
    expect(pendingEntries(h)).toEqual([['1-0', '', -1, LLONG_MAX]]);
  });

  it('SILENT never takes the delivery count below 0', () => {
    setupClaimState(h, 1);
    h.run('XNACK', 's', 'g', 'SILENT', 'IDS', 1, '1-0');
    expect(h.run('XNACK', 's', 'g', 'SILENT', 'IDS', 1, '1-0')).toBe(1);
    expect(pendingEntries(h)[0][3]).toBe(0n);
  });

  it('RETRYCOUNT sets the delivery count whatever the mode', () => {
    setupClaimState(h, 2);
    expect(h.run('XNACK', 's', 'g', 'FATAL', 'IDS', 1, '1-0', 'RETRYCOUNT', 5)).toBe(1);
    expect(h.run('XNACK', 's', 'g', 'SILENT', 'RETRYCOUNT', 0, 'IDS', 1, '2-0')).toBe(1);
    expect(pendingEntries(h).map((p) => p[3])).toEqual([5n, 0n]);
  });

  it('counts a repeated ID each time', () => {
    setupClaimState(h, 1);
    expect(h.run('XNACK', 's', 'g', 'FAIL', 'IDS', 2, '1-0', '1-0')).toBe(2);
    h.run('XCLAIM', 's', 'g', 'c1', 0, '1-0', 'RETRYCOUNT', 5, 'JUSTID');
    expect(h.run('XNACK', 's', 'g', 'SILENT', 'IDS', 3, '1-0', '1-0', '1-0')).toBe(3);
    expect(pendingEntries(h)[0][3]).toBe(2n);
  });

  it('skips IDs that are not pending', () => {
    setupClaimState(h, 2, 1);
    expect(h.run('XNACK', 's', 'g', 'FAIL', 'IDS', 1, '9-9')).toBe(0);
    expect(h.run('XNACK', 's', 'g', 'FAIL', 'IDS', 3, '2-0', '1-0', '9-9')).toBe(1);
    expect(pendingEntries(h)).toEqual([['1-0', '', -1, 1n]]);
  });

  it('FORCE creates an unowned released entry for an entry still in the stream', () => {
    xaddChecked(h, 's', '1-0', '2-0', '3-0', '4-0');
    createGroup(h, 's', 'g');
    expect(h.run('XNACK', 's', 'g', 'FAIL', 'IDS', 1, '1-0', 'FORCE')).toBe(1);
    expect(h.run('XNACK', 's', 'g', 'SILENT', 'FORCE', 'IDS', 1, '2-0')).toBe(1);
    expect(h.run('XNACK', 's', 'g', 'FATAL', 'IDS', 1, '3-0', 'FORCE')).toBe(1);
    expect(h.run('XNACK', 's', 'g', 'FATAL', 'IDS', 1, '4-0', 'FORCE', 'RETRYCOUNT', 7)).toBe(1);
    expect(pendingEntries(h)).toEqual([
      ['1-0', '', -1, 0n],
      ['2-0', '', -1, 0n],
      ['3-0', '', -1, LLONG_MAX],
      ['4-0', '', -1, 7n],
    ]);
    expect(claimOrder(h)).toEqual(['1-0', '2-0', '3-0', '4-0']);
    expect(h.run('XNACK', 's', 'g', 'FAIL', 'IDS', 1, '9-0', 'FORCE')).toBe(0);
    expect(group(h).pel.size).toBe(4);
  });

  it('releases a pending entry whose stream entry was deleted', () => {
    setupClaimState(h, 2);
    xdelChecked(h, 's', '1-0');
    expect(h.run('XNACK', 's', 'g', 'FAIL', 'IDS', 1, '1-0')).toBe(1);
    expect(pendingEntries(h)[0]).toEqual(['1-0', '', -1, 1n]);
  });

  it('keeps released entries in NACK order, a re-NACK moving to the tail', () => {
    setupClaimState(h, 4);
    h.run('XNACK', 's', 'g', 'FAIL', 'IDS', 1, '1-0');
    h.run('XNACK', 's', 'g', 'FAIL', 'IDS', 1, '2-0');
    h.run('XNACK', 's', 'g', 'FAIL', 'IDS', 1, '3-0');
    h.run('XNACK', 's', 'g', 'FAIL', 'IDS', 1, '1-0');
    // NACK zone first (2-0, 3-0, 1-0), then the entries still delivered, oldest first.
    expect(claimOrder(h)).toEqual(['2-0', '3-0', '1-0', '4-0']);
    expect(group(h).nackedCount).toBe(3);
  });

  it('XREADGROUP CLAIM takes released entries in NACK order, before idle ones', () => {
    setupClaimState(h, 4);
    h.run('XNACK', 's', 'g', 'FAIL', 'IDS', 3, '1-0', '2-0', '3-0');
    h.run('XNACK', 's', 'g', 'FAIL', 'IDS', 1, '1-0');
    h.now += 10; // 4-0 (still owned by c1) is now idle enough too
    const claimOne = () => {
      const reply = h.run('XREADGROUP', 'GROUP', 'g', 'c2', 'COUNT', 1, 'CLAIM', 5, 'STREAMS', 's', '>') as [string, Reply[][]][];
      return reply[0][1].map((e) => [e[0], e[3]]);
    };
    // [id, delivery count before this claim]
    expect(claimOne()).toEqual([['2-0', 1n]]);
    expect(claimOne()).toEqual([['3-0', 1n]]);
    expect(claimOne()).toEqual([['1-0', 1n]]);
    expect(claimOne()).toEqual([['4-0', 1n]]);
    expect(group(h).nackedCount).toBe(0);
  });

  it('a blocked XREADGROUP CLAIM reader is woken by XNACK', () => {
    setupClaimState(h, 1);
    const blocked = h.run('XREADGROUP', 'GROUP', 'g', 'c2', 'BLOCK', 0, 'CLAIM', 100000, 'STREAMS', 's', '>');
    expect(isBlockRequest(blocked)).toBe(true);
    expect(h.run('XNACK', 's', 'g', 'SILENT', 'IDS', 1, '1-0')).toBe(1);
    expect(h.signals).toEqual(['s']);
    if (!isBlockRequest(blocked)) return;
    const reply = blocked.retry(h.ctx(), 's') as [string, Reply[][]][];
    expect(reply[0][1].map((e) => [e[0], e[1], e[3]])).toEqual([['1-0', ['f', 'v'], 0n]]);
    expect(pendingEntries(h)).toEqual([['1-0', 'c2', 0, 1n]]);
  });

  it('makes released entries claimable at once by XCLAIM and XAUTOCLAIM', () => {
    setupClaimState(h, 2);
    h.run('XNACK', 's', 'g', 'FAIL', 'IDS', 2, '1-0', '2-0');
    expect(h.run('XCLAIM', 's', 'g', 'c2', 99999, '1-0')).toEqual([['1-0', ['f', 'v']]]);
    expect(h.run('XAUTOCLAIM', 's', 'g', 'c3', 99999, '0', 'JUSTID')).toEqual(['0-0', ['2-0'], []]);
    expect(pendingEntries(h)).toEqual([
      ['1-0', 'c2', 0, 2n],
      ['2-0', 'c3', 0, 1n],
    ]);
    expect(group(h).nackedCount).toBe(0);
  });

  it('neither creates consumers nor changes their times', () => {
    setupClaimState(h, 1);
    const c1 = group(h).getConsumer('c1');
    const before = [c1?.seenTime, c1?.activeTime];
    h.now += 500;
    h.run('XNACK', 's', 'g', 'FAIL', 'IDS', 1, '1-0');
    expect([c1?.seenTime, c1?.activeTime]).toEqual(before);
    expect([...group(h).consumers.keys()]).toEqual(['c1']);
    expect(h.events).toEqual([]);
  });

  it('wakes XREADGROUP CLAIM waiters only when it released something', () => {
    setupClaimState(h, 1);
    h.run('XNACK', 's', 'g', 'FAIL', 'IDS', 1, '9-0');
    expect(h.signals).toEqual([]);
    h.run('XNACK', 's', 'g', 'FAIL', 'IDS', 1, '1-0');
    expect(h.signals).toEqual(['s']);
  });

  it('accepts the IDS block, RETRYCOUNT and FORCE in any order', () => {
    setupClaimState(h, 2);
    expect(h.run('XNACK', 's', 'g', 'FAIL', 'FORCE', 'RETRYCOUNT', 3, 'IDS', 2, '1-0', '2-0', 'FORCE')).toBe(2);
    expect(pendingEntries(h).map((p) => p[3])).toEqual([3n, 3n]);
  });

  it('does not exist before Redis 8.8', () => {
    setupClaimState(h, 1);
    h.version = '8.6';
    expect(h.error('XNACK', 's', 'g', 'FAIL', 'IDS', 1, '1-0')).toMatch(/^ERR unknown command 'XNACK'/);
  });

  describe('error cases', () => {
    beforeEach(() => setupClaimState(h, 1));

    it('rejects a bad mode', () => {
      expect(h.error('XNACK', 's', 'g', 'NOPE', 'IDS', 1, '1-0')).toBe('ERR mode must be SILENT, FAIL, or FATAL');
      expect(h.error('XNACK', 's', 'g', 'IDS', '1', '1-0', 'FORCE')).toBe('ERR mode must be SILENT, FAIL, or FATAL');
    });

    it('rejects numids that is not a positive integer', () => {
      for (const bad of ['0', '-1', 'x', '1.5', '+1', '99999999999999999999']) {
        expect(h.error('XNACK', 's', 'g', 'FAIL', 'IDS', bad, '1-0')).toBe('ERR numids must be a positive integer');
      }
    });

    it('rejects fewer IDs than numids', () => {
      expect(h.error('XNACK', 's', 'g', 'FAIL', 'IDS', 3, '1-0', '2-0')).toBe("ERR number of IDs doesn't match numids");
      expect(h.error('XNACK', 's', 'g', 'FAIL', 'IDS', 2, '1-0')).toBe("ERR number of IDs doesn't match numids");
    });

    it('names an unrecognized option: extra IDs, a second mode, a valueless RETRYCOUNT', () => {
      expect(h.error('XNACK', 's', 'g', 'FAIL', 'IDS', 1, '1-0', '2-0')).toBe("ERR Unrecognized XNACK option '2-0'");
      expect(h.error('XNACK', 's', 'g', 'FAIL', 'IDS', 1, '1-0', 'FATAL')).toBe("ERR Unrecognized XNACK option 'FATAL'");
      expect(h.error('XNACK', 's', 'g', 'FAIL', 'IDS', 1, '1-0', 'RETRYCOUNT')).toBe(
        "ERR Unrecognized XNACK option 'RETRYCOUNT'",
      );
      expect(h.error('XNACK', 's', 'g', 'FAIL', 'FORCE', 'FORCE', 'IDS')).toBe("ERR Unrecognized XNACK option 'IDS'");
      expect(h.error('XNACK', 's', 'g', 'FAIL', 'IDS', 1, '1-0', 'BOGUS\n')).toBe("ERR Unrecognized XNACK option 'BOGUS '");
    });

    it('requires the IDS block', () => {
      expect(h.error('XNACK', 's', 'g', 'FAIL', 'FORCE', 'FORCE', 'FORCE')).toBe('ERR syntax error, expected IDS keyword');
      expect(h.error('XNACK', 's', 'g', 'FAIL', 'RETRYCOUNT', 1, 'FORCE')).toBe('ERR syntax error, expected IDS keyword');
    });

    it('rejects a bad RETRYCOUNT', () => {
      expect(h.error('XNACK', 's', 'g', 'FAIL', 'IDS', 1, '1-0', 'RETRYCOUNT', 'x')).toBe('ERR value is not an integer or out of range');
      expect(h.error('XNACK', 's', 'g', 'FAIL', 'IDS', 1, '1-0', 'RETRYCOUNT', '9223372036854775808')).toBe(
        'ERR value is not an integer or out of range',
      );
      expect(h.error('XNACK', 's', 'g', 'FAIL', 'IDS', 1, '1-0', 'RETRYCOUNT', -1)).toBe('ERR Invalid RETRYCOUNT value, must be >= 0');
    });

    it('rejects bad IDs (strict parsing) and releases nothing', () => {
      expect(h.error('XNACK', 's', 'g', 'FAIL', 'IDS', 2, '1-0', 'notanid')).toBe('ERR Invalid stream ID specified as stream command argument');
      expect(h.error('XNACK', 's', 'g', 'FAIL', 'IDS', 1, '-')).toBe('ERR Invalid stream ID specified as stream command argument');
      expect(pendingEntries(h)[0][1]).toBe('c1');
    });

    it('checks the key and group after the arguments', () => {
      expect(h.error('XNACK', 'nokey', 'g', 'FAIL', 'IDS', 1, '1-0')).toBe("NOGROUP No such key 'nokey' or consumer group 'g'");
      expect(h.error('XNACK', 's', 'nogroup', 'FAIL', 'IDS', 1, '1-0')).toBe("NOGROUP No such key 's' or consumer group 'nogroup'");
      expect(h.error('XNACK', 'nokey', 'g', 'FAIL', 'IDS', 1, 'bad')).toBe('ERR Invalid stream ID specified as stream command argument');
      h.keys.set('str', 'x');
      expect(h.error('XNACK', 'str', 'g', 'FAIL', 'IDS', 1, '1-0')).toBe('WRONGTYPE Operation against a key holding the wrong kind of value');
      expect(h.error('XNACK', 'str', 'g', 'NOPE', 'IDS', 1, '1-0')).toBe('ERR mode must be SILENT, FAIL, or FATAL');
    });

    it('checks arity', () => {
      expect(h.error('XNACK', 's', 'g', 'FAIL', 'IDS', 1)).toBe("ERR wrong number of arguments for 'xnack' command");
    });
  });
});
