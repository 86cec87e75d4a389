import { Harness } from '../helpers/harness';
import { asMap, group, readNew, stream, xadd } from '../helpers/cg-state';

const SYNTAX = 'ERR syntax error';
const NUMIDS = 'ERR Number of IDs must be a positive integer';
const MISMATCH = 'ERR The `numids` parameter must match the number of arguments';
const INVALID_ID = 'ERR Invalid stream ID specified as stream command argument';

describe('XACKDEL', () => {
  let h: Harness;
  beforeEach(() => {
    h = new Harness();
  });

  /** mystream 1-0, 2-0; group1 and group2 at 0, each read both (consumer1 / consumer2). */
  function twoGroups(): void {
    xadd(h, 'mystream', '1-0', '2-0');
    h.run('XGROUP', 'CREATE', 'mystream', 'group1', '0');
    h.run('XGROUP', 'CREATE', 'mystream', 'group2', '0');
    readNew(h, 'mystream', 'group1', 'consumer1');
    readNew(h, 'mystream', 'group2', 'consumer2');
    h.events.length = 0;
  }

  it('XACKDEL should return empty array when key doesn\'t exist or group doesn\'t exist', () => {
    expect(h.run('XACKDEL', 's', 'g', 'IDS', 2, '1-1', '2-2')).toEqual([-1, -1]);
    xadd(h, 's', '1-0');
    expect(h.run('XACKDEL', 's', 'g', 'IDS', 2, '1-1', '2-2')).toEqual([-1, -1]);
    expect(h.run('XLEN', 's')).toBe(1);
  });

  it('XACKDEL with DELREF option acknowledges will remove entry from all PELs', () => {
    twoGroups();
    expect(h.run('XACKDEL', 'mystream', 'group1', 'DELREF', 'IDS', 2, '1-0', '2-0')).toEqual([1, 1]);
    expect(h.run('XLEN', 'mystream')).toBe(0);
    expect(h.run('XPENDING', 'mystream', 'group1')).toEqual([0, null, null, null]);
    expect(h.run('XPENDING', 'mystream', 'group2')).toEqual([0, null, null, null]);
    expect(h.run('XACKDEL', 'mystream', 'group2', 'DELREF', 'IDS', 2, '1-0', '2-0')).toEqual([-1, -1]);
  });

  it('XACKDEL with ACKED option only deletes messages acknowledged by all groups', () => {
    twoGroups();
    expect(h.run('XACKDEL', 'mystream', 'group1', 'ACKED', 'IDS', 2, '1-0', '2-0')).toEqual([2, 2]);
    expect(h.run('XLEN', 'mystream')).toBe(2);
    expect(h.run('XPENDING', 'mystream', 'group1')).toEqual([0, null, null, null]);
    expect(h.run('XPENDING', 'mystream', 'group2')).toEqual([2, '1-0', '2-0', [['consumer2', '2']]]);
    expect(h.run('XACKDEL', 'mystream', 'group2', 'ACKED', 'IDS', 2, '1-0', '2-0')).toEqual([1, 1]);
    expect(h.run('XLEN', 'mystream')).toBe(0);
    expect(h.run('XPENDING', 'mystream', 'group2')).toEqual([0, null, null, null]);
  });

  it('ACKED keeps entries a group has not read yet', () => {
    xadd(h, 's', '1-0', '2-0');
    h.run('XGROUP', 'CREATE', 's', 'reader', '0');
    h.run('XGROUP', 'CREATE', 's', 'late', '0');
    readNew(h, 's', 'reader', 'c');
    expect(h.run('XACKDEL', 's', 'reader', 'ACKED', 'IDS', 2, '1-0', '2-0')).toEqual([2, 2]);
    h.run('XGROUP', 'SETID', 's', 'late', '1-0');
    expect(h.run('XACKDEL', 's', 'reader', 'ACKED', 'IDS', 2, '1-0', '2-0')).toEqual([1, 2]);
    h.run('XGROUP', 'DESTROY', 's', 'late');
    expect(h.run('XACKDEL', 's', 'reader', 'ACKED', 'IDS', 2, '1-0', '2-0')).toEqual([-1, 1]);
  });

  it('XACKDEL with KEEPREF', () => {
    twoGroups();
    expect(h.run('XACKDEL', 'mystream', 'group1', 'KEEPREF', 'IDS', 2, '1-0', '2-0')).toEqual([1, 1]);
    expect(h.run('XLEN', 'mystream')).toBe(0);
    expect(h.run('XPENDING', 'mystream', 'group1')).toEqual([0, null, null, null]);
    expect(h.run('XPENDING', 'mystream', 'group2')).toEqual([2, '1-0', '2-0', [['consumer2', '2']]]);
    // The dangling references of group2 are acknowledged.
    expect(h.run('XACKDEL', 'mystream', 'group2', 'KEEPREF', 'IDS', 2, '1-0', '2-0')).toEqual([1, 1]);
    expect(h.run('XPENDING', 'mystream', 'group2')).toEqual([0, null, null, null]);
  });

  it('KEEPREF is the default and deletes entries nobody had pending', () => {
    xadd(h, 's', '1-0', '2-0', '3-0');
    h.run('XGROUP', 'CREATE', 's', 'g', '0');
    h.events.length = 0;
    expect(h.run('XACKDEL', 's', 'g', 'IDS', 3, '2-0', '9-0', '2-0')).toEqual([1, -1, -1]);
    expect(asMap(h.run('XINFO', 'STREAM', 's'))).toMatchObject({ length: 2, 'max-deleted-entry-id': '2-0', 'recorded-first-entry-id': '1-0' });
    expect(h.events).toEqual([['xdel', 's']]);
  });

  it('updates recorded-first-entry-id like XDEL', () => {
    xadd(h, 's', '1-0', '2-0');
    h.run('XGROUP', 'CREATE', 's', 'g', '0');
    h.run('XACKDEL', 's', 'g', 'IDS', 1, '1-0');
    expect(stream(h).firstId).toEqual({ ms: 2n, seq: 0n });
  });

  it('acknowledges released (XNACK) entries', () => {
    twoGroups();
    h.run('XNACK', 'mystream', 'group1', 'FAIL', 'IDS', 1, '1-0');
    expect(h.run('XACKDEL', 'mystream', 'group1', 'ACKED', 'IDS', 1, '1-0')).toEqual([2]);
    expect(group(h, 'mystream', 'group1').pel.size).toBe(1);
    expect(group(h, 'mystream', 'group1').nackedCount).toBe(0);
  });

  it('with acknowledgements only, emits nothing', () => {
    twoGroups();
    h.run('XACKDEL', 'mystream', 'group1', 'ACKED', 'IDS', 1, '1-0');
    expect(h.events).toEqual([]);
  });

  it('XACKDEL with IDs exceeding STREAMID_STATIC_VECTOR_LEN for heap allocation', () => {
    h.run('XGROUP', 'CREATE', 'mystream', 'mygroup', '$', 'MKSTREAM');
    const ids = Array.from({ length: 50 }, (_, i) => `${i}-1`);
    expect(h.run('XACKDEL', 'mystream', 'mygroup', 'IDS', 50, ...ids)).toEqual(ids.map(() => -1));
  });

  describe('error cases', () => {
    beforeEach(() => {
      xadd(h, 's', '1-0');
      h.run('XGROUP', 'CREATE', 's', 'g', '0');
    });

    it('XACKDEL wrong number of args', () => {
      expect(h.error('XACKDEL')).toBe("ERR wrong number of arguments for 'xackdel' command");
      expect(h.error('XACKDEL', 's')).toBe("ERR wrong number of arguments for 'xackdel' command");
      expect(h.error('XACKDEL', 's', 'g')).toBe("ERR wrong number of arguments for 'xackdel' command");
      expect(h.error('XACKDEL', 's', 'g', 'IDS', 1)).toBe("ERR wrong number of arguments for 'xackdel' command");
    });

    it('XACKDEL IDS parameter validation', () => {
      expect(h.error('XACKDEL', 's', 'g', 'IDS', 'abc', '1-1')).toBe(NUMIDS);
      expect(h.error('XACKDEL', 's', 'g', 'IDS', 0, '1-1')).toBe(NUMIDS);
      expect(h.error('XACKDEL', 's', 'g', 'IDS', -5, '1-1')).toBe(NUMIDS);
      expect(h.error('XACKDEL', 's', 'g', 'IDS', 3, '1-1', '2-2')).toBe(MISMATCH);
      expect(h.error('XACKDEL', 's', 'g', 'IDS', 1, '1-1', '2-2')).toBe(SYNTAX);
      expect(h.error('XACKDEL', 's', 'g', 'KEEPREF', 'IDS', 1)).toBe(MISMATCH);
    });

    it('XACKDEL KEEPREF/DELREF/ACKED parameter validation', () => {
      expect(h.error('XACKDEL', 's', 'g', 'KEEPREF', 'DELREF', 'IDS', 1, '1-1')).toBe(SYNTAX);
      expect(h.error('XACKDEL', 's', 'g', 'KEEPREF', 'ACKED', 'IDS', 1, '1-1')).toBe(SYNTAX);
      expect(h.error('XACKDEL', 's', 'g', 'DELREF', 'ACKED', 'IDS', 1, '1-1')).toBe(SYNTAX);
      expect(h.error('XACKDEL', 's', 'g', 'FOO', 'IDS', 1, '1-1')).toBe(SYNTAX);
      expect(h.error('XACKDEL', 's', 'g', 'KEEPREF', 'KEEPREF', 'KEEPREF')).toBe(SYNTAX);
      expect(h.error('XACKDEL', 's', 'g', 'IDS', 1, '1-1', 'IDS', 1, '1-2')).toBe(SYNTAX);
    });

    it('IDs are strict and checked before the key', () => {
      expect(h.error('XACKDEL', 's', 'g', 'IDS', 2, '1-0', '-')).toBe(INVALID_ID);
      expect(h.error('XACKDEL', 'nokey', 'g', 'IDS', 1, 'bad')).toBe(INVALID_ID);
      expect(h.run('XPENDING', 's', 'g')).toEqual([0, null, null, null]);
      expect(h.run('XLEN', 's')).toBe(1);
    });

    it('WRONGTYPE after the arguments', () => {
      h.keys.set('str', 'x');
      expect(h.error('XACKDEL', 'str', 'g', 'IDS', 1, '1-0')).toBe('WRONGTYPE Operation against a key holding the wrong kind of value');
    });

    it('does not exist before 8.2', () => {
      h.version = '8.0';
      expect(h.error('XACKDEL', 's', 'g', 'IDS', 1, '1-0')).toBe(
        "ERR unknown command 'XACKDEL', with args beginning with: 's' 'g' 'IDS' '1' '1-0' ",
      );
    });
  });
});
