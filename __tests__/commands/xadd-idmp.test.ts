/**
 * Redis 8.6's idempotent XADD (IDMP / IDMPAUTO), XCFGSET and the IDMP fields of XINFO STREAM, as
 * Redis's own tests/unit/type/stream.tcl of a tree with IDMP and redis.io describe them. No 8.6+
 * server was available: these follow that suite's assertions (the texts it matches in full or
 * by prefix), with the fake clock standing in for its `after 2500`.
 */
import type IORedisReal from 'ioredis';
import Redis from 'ioredis-mock-streams';
import { asMap } from '../helpers/cg-state';
import { Harness } from '../helpers/harness';

describe('XADD IDMP / IDMPAUTO (Redis 8.6)', () => {
  let h: Harness;
  beforeEach(() => {
    h = new Harness();
    h.now = 1_000_000;
  });
  const info = (key = 's') => asMap(h.run('XINFO', 'STREAM', key));

  it('refuses bad IDMP syntax with the texts of Redis', () => {
    // IDMP takes the next two words: `*` is the iid, `f` the (invalid) ID
    expect(h.error('XADD', 's', 'IDMP', 'p1', '*', 'f', 'v')).toBe('ERR Invalid stream ID specified as stream command argument');
    expect(h.error('XADD', 's', 'IDMP', 'p1', 'iid1', '1-1', 'f', 'v')).toBe('ERR IDMP/IDMPAUTO can be used only with auto-generated IDs');
    expect(h.error('XADD', 's', 'IDMPAUTO', 'p1', '1-1', 'f', 'v')).toBe('ERR IDMP/IDMPAUTO can be used only with auto-generated IDs');
    expect(h.error('XADD', 's', 'IDMP', 'p1', 'i1', 'IDMP', 'p2', 'i2', '*', 'f', 'v')).toBe('ERR IDMP/IDMPAUTO specified multiple times');
    expect(h.error('XADD', 's', 'IDMPAUTO', 'p1', 'IDMP', 'p2', 'i2', '*', 'f', 'v')).toBe('ERR IDMP/IDMPAUTO specified multiple times');
    expect(h.error('XADD', 's', 'IDMP', '', 'i1', '*', 'f', 'v')).toBe('ERR IDMP requires a non-empty producer ID');
    expect(h.error('XADD', 's', 'IDMP', 'p1', '', '*', 'f', 'v')).toBe('ERR IDMP requires a non-empty idempotent ID');
    expect(h.error('XADD', 's', 'IDMPAUTO', '', '*', 'f', 'v')).toBe('ERR IDMPAUTO requires a non-empty producer ID');
    expect(h.keys.has('s')).toBe(false);
  });

  it('answers a repeated pid/iid with the first entry ID and adds nothing', () => {
    const id1 = h.run('XADD', 's', 'IDMP', 'p1', 'payment-abc', '*', 'amount', '100', 'currency', 'USD');
    h.now += 5;
    const id2 = h.run('XADD', 's', 'IDMP', 'p1', 'payment-abc', '*', 'amount', '200', 'currency', 'EUR');
    expect(id2).toBe(id1);
    expect(h.run('XLEN', 's')).toBe(1);
    expect(h.run('XRANGE', 's', '-', '+')).toEqual([[id1, ['amount', '100', 'currency', 'USD']]]);
    // another producer with the same iid is another entry; binary pids and iids are bytes
    expect(h.run('XADD', 's', 'IDMP', 'p2', 'payment-abc', '*', 'amount', '1')).not.toBe(id1);
    const bin = h.run('XADD', 's', 'IDMP', '\x00\x01', '\x00\xff', '*', 'f', 'v');
    expect(h.run('XADD', 's', 'IDMP', '\x00\x01', '\x00\xff', '*', 'f', 'dup')).toBe(bin);
    expect(h.run('XADD', 's', 'IDMP', '\x00\x01', '\x00\xfe', '*', 'f', 'v')).not.toBe(bin);
    expect(info()).toMatchObject({ 'pids-tracked': 3, 'iids-tracked': 4, 'iids-added': 4n, 'iids-duplicates': 2n });
  });

  it('IDMPAUTO takes the field/value pairs in any order as the iid', () => {
    const id1 = h.run('XADD', 's', 'IDMPAUTO', 'p1', '*', 'field1', 'a', 'field2', 'b', 'field3', 'c');
    expect(h.run('XADD', 's', 'IDMPAUTO', 'p1', '*', 'field2', 'b', 'field3', 'c', 'field1', 'a')).toBe(id1);
    expect(h.run('XADD', 's', 'IDMPAUTO', 'p1', '*', 'field3', 'c', 'field1', 'x', 'field2', 'b')).not.toBe(id1);
    expect(h.run('XADD', 's', 'IDMPAUTO', 'p1', '*', 'field1x', 'a')).not.toBe(id1);
    // field and value boundaries matter: f1=ab is not f1a=b
    const fa = h.run('XADD', 's', 'IDMPAUTO', 'p1', '*', 'f1', 'ab');
    expect(h.run('XADD', 's', 'IDMPAUTO', 'p1', '*', 'f1a', 'b')).not.toBe(fa);
    expect(h.run('XADD', 's', 'IDMPAUTO', 'p2', '*', 'field1', 'a', 'field2', 'b', 'field3', 'c')).not.toBe(id1);
    expect(h.run('XLEN', 's')).toBe(6);
  });

  it('ignores the trim options of a duplicate and takes IDMP before or after them', () => {
    const id1 = h.run('XADD', 's', 'IDMP', 'p1', 'req-1', 'MAXLEN', '~', '100', '*', 'field', 'value1');
    h.run('XADD', 's', 'MAXLEN', '~', '100', 'IDMP', 'p1', 'req-2', '*', 'field', 'value2');
    expect(h.run('XADD', 's', 'KEEPREF', 'IDMP', 'p1', 'req-1', 'MAXLEN', '=', '1', '*', 'field', 'value3')).toBe(id1);
    expect(h.run('XLEN', 's')).toBe(2);
    expect(h.run('XADD', 's2', 'NOMKSTREAM', 'IDMP', 'p1', 'req-1', '*', 'field', 'value')).toBeNull();
    expect(h.keys.has('s2')).toBe(false);
  });

  it('forgets an iid after IDMP-DURATION seconds on the keyspace clock', () => {
    h.run('XADD', 's', '*', 'f', 'init');
    expect(h.run('XCFGSET', 's', 'IDMP-DURATION', '1')).toBe('OK');
    const id1 = h.run('XADD', 's', 'IDMP', 'p1', 'req-1', '*', 'field', 'value1');
    h.now += 999;
    expect(h.run('XADD', 's', 'IDMP', 'p1', 'req-1', '*', 'field', 'value2')).toBe(id1);
    h.now += 1501;
    const id3 = h.run('XADD', 's', 'IDMP', 'p1', 'req-1', '*', 'field', 'value3');
    expect(id3).not.toBe(id1);
    expect(h.run('XLEN', 's')).toBe(3);
  });

  it('keeps the newest IDMP-MAXSIZE iids per producer', () => {
    h.run('XADD', 's', 'IDMP', 'p1', 'init', '*', 'field', 'init');
    h.run('XCFGSET', 's', 'IDMP-MAXSIZE', '3', 'IDMP-DURATION', '60');
    const ids = ['req-1', 'req-2', 'req-3'].map((iid) => h.run('XADD', 's', 'IDMP', 'p1', iid, '*', 'f', 'v'));
    const p2 = ['req-1', 'req-2', 'req-3'].map((iid) => h.run('XADD', 's', 'IDMP', 'p2', iid, '*', 'f', 'v'));
    ids.forEach((id, i) => expect(h.run('XADD', 's', 'IDMP', 'p1', `req-${i + 1}`, '*', 'f', 'dup')).toBe(id));
    p2.forEach((id, i) => expect(h.run('XADD', 's', 'IDMP', 'p2', `req-${i + 1}`, '*', 'f', 'dup')).toBe(id));
    h.run('XADD', 's', 'IDMP', 'p1', 'req-4', '*', 'f', 'v4'); // evicts req-1
    expect(h.run('XADD', 's', 'IDMP', 'p1', 'req-1', '*', 'f', 'new')).not.toBe(ids[0]); // evicts req-2
    expect(h.run('XADD', 's', 'IDMP', 'p1', 'req-3', '*', 'f', 'dup2')).toBe(ids[2]);
    expect(h.run('XLEN', 's')).toBe(9);
    expect(info()).toMatchObject({ 'pids-tracked': 2, 'iids-tracked': 6, 'iids-added': 9n, 'iids-duplicates': 7n });
  });

  it('shows the six IDMP fields in XINFO STREAM of every stream from 8.6, and none before', () => {
    h.run('XADD', 's', '1-1', 'f', 'v');
    const reply = h.run('XINFO', 'STREAM', 's') as unknown[];
    expect(reply.slice(12, 28)).toEqual([
      'recorded-first-entry-id', '1-1',
      'idmp-duration', 100, 'idmp-maxsize', 100, 'pids-tracked', 0, 'iids-tracked', 0, 'iids-added', 0n, 'iids-duplicates', 0n,
      'groups', 0,
    ]);
    expect(asMap(h.run('XINFO', 'STREAM', 's', 'FULL'))).toMatchObject({ 'idmp-duration': 100, 'iids-tracked': 0 });
    h.version = '8.4';
    expect(Object.keys(info())).not.toContain('idmp-duration');
    expect(h.error('XCFGSET', 's', 'IDMP-DURATION', '5')).toMatch(/^ERR unknown command 'XCFGSET'/);
  });
});

