import { Stream } from '../../lib/model/stream';
import { formatId } from '../../lib/model/stream-id';
import { Harness } from '../helpers/harness';

function info(h: Harness, key: string): { lastId: string; maxDeleted: string; entriesAdded: bigint; firstId: string } {
  const s = h.keys.get(key) as Stream;
  return {
    lastId: formatId(s.lastId),
    maxDeleted: formatId(s.maxDeletedEntryId),
    entriesAdded: s.entriesAdded,
    firstId: formatId(s.firstId),
  };
}

describe('XSETID', () => {
  let h: Harness;
  beforeEach(() => {
    h = new Harness();
    h.run('XADD', 's', '5-0', 'a', 'b');
    h.run('XADD', 's', '6-0', 'a', 'b');
  });

  it('sets last-generated-id, so the next auto ID follows it', () => {
    expect(h.run('XSETID', 's', '200-0')).toBe('OK');
    expect(info(h, 's').lastId).toBe('200-0');
    h.now = 100;
    expect(h.run('XADD', 's', '*', 'a', 'b')).toBe('200-1');
  });

  it('accepts the current top item and an equal ID', () => {
    expect(h.run('XSETID', 's', '6-0')).toBe('OK');
    expect(h.run('XSETID', 's', '6')).toBe('OK');
  });

  it('may move the ID down to the last live entry after deletions', () => {
    h.run('XDEL', 's', '6-0');
    expect(h.run('XSETID', 's', '6-0')).toBe('OK');
    expect(h.run('XADD', 's', '6-1', 'a', 'b')).toBe('6-1');
  });

  it('sets entries-added and max-deleted-entry-id', () => {
    expect(h.run('XSETID', 's', '7-0', 'ENTRIESADDED', '2')).toBe('OK');
    expect(h.run('XSETID', 's', '10-0', 'MAXDELETEDID', '9-0', 'ENTRIESADDED', '100', 'entriesadded', '200')).toBe('OK');
    expect(info(h, 's')).toEqual({ lastId: '10-0', maxDeleted: '9-0', entriesAdded: 200n, firstId: '5-0' });
  });

  it('a 0-0 MAXDELETEDID leaves max-deleted-entry-id unchanged', () => {
    h.run('XDEL', 's', '6-0');
    h.run('XSETID', 's', '8-0', 'MAXDELETEDID', '0-0');
    expect(info(h, 's').maxDeleted).toBe('6-0');
  });

  it('on an empty stream the ID may go anywhere at or above max-deleted-entry-id', () => {
    h.run('XDEL', 's', '5-0', '6-0');
    expect(h.run('XSETID', 's', '6-0')).toBe('OK');
    expect(h.run('XSETID', 's', '6-0', 'ENTRIESADDED', '0')).toBe('OK');
    expect(info(h, 's')).toEqual({ lastId: '6-0', maxDeleted: '6-0', entriesAdded: 0n, firstId: '0-0' });
  });

  it('emits xsetid and, like Redis, does not mark the key modified', () => {
    h.events.length = 0;
    const touch = jest.fn();
    h.db.touch = touch;
    h.run('XSETID', 's', '9-0');
    expect(h.events).toEqual([['xsetid', 's']]);
    expect(touch).not.toHaveBeenCalled();
    expect(h.signals).toEqual(['s', 's']);
  });

  it('7.0 lets the ID go below the current max-deleted-entry-id', () => {
    h.version = '7.0';
    h.run('XDEL', 's', '6-0');
    expect(h.run('XSETID', 's', '5-5')).toBe('OK');
    expect(info(h, 's').lastId).toBe('5-5');
  });

  describe('error cases', () => {
    it('too few arguments', () => {
      expect(h.error('XSETID', 's')).toBe("ERR wrong number of arguments for 'xsetid' command");
    });

    it('last-id is strict', () => {
      for (const id of ['bad', '-', '+', '5-*'])
        expect(h.error('XSETID', 'nokey', id)).toBe('ERR Invalid stream ID specified as stream command argument');
    });

    it('option errors come before the key lookup', () => {
      expect(h.error('XSETID', 'nokey', '1-0', 'FOO')).toBe('ERR syntax error');
      expect(h.error('XSETID', 'nokey', '1-0', 'ENTRIESADDED')).toBe('ERR syntax error');
      expect(h.error('XSETID', 'nokey', '1-0', 'ENTRIESADDED', 'x')).toBe('ERR value is not an integer or out of range');
      expect(h.error('XSETID', 'nokey', '1-0', 'ENTRIESADDED', '-1')).toBe('ERR entries_added must be positive');
      expect(h.error('XSETID', 'nokey', '1-0', 'MAXDELETEDID', '-')).toBe(
        'ERR Invalid stream ID specified as stream command argument',
      );
      expect(h.error('XSETID', 'nokey', '1-0', 'MAXDELETEDID', '2-0')).toBe(
        'ERR The ID specified in XSETID is smaller than the provided max_deleted_entry_id',
      );
    });

    it('missing key and WRONGTYPE', () => {
      expect(h.error('XSETID', 'nokey', '1-0')).toBe('ERR no such key');
      h.keys.set('str', 'x');
      expect(h.error('XSETID', 'str', '1-0')).toBe('WRONGTYPE Operation against a key holding the wrong kind of value');
      expect(h.error('XSETID', 'str', '1-0', 'ENTRIESADDED', '-5')).toBe('ERR entries_added must be positive');
    });

    it('smaller than the top item, or entries-added smaller than the length', () => {
      expect(h.error('XSETID', 's', '5-9')).toBe('ERR The ID specified in XSETID is smaller than the target stream top item');
      expect(h.error('XSETID', 's', '7-0', 'ENTRIESADDED', '1')).toBe(
        'ERR The entries_added specified in XSETID is smaller than the target stream length',
      );
      expect(info(h, 's').lastId).toBe('6-0');
    });

    it('smaller than the current max-deleted-entry-id (7.2+)', () => {
      h.run('XDEL', 's', '6-0');
      expect(h.error('XSETID', 's', '5-5')).toBe(
        'ERR The ID specified in XSETID is smaller than current max_deleted_entry_id',
      );
    });
  });
});

