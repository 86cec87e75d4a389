import { Harness } from '../helpers/harness';
import { group, readNew, xadd } from '../helpers/cg-state';

const INVALID_ID = 'ERR Invalid stream ID specified as stream command argument';

describe('XACK', () => {
  let h: Harness;
  beforeEach(() => {
    h = new Harness();
    xadd(h, 's', '1-0', '2-0', '3-0', '4-0');
    h.run('XGROUP', 'CREATE', 's', 'g', '0');
    readNew(h, 's', 'g', 'c1', 2);
    readNew(h, 's', 'g', 'c2', 2);
    h.events.length = 0;
  });

  it('XACK is able to remove items from the consumer/group PEL', () => {
    expect(h.run('XACK', 's', 'g', '1-0')).toBe(1);
    expect(h.run('XPENDING', 's', 'g', '-', '+', 10, 'c1')).toEqual([['2-0', 'c1', 0, 1n]]);
    expect(h.run('XPENDING', 's', 'g')).toEqual([3, '2-0', '4-0', [['c1', '1'], ['c2', '2']]]);
  });

  it("XACK can't remove the same item multiple times", () => {
    expect(h.run('XACK', 's', 'g', '1-0')).toBe(1);
    expect(h.run('XACK', 's', 'g', '1-0')).toBe(0);
  });

  it('XACK is able to accept multiple arguments; a repeated ID counts once', () => {
    // redis-server 7.0.15: XACK s g 1-0 1-0 2 9-9 → 2 (`2` is 2-0).
    expect(h.run('XACK', 's', 'g', '1-0', '1-0', '2', '9-9')).toBe(2);
    expect(h.run('XPENDING', 's', 'g')).toEqual([2, '3-0', '4-0', [['c2', '2']]]);
  });

  it('XACK should fail if got at least one invalid ID, acknowledging nothing', () => {
    expect(h.error('XACK', 's', 'g', '1-0', 'invalid-id')).toBe(INVALID_ID);
    expect(h.run('XACK', 's', 'g', '1-0')).toBe(1);
  });

  it('a missing key or group answers 0 without looking at the IDs', () => {
    expect(h.run('XACK', 'nokey', 'g', 'bad')).toBe(0);
    expect(h.run('XACK', 's', 'nog', 'bad')).toBe(0);
  });

  it('acknowledges entries that are no longer in the stream', () => {
    h.run('XDEL', 's', '1-0');
    expect(h.run('XACK', 's', 'g', '1-0')).toBe(1);
  });

  it('acknowledges released (XNACK) entries (8.8)', () => {
    h.run('XNACK', 's', 'g', 'FAIL', 'IDS', 2, '1-0', '3-0');
    expect(h.run('XACK', 's', 'g', '1-0', '3-0')).toBe(2);
    expect(h.run('XPENDING', 's', 'g')).toEqual([2, '2-0', '4-0', [['c1', '1'], ['c2', '1']]]);
    expect(group(h).nackedCount).toBe(0);
  });

  it('emits no keyspace event and does not dirty WATCH (redis-server 7.0.15)', () => {
    const touched: string[] = [];
    (h.db as { touch: (k: string) => void }).touch = (k) => void touched.push(k);
    h.run('XACK', 's', 'g', '1-0', '2-0');
    expect(h.events).toEqual([]);
    expect(touched).toEqual([]);
  });

  describe('error cases', () => {
    it('needs at least one ID', () => {
      expect(h.error('XACK', 's', 'g')).toBe("ERR wrong number of arguments for 'xack' command");
    });

    it('WRONGTYPE comes before the IDs', () => {
      h.keys.set('str', 'x');
      expect(h.error('XACK', 'str', 'g', 'bad')).toBe('WRONGTYPE Operation against a key holding the wrong kind of value');
    });

    it('IDs are strict: no -, +, ( or partial forms', () => {
      for (const bad of ['-', '+', '(3', '1-', '-1', 'x', '1-2-3']) expect(h.error('XACK', 's', 'g', bad)).toBe(INVALID_ID);
      expect(h.run('XPENDING', 's', 'g')).toEqual([4, '1-0', '4-0', [['c1', '2'], ['c2', '2']]]);
    });
  });
});