describe('XCFGSET (Redis 8.6)', () => {
  let h: Harness;
  beforeEach(() => {
    h = new Harness();
    h.now = 1_000_000;
    h.run('XADD', 's', 'IDMP', 'p1', 'req-1', '*', 'field', 'value');
  });
  const info = () => asMap(h.run('XINFO', 'STREAM', 's'));

  it('sets IDMP-DURATION and IDMP-MAXSIZE within their bounds', () => {
    expect(h.run('XCFGSET', 's', 'IDMP-DURATION', '86400')).toBe('OK');
    expect(h.run('XCFGSET', 's', 'IDMP-MAXSIZE', '10000')).toBe('OK');
    expect(info()).toMatchObject({ 'idmp-duration': 86400, 'idmp-maxsize': 10000 });
    expect(h.error('XCFGSET', 's', 'IDMP-DURATION', '86401')).toMatch(/^ERR IDMP-DURATION must be between/);
    expect(h.error('XCFGSET', 's', 'IDMP-DURATION', '0')).toMatch(/^ERR IDMP-DURATION must be between/);
    expect(h.error('XCFGSET', 's', 'IDMP-DURATION', '-100')).toMatch(/^ERR IDMP-DURATION must be between/);
    expect(h.error('XCFGSET', 's', 'IDMP-MAXSIZE', '10001')).toMatch(/^ERR IDMP-MAXSIZE must be between/);
    expect(h.error('XCFGSET', 's', 'IDMP-MAXSIZE', '0')).toMatch(/^ERR IDMP-MAXSIZE must be between/);
    expect(info()).toMatchObject({ 'idmp-duration': 86400, 'idmp-maxsize': 10000 });
  });

  it('reads each pair in turn: no parameter, syntax, then integer errors', () => {
    expect(h.error('XCFGSET', 's')).toMatch(/^ERR At least one parameter/);
    expect(h.error('XCFGSET', 's', 'IDMP-DURATION')).toBe('ERR syntax error');
    expect(h.error('XCFGSET', 's', 'IDMP-MAXSIZE')).toBe('ERR syntax error');
    expect(h.error('XCFGSET', 's', 'INVALID')).toBe('ERR syntax error');
    for (const bad of ['A', '*', '-', '+', '120-5', '3.14', '000000000', 'IDMP-DURATION']) {
      expect(h.error('XCFGSET', 's', 'IDMP-DURATION', bad)).toBe('ERR value is not an integer or out of range');
      expect(h.error('XCFGSET', 's', 'IDMP-MAXSIZE', bad)).toBe('ERR value is not an integer or out of range');
    }
    expect(h.error('XCFGSET', 's', 'IDMP-DURATION', 'INVALID', 'IDMP-MAXSIZE')).toBe('ERR value is not an integer or out of range');
    expect(h.error('XCFGSET', 'missing', 'IDMP-DURATION', '5')).toBe('ERR no such key');
    h.run('SET', 'str', 'x');
    expect(h.error('XCFGSET', 'str', 'IDMP-DURATION', '5')).toMatch(/^WRONGTYPE/);
  });

  it('a changed value forgets every producer, the same value keeps them, the counters stay', () => {
    const id1 = h.run('XADD', 's', 'IDMP', 'p1', 'req-1', '*', 'field', 'dup');
    h.run('XADD', 's', 'IDMP', 'p2', 'req-3', '*', 'field', 'v3');
    h.run('XCFGSET', 's', 'IDMP-DURATION', '100', 'IDMP-MAXSIZE', '100');
    expect(h.run('XADD', 's', 'IDMP', 'p1', 'req-1', '*', 'field', 'dup2')).toBe(id1);
    expect(info()).toMatchObject({ 'pids-tracked': 2, 'iids-tracked': 2, 'iids-added': 2n, 'iids-duplicates': 2n });
    h.run('XCFGSET', 's', 'IDMP-DURATION', '60');
    expect(info()).toMatchObject({ 'idmp-duration': 60, 'pids-tracked': 0, 'iids-tracked': 0, 'iids-added': 2n, 'iids-duplicates': 2n });
    h.now += 1;
    expect(h.run('XADD', 's', 'IDMP', 'p1', 'req-1', '*', 'field', 'new')).not.toBe(id1);
    expect(h.run('XLEN', 's')).toBe(3);
  });
});

