import { formatId } from '../../lib/model/stream-id';
import { addGroupDirectly, pelIds, stream } from '../helpers/cg-state';
import { Harness } from '../helpers/harness';

describe('XDELEX', () => {
  let h: Harness;
  beforeEach(() => {
    h = new Harness();
    for (let i = 1; i <= 5; i++) h.run('XADD', 's', `${i}-0`, 'f', `v${i}`);
    h.events.length = 0;
  });

  it('replies one code per ID: 1 deleted, -1 not in the stream', () => {
    expect(h.run('XDELEX', 's', 'IDS', '3', '2-0', '9-9', '2-0')).toEqual([1, -1, -1]);
    expect(h.run('XLEN', 's')).toBe(4);
  });

  it('a missing key replies -1 for every ID without validating them', () => {
    expect(h.run('XDELEX', 'nokey', 'IDS', '2', 'bad', '1-1')).toEqual([-1, -1]);
    expect(h.keys.has('nokey')).toBe(false);
  });

  it('deletes like XDEL: max-deleted-entry-id, first ID, xdel event', () => {
    const touch = jest.fn();
    h.db.touch = touch;
    expect(h.run('XDELEX', 's', 'KEEPREF', 'IDS', '2', '1-0', '3-0')).toEqual([1, 1]);
    const s = stream(h, 's');
    expect(formatId(s.maxDeletedEntryId)).toBe('3-0');
    expect(formatId(s.firstId)).toBe('2-0');
    expect(h.events).toEqual([['xdel', 's']]);
    expect(touch).toHaveBeenCalledWith('s');
    h.events.length = 0;
    touch.mockClear();
    expect(h.run('XDELEX', 's', 'IDS', '1', '1-0')).toEqual([-1]);
    expect(h.events).toEqual([]);
    expect(touch).not.toHaveBeenCalled();
  });

  it('XDELEX with KEEPREF leaves PEL references in every group', () => {
    const g1 = addGroupDirectly(h, 's', 'g1', '5-0', ['1-0', '2-0']);
    const g2 = addGroupDirectly(h, 's', 'g2', '5-0', ['1-0']);
    expect(h.run('XDELEX', 's', 'IDS', '2', '1-0', '2-0')).toEqual([1, 1]);
    expect(pelIds(g1)).toEqual(['1-0', '2-0']);
    expect(pelIds(g2)).toEqual(['1-0']);
  });

  it('XDELEX with DELREF option removes the entry from all PELs', () => {
    const g1 = addGroupDirectly(h, 's', 'g1', '5-0', ['1-0', '2-0']);
    const g2 = addGroupDirectly(h, 's', 'g2', '5-0', ['1-0', '4-0']);
    expect(h.run('XDELEX', 's', 'DELREF', 'IDS', '2', '1-0', '2-0')).toEqual([1, 1]);
    expect(pelIds(g1)).toEqual([]);
    expect(pelIds(g2)).toEqual(['4-0']);
    expect(g1.getConsumer('c')!.pel.size).toBe(0);
  });

  it('DELREF removes dangling references of an entry already gone, replying -1', () => {
    const g = addGroupDirectly(h, 's', 'g', '5-0', ['2-0']);
    h.run('XDEL', 's', '2-0');
    expect(h.run('XDELEX', 's', 'DELREF', 'IDS', '1', '2-0')).toEqual([-1]);
    expect(pelIds(g)).toEqual([]);
  });

  it('XDELEX with ACKED option only deletes messages acknowledged by all groups', () => {
    addGroupDirectly(h, 's', 'g1', '5-0', ['2-0']);
    addGroupDirectly(h, 's', 'g2', '5-0');
    expect(h.run('XDELEX', 's', 'ACKED', 'IDS', '3', '1-0', '2-0', '9-9')).toEqual([1, 2, 2]);
    expect(h.run('XLEN', 's')).toBe(4);
  });

  it('ACKED: an entry a group has not read yet is still referenced', () => {
    addGroupDirectly(h, 's', 'group1', '1-0');
    addGroupDirectly(h, 's', 'group2', '3-0');
    expect(h.run('XDELEX', 's', 'ACKED', 'IDS', '1', '1-0')).toEqual([1]);
    expect(h.run('XDELEX', 's', 'ACKED', 'IDS', '1', '2-0')).toEqual([2]);
    stream(h, 's').groups.delete('group1'); // XGROUP DESTROY s group1
    expect(h.run('XDELEX', 's', 'ACKED', 'IDS', '1', '2-0')).toEqual([1]);
  });

  it('ACKED after the group holding the references is destroyed', () => {
    addGroupDirectly(h, 's', 'mygroup', '5-0', ['1-0', '2-0', '3-0', '4-0', '5-0']);
    const all = ['IDS', '5', '1-0', '2-0', '3-0', '4-0', '5-0'];
    expect(h.run('XDELEX', 's', 'ACKED', ...all)).toEqual([2, 2, 2, 2, 2]);
    stream(h, 's').groups.delete('mygroup');
    expect(h.run('XDELEX', 's', 'ACKED', ...all)).toEqual([1, 1, 1, 1, 1]);
    expect(h.run('XLEN', 's')).toBe(0);
  });

  it('ACKED without consumer groups deletes like KEEPREF', () => {
    expect(h.run('XDELEX', 's', 'ACKED', 'IDS', '2', '1-0', '9-9')).toEqual([1, -1]);
  });

  it('the IDS block may come before the policy; a later IDS block replaces an earlier one', () => {
    addGroupDirectly(h, 's', 'g', '5-0', ['1-0']);
    expect(h.run('XDELEX', 's', 'IDS', '1', '1-0', 'acked')).toEqual([2]);
    expect(h.run('XDELEX', 's', 'IDS', '1', '1-0', 'IDS', '1', '2-0')).toEqual([1]);
    expect(h.run('XLEN', 's')).toBe(4);
  });

  describe('error cases', () => {
    it('too few arguments', () => {
      expect(h.error('XDELEX', 's', 'IDS', '1')).toBe("ERR wrong number of arguments for 'xdelex' command");
    });

    it('numids must be a positive integer matching the IDs given', () => {
      expect(h.error('XDELEX', 's', 'IDS', '0', '1-1')).toBe('ERR Number of IDs must be a positive integer');
      expect(h.error('XDELEX', 's', 'IDS', '-1', '1-1')).toBe('ERR Number of IDs must be a positive integer');
      expect(h.error('XDELEX', 's', 'IDS', 'x', '1-1')).toBe('ERR Number of IDs must be a positive integer');
      expect(h.error('XDELEX', 's', 'IDS', '3', '1-1', '2-2')).toBe(
        'ERR The `numids` parameter must match the number of arguments',
      );
      expect(h.error('XDELEX', 's', 'IDS', '1', '1-1', '2-2')).toBe('ERR syntax error');
    });

    it('one policy word at most; unknown tokens are syntax errors', () => {
      expect(h.error('XDELEX', 's', 'KEEPREF', 'DELREF', 'IDS', '1', '1-1')).toBe('ERR syntax error');
      expect(h.error('XDELEX', 's', 'FOO', 'IDS', '1', '1-1')).toBe('ERR syntax error');
      expect(h.error('XDELEX', 's', 'IDS', '1', '1-1', 'IDS')).toBe('ERR syntax error');
    });

    it('IDs are strict and validated before any deletion', () => {
      expect(h.error('XDELEX', 's', 'IDS', '2', '1-0', '-')).toBe(
        'ERR Invalid stream ID specified as stream command argument',
      );
      expect(h.run('XLEN', 's')).toBe(5);
    });

    it('WRONGTYPE comes before the argument checks', () => {
      h.keys.set('str', 'x');
      expect(h.error('XDELEX', 'str', 'IDS', '0', '1-1')).toBe(
        'WRONGTYPE Operation against a key holding the wrong kind of value',
      );
    });

    it('does not exist before 8.2', () => {
      h.version = '8.0';
      expect(h.error('XDELEX', 's', 'IDS', '1', '1-0')).toBe(
        "ERR unknown command 'XDELEX', with args beginning with: 's' 'IDS' '1' '1-0' ",
      );
    });
  });
});
