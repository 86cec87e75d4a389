import { formatId } from '../../lib/model/stream-id';
import { addGroupDirectly, fillStream, stream } from '../helpers/cg-state';
import { Harness } from '../helpers/harness';

function ids(h: Harness, key: string): string[] {
  return (h.run('XRANGE', key, '-', '+') as string[][]).map((e) => e[0]);
}

describe('XTRIM', () => {
  let h: Harness;
  beforeEach(() => {
    h = new Harness();
  });

  it('trims to MAXLEN exactly and replies the number removed', () => {
    fillStream(h, 's', 5);
    expect(h.run('XTRIM', 's', 'MAXLEN', '2')).toBe(3);
    expect(ids(h, 's')).toEqual(['4-0', '5-0']);
    expect(h.run('XTRIM', 's', 'MAXLEN', '=', '2')).toBe(0);
  });

  it('MINID removes every entry with a smaller ID', () => {
    fillStream(h, 's', 5);
    expect(h.run('XTRIM', 's', 'MINID', '3')).toBe(2);
    expect(ids(h, 's')).toEqual(['3-0', '4-0', '5-0']);
    expect(h.run('XTRIM', 's', 'minid', '=', '3-1')).toBe(1);
  });

  it('replies 0 for a missing key', () => {
    expect(h.run('XTRIM', 's', 'MAXLEN', '1')).toBe(0);
    expect(h.keys.has('s')).toBe(false);
  });

  it('keeps the key, last-generated-id and max-deleted-entry-id; moves the first ID', () => {
    fillStream(h, 's', 3);
    h.run('XTRIM', 's', 'MAXLEN', '1');
    const s = stream(h, 's');
    expect(formatId(s.firstId)).toBe('3-0');
    h.run('XTRIM', 's', 'MAXLEN', '0');
    expect(h.keys.has('s')).toBe(true);
    expect(formatId(s.firstId)).toBe('0-0');
    expect(formatId(s.lastId)).toBe('3-0');
    expect(formatId(s.maxDeletedEntryId)).toBe('0-0');
    expect(s.entriesAdded).toBe(3n);
  });

  it('approximate trimming removes only whole nodes', () => {
    fillStream(h, 's', 250);
    expect(h.run('XTRIM', 's', 'MAXLEN', '~', '120')).toBe(100);
    expect(h.run('XLEN', 's')).toBe(150);
    expect(h.run('XTRIM', 's', 'MAXLEN', '~', '100', 'LIMIT', '100')).toBe(0);
    expect(h.run('XRANGE', 's', '-', '+', 'COUNT', '1')).toEqual([['101-0', ['f', 'v']]]);
  });

  it('approximate MINID stops at the first node holding an ID >= the threshold', () => {
    fillStream(h, 's', 250);
    expect(h.run('XTRIM', 's', 'MINID', '~', '150')).toBe(100);
    expect(h.run('XTRIM', 's', 'MINID', '~', '201')).toBe(100);
    expect(h.run('XTRIM', 's', 'MINID', '201')).toBe(0);
    expect(h.run('XLEN', 's')).toBe(50);
  });

  it('LIMIT counts live entries of each node; 0 means unlimited', () => {
    fillStream(h, 's', 250);
    h.run('XDEL', 's', '1-0', '2-0', '3-0');
    expect(h.run('XTRIM', 's', 'MAXLEN', '~', '150', 'LIMIT', '96')).toBe(0);
    expect(h.run('XTRIM', 's', 'MAXLEN', '~', '150', 'LIMIT', '97')).toBe(97);
    expect(h.run('XTRIM', 's', 'MAXLEN', '~', '0', 'LIMIT', '0')).toBe(150);
  });

  it('approximate trimming without LIMIT does at most 10000 entries of work', () => {
    fillStream(h, 's', 10_250);
    expect(h.run('XTRIM', 's', 'MAXLEN', '~', '0')).toBe(10_000);
    expect(h.run('XLEN', 's')).toBe(250);
  });

  it('emits xtrim and marks the key modified only when something was removed', () => {
    fillStream(h, 's', 3);
    h.events.length = 0;
    const touch = jest.fn();
    h.db.touch = touch;
    h.run('XTRIM', 's', 'MAXLEN', '5');
    expect(h.events).toEqual([]);
    expect(touch).not.toHaveBeenCalled();
    h.run('XTRIM', 's', 'MAXLEN', '0');
    expect(h.events).toEqual([['xtrim', 's']]);
    expect(touch).toHaveBeenCalledWith('s');
    expect(h.signals).toEqual(['s', 's', 's']); // from the XADDs only: XTRIM wakes no reader
  });

  describe('reference policies (8.2)', () => {
    it('KEEPREF leaves dangling PEL references', () => {
      fillStream(h, 's', 3);
      const g = addGroupDirectly(h, 's', 'g', '3-0', ['1-0']);
      expect(h.run('XTRIM', 's', 'MAXLEN', '0', 'KEEPREF')).toBe(3);
      expect(g.pel.size).toBe(1);
    });

    it('DELREF removes the trimmed IDs from every group and consumer PEL', () => {
      fillStream(h, 's', 3);
      const g1 = addGroupDirectly(h, 's', 'g1', '3-0', ['1-0', '3-0']);
      const g2 = addGroupDirectly(h, 's', 'g2', '3-0', ['2-0']);
      expect(h.run('XTRIM', 's', 'MAXLEN', '1', 'DELREF')).toBe(2);
      expect(g1.pel.keysArray().map(formatId)).toEqual(['3-0']);
      expect(g1.getConsumer('c')!.pel.size).toBe(1);
      expect(g2.pel.size).toBe(0);
    });

    it('ACKED only trims entries every group has read and acknowledged', () => {
      fillStream(h, 's', 5);
      addGroupDirectly(h, 's', 'g1', '5-0', ['2-0']);
      addGroupDirectly(h, 's', 'g2', '4-0');
      expect(h.run('XTRIM', 's', 'MINID', '6', 'ACKED')).toBe(3);
      expect(ids(h, 's')).toEqual(['2-0', '5-0']);
    });

    it('with DELREF/ACKED, ~ no longer stops at node boundaries', () => {
      fillStream(h, 's', 250);
      addGroupDirectly(h, 's', 'g', '250-0', ['50-0']);
      // node 1 is within the limit: 99 removed (50-0 skipped); node 2 is trimmed entry by entry.
      expect(h.run('XTRIM', 's', 'MAXLEN', '~', '120', 'ACKED')).toBe(130);
      expect(h.run('XLEN', 's')).toBe(120);
      expect(h.run('XRANGE', 's', '-', '+', 'COUNT', '2')).toEqual([
        ['50-0', ['f', 'v']],
        ['132-0', ['f', 'v']],
      ]);
    });

    it('with DELREF/ACKED the LIMIT work budget still applies per node', () => {
      fillStream(h, 's', 250);
      const g = addGroupDirectly(h, 's', 'g', '250-0', ['10-0', '150-0']);
      expect(h.run('XTRIM', 's', 'MAXLEN', '~', '0', 'LIMIT', '150', 'DELREF')).toBe(100);
      expect(g.pel.keysArray().map(formatId)).toEqual(['150-0']);
      expect(h.run('XRANGE', 's', '-', '+', 'COUNT', '1')).toEqual([['101-0', ['f', 'v']]]);
    });

    it('ACKED without consumer groups trims like KEEPREF', () => {
      fillStream(h, 's', 4);
      expect(h.run('XTRIM', 's', 'MAXLEN', '1', 'ACKED')).toBe(3);
    });
  });

  describe('error cases', () => {
    it('too few arguments', () => {
      expect(h.error('XTRIM', 's')).toBe("ERR wrong number of arguments for 'xtrim' command");
      expect(h.error('XTRIM', 's', 'MAXLEN')).toBe("ERR wrong number of arguments for 'xtrim' command");
    });

    it('unknown tokens and XADD-only options are syntax errors', () => {
      expect(h.error('XTRIM', 's', 'foo', '1')).toBe('ERR syntax error');
      expect(h.error('XTRIM', 's', 'NOMKSTREAM', 'MAXLEN', '1')).toBe('ERR syntax error');
      expect(h.error('XTRIM', 's', 'MAXLEN', '~', '1', 'LIMIT', '30', 'foo')).toBe('ERR syntax error');
      expect(h.error('XTRIM', 's', 'MAXLEN', '1', 'LIMIT')).toBe('ERR syntax error');
      expect(h.error('XTRIM', 's', 'MAXLEN', '1', 'KEEPREF', 'ACKED')).toBe('ERR syntax error');
    });

    it('KEEPREF/DELREF/ACKED are syntax errors before 8.2', () => {
      h.version = '7.0';
      expect(h.error('XTRIM', 's', 'MAXLEN', '1', 'KEEPREF')).toBe('ERR syntax error');
    });

    it('strategy and LIMIT errors', () => {
      expect(h.error('XTRIM', 's', 'MAXLEN', '1', 'LIMIT', '30')).toBe(
        'ERR syntax error, LIMIT cannot be used without the special ~ option',
      );
      expect(h.error('XTRIM', 's', 'LIMIT', '1')).toBe(
        'ERR syntax error, LIMIT cannot be used without specifying a trimming strategy',
      );
      expect(h.error('XTRIM', 's', 'LIMIT', '0')).toBe('ERR syntax error, XTRIM must be called with a trimming strategy');
      expect(h.error('XTRIM', 's', 'MAXLEN', '1', 'MINID', '1')).toBe(
        'ERR syntax error, MAXLEN and MINID options at the same time are not compatible',
      );
      expect(h.error('XTRIM', 's', 'MAXLEN', '1', 'MAXLEN', '2')).toBe(
        'ERR syntax error, MAXLEN and MINID options at the same time are not compatible',
      );
      expect(h.error('XTRIM', 's', 'MAXLEN', '-1')).toBe('ERR The MAXLEN argument must be >= 0.');
      expect(h.error('XTRIM', 's', 'MAXLEN', '~')).toBe('ERR value is not an integer or out of range');
      expect(h.error('XTRIM', 's', 'LIMIT', 'x', 'MAXLEN', '1')).toBe('ERR value is not an integer or out of range');
      expect(h.error('XTRIM', 's', 'MINID', '(1')).toBe('ERR Invalid stream ID specified as stream command argument');
      expect(h.error('XTRIM', 's', 'MINID', '=')).toBe('ERR Invalid stream ID specified as stream command argument');
    });

    it('WRONGTYPE only after the arguments parsed', () => {
      h.keys.set('str', 'x');
      expect(h.error('XTRIM', 'str', 'MAXLEN', '1')).toBe(
        'WRONGTYPE Operation against a key holding the wrong kind of value',
      );
      expect(h.error('XTRIM', 'str', 'MAXLEN', 'x')).toBe('ERR value is not an integer or out of range');
    });
  });
});