describe('IDMP state through DUMP/RESTORE and COPY (ioredis front end)', () => {
  it('a restored or copied stream still knows its producers, iids, settings and counters', async () => {
    const r = new Redis({ port: 47_310 } as never) as unknown as IORedisReal;
    try {
      const id1 = await r.call('XADD', 's', 'IDMP', 'p1', 'req-1', '*', 'field', 'value');
      expect(await r.call('XADD', 's', 'IDMP', 'p1', 'req-1', '*', 'field', 'again')).toBe(id1);
      await r.call('XCFGSET', 's', 'IDMP-MAXSIZE', '50');
      const bin = Buffer.from([0xff, 0x00]);
      const x = await r.call('XADD', 's', 'IDMP', bin, 'x', '*', 'f', 'v');
      await r.restore('t', 0, (await r.dumpBuffer('s')) as Buffer);
      await r.copy('s', 'u');
      for (const key of ['t', 'u']) {
        const info = (await r.call('XINFO', 'STREAM', key)) as unknown[];
        expect(info.slice(14, 26)).toEqual(['idmp-duration', 100, 'idmp-maxsize', 50, 'pids-tracked', 1, 'iids-tracked', 1, 'iids-added', 2, 'iids-duplicates', 1]);
        expect(await r.call('XADD', key, 'IDMP', bin, 'x', '*', 'f', 'dup')).toBe(x);
        expect(await r.xlen(key)).toBe(2);
      }
    } finally {
      r.disconnect();
    }
  });
});

describe('IDMP expiry without an XADD (Redis 8.6 forgets iids in its cron)', () => {
  it('XINFO STREAM stops counting iids and producers once IDMP-DURATION has passed', () => {
    const h = new Harness();
    h.now = 1_000_000;
    h.run('XADD', 's', '*', 'f', 'v');
    h.run('XCFGSET', 's', 'IDMP-DURATION', '10');
    h.run('XADD', 's', 'IDMP', 'p1', 'a', '*', 'f', 'v');
    h.now += 5_000;
    h.run('XADD', 's', 'IDMP', 'p2', 'b', '*', 'f', 'v');
    expect(asMap(h.run('XINFO', 'STREAM', 's'))).toMatchObject({ 'pids-tracked': 2, 'iids-tracked': 2 });
    h.now += 6_000; // p1's iid is 11 s old, p2's 6 s
    expect(asMap(h.run('XINFO', 'STREAM', 's'))).toMatchObject({ 'pids-tracked': 1, 'iids-tracked': 1, 'iids-added': 2n });
    h.now += 5_000;
    expect(asMap(h.run('XINFO', 'STREAM', 's', 'FULL'))).toMatchObject({ 'pids-tracked': 0, 'iids-tracked': 0, 'iids-added': 2n });
  });
});
