import { Harness } from '../helpers/harness';
import { asMap, group, readNew, stream, xadd } from '../helpers/cg-state';

const KEY_NOT_FOUND =
  'ERR The XGROUP subcommand requires the key to exist. Note that for CREATE you may want to use the MKSTREAM option to create an empty stream automatically.';
const INVALID_ID = 'ERR Invalid stream ID specified as stream command argument';

function groups(h: Harness, key = 's'): Record<string, unknown>[] {
  return (h.run('XINFO', 'GROUPS', key) as unknown[]).map(asMap);
}

describe('XGROUP', () => {
  let h: Harness;
  beforeEach(() => {
    h = new Harness();
  });

  describe('CREATE', () => {
    it('creation and duplicate group name detection', () => {
      xadd(h, 's', '1-0');
      expect(h.run('XGROUP', 'CREATE', 's', 'g', '$')).toBe('OK');
      expect(h.error('XGROUP', 'CREATE', 's', 'g', '$')).toBe('BUSYGROUP Consumer Group name already exists');
      expect(h.error('XGROUP', 'CREATE', 's', 'g', '0', 'MKSTREAM')).toBe('BUSYGROUP Consumer Group name already exists');
    });

    it('automatic stream creation fails without MKSTREAM', () => {
      expect(h.error('XGROUP', 'CREATE', 's', 'g', '$')).toBe(KEY_NOT_FOUND);
      expect(h.keys.has('s')).toBe(false);
    });

    it('automatic stream creation works with MKSTREAM ($ is 0-0 on the new stream)', () => {
      expect(h.run('XGROUP', 'CREATE', 's', 'g', '$', 'mkstream')).toBe('OK');
      expect(stream(h).length).toBe(0);
      expect(groups(h)).toEqual([
        { name: 'g', consumers: 0, pending: 0, 'last-delivered-id': '0-0', 'entries-read': null, lag: 0n },
      ]);
      expect(h.signals).toEqual(['s']);
      expect(h.events).toEqual([['xgroup-create', 's']]);
    });

    it('MKSTREAM on an existing stream just creates the group', () => {
      xadd(h, 's', '5-0');
      h.signals.length = 0;
      h.run('XGROUP', 'CREATE', 's', 'g', '$', 'MKSTREAM');
      expect(group(h).lastId).toEqual({ ms: 5n, seq: 0n });
      expect(h.signals).toEqual([]);
    });

    it('$ is the last-generated-id, even when that entry was deleted', () => {
      xadd(h, 's', '1-0', '2-0');
      h.run('XDEL', 's', '2-0');
      h.run('XGROUP', 'CREATE', 's', 'g', '$');
      expect(groups(h)[0]['last-delivered-id']).toBe('2-0');
    });

    it('takes any strict ID, also past the last entry', () => {
      xadd(h, 's', '1-0');
      h.run('XGROUP', 'CREATE', 's', 'g1', '7');
      h.run('XGROUP', 'CREATE', 's', 'g2', '0');
      h.run('XGROUP', 'CREATE', 's', 'g3', '18446744073709551615-18446744073709551615');
      expect(groups(h).map((g) => g['last-delivered-id'])).toEqual([
        '7-0',
        '0-0',
        '18446744073709551615-18446744073709551615',
      ]);
    });

    it('with ENTRIESREAD parameter', () => {
      xadd(h, 's', '1-1', '1-2', '1-3', '1-4');
      expect(h.error('XGROUP', 'CREATE', 's', 'g', '$', 'ENTRIESREAD', -3)).toBe('ERR value for ENTRIESREAD must be positive or -1');
      h.run('XGROUP', 'CREATE', 's', 'g1', '$', 'ENTRIESREAD', 0);
      h.run('XGROUP', 'CREATE', 's', 'g2', '$', 'ENTRIESREAD', 3);
      h.run('XGROUP', 'CREATE', 's', 'g3', '$', 'ENTRIESREAD', -1);
      expect(groups(h).map((g) => [g['entries-read'], g.lag])).toEqual([
        [0n, 4n],
        [3n, 1n],
        [null, 0n],
      ]);
    });

    it('ENTRIESREAD larger than entries-added is capped (8.x)', () => {
      xadd(h, 's', '1-0', '2-0', '3-0');
      h.run('XGROUP', 'CREATE', 's', 'g', '$', 'ENTRIESREAD', 100);
      expect(groups(h)[0]).toMatchObject({ 'entries-read': 3n, lag: 0n });
      h.run('XGROUP', 'CREATE', 'new', 'g', '$', 'MKSTREAM', 'ENTRIESREAD', 5);
      expect(groups(h, 'new')[0]).toMatchObject({ 'entries-read': 0n, lag: 0n });
    });

    it('7.0 stores ENTRIESREAD as given, so the lag can be negative', () => {
      // redis-server 7.0.15: entries-read 100, lag -97; a new MKSTREAM stream: 5 and lag 0.
      h.version = '7.0';
      xadd(h, 's', '1-0', '2-0', '3-0');
      h.run('XGROUP', 'CREATE', 's', 'g', '$', 'ENTRIESREAD', 100);
      expect(groups(h)[0]).toMatchObject({ 'entries-read': 100n, lag: -97n });
      h.run('XGROUP', 'CREATE', 'new', 'g', '$', 'MKSTREAM', 'ENTRIESREAD', 5);
      expect(groups(h, 'new')[0]).toMatchObject({ 'entries-read': 5n, lag: 0n });
    });

    it('accepts the options in any order, repeated, up to 8 arguments', () => {
      expect(h.run('XGROUP', 'CREATE', 's', 'g', '5', 'MKSTREAM', 'mkstream', 'MkStream')).toBe('OK');
      expect(h.run('XGROUP', 'CREATE', 's', 'g2', '$', 'ENTRIESREAD', 0, 'MKSTREAM')).toBe('OK');
      expect(groups(h).map((g) => [g.name, g['last-delivered-id']])).toEqual([
        ['g', '5-0'],
        ['g2', '0-0'],
      ]);
    });

    it('a bad ID with MKSTREAM does not create the key', () => {
      expect(h.error('XGROUP', 'CREATE', 's', 'g', 'bad', 'MKSTREAM')).toBe(INVALID_ID);
      expect(h.keys.has('s')).toBe(false);
    });

    it('more than 8 arguments is an error even after MKSTREAM, and creates nothing', () => {
      expect(h.error('XGROUP', 'CREATE', 's', 'g', '5', 'MKSTREAM', 'MKSTREAM', 'MKSTREAM', 'MKSTREAM')).toBe(
        "ERR unknown subcommand or wrong number of arguments for 'CREATE'. Try XGROUP HELP.",
      );
      expect(h.keys.has('s')).toBe(false);
    });
  });

  describe('SETID', () => {
    beforeEach(() => {
      xadd(h, 's', '1-0', '2-0', '3-0');
      h.run('XGROUP', 'CREATE', 's', 'g', '0', 'ENTRIESREAD', 1);
      h.events.length = 0;
    });

    it('moves the group; entries-read becomes unknown without ENTRIESREAD', () => {
      expect(h.run('XGROUP', 'SETID', 's', 'g', '-')).toBe('OK');
      expect(groups(h)[0]).toMatchObject({ 'last-delivered-id': '0-0', 'entries-read': null, lag: 3n });
      expect(h.events).toEqual([['xgroup-setid', 's']]);
    });

    it('takes - and + (non-strict) and $', () => {
      h.run('XGROUP', 'SETID', 's', 'g', '+');
      expect(groups(h)[0]).toMatchObject({
        'last-delivered-id': '18446744073709551615-18446744073709551615',
        'entries-read': null,
        lag: null,
      });
      h.run('XGROUP', 'SETID', 's', 'g', '$', 'ENTRIESREAD', 3);
      expect(groups(h)[0]).toMatchObject({ 'last-delivered-id': '3-0', 'entries-read': 3n, lag: 0n });
      h.run('XGROUP', 'SETID', 's', 'g', '99');
      expect(groups(h)[0]).toMatchObject({ 'last-delivered-id': '99-0', 'entries-read': null, lag: null });
    });

    it('with ENTRIESREAD larger than stream entries should cap the value', () => {
      h.run('XGROUP', 'SETID', 's', 'g', '$', 'ENTRIESREAD', 9999);
      expect(groups(h)[0]).toMatchObject({ 'entries-read': 3n, lag: 0n });
      h.version = '7.0';
      h.run('XGROUP', 'SETID', 's', 'g', '2', 'ENTRIESREAD', 100);
      expect(groups(h)[0]).toMatchObject({ 'entries-read': 100n, lag: -97n });
    });

    it('PEL NACK reassignment after XGROUP SETID event', () => {
      h.run('XGROUP', 'SETID', 's', 'g', '2-0');
      expect(readNew(h, 's', 'g', 'c1')).toEqual(['3-0']);
      h.run('XGROUP', 'SETID', 's', 'g', '-');
      expect(readNew(h, 's', 'g', 'c2')).toEqual(['1-0', '2-0', '3-0']);
      expect(h.run('XPENDING', 's', 'g')).toEqual([3, '1-0', '3-0', [['c2', '3']]]);
    });

    it('takes 5 or 7 arguments and no MKSTREAM', () => {
      const syntax = "ERR unknown subcommand or wrong number of arguments for 'setid'. Try XGROUP HELP.";
      expect(h.error('xgroup', 'setid', 's', 'g', '0', 'mkstream')).toBe(syntax);
      expect(h.error('xgroup', 'setid', 's', 'g', '0', 'entriesread')).toBe(syntax);
      expect(h.error('xgroup', 'setid', 's', 'g', '0', 'entriesread', 1, 'foo')).toBe(syntax);
      expect(h.error('xgroup', 'setid', 's', 'g', '0', 'entriesread', 1, 'entriesread', 2)).toBe(syntax);
      // The group check comes first (redis-server 7.0.15).
      expect(h.error('xgroup', 'setid', 's', 'nog', '0', 'entriesread', 1, 'entriesread', 2)).toBe(
        "NOGROUP No such consumer group 'nog' for key name 's'",
      );
    });

    it('checks the ID after the key and group; `(` is not accepted', () => {
      expect(h.error('XGROUP', 'SETID', 's', 'g', 'bad')).toBe(INVALID_ID);
      expect(h.error('XGROUP', 'SETID', 's', 'g', '(1')).toBe(INVALID_ID);
      expect(h.error('XGROUP', 'SETID', 'nokey', 'g', 'bad')).toBe(KEY_NOT_FOUND);
      expect(h.error('XGROUP', 'SETID', 's', 'nog', 'bad')).toBe("NOGROUP No such consumer group 'nog' for key name 's'");
    });
  });

  describe('DESTROY', () => {
    it('removes the group and wakes readers blocked on the key', () => {
      xadd(h, 's', '1-0');
      h.run('XGROUP', 'CREATE', 's', 'g', '0');
      readNew(h, 's', 'g', 'c1');
      h.events.length = 0;
      h.signals.length = 0;
      expect(h.run('XGROUP', 'DESTROY', 's', 'g')).toBe(1);
      expect(stream(h).groups.size).toBe(0);
      expect(h.signals).toEqual(['s']);
      expect(h.events).toEqual([['xgroup-destroy', 's']]);
      expect(h.run('XGROUP', 'DESTROY', 's', 'g')).toBe(0);
      expect(h.signals).toEqual(['s']);
      expect(h.events).toEqual([['xgroup-destroy', 's']]);
    });

    it('XGROUP DESTROY removes released entries with the group (8.8)', () => {
      xadd(h, 's', '1-0', '2-0');
      h.run('XGROUP', 'CREATE', 's', 'g', '0');
      readNew(h, 's', 'g', 'c1');
      h.run('XNACK', 's', 'g', 'FAIL', 'IDS', 2, '1-0', '2-0');
      expect((h.run('XPENDING', 's', 'g') as unknown[])[0]).toBe(2);
      h.run('XGROUP', 'DESTROY', 's', 'g');
      h.run('XGROUP', 'CREATE', 's', 'g2', '0');
      expect(h.run('XPENDING', 's', 'g2')).toEqual([0, null, null, null]);
    });
  });

  describe('CREATECONSUMER', () => {
    it('creates the consumer once: seen-time now, never active', () => {
      xadd(h, 's', '1-0');
      h.run('XGROUP', 'CREATE', 's', 'g', '0');
      h.events.length = 0;
      expect(h.run('XGROUP', 'CREATECONSUMER', 's', 'g', 'Alice')).toBe(1);
      h.now += 100;
      expect(h.run('XGROUP', 'CREATECONSUMER', 's', 'g', 'Alice')).toBe(0);
      expect(h.events).toEqual([['xgroup-createconsumer', 's']]);
      const c = group(h).getConsumer('Alice');
      expect([c?.seenTime, c?.activeTime]).toEqual([h.now - 100, -1]);
      expect(h.run('XINFO', 'CONSUMERS', 's', 'g')).toEqual([['name', 'Alice', 'pending', 0, 'idle', 100, 'inactive', -1]]);
    });

    it('consumer names are binary-safe and case-sensitive', () => {
      xadd(h, 's', '1-0');
      h.run('XGROUP', 'CREATE', 's', 'g', '0');
      expect(h.run('XGROUP', 'CREATECONSUMER', 's', 'g', 'a')).toBe(1);
      expect(h.run('XGROUP', 'CREATECONSUMER', 's', 'g', 'A')).toBe(1);
      expect(h.run('XGROUP', 'CREATECONSUMER', 's', 'g', '\x00\xff')).toBe(1);
      expect(group(h).sortedConsumers().map((c) => c.name)).toEqual(['A', 'a', '\x00\xff'].sort());
    });
  });

  describe('DELCONSUMER', () => {
    beforeEach(() => {
      xadd(h, 's', '1-0', '2-0', '3-0');
      h.run('XGROUP', 'CREATE', 's', 'g', '0');
      readNew(h, 's', 'g', 'c1', 2);
      readNew(h, 's', 'g', 'c2');
      h.events.length = 0;
    });

    it('deletes the consumer and its pending entries, returning how many it had', () => {
      expect(h.run('XGROUP', 'DELCONSUMER', 's', 'g', 'c1')).toBe(2);
      expect(h.run('XPENDING', 's', 'g')).toEqual([1, '3-0', '3-0', [['c2', '1']]]);
      expect(group(h).getConsumer('c1')).toBeUndefined();
      expect(h.events).toEqual([['xgroup-delconsumer', 's']]);
    });

    it('an unknown consumer answers 0 and emits nothing', () => {
      expect(h.run('XGROUP', 'DELCONSUMER', 's', 'g', 'nobody')).toBe(0);
      expect(h.events).toEqual([]);
    });

    it('XGROUP DELCONSUMER works when group PEL has NACKed entries (8.8)', () => {
      h.run('XNACK', 's', 'g', 'FAIL', 'IDS', 1, '1-0');
      expect(h.run('XGROUP', 'DELCONSUMER', 's', 'g', 'c1')).toBe(1);
      expect(h.run('XPENDING', 's', 'g', '-', '+', 10)).toEqual([
        ['1-0', '', -1, 1n],
        ['3-0', 'c2', 0, 1n],
      ]);
    });
  });

  describe('HELP', () => {
    const lines = [
      'XGROUP <subcommand> [<arg> [value] [opt] ...]. Subcommands are:',
      'CREATE <key> <groupname> <id|$> [option]',
      '    Create a new consumer group. Options are:',
      '    * MKSTREAM',
      '      Create the empty stream if it does not exist.',
      '    * ENTRIESREAD entries_read',
      "      Set the group's entries_read counter (internal use).",
      'CREATECONSUMER <key> <groupname> <consumer>',
      '    Create a new consumer in the specified group.',
      'DELCONSUMER <key> <groupname> <consumer>',
      '    Remove the specified consumer.',
      'DESTROY <key> <groupname>',
      '    Remove the specified group.',
      'SETID <key> <groupname> <id|$> [ENTRIESREAD entries_read]',
      '    Set the current group ID and entries_read counter.',
      'HELP',
    ];

    it('prints the help lines of redis-server 7.0.15', () => {
      h.version = '7.0';
      expect(h.run('XGROUP', 'HeLp')).toEqual([...lines, '    Prints this help.']);
    });

    it('prints "Print this help." from 7.2', () => {
      expect(h.run('XGROUP', 'HELP')).toEqual([...lines, '    Print this help.']);
      h.version = '7.2';
      expect(h.run('XGROUP', 'HELP')).toEqual([...lines, '    Print this help.']);
    });
  });

  it('only the MKSTREAM creation dirties WATCH (as on redis-server 7.0.15)', () => {
    const touched: string[] = [];
    (h.db as { touch: (k: string) => void }).touch = (k) => void touched.push(k);
    xadd(h, 's', '1-0');
    touched.length = 0;
    h.run('XGROUP', 'CREATE', 's', 'g', '0');
    h.run('XGROUP', 'SETID', 's', 'g', '$');
    h.run('XGROUP', 'CREATECONSUMER', 's', 'g', 'c');
    h.run('XGROUP', 'DELCONSUMER', 's', 'g', 'c');
    h.run('XGROUP', 'DESTROY', 's', 'g');
    expect(touched).toEqual([]);
  });

  describe('error cases', () => {
    beforeEach(() => {
      xadd(h, 's', '1-0');
      h.run('XGROUP', 'CREATE', 's', 'g', '0');
      h.keys.set('str', 'x');
    });

    it('checks arity per subcommand', () => {
      expect(h.error('XGROUP')).toBe("ERR wrong number of arguments for 'xgroup' command");
      expect(h.error('XGROUP', 'CREATE', 's', 'g')).toBe("ERR wrong number of arguments for 'xgroup|create' command");
      expect(h.error('XGROUP', 'SETID', 's', 'g')).toBe("ERR wrong number of arguments for 'xgroup|setid' command");
      expect(h.error('XGROUP', 'DESTROY', 's', 'g', 'x')).toBe("ERR wrong number of arguments for 'xgroup|destroy' command");
      expect(h.error('XGROUP', 'CREATECONSUMER', 's', 'g', 'c', 'x')).toBe(
        "ERR wrong number of arguments for 'xgroup|createconsumer' command",
      );
      expect(h.error('XGROUP', 'DELCONSUMER', 's', 'g')).toBe("ERR wrong number of arguments for 'xgroup|delconsumer' command");
      expect(h.error('XGROUP', 'HELP', 'x')).toBe("ERR wrong number of arguments for 'xgroup|help' command");
    });

    it('rejects unknown subcommands', () => {
      expect(h.error('XGROUP', 'foo')).toBe("ERR unknown subcommand 'foo'. Try XGROUP HELP.");
      expect(h.error('XGROUP', 'foo', 's', 'g', '0')).toBe("ERR unknown subcommand 'foo'. Try XGROUP HELP.");
    });

    it('an unknown option is reported before the key type and existence', () => {
      expect(h.error('XGROUP', 'create', 'str', 'g', '$', 'foo')).toBe(
        "ERR unknown subcommand or wrong number of arguments for 'create'. Try XGROUP HELP.",
      );
      expect(h.error('XGROUP', 'CREATE', 'nokey', 'g', '$', 'ENTRIESREAD')).toBe(
        "ERR unknown subcommand or wrong number of arguments for 'CREATE'. Try XGROUP HELP.",
      );
    });

    it('ENTRIESREAD values are checked before the key', () => {
      expect(h.error('XGROUP', 'CREATE', 'nokey', 'g', '$', 'ENTRIESREAD', 'x')).toBe('ERR value is not an integer or out of range');
      expect(h.error('XGROUP', 'CREATE', 'nokey', 'g', '$', 'ENTRIESREAD', '+1')).toBe('ERR value is not an integer or out of range');
      expect(h.error('XGROUP', 'CREATE', 'str', 'g', '$', 'ENTRIESREAD', -2)).toBe('ERR value for ENTRIESREAD must be positive or -1');
      expect(h.error('XGROUP', 'CREATE', 'nokey', 'g', '$', 'ENTRIESREAD', -1)).toBe(KEY_NOT_FOUND);
    });

    it('WRONGTYPE for every subcommand but HELP', () => {
      const wrongType = 'WRONGTYPE Operation against a key holding the wrong kind of value';
      expect(h.error('XGROUP', 'CREATE', 'str', 'g', '$')).toBe(wrongType);
      expect(h.error('XGROUP', 'CREATE', 'str', 'g', '$', 'MKSTREAM')).toBe(wrongType);
      expect(h.error('XGROUP', 'SETID', 'str', 'g', '$')).toBe(wrongType);
      expect(h.error('XGROUP', 'DESTROY', 'str', 'g')).toBe(wrongType);
      expect(h.error('XGROUP', 'CREATECONSUMER', 'str', 'g', 'c')).toBe(wrongType);
      expect(h.error('XGROUP', 'DELCONSUMER', 'str', 'g', 'c')).toBe(wrongType);
    });

    it('the key must exist for every subcommand (ID errors come later)', () => {
      expect(h.error('XGROUP', 'CREATE', 'nokey', 'g', 'bad-id')).toBe(KEY_NOT_FOUND);
      expect(h.error('XGROUP', 'SETID', 'nokey', 'g', '0')).toBe(KEY_NOT_FOUND);
      expect(h.error('XGROUP', 'DESTROY', 'nokey', 'g')).toBe(KEY_NOT_FOUND);
      expect(h.error('XGROUP', 'CREATECONSUMER', 'nokey', 'g', 'c')).toBe(KEY_NOT_FOUND);
      expect(h.error('XGROUP', 'DELCONSUMER', 'nokey', 'g', 'c')).toBe(KEY_NOT_FOUND);
    });

    it('NOGROUP for SETID, CREATECONSUMER and DELCONSUMER (names shown as Redis formats them)', () => {
      expect(h.error('XGROUP', 'SETID', 's', 'nog', '0')).toBe("NOGROUP No such consumer group 'nog' for key name 's'");
      expect(h.error('XGROUP', 'CREATECONSUMER', 's', 'nog', 'c')).toBe("NOGROUP No such consumer group 'nog' for key name 's'");
      expect(h.error('XGROUP', 'DELCONSUMER', 's', 'nog', 'c')).toBe("NOGROUP No such consumer group 'nog' for key name 's'");
      // redis-server 7.0.15: CR/LF become spaces, the text stops at a NUL byte.
      expect(h.error('XGROUP', 'SETID', 's', 'n\ng', '0')).toBe("NOGROUP No such consumer group 'n g' for key name 's'");
      expect(h.error('XGROUP', 'SETID', 's', 'a\x00b', '0')).toBe("NOGROUP No such consumer group 'a' for key name 's'");
    });

    it('CREATE takes a strict ID', () => {
      for (const bad of ['-', '+', '(1', '1-', 'x', '99999999999999999999999']) {
        expect(h.error('XGROUP', 'CREATE', 's', 'g2', bad)).toBe(INVALID_ID);
      }
    });
  });
});