/** A 7.0 harness: s holds `live`, `deleted` was added then deleted, and XSETID set the last ID back to `setId`. */
function harnessWithIdSetBelowDeleted(live: string, deleted: string, setId: string): Harness {
  const h = new Harness();
  h.version = '7.0';
  h.run('XADD', 's', live, 'f', 'v');
  h.run('XADD', 's', deleted, 'f', 'v');
  h.run('XDEL', 's', deleted);
  h.run('XSETID', 's', setId);
  return h;
}

describe('entries added below a deleted entry after XSETID (redis-server 7.0.15 replies)', () => {
  it('iterates in storage order as Redis does: a deleted higher ID does not hide or reorder live entries', () => {
    const h = harnessWithIdSetBelowDeleted('8-2', '9-2', '8-2');
    expect(h.run('XADD', 's', '9-0', 'f', 'w')).toBe('9-0');
    expect(h.run('XRANGE', 's', '(9-0', '+')).toEqual([]);
    expect(h.run('XRANGE', 's', '9-1', '+')).toEqual([]);
    expect(h.run('XRANGE', 's', '-', '+')).toEqual([
      ['8-2', ['f', 'v']],
      ['9-0', ['f', 'w']],
    ]);
  });

  it('deletes the live entry that shares its ID with a deleted one', () => {
    const h = harnessWithIdSetBelowDeleted('5-0', '7-2', '6-2');
    h.run('XADD', 's', '7-2', 'f', 'w');
    expect(h.run('XDEL', 's', '7-2')).toBe(1);
    expect(h.run('XLEN', 's')).toBe(1);
  });

  it('exact MINID trimming walks deleted entries and stops at the first entry at or above MINID', () => {
    const h = harnessWithIdSetBelowDeleted('5-0', '7-2', '6-2');
    h.run('XADD', 's', '7-2', 'f', 'w');
    h.run('XADD', 's', '11-0', 'f', 'w');
    expect(h.run('XTRIM', 's', 'MINID', '7-3')).toBe(2);
    expect(h.run('XLEN', 's')).toBe(1);
    expect(h.run('XRANGE', 's', '-', '+')).toEqual([['11-0', ['f', 'w']]]);
  });
});

