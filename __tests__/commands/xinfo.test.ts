import { Harness } from '../helpers/harness';
import { asMap, readNew, xadd } from '../helpers/cg-state';

const HELP_LINES = [
  'XINFO <subcommand> [<arg> [value] [opt] ...]. Subcommands are:',
  'CONSUMERS <key> <groupname>',
  '    Show consumers of <groupname>.',
  'GROUPS <key>',
  '    Show the stream consumer groups.',
  'STREAM <key> [FULL [COUNT <count>]',
  '    Show information about the stream.',
  'HELP',
];

function groupInfo(h: Harness, key = 's'): Record<string, unknown>[] {
  return (h.run('XINFO', 'GROUPS', key) as unknown[]).map(asMap);
}
function lagOf(h: Harness): [unknown, unknown] {
  const g = groupInfo(h, 'x')[0];
  return [g['entries-read'], g.lag];
}

describe('XINFO', () => {
  let h: Harness;
  let t0: number;
  beforeEach(() => {
    h = new Harness();
    t0 = h.now;
  });

  /** s: 1-0…4-0, group g at 0; c1 read 1-0 and 2-0 at t0, c2 read 3-0 and 4-0 at t0+10, now t0+25. */
  function twoReaders(): void {
    xadd(h, 's', '1-0', '2-0', '3-0', '4-0');
    h.run('XGROUP', 'CREATE', 's', 'g', '0');
    readNew(h, 's', 'g', 'c1', 2);
    h.now += 10;
    readNew(h, 's', 'g', 'c2', 2);
    h.now += 15;
  }

  describe('STREAM', () => {
    it('reports the stream in its default form', () => {
      twoReaders();
      h.run('XDEL', 's', '2-0');
      expect(h.run('XINFO', 'STREAM', 's')).toEqual([
        'length', 3,
        'radix-tree-keys', 1,
        'radix-tree-nodes', 2,
        'last-generated-id', '4-0',
        'max-deleted-entry-id', '2-0',
        'entries-added', 4n,
        'recorded-first-entry-id', '1-0',
        // 8.6+: the IDMP fields on every stream (Redis's stream.tcl; redis.io's XINFO STREAM example)
        'idmp-duration', 100, 'idmp-maxsize', 100, 'pids-tracked', 0, 'iids-tracked', 0, 'iids-added', 0n, 'iids-duplicates', 0n,
        'groups', 1,
        'first-entry', ['1-0', ['f', 'v1-0']],
        'last-entry', ['4-0', ['f', 'v4-0']],
      ]);
    });

    it('an empty stream made by MKSTREAM', () => {
      h.run('XGROUP', 'CREATE', 's', 'g', '$', 'MKSTREAM');
      expect(h.run('XINFO', 'STREAM', 's')).toEqual([
        'length', 0,
        'radix-tree-keys', 0,
        'radix-tree-nodes', 1,
        'last-generated-id', '0-0',
        'max-deleted-entry-id', '0-0',
        'entries-added', 0n,
        'recorded-first-entry-id', '0-0',
        // 8.6+: the IDMP fields on every stream (Redis's stream.tcl; redis.io's XINFO STREAM example)
        'idmp-duration', 100, 'idmp-maxsize', 100, 'pids-tracked', 0, 'iids-tracked', 0, 'iids-added', 0n, 'iids-duplicates', 0n,
        'groups', 1,
        'first-entry', null,
        'last-entry', null,
      ]);
    });

    it('radix-tree-keys counts 100-entry macro nodes; radix-tree-nodes matches redis-server 7.0.15', () => {
      for (let i = 1; i <= 250; i++) h.run('XADD', 'a', `${i}-0`, 'f', 'v');
      for (let i = 1; i <= 250; i++) h.run('XADD', 'b', `1700000000${Math.floor(i / 3)}-${i % 3}`, 'f', 'v');
      expect(asMap(h.run('XINFO', 'STREAM', 'a'))).toMatchObject({ 'radix-tree-keys': 3, 'radix-tree-nodes': 8 });
      expect(asMap(h.run('XINFO', 'STREAM', 'b'))).toMatchObject({ 'radix-tree-keys': 3, 'radix-tree-nodes': 10 });
      // Emptying a whole node frees it (XDEL), like Redis.
      for (let i = 101; i <= 200; i++) h.run('XDEL', 'a', `${i}-0`);
      expect(asMap(h.run('XINFO', 'STREAM', 'a'))).toMatchObject({ length: 150, 'radix-tree-keys': 2 });
    });

    it('FULL: entries, groups with their PEL and consumers (8.10)', () => {
      twoReaders();
      expect(h.run('XINFO', 'STREAM', 's', 'FULL')).toEqual([
        'length', 4,
        'radix-tree-keys', 1,
        'radix-tree-nodes', 2,
        'last-generated-id', '4-0',
        'max-deleted-entry-id', '0-0',
        'entries-added', 4n,
        'recorded-first-entry-id', '1-0',
        // 8.6+: the IDMP fields on every stream (Redis's stream.tcl; redis.io's XINFO STREAM example)
        'idmp-duration', 100, 'idmp-maxsize', 100, 'pids-tracked', 0, 'iids-tracked', 0, 'iids-added', 0n, 'iids-duplicates', 0n,
        'entries', [
          ['1-0', ['f', 'v1-0']],
          ['2-0', ['f', 'v2-0']],
          ['3-0', ['f', 'v3-0']],
          ['4-0', ['f', 'v4-0']],
        ],
        'groups', [
          [
            'name', 'g',
            'last-delivered-id', '4-0',
            'entries-read', 4n,
            'lag', 0n,
            'pel-count', 4,
            'nacked-count', 0,
            'pending', [
              ['1-0', 'c1', t0, 1n],
              ['2-0', 'c1', t0, 1n],
              ['3-0', 'c2', t0 + 10, 1n],
              ['4-0', 'c2', t0 + 10, 1n],
            ],
            'consumers', [
              ['name', 'c1', 'seen-time', t0, 'active-time', t0, 'pel-count', 2, 'pending', [['1-0', t0, 1n], ['2-0', t0, 1n]]],
              ['name', 'c2', 'seen-time', t0 + 10, 'active-time', t0 + 10, 'pel-count', 2, 'pending', [['3-0', t0 + 10, 1n], ['4-0', t0 + 10, 1n]]],
            ],
          ],
        ],
      ]);
    });

    it('FULL on 7.0: no active-time, no nacked-count', () => {
      h.version = '7.0';
      twoReaders();
      h.run('XGROUP', 'CREATECONSUMER', 's', 'g', 'c0');
      const g = asMap((asMap(h.run('XINFO', 'STREAM', 's', 'FULL')).groups as unknown[])[0]);
      expect(Object.keys(g)).toEqual(['name', 'last-delivered-id', 'entries-read', 'lag', 'pel-count', 'pending', 'consumers']);
      expect(g.consumers).toEqual([
        ['name', 'c0', 'seen-time', t0 + 25, 'pel-count', 0, 'pending', []],
        ['name', 'c1', 'seen-time', t0, 'pel-count', 2, 'pending', [['1-0', t0, 1n], ['2-0', t0, 1n]]],
        ['name', 'c2', 'seen-time', t0 + 10, 'pel-count', 2, 'pending', [['3-0', t0 + 10, 1n], ['4-0', t0 + 10, 1n]]],
      ]);
    });

    it('FULL on 7.2–8.6: active-time but no nacked-count', () => {
      h.version = '8.6';
      twoReaders();
      const g = asMap((asMap(h.run('XINFO', 'STREAM', 's', 'FULL')).groups as unknown[])[0]);
      expect(Object.keys(g)).toEqual(['name', 'last-delivered-id', 'entries-read', 'lag', 'pel-count', 'pending', 'consumers']);
      expect(Object.keys(asMap((g.consumers as unknown[])[0]))).toEqual(['name', 'seen-time', 'active-time', 'pel-count', 'pending']);
    });

    it('FULL shows released entries with consumer "" and delivery time 0, and counts them (8.8)', () => {
      twoReaders();
      h.run('XNACK', 's', 'g', 'FAIL', 'IDS', 2, '3-0', '1-0');
      const g = asMap((asMap(h.run('XINFO', 'STREAM', 's', 'FULL')).groups as unknown[])[0]);
      expect(g['nacked-count']).toBe(2);
      expect(g['pel-count']).toBe(4);
      expect(g.pending).toEqual([
        ['1-0', '', 0, 1n],
        ['2-0', 'c1', t0, 1n],
        ['3-0', '', 0, 1n],
        ['4-0', 'c2', t0 + 10, 1n],
      ]);
      expect((g.consumers as unknown[][]).map((c) => asMap(c)['pel-count'])).toEqual([1, 1]);
    });

    it('FULL COUNT limits entries and every pending list; 0 means all, negative means 10', () => {
      for (let i = 1; i <= 12; i++) h.run('XADD', 's', `${i}-0`, 'f', 'v');
      h.run('XGROUP', 'CREATE', 's', 'g', '0');
      readNew(h, 's', 'g', 'c1');
      const full = (...count: (string | number)[]) => asMap(h.run('XINFO', 'STREAM', 's', 'FULL', ...count));
      const sizes = (m: Record<string, unknown>) => {
        const g = asMap((m.groups as unknown[])[0]);
        const c = asMap((g.consumers as unknown[])[0]);
        return [(m.entries as unknown[]).length, (g.pending as unknown[]).length, (c.pending as unknown[]).length];
      };
      expect(sizes(full())).toEqual([10, 10, 10]);
      expect(sizes(full('COUNT', 3))).toEqual([3, 3, 3]);
      expect(sizes(full('count', 0))).toEqual([12, 12, 12]);
      expect(sizes(full('COUNT', -1))).toEqual([10, 10, 10]);
    });

    it('FULL with no groups', () => {
      xadd(h, 's', '1-0');
      expect(asMap(h.run('XINFO', 'STREAM', 's', 'full')).groups).toEqual([]);
    });
  });

  describe('GROUPS', () => {
    it('lists the groups in name order', () => {
      twoReaders();
      h.run('XGROUP', 'CREATE', 's', 'a-group', '$');
      h.run('XGROUP', 'CREATECONSUMER', 's', 'a-group', 'x');
      expect(h.run('XINFO', 'GROUPS', 's')).toEqual([
        ['name', 'a-group', 'consumers', 1, 'pending', 0, 'last-delivered-id', '4-0', 'entries-read', null, 'lag', 0n],
        ['name', 'g', 'consumers', 2, 'pending', 4, 'last-delivered-id', '4-0', 'entries-read', 4n, 'lag', 0n],
      ]);
    });

    it('a stream without groups', () => {
      xadd(h, 's', '1-0');
      expect(h.run('XINFO', 'GROUPS', 's')).toEqual([]);
    });

    it('Consumer group read counter and lag sanity', () => {
      xadd(h, 'x', '1-0', '2-0', '3-0', '4-0', '5-0');
      h.run('XGROUP', 'CREATE', 'x', 'g1', '0');
      expect(lagOf(h)).toEqual([null, 5n]);
      readNew(h, 'x', 'g1', 'c', 1);
      expect(lagOf(h)).toEqual([1n, 4n]);
      readNew(h, 'x', 'g1', 'c');
      expect(lagOf(h)).toEqual([5n, 0n]);
      xadd(h, 'x', '6-0');
      expect(lagOf(h)).toEqual([5n, 1n]);
    });

    it('Consumer group lag with XDELs', () => {
      xadd(h, 'x', '1-0', '2-0', '3-0', '4-0', '5-0');
      h.run('XDEL', 'x', '3-0');
      h.run('XGROUP', 'CREATE', 'x', 'g1', '0');
      expect(lagOf(h)).toEqual([null, null]);
      for (const expected of ['1-0', '2-0', '4-0']) {
        expect(readNew(h, 'x', 'g1', 'c', 1)).toEqual([expected]);
        expect(lagOf(h)).toEqual([null, null]);
      }
      readNew(h, 'x', 'g1', 'c', 1);
      expect(lagOf(h)).toEqual([5n, 0n]);
    });

    it('lag of an empty stream and of a stream whose only entry was deleted', () => {
      h.run('XGROUP', 'CREATE', 'x', 'g1', '0', 'MKSTREAM');
      expect(lagOf(h)).toEqual([null, 0n]);
      xadd(h, 'x', '1-0');
      h.run('XDEL', 'x', '1-0');
      expect(lagOf(h)).toEqual([null, 0n]);
    });

    it('Consumer group lag with XTRIM (8.x rules)', () => {
      h.run('XGROUP', 'CREATE', 'x', 'g1', '$', 'MKSTREAM');
      xadd(h, 'x', '1-0', '2-0', '3-0', '4-0', '5-0');
      readNew(h, 'x', 'g1', 'c', 1);
      h.run('XTRIM', 'x', 'MAXLEN', 1);
      expect(lagOf(h)).toEqual([1n, 1n]);
      h.run('XTRIM', 'x', 'MAXLEN', 0);
      expect(lagOf(h)).toEqual([1n, 0n]);
    });

    it('Consumer group lag with XTRIM on 7.0 (redis-server 7.0.15: 4, then 4)', () => {
      h.version = '7.0';
      h.run('XGROUP', 'CREATE', 'x', 'g1', '$', 'MKSTREAM');
      xadd(h, 'x', '1-0', '2-0', '3-0', '4-0', '5-0');
      readNew(h, 'x', 'g1', 'c', 1);
      h.run('XTRIM', 'x', 'MAXLEN', 1);
      expect(lagOf(h)).toEqual([1n, 4n]);
      h.run('XTRIM', 'x', 'MAXLEN', 0);
      expect(lagOf(h)).toEqual([1n, 4n]);
    });

    it('a tombstone before the first entry: 8.x counts it, 7.x ignores it (redis-server 7.0.15: lag 0)', () => {
      h.run('XGROUP', 'CREATE', 'x', 'g1', '0', 'MKSTREAM', 'ENTRIESREAD', 2);
      xadd(h, 'x', '1-1');
      h.run('XDEL', 'x', '1-1');
      xadd(h, 'x', '2-1');
      expect(lagOf(h)).toEqual([0n, 1n]); // 8.x: entries-read capped to 0 at creation; lag = length
      h.version = '7.4';
      h.run('XGROUP', 'SETID', 'x', 'g1', '0', 'ENTRIESREAD', 2);
      expect(lagOf(h)).toEqual([2n, 0n]);
      h.version = '8.0';
      expect(lagOf(h)).toEqual([2n, 1n]);
    });

    it('a group behind the first entry: lag is the length (8.x); 7.0 uses entries-read', () => {
      xadd(h, 'x', '1-0', '2-0', '3-0', '4-0', '5-0');
      h.run('XGROUP', 'CREATE', 'x', 'g1', '0');
      h.run('XTRIM', 'x', 'MAXLEN', 2);
      expect(lagOf(h)).toEqual([null, 2n]);
      h.run('XGROUP', 'SETID', 'x', 'g1', '0', 'ENTRIESREAD', 0);
      expect(lagOf(h)).toEqual([0n, 2n]);
      h.version = '7.0';
      expect(lagOf(h)).toEqual([0n, 5n]);
      h.run('XGROUP', 'SETID', 'x', 'g1', '0');
      expect(lagOf(h)).toEqual([null, 2n]);
    });
  });

  describe('CONSUMERS', () => {
    it('reports pending, idle (since the last attempt) and inactive (since the last success)', () => {
      twoReaders();
      h.run('XGROUP', 'CREATECONSUMER', 's', 'g', 'c0');
      h.now += 5;
      expect(h.run('XINFO', 'CONSUMERS', 's', 'g')).toEqual([
        ['name', 'c0', 'pending', 0, 'idle', 5, 'inactive', -1],
        ['name', 'c1', 'pending', 2, 'idle', 30, 'inactive', 30],
        ['name', 'c2', 'pending', 2, 'idle', 20, 'inactive', 20],
      ]);
    });

    it('7.0 reports name, pending and idle only', () => {
      h.version = '7.0';
      twoReaders();
      expect(h.run('XINFO', 'CONSUMERS', 's', 'g')).toEqual([
        ['name', 'c1', 'pending', 2, 'idle', 25],
        ['name', 'c2', 'pending', 2, 'idle', 15],
      ]);
    });

    it('idle is never negative; inactive is not clamped', () => {
      twoReaders();
      h.now = t0 - 7;
      expect(h.run('XINFO', 'CONSUMERS', 's', 'g')).toEqual([
        ['name', 'c1', 'pending', 2, 'idle', 0, 'inactive', -7],
        ['name', 'c2', 'pending', 2, 'idle', 0, 'inactive', -17],
      ]);
    });

    it('XNACK effect on consumer state and XINFO CONSUMERS (8.8)', () => {
      twoReaders();
      h.run('XNACK', 's', 'g', 'FAIL', 'IDS', 2, '1-0', '2-0');
      expect(h.run('XINFO', 'CONSUMERS', 's', 'g')).toEqual([
        ['name', 'c1', 'pending', 0, 'idle', 25, 'inactive', 25],
        ['name', 'c2', 'pending', 2, 'idle', 15, 'inactive', 15],
      ]);
    });

    it('a group without consumers', () => {
      xadd(h, 's', '1-0');
      h.run('XGROUP', 'CREATE', 's', 'g', '0');
      expect(h.run('XINFO', 'CONSUMERS', 's', 'g')).toEqual([]);
    });
  });

  describe('HELP', () => {
    it('prints the help lines of redis-server 7.0.15 on 7.0', () => {
      h.version = '7.0';
      expect(h.run('XINFO', 'help')).toEqual([...HELP_LINES, '    Prints this help.']);
    });

    it('prints "Print this help." from 7.2', () => {
      expect(h.run('XINFO', 'HELP')).toEqual([...HELP_LINES, '    Print this help.']);
    });
  });

  it('makes no changes', () => {
    twoReaders();
    h.now += 1000;
    h.run('XINFO', 'STREAM', 's', 'FULL');
    h.run('XINFO', 'CONSUMERS', 's', 'g');
    expect(h.run('XINFO', 'CONSUMERS', 's', 'g')).toEqual([
      ['name', 'c1', 'pending', 2, 'idle', 1025, 'inactive', 1025],
      ['name', 'c2', 'pending', 2, 'idle', 1015, 'inactive', 1015],
    ]);
  });

  describe('error cases', () => {
    beforeEach(() => {
      xadd(h, 's', '1-0');
      h.run('XGROUP', 'CREATE', 's', 'g', '0');
      h.keys.set('str', 'x');
    });

    it('checks arity per subcommand', () => {
      expect(h.error('XINFO')).toBe("ERR wrong number of arguments for 'xinfo' command");
      expect(h.error('XINFO', 'STREAM')).toBe("ERR wrong number of arguments for 'xinfo|stream' command");
      expect(h.error('XINFO', 'GROUPS')).toBe("ERR wrong number of arguments for 'xinfo|groups' command");
      expect(h.error('XINFO', 'GROUPS', 's', 'x')).toBe("ERR wrong number of arguments for 'xinfo|groups' command");
      expect(h.error('XINFO', 'CONSUMERS', 's')).toBe("ERR wrong number of arguments for 'xinfo|consumers' command");
      expect(h.error('XINFO', 'CONSUMERS', 's', 'g', 'x')).toBe("ERR wrong number of arguments for 'xinfo|consumers' command");
      expect(h.error('XINFO', 'HELP', 'x')).toBe("ERR wrong number of arguments for 'xinfo|help' command");
    });

    it('rejects unknown subcommands', () => {
      expect(h.error('XINFO', 'foo')).toBe("ERR unknown subcommand 'foo'. Try XINFO HELP.");
      expect(h.error('XINFO', 'foo', 's')).toBe("ERR unknown subcommand 'foo'. Try XINFO HELP.");
    });

    it('a missing key, then WRONGTYPE, come before the options', () => {
      expect(h.error('XINFO', 'STREAM', 'nokey')).toBe('ERR no such key');
      expect(h.error('XINFO', 'STREAM', 'nokey', 'FULL', 'junk')).toBe('ERR no such key');
      expect(h.error('XINFO', 'GROUPS', 'nokey')).toBe('ERR no such key');
      expect(h.error('XINFO', 'CONSUMERS', 'nokey', 'g')).toBe('ERR no such key');
      const wrongType = 'WRONGTYPE Operation against a key holding the wrong kind of value';
      expect(h.error('XINFO', 'STREAM', 'str', 'junk')).toBe(wrongType);
      expect(h.error('XINFO', 'GROUPS', 'str')).toBe(wrongType);
      expect(h.error('XINFO', 'CONSUMERS', 'str', 'g')).toBe(wrongType);
    });

    it('STREAM accepts only FULL and FULL COUNT n', () => {
      const bad = (sub: string) => `ERR unknown subcommand or wrong number of arguments for '${sub}'. Try XINFO HELP.`;
      expect(h.error('XINFO', 'stream', 's', 'junk')).toBe(bad('stream'));
      expect(h.error('XINFO', 'STREAM', 's', 'FULL', 'junk')).toBe(bad('STREAM'));
      expect(h.error('XINFO', 'STREAM', 's', 'FULL', 'COUNT')).toBe(bad('STREAM'));
      expect(h.error('XINFO', 'STREAM', 's', 'FULL', 'xcount', 1)).toBe(bad('STREAM'));
      expect(h.error('XINFO', 'STREAM', 's', 'FULL', 'COUNT', 1, 'extra')).toBe(bad('STREAM'));
      expect(h.error('XINFO', 'STREAM', 's', 'COUNT', 1, 'FULL')).toBe(bad('STREAM'));
      expect(h.error('XINFO', 'STREAM', 's', 'FULL', 'COUNT', 'x')).toBe('ERR value is not an integer or out of range');
    });

    it('CONSUMERS on a missing group', () => {
      expect(h.error('XINFO', 'CONSUMERS', 's', 'nog')).toBe("NOGROUP No such consumer group 'nog' for key name 's'");
      expect(h.error('XINFO', 'CONSUMERS', 's', 'a\rb')).toBe("NOGROUP No such consumer group 'a b' for key name 's'");
    });
  });
});
