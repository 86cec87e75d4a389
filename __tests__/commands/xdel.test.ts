import { ConsumerGroup } from '../../lib/model/consumer-group';
import { formatId, parseStrictId } from '../../lib/model/stream-id';
import { stream } from '../helpers/cg-state';
import { Harness } from '../helpers/harness';

describe('XDEL', () => {
  let h: Harness;
  beforeEach(() => {
    h = new Harness();
    h.run('XADD', 's', '1-0', 'a', 'b');
    h.run('XADD', 's', '2-0', 'c', 'd');
    h.run('XADD', 's', '3-0', 'e', 'f');
  });

  it('deletes entries and replies how many were deleted', () => {
    expect(h.run('XDEL', 's', '2-0', '9-9')).toBe(1);
    expect(h.run('XRANGE', 's', '-', '+')).toEqual([
      ['1-0', ['a', 'b']],
      ['3-0', ['e', 'f']],
    ]);
    expect(h.run('XLEN', 's')).toBe(2);
  });

  it('counts a repeated ID once', () => {
    expect(h.run('XDEL', 's', '1-0', '1-0', '2')).toBe(2);
  });

  it('raises max-deleted-entry-id and moves the recorded first ID', () => {
    const s = stream(h, 's');
    h.run('XDEL', 's', '2-0');
    expect(formatId(s.maxDeletedEntryId)).toBe('2-0');
    expect(formatId(s.firstId)).toBe('1-0');
    h.run('XDEL', 's', '1-0');
    expect(formatId(s.firstId)).toBe('3-0');
    expect(formatId(s.maxDeletedEntryId)).toBe('2-0');
  });

  it('keeps an emptied stream and its last-generated-id', () => {
    expect(h.run('XDEL', 's', '1-0', '2-0', '3-0')).toBe(3);
    const s = stream(h, 's');
    expect(h.keys.has('s')).toBe(true);
    expect(s.length).toBe(0);
    expect(formatId(s.firstId)).toBe('0-0');
    expect(formatId(s.lastId)).toBe('3-0');
    expect(formatId(s.maxDeletedEntryId)).toBe('3-0');
    expect(s.entriesAdded).toBe(3n);
  });

  it('leaves PEL references of deleted entries alone', () => {
    const g = new ConsumerGroup('g', parseStrictId('3-0')!, 3n);
    stream(h, 's').groups.set('g', g);
    g.addPending(parseStrictId('1-0')!, g.ensureConsumer('c', h.now).consumer, h.now, 1n);
    h.run('XDEL', 's', '1-0');
    expect(g.pel.size).toBe(1);
  });

  it('emits xdel and marks the key modified only when something was deleted', () => {
    h.events.length = 0;
    const touch = jest.fn();
    h.db.touch = touch;
    h.run('XDEL', 's', '9-9');
    expect(h.events).toEqual([]);
    expect(touch).not.toHaveBeenCalled();
    h.run('XDEL', 's', '1-0');
    expect(h.events).toEqual([['xdel', 's']]);
    expect(touch).toHaveBeenCalledWith('s');
  });

  describe('error cases', () => {
    it('too few arguments', () => {
      expect(h.error('XDEL', 's')).toBe("ERR wrong number of arguments for 'xdel' command");
    });

    it('a missing key replies 0 without validating the IDs', () => {
      expect(h.run('XDEL', 'nokey', 'bad')).toBe(0);
    });

    it('one invalid ID deletes nothing', () => {
      expect(h.error('XDEL', 's', '1-0', 'bad')).toBe('ERR Invalid stream ID specified as stream command argument');
      expect(h.run('XLEN', 's')).toBe(3);
    });

    it('IDs are strict: -, +, (id and ms-* are invalid', () => {
      for (const id of ['-', '+', '(1', '1-*'])
        expect(h.error('XDEL', 's', id)).toBe('ERR Invalid stream ID specified as stream command argument');
    });

    it('WRONGTYPE comes before ID validation', () => {
      h.keys.set('str', 'x');
      expect(h.error('XDEL', 'str', 'bad')).toBe('WRONGTYPE Operation against a key holding the wrong kind of value');
    });
  });
});
