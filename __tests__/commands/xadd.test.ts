import { formatId } from '../../lib/model/stream-id';
import { addGroupDirectly, fillStream, pelIds, stream } from '../helpers/cg-state';
import { Harness } from '../helpers/harness';

const MAX = '18446744073709551615';

describe('XADD', () => {
  let h: Harness;
  beforeEach(() => {
    h = new Harness();
  });

  it('adds an entry with an explicit ID and keeps field order and duplicates', () => {
    expect(h.run('XADD', 's', '1-1', 'b', '2', 'a', '1', 'b', '3')).toBe('1-1');
    expect(h.run('XRANGE', 's', '-', '+')).toEqual([['1-1', ['b', '2', 'a', '1', 'b', '3']]]);
    expect(h.run('XLEN', 's')).toBe(1);
  });

  it('generates IDs from the command time and never goes backwards', () => {
    h.now = 1000;
    expect(h.run('XADD', 's', '*', 'f', 'v')).toBe('1000-0');
    expect(h.run('XADD', 's', '*', 'f', 'v')).toBe('1000-1');
    h.now = 500;
    expect(h.run('XADD', 's', '*', 'f', 'v')).toBe('1000-2');
    h.now = 2000;
    expect(h.run('XADD', 's', '*', 'f', 'v')).toBe('2000-0');
  });

  it('auto-generates the sequence for ms-*', () => {
    expect(h.run('XADD', 's', '123-456', 'a', '1')).toBe('123-456');
    expect(h.run('XADD', 's', '123-*', 'a', '2')).toBe('123-457');
    expect(h.run('XADD', 's', '789-*', 'a', '3')).toBe('789-0');
    expect(h.error('XADD', 's', '42-*', 'a', '4')).toBe(
      'ERR The ID specified in XADD is equal or smaller than the target stream top item',
    );
  });

  it('XADD 0-* on a new key yields 0-1', () => {
    expect(h.run('XADD', 's', '0-*', 'a', 'b')).toBe('0-1');
    expect(h.run('XADD', 's', '0-*', 'a', 'b')).toBe('0-2');
  });

  it('rolls * over into the next ms after a maximal sequence in the future', () => {
    h.now = 1_700_000_000_000;
    expect(h.run('XADD', 'x', `2577343934890-${MAX}`, 'f', 'v')).toBe(`2577343934890-${MAX}`);
    expect(h.run('XADD', 'x', '*', 'f2', 'v2')).toBe('2577343934891-0');
  });

  it('parses ID parts leniently like strtoull (leading +, spaces, zeros)', () => {
    expect(h.run('XADD', 's', '+1-0', 'a', 'b')).toBe('1-0');
    expect(h.run('XADD', 's', ' 7', 'a', 'b')).toBe('7-0');
    expect(h.run('XADD', 's', '007-*', 'a', 'b')).toBe('7-1');
    expect(h.error('XADD', 's', '1--1', 'a', 'b')).toBe('ERR Invalid stream ID specified as stream command argument');
  });

  it('a bare * ends option parsing: later option words are fields', () => {
    h.now = 5000;
    expect(h.run('XADD', 's', '*', 'MAXLEN', '5', 'f', 'v')).toBe('5000-0');
    expect(h.run('XRANGE', 's', '-', '+')).toEqual([['5000-0', ['MAXLEN', '5', 'f', 'v']]]);
  });

  it('takes MAXLEN as an option only when an argument follows, and ~/= only when two follow', () => {
    // MAXLEN last → it is the ID.
    expect(h.error('XADD', 's', 'NOMKSTREAM', 'NOMKSTREAM', 'MAXLEN')).toBe(
      'ERR Invalid stream ID specified as stream command argument',
    );
    // only one argument after MAXLEN → `~` is the threshold.
    expect(h.error('XADD', 's', 'NOMKSTREAM', 'MAXLEN', '~')).toBe('ERR value is not an integer or out of range');
    // MAXLEN ~ 5 consumes everything: no ID and no fields.
    expect(h.error('XADD', 's', 'MAXLEN', '~', '5')).toBe("ERR wrong number of arguments for 'xadd' command");
    h.now = 9000;
    expect(h.run('XADD', 's', 'minid', '=', '5', '*', 'a', 'b')).toBe('9000-0');
  });

  it('NOMKSTREAM on a missing key replies nil and creates nothing', () => {
    expect(h.run('XADD', 's', 'NOMKSTREAM', '*', 'f', 'v')).toBeNull();
    expect(h.keys.has('s')).toBe(false);
    expect(h.events).toEqual([]);
    expect(h.signals).toEqual([]);
    expect(h.run('XADD', 's', 'MAXLEN', '1', 'nomkstream', '5-5', 'a', 'b')).toBeNull();
  });

  it('NOMKSTREAM on an existing key adds normally', () => {
    h.run('XADD', 's', '1-0', 'a', 'b');
    expect(h.run('XADD', 's', 'NOMKSTREAM', '2-0', 'a', 'b')).toBe('2-0');
    expect(h.run('XLEN', 's')).toBe(2);
  });

  it('XADD can CREATE an empty stream (MAXLEN 0)', () => {
    expect(h.run('XADD', 's', 'MAXLEN', '0', '1-0', 'a', 'b')).toBe('1-0');
    expect(h.keys.has('s')).toBe(true);
    expect(h.run('XLEN', 's')).toBe(0);
    const s = stream(h, 's');
    expect(formatId(s.lastId)).toBe('1-0');
    expect(formatId(s.firstId)).toBe('0-0');
    expect(formatId(s.maxDeletedEntryId)).toBe('0-0');
    expect(s.entriesAdded).toBe(1n);
  });

  it('trims exactly with MAXLEN and MINID after adding', () => {
    fillStream(h, 's', 5);
    expect(h.run('XADD', 's', 'MAXLEN', '3', '6-0', 'f', 'v')).toBe('6-0');
    expect(h.run('XRANGE', 's', '-', '+') as unknown[]).toHaveLength(3);
    expect(h.run('XADD', 's', 'MINID', '6', '7-0', 'f', 'v')).toBe('7-0');
    expect((h.run('XRANGE', 's', '-', '+') as unknown[]).map((e) => (e as string[])[0])).toEqual(['6-0', '7-0']);
    expect(formatId(stream(h, 's').firstId)).toBe('6-0');
    expect(formatId(stream(h, 's').maxDeletedEntryId)).toBe('0-0');
  });

  it('XADD with MAXLEN ~ and a tiny LIMIT removes nothing', () => {
    fillStream(h, 's', 3);
    h.run('XADD', 's', 'MAXLEN', '~', '0', 'LIMIT', '1', '*', 'x', 'v');
    expect(h.run('XLEN', 's')).toBe(4);
    h.run('XADD', 's', 'maxlen', '~', '0', 'limit', '0', '*', 'x', 'v');
    expect(h.run('XLEN', 's')).toBe(0);
  });

  it('approximate trimming removes whole 100-entry nodes only', () => {
    fillStream(h, 'u', 250);
    h.run('XADD', 'u', 'MAXLEN', '~', '120', '251-0', 'f', 'v');
    expect(h.run('XLEN', 'u')).toBe(151);
    h.run('XADD', 'u', 'MINID', '~', '240', '252-0', 'f', 'v');
    expect(h.run('XLEN', 'u')).toBe(52);
    h.run('XADD', 'u', 'MINID', '240', '253-0', 'f', 'v');
    expect(h.run('XLEN', 'u')).toBe(14);
    expect(h.run('XRANGE', 'u', '-', '+', 'COUNT', '1')).toEqual([['240-0', ['f', 'v']]]);
  });

  it('emits xadd (and xtrim when the trim removed something) and wakes readers', () => {
    h.run('XADD', 's', '1-0', 'a', 'b');
    h.run('XADD', 's', 'MAXLEN', '5', '2-0', 'a', 'b');
    h.run('XADD', 's', 'MAXLEN', '1', '3-0', 'a', 'b');
    expect(h.events).toEqual([
      ['xadd', 's'],
      ['xadd', 's'],
      ['xadd', 's'],
      ['xtrim', 's'],
    ]);
    expect(h.signals).toEqual(['s', 's', 's']);
  });

  it('cannot re-add a deleted top ID (last-generated-id survives XDEL)', () => {
    h.run('XADD', 's', '666', 'k', 'v');
    h.run('XDEL', 's', '666');
    const smaller = 'ERR The ID specified in XADD is equal or smaller than the target stream top item';
    expect(h.error('XADD', 's', '665', 'k', 'v')).toBe(smaller);
    expect(h.error('XADD', 's', '666', 'k', 'v')).toBe(smaller);
  });

  it('refuses to add once the last possible ID was used', () => {
    h.run('XADD', 's', `${MAX}-${MAX}`, 'a', 'b');
    const exhausted = 'ERR The stream has exhausted the last possible ID, unable to add more items';
    expect(h.error('XADD', 's', '*', 'c', 'd')).toBe(exhausted);
    expect(h.error('XADD', 's', '5-*', 'c', 'd')).toBe(exhausted);
  });

  it('ms-* with an exhausted sequence: "equal or smaller" (7.2+), "Elements are too large" on 7.0', () => {
    h.run('XADD', 's', `1-${MAX}`, 'a', 'b');
    expect(h.error('XADD', 's', '1-*', 'c', 'd')).toBe(
      'ERR The ID specified in XADD is equal or smaller than the target stream top item',
    );
    h.version = '7.0';
    expect(h.error('XADD', 's', '1-*', 'c', 'd')).toBe('ERR Elements are too large to be stored');
    expect(h.run('XADD', 's', '2-*', 'c', 'd')).toBe('2-0');
  });

  describe('reference policies (8.2)', () => {
    beforeEach(() => {
      fillStream(h, 's', 4);
    });

    it('KEEPREF (default) leaves PEL references of trimmed entries', () => {
      const g = addGroupDirectly(h, 's', 'g', '4-0', ['1-0', '2-0']);
      h.run('XADD', 's', 'KEEPREF', 'MAXLEN', '2', '5-0', 'f', 'v');
      expect(h.run('XLEN', 's')).toBe(2);
      expect(pelIds(g)).toEqual(['1-0', '2-0']);
    });

    it('DELREF removes trimmed IDs from every group PEL and consumer PEL', () => {
      const g1 = addGroupDirectly(h, 's', 'g1', '4-0', ['1-0', '2-0', '4-0']);
      const g2 = addGroupDirectly(h, 's', 'g2', '4-0', ['2-0']);
      h.run('XADD', 's', 'DELREF', 'MAXLEN', '2', '5-0', 'f', 'v');
      expect((h.run('XRANGE', 's', '-', '+') as string[][]).map((e) => e[0])).toEqual(['4-0', '5-0']);
      expect(pelIds(g1)).toEqual(['4-0']);
      expect(pelIds(g2)).toEqual([]);
      expect(g1.getConsumer('c')!.pel.size).toBe(1);
    });

    it('ACKED skips entries a group still needs and keeps trimming past them', () => {
      addGroupDirectly(h, 's', 'g', '5-0', ['2-0']);
      h.run('XADD', 's', 'ACKED', 'MAXLEN', '2', '5-0', 'f', 'v');
      // 2-0 is pending: skipped, and 3-0, 4-0 go instead until the length is 2.
      expect((h.run('XRANGE', 's', '-', '+') as string[][]).map((e) => e[0])).toEqual(['2-0', '5-0']);
      h.run('XADD', 's', 'ACKED', 'MINID', '6', '6-0', 'f', 'v');
      expect((h.run('XRANGE', 's', '-', '+') as string[][]).map((e) => e[0])).toEqual(['2-0', '6-0']);
    });

    it('ACKED keeps entries a group has not read yet', () => {
      addGroupDirectly(h, 's', 'g', '1-0');
      h.run('XADD', 's', 'acked', 'MAXLEN', '0', '5-0', 'f', 'v');
      expect((h.run('XRANGE', 's', '-', '+') as string[][]).map((e) => e[0])).toEqual(['2-0', '3-0', '4-0', '5-0']);
    });

    it('ACKED without groups trims like KEEPREF', () => {
      h.run('XADD', 's', 'ACKED', 'MAXLEN', '0', '5-0', 'f', 'v');
      expect(h.run('XLEN', 's')).toBe(0);
    });

    it('a second policy word is not an option (parsed as the ID)', () => {
      expect(h.error('XADD', 's', 'KEEPREF', 'DELREF', '*', 'f', 'v')).toBe(
        'ERR Invalid stream ID specified as stream command argument',
      );
    });

    it('policies are not options before 8.2', () => {
      h.version = '8.0';
      expect(h.error('XADD', 's', 'KEEPREF', '*', 'f', 'v')).toBe(
        'ERR Invalid stream ID specified as stream command argument',
      );
    });
  });

  describe('error cases', () => {
    it('too few arguments or an odd number of field/value arguments', () => {
      const arity = "ERR wrong number of arguments for 'xadd' command";
      expect(h.error('XADD', 's')).toBe(arity);
      expect(h.error('XADD', 's', '*')).toBe(arity);
      expect(h.error('XADD', 's', '*', 'field')).toBe(arity);
      expect(h.error('XADD', 's', '1-1', 'f', 'v', 'x')).toBe(arity);
      expect(h.error('XADD', 's', '1-1', 'MAXLEN')).toBe(arity);
    });

    it('rejects 0-0 before touching the key', () => {
      const zero = 'ERR The ID specified in XADD must be greater than 0-0';
      expect(h.error('XADD', 's', '0-0', 'k', 'v')).toBe(zero);
      expect(h.error('XADD', 's', '0', 'k', 'v')).toBe(zero);
      expect(h.keys.has('s')).toBe(false);
      h.keys.set('str', 'x');
      expect(h.error('XADD', 'str', '0-0', 'f', 'v')).toBe(zero);
    });

    it('WRONGTYPE after option parsing', () => {
      h.keys.set('str', 'x');
      const wrongtype = 'WRONGTYPE Operation against a key holding the wrong kind of value';
      expect(h.error('XADD', 'str', '1-1', 'f', 'v')).toBe(wrongtype);
      expect(h.error('XADD', 'str', 'NOMKSTREAM', '1-1', 'f', 'v')).toBe(wrongtype);
      expect(h.error('XADD', 'str', 'MAXLEN', 'x', '1-1', 'f', 'v')).toBe('ERR value is not an integer or out of range');
    });

    it('option errors in encounter order', () => {
      expect(h.error('XADD', 's', 'MAXLEN', 'f', 'v')).toBe('ERR value is not an integer or out of range');
      expect(h.error('XADD', 's', 'MAXLEN', '5', 'f', 'v')).toBe(
        'ERR Invalid stream ID specified as stream command argument',
      );
      expect(h.error('XADD', 's', 'MAXLEN', '-1', '*', 'f', 'v')).toBe('ERR The MAXLEN argument must be >= 0.');
      expect(h.error('XADD', 's', 'MAXLEN', '1', 'MINID', '1', '*', 'f', 'v')).toBe(
        'ERR syntax error, MAXLEN and MINID options at the same time are not compatible',
      );
      expect(h.error('XADD', 's', 'MINID', 'x', '*', 'f', 'v')).toBe(
        'ERR Invalid stream ID specified as stream command argument',
      );
      expect(h.error('XADD', 's', 'MINID', '-', '*', 'f', 'v')).toBe(
        'ERR Invalid stream ID specified as stream command argument',
      );
      expect(h.error('XADD', 's', 'LIMIT', '*', 'f', 'v')).toBe('ERR value is not an integer or out of range');
      expect(h.error('XADD', 's', 'MAXLEN', '~', '1', 'LIMIT', '-1', '*', 'f', 'v')).toBe(
        'ERR The LIMIT argument must be >= 0.',
      );
      expect(h.error('XADD', 's', 'foo', 'f', 'v')).toBe('ERR Invalid stream ID specified as stream command argument');
      expect(h.error('XADD', 's', '*-1', 'f', 'v')).toBe('ERR Invalid stream ID specified as stream command argument');
      expect(h.error('XADD', 's', `1${MAX}`, 'f', 'v')).toBe('ERR Invalid stream ID specified as stream command argument');
    });

    it('LIMIT needs a strategy and the ~ operator', () => {
      expect(h.error('XADD', 's', 'LIMIT', '5', '*', 'f', 'v')).toBe(
        'ERR syntax error, LIMIT cannot be used without specifying a trimming strategy',
      );
      expect(h.error('XADD', 's', 'LIMIT', '0', '*', 'f', 'v')).toBe(
        'ERR syntax error, LIMIT cannot be used without the special ~ option',
      );
      expect(h.error('XADD', 's', 'MAXLEN', '1', 'LIMIT', '5', '*', 'f', 'v')).toBe(
        'ERR syntax error, LIMIT cannot be used without the special ~ option',
      );
      expect(h.keys.has('s')).toBe(false);
    });

    it('IDMP is an invalid ID before 8.6 (idempotent XADD: xadd-idmp.test.ts)', () => {
      h.version = '8.4';
      expect(h.error('XADD', 's', 'IDMP', 'p', 'i', '*', 'f', 'v')).toBe(
        'ERR Invalid stream ID specified as stream command argument',
      );
    });
  });
});