describe('entries-added at the int64 limit', () => {
  it('wraps like Redis (long long): XSETID … ENTRIESADDED 2^63-1 then XADD gives -2^63', () => {
    const h = new Harness();
    h.version = '7.0';
    h.run('XADD', 'ov', '1-0', 'f', 'v');
    h.run('XSETID', 'ov', '99-0', 'ENTRIESADDED', '9223372036854775807');
    h.run('XADD', 'ov', '100-0', 'f', 'v');
    const info = h.run('XINFO', 'STREAM', 'ov') as unknown[];
    expect(info[info.indexOf('entries-added') + 1]).toBe(-9223372036854775808n);
  });

  /** [entries-read, lag] of each group of XINFO GROUPS. */
  const readAndLag = (h: Harness, key: string) =>
    (h.run('XINFO', 'GROUPS', key) as unknown[][]).map((g) => [g[g.indexOf('entries-read') + 1], g[g.indexOf('lag') + 1]]);

  // replies of redis-server 7.0.15 and the post-7.4 build (found by a grammar fuzzer)
  it.each(['7.0', '8.0'] as const)('%s: lag, entries-read and their estimate wrap as long long past the limit', (version) => {
    const h = new Harness();
    h.version = version;
    // lag = entries-added (wrapped to -2^63) - entries-read 1: 2^63-1, not -2^63-1
    h.run('XADD', 's', '2-1', 'a', '1');
    h.run('XGROUP', 'CREATE', 's', 'g1', '0');
    h.run('XREADGROUP', 'GROUP', 'g1', 'c1', 'COUNT', '2', 'STREAMS', 's', '>');
    h.run('XSETID', 's', '11-1', 'ENTRIESADDED', '9223372036854775807');
    h.run('XADD', 's', '12-0', 'f', 'v');
    expect(readAndLag(h, 's')).toEqual([[1n, 9223372036854775807n]]);
    // an unknown entries-read is estimated from a negative entries-added too: -2^63 - 3 + 1 wraps
    h.run('XADD', 't', '2-1', 'a', '1');
    h.run('XADD', 't', '3-1', 'a', '1');
    h.run('XSETID', 't', '11-1', 'ENTRIESADDED', '9223372036854775807');
    h.run('XADD', 't', '12-0', 'f', 'v');
    h.run('XGROUP', 'CREATE', 't', 'g0', '0');
    h.run('XREADGROUP', 'GROUP', 'g0', 'c', 'COUNT', '1', 'STREAMS', 't', '>');
    expect(readAndLag(h, 't')).toEqual([[9223372036854775806n, 2n]]);
    // entries-read 2^63-1 read once more: -2^63, and the lag after one more entry is 0
    h.run('XADD', 'u', '1-0', 'a', '1');
    h.run('XSETID', 'u', '1-0', 'ENTRIESADDED', '9223372036854775807');
    h.run('XGROUP', 'CREATE', 'u', 'g', '0', 'ENTRIESREAD', '9223372036854775807');
    h.run('XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', 'u', '>');
    expect(readAndLag(h, 'u')).toEqual([[-9223372036854775808n, -1n]]);
    h.run('XADD', 'u', '2-0', 'a', '1');
    expect(readAndLag(h, 'u')).toEqual([[-9223372036854775808n, 0n]]);
  });
});
