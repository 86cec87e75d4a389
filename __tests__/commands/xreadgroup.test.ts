import { Harness } from '../helpers/harness';
import type { BlockRequest, CommandContext, Reply } from '../../lib/commands/types';
import { isBlockRequest } from '../../lib/commands/types';
import { CommandError } from '../../lib/errors';
import type { ConsumerGroup } from '../../lib/model/consumer-group';
import type { Stream } from '../../lib/model/stream';
import { formatId } from '../../lib/model/stream-id';

const INVALID_ID = 'ERR Invalid stream ID specified as stream command argument';
const WRONGTYPE = 'WRONGTYPE Operation against a key holding the wrong kind of value';
const NOGROUP = (k: string, g: string) => `NOGROUP No such key '${k}' or consumer group '${g}' in XREADGROUP with GROUP option`;
const MEANINGLESS = (id: string) =>
  `ERR The ${id} ID is meaningless in the context of XREADGROUP: you want to read the history of this consumer by specifying a proper ID, or use the > ID to get new messages. The ${id} ID would just return an empty result set.`;

function xadd(h: Harness, key: string, ...ids: string[]): void {
  for (const id of ids) expect(h.run('XADD', key, id, 'f', `v${id}`)).toBe(id);
}
const E = (id: string): Reply => [id, ['f', `v${id}`]];
/** A CLAIM reply entry. */
const C = (id: string, idle: number, prev: bigint | number): Reply => [id, ['f', `v${id}`], idle, prev];

function createGroup(h: Harness, key = 's', group = 'g', at = '0'): void {
  expect(h.run('XGROUP', 'CREATE', key, group, at)).toBe('OK');
}
function stream(h: Harness, key = 's'): Stream {
  const s = h.db.getStream(key);
  if (!s) throw new Error(`no stream ${key}`);
  return s;
}
function group(h: Harness, key = 's', name = 'g'): ConsumerGroup {
  const g = stream(h, key).groups.get(name);
  if (!g) throw new Error(`no group ${name}`);
  return g;
}
/** The group PEL as [id, owner, deliveryTime, deliveryCount]. */
function pel(h: Harness, key = 's', name = 'g'): [string, string | null, number, bigint][] {
  return group(h, key, name)
    .pel.valuesArray()
    .map((pe) => [formatId(pe.id), pe.consumer?.name ?? null, pe.deliveryTime, pe.deliveryCount]);
}
function consumerTimes(h: Harness, name: string, key = 's', g = 'g'): [number, number] | undefined {
  const c = group(h, key, g).consumers.get(name);
  return c ? [c.seenTime, c.activeTime] : undefined;
}
/** XREADGROUP GROUP g <consumer> … */
function read(h: Harness, consumer: string, ...rest: (string | number)[]): Reply {
  const r = h.run('XREADGROUP', 'GROUP', 'g', consumer, ...rest);
  if (isBlockRequest(r)) throw new Error('unexpected BlockRequest');
  return r;
}
function block(h: Harness, ...argv: (string | number)[]): BlockRequest {
  const r = h.run(...argv);
  if (!isBlockRequest(r)) throw new Error(`expected a BlockRequest, got ${JSON.stringify(r)}`);
  return r;
}
function retryCtx(h: Harness): CommandContext {
  return { ...h.ctx(), isRetry: true };
}
function retryError(h: Harness, req: BlockRequest, key?: string): string {
  try {
    (req.retry as (ctx: CommandContext, key?: string) => unknown)(retryCtx(h), key);
  } catch (e) {
    if (e instanceof CommandError) return e.message;
    throw e;
  }
  throw new Error('expected the retry to fail');
}

const T0 = 1_700_000_000_000;

describe('XREADGROUP', () => {
  let h: Harness;
  beforeEach(() => {
    h = new Harness();
    h.now = T0;
  });

  describe('new entries (>)', () => {
    beforeEach(() => {
      xadd(h, 's', '1-0', '2-0', '3-0');
      createGroup(h);
      h.events.length = 0;
    });

    it('delivers entries after the last-delivered-id and adds them to the PEL', () => {
      expect(read(h, 'c1', 'COUNT', 2, 'STREAMS', 's', '>')).toEqual([['s', [E('1-0'), E('2-0')]]]);
      expect(pel(h)).toEqual([
        ['1-0', 'c1', T0, 1n],
        ['2-0', 'c1', T0, 1n],
      ]);
      expect(formatId(group(h).lastId)).toBe('2-0');
      expect(group(h).entriesRead).toBe(2n);
      h.now += 5;
      expect(read(h, 'c2', 'STREAMS', 's', '>')).toEqual([['s', [E('3-0')]]]);
      expect(pel(h)[2]).toEqual(['3-0', 'c2', T0 + 5, 1n]);
      expect(read(h, 'c1', 'STREAMS', 's', '>')).toBeNull();
    });

    it('creates the consumer (xgroup-createconsumer) and sets seen-time and active-time', () => {
      read(h, 'c1', 'COUNT', 1, 'STREAMS', 's', '>');
      expect(h.events).toEqual([['xgroup-createconsumer', 's']]);
      expect(consumerTimes(h, 'c1')).toEqual([T0, T0]);
      h.now += 10;
      read(h, 'c1', 'STREAMS', 's', '0');
      expect(consumerTimes(h, 'c1')).toEqual([T0 + 10, T0]); // history read: seen only
      expect(h.events).toEqual([['xgroup-createconsumer', 's']]);
    });

    it('creates the consumer even when nothing is read (7.2+)', () => {
      read(h, 'c1', 'STREAMS', 's', '>');
      h.now += 10;
      expect(read(h, 'c2', 'STREAMS', 's', '>')).toBeNull();
      expect(consumerTimes(h, 'c2')).toEqual([T0 + 10, -1]);
      expect(h.events).toEqual([
        ['xgroup-createconsumer', 's'],
        ['xgroup-createconsumer', 's'],
      ]);
    });

    it('NOACK advances the group without touching the PEL or active-time', () => {
      expect(read(h, 'c1', 'NOACK', 'STREAMS', 's', '>')).toEqual([['s', [E('1-0'), E('2-0'), E('3-0')]]]);
      expect(pel(h)).toEqual([]);
      expect(formatId(group(h).lastId)).toBe('3-0');
      expect(group(h).entriesRead).toBe(3n);
      expect(consumerTimes(h, 'c1')).toEqual([T0, -1]);
    });

    it('re-assigns an already pending ID with count 1 after XGROUP SETID moved back (cg.tcl)', () => {
      const hh = new Harness();
      hh.now = T0;
      for (let i = 1; i <= 4; i++) hh.run('XADD', 'events', `${i}-0`, 'a', i);
      hh.run('XGROUP', 'CREATE', 'events', 'g1', '$');
      hh.run('XADD', 'events', '5-0', 'a', 5);
      expect(hh.run('XREADGROUP', 'GROUP', 'g1', 'c1', 'STREAMS', 'events', '>')).toEqual([
        ['events', [['5-0', ['a', '5']]]],
      ]);
      hh.now += 100;
      hh.run('XREADGROUP', 'GROUP', 'g1', 'c1', 'STREAMS', 'events', '0'); // count 2
      hh.run('XGROUP', 'SETID', 'events', 'g1', '-');
      const reply = hh.run('XREADGROUP', 'GROUP', 'g1', 'c2', 'STREAMS', 'events', '>') as [string, Reply[]][];
      expect(reply[0][1]).toHaveLength(5);
      expect(pel(hh, 'events', 'g1')).toEqual([
        ['1-0', 'c2', T0 + 100, 1n],
        ['2-0', 'c2', T0 + 100, 1n],
        ['3-0', 'c2', T0 + 100, 1n],
        ['4-0', 'c2', T0 + 100, 1n],
        ['5-0', 'c2', T0 + 100, 1n],
      ]);
      expect(group(hh, 'events', 'g1').consumers.get('c1')?.pel.size).toBe(0);
    });

    it('reads every listed stream in order and leaves out streams with nothing new', () => {
      xadd(h, 't', '1-0');
      createGroup(h, 't', 'g', '$');
      xadd(h, 'u', '1-0');
      createGroup(h, 'u');
      expect(read(h, 'c', 'COUNT', 1, 'STREAMS', 's', 't', 'u', '>', '>', '>')).toEqual([
        ['s', [E('1-0')]],
        ['u', [E('1-0')]],
      ]);
      // the consumer exists in every group, also where nothing was read (7.2+)
      expect(consumerTimes(h, 'c', 't')).toEqual([T0, -1]);
    });

    it('treats the maximum ID like > (Redis encodes > as the max ID)', () => {
      expect(read(h, 'c', 'COUNT', 1, 'STREAMS', 's', '18446744073709551615-18446744073709551615')).toEqual([
        ['s', [E('1-0')]],
      ]);
    });

    it('counts entries-read from the last-delivered-id on 8.0+, from the entry on 7.x', () => {
      for (const [version, expected] of [
        ['8.10', [1n, 3n, 4n]],
        ['7.0', [1n, 2n, 3n]], // checked on redis-server 7.0.15 (XINFO GROUPS entries-read)
      ] as const) {
        const hh = new Harness();
        hh.version = version;
        xadd(hh, 's', '1-0', '2-0', '3-0');
        createGroup(hh);
        hh.run('XREADGROUP', 'GROUP', 'g', 'c', 'COUNT', 1, 'STREAMS', 's', '>');
        const got = [group(hh).entriesRead];
        hh.run('XDEL', 's', '2-0');
        hh.run('XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', 's', '>');
        got.push(group(hh).entriesRead);
        hh.run('XADD', 's', '4-0', 'f', 'v');
        hh.run('XREADGROUP', 'GROUP', 'g', 'c2', 'NOACK', 'STREAMS', 's', '>');
        got.push(group(hh).entriesRead);
        expect(got).toEqual(expected);
      }
    });
  });

  describe('history (consumer PEL)', () => {
    beforeEach(() => {
      xadd(h, 's', '1-0', '2-0', '3-0');
      createGroup(h);
      read(h, 'c1', 'COUNT', 2, 'STREAMS', 's', '>');
      read(h, 'c2', 'STREAMS', 's', '>');
      h.events.length = 0;
    });

    it("returns the consumer's pending entries after the ID, counting a delivery", () => {
      h.now += 50;
      expect(read(h, 'c1', 'STREAMS', 's', '0')).toEqual([['s', [E('1-0'), E('2-0')]]]);
      expect(read(h, 'c1', 'STREAMS', 's', '1-0')).toEqual([['s', [E('2-0')]]]);
      expect(read(h, 'c1', 'COUNT', 1, 'STREAMS', 's', '0')).toEqual([['s', [E('1-0')]]]);
      expect(pel(h)).toEqual([
        ['1-0', 'c1', T0 + 50, 3n],
        ['2-0', 'c1', T0 + 50, 3n],
        ['3-0', 'c2', T0, 1n],
      ]);
      expect(formatId(group(h).lastId)).toBe('3-0');
      expect(consumerTimes(h, 'c1')).toEqual([T0 + 50, T0]);
    });

    it('reports deleted entries as [id, nil] and leaves their counters alone', () => {
      h.run('XDEL', 's', '1-0');
      h.now += 50;
      expect(read(h, 'c1', 'STREAMS', 's', '0')).toEqual([['s', [['1-0', null], E('2-0')]]]);
      expect(pel(h).slice(0, 2)).toEqual([
        ['1-0', 'c1', T0, 1n],
        ['2-0', 'c1', T0 + 50, 2n],
      ]);
    });

    it('is always served: an empty history is [key, []] and a new consumer is created', () => {
      expect(read(h, 'c9', 'COUNT', 3, 'STREAMS', 's', '0')).toEqual([['s', []]]);
      expect(read(h, 'c1', 'STREAMS', 's', '2-0')).toEqual([['s', []]]);
      expect(h.events).toEqual([['xgroup-createconsumer', 's']]);
    });

    it('ignores BLOCK, NOACK and CLAIM', () => {
      expect(read(h, 'c1', 'BLOCK', 0, 'NOACK', 'CLAIM', 0, 'STREAMS', 's', '0')).toEqual([['s', [E('1-0'), E('2-0')]]]);
      expect(pel(h)[0][3]).toBe(2n);
    });

    it('mixes history and new reads', () => {
      xadd(h, 's', '4-0');
      expect(read(h, 'c2', 'STREAMS', 's', 's', '0', '>')).toEqual([
        ['s', [E('3-0')]],
        ['s', [E('4-0')]],
      ]);
    });
  });

  describe('reference vectors (cg.tcl)', () => {
    it('XADD with MAXLEN > xlen can propagate correctly / deleted entries read as nil', () => {
      h.run('XGROUP', 'CREATE', 's', 'g', '$', 'MKSTREAM');
      h.run('XADD', 's', '1', 'field1', 'A');
      expect(read(h, 'c', 'STREAMS', 's', '>')).toEqual([['s', [['1-0', ['field1', 'A']]]]]);
      h.run('XADD', 's', 'MAXLEN', 1, '2', 'field1', 'B');
      expect(read(h, 'c', 'STREAMS', 's', '>')).toEqual([['s', [['2-0', ['field1', 'B']]]]]);
      expect(read(h, 'c', 'STREAMS', 's', '0-1')).toEqual([
        ['s', [['1-0', null], ['2-0', ['field1', 'B']]]],
      ]);
    });

    it('history reads with BLOCK are served at once (Blocking XREADGROUP for stream that ran dry)', () => {
      h.run('XADD', 's', '666', 'key', 'value');
      h.run('XDEL', 's', '666');
      createGroup(h, 's', 'g', '$');
      for (const id of ['0', '600', '666', '700']) {
        expect(read(h, 'c', 'BLOCK', 0, 'STREAMS', 's', id)).toEqual([['s', []]]);
      }
    });

    it('empty history for a group at 0 with nothing read', () => {
      xadd(h, 's', '1-0', '2-0', '3-0');
      createGroup(h);
      expect(read(h, 'c', 'COUNT', 3, 'STREAMS', 's', '0')).toEqual([['s', []]]);
    });
  });

  describe('CLAIM (8.4)', () => {
    beforeEach(() => {
      h.run('XADD', 's', '1-0', 'f', 'v1-0');
      h.run('XADD', 's', '2-0', 'f', 'v2-0');
      createGroup(h);
    });

    it('claims idle entries first, then new ones, with 4-element entries', () => {
      read(h, 'c1', 'COUNT', 1, 'STREAMS', 's', '>');
      h.now += 100;
      expect(read(h, 'c2', 'CLAIM', 50, 'STREAMS', 's', '>')).toEqual([['s', [C('1-0', 100, 1n), C('2-0', 0, 0)]]]);
      expect(pel(h)).toEqual([
        ['1-0', 'c2', T0 + 100, 2n],
        ['2-0', 'c2', T0 + 100, 1n],
      ]);
      expect(consumerTimes(h, 'c2')).toEqual([T0 + 100, T0 + 100]);
      expect(group(h).consumers.get('c1')?.pel.size).toBe(0);
    });

    it('replies nil when nothing is idle enough and nothing is new', () => {
      read(h, 'c1', 'STREAMS', 's', '>');
      h.now += 10;
      expect(read(h, 'c2', 'CLAIM', 100, 'STREAMS', 's', '>')).toBeNull();
    });

    it('gives new entries the 0, 0 extension when nothing is pending', () => {
      expect(read(h, 'c1', 'CLAIM', 100, 'STREAMS', 's', '>')).toEqual([['s', [C('1-0', 0, 0), C('2-0', 0, 0)]]]);
    });

    it('claims an entry whose idle time equals min-idle-time, from any owner including the caller', () => {
      read(h, 'c1', 'STREAMS', 's', '>');
      h.now += 50;
      expect(read(h, 'c1', 'CLAIM', 50, 'COUNT', 1, 'STREAMS', 's', '>')).toEqual([['s', [C('1-0', 50, 1n)]]]);
      expect(pel(h)[0]).toEqual(['1-0', 'c1', T0 + 50, 2n]);
    });

    it('orders claims by idle time and shares COUNT between claimed and new entries', () => {
      xadd(h, 's', '3-0', '4-0', '5-0');
      read(h, 'c1', 'COUNT', 1, 'STREAMS', 's', '>'); // 1-0 at T0
      h.now += 10;
      read(h, 'c2', 'COUNT', 1, 'STREAMS', 's', '>'); // 2-0 at T0+10
      h.run('XREADGROUP', 'GROUP', 'g', 'c1', 'STREAMS', 's', '0'); // 1-0 re-delivered at T0+10 (count 2)
      h.now += 20;
      // 1-0 and 2-0 both idle 20: ties go by ID; COUNT 3 = 2 claimed + 1 new
      expect(read(h, 'c3', 'COUNT', 3, 'CLAIM', 5, 'STREAMS', 's', '>')).toEqual([
        ['s', [C('1-0', 20, 2n), C('2-0', 20, 1n), C('3-0', 0, 0)]],
      ]);
      h.now += 1;
      h.run('XREADGROUP', 'GROUP', 'g', 'c3', 'STREAMS', 's', '0'); // everything re-delivered at +1
      h.now += 1;
      read(h, 'c4', 'COUNT', 1, 'STREAMS', 's', '>'); // 4-0 delivered later
      h.now += 100;
      expect(read(h, 'c5', 'COUNT', 2, 'CLAIM', 5, 'STREAMS', 's', '>')).toEqual([
        ['s', [C('1-0', 101, 4n), C('2-0', 101, 3n)]],
      ]);
      expect(read(h, 'c5', 'COUNT', 10, 'CLAIM', 5, 'STREAMS', 's', '>')).toEqual([
        ['s', [C('3-0', 101, 2n), C('4-0', 100, 1n), C('5-0', 0, 0)]],
      ]);
    });

    it('skips pending entries deleted from the stream (the reply may be nil)', () => {
      read(h, 'c1', 'STREAMS', 's', '>');
      h.run('XDEL', 's', '1-0', '2-0');
      h.now += 100;
      expect(read(h, 'c2', 'CLAIM', 10, 'STREAMS', 's', '>')).toBeNull();
      h.run('XADD', 's', '3-0', 'f', 'v3-0');
      expect(read(h, 'c2', 'CLAIM', 10, 'STREAMS', 's', '>')).toEqual([['s', [C('3-0', 0, 0)]]]);
      expect(pel(h).map((p) => [p[0], p[1]])).toEqual([
        ['1-0', 'c1'],
        ['2-0', 'c1'],
        ['3-0', 'c2'],
      ]);
    });

    it('NOACK does not apply to claimed entries', () => {
      read(h, 'c1', 'COUNT', 1, 'STREAMS', 's', '>');
      h.now += 100;
      expect(read(h, 'c2', 'NOACK', 'CLAIM', 50, 'STREAMS', 's', '>')).toEqual([
        ['s', [C('1-0', 100, 1n), C('2-0', 0, 0)]],
      ]);
      expect(pel(h)).toEqual([['1-0', 'c2', T0 + 100, 2n]]);
    });

    it('can return the same ID twice after XGROUP SETID moved back', () => {
      read(h, 'c1', 'COUNT', 1, 'STREAMS', 's', '>');
      h.run('XGROUP', 'SETID', 's', 'g', '0');
      h.now += 100;
      expect(read(h, 'c2', 'CLAIM', 50, 'STREAMS', 's', '>')).toEqual([
        ['s', [C('1-0', 100, 1n), C('1-0', 0, 0), C('2-0', 0, 0)]],
      ]);
      expect(pel(h)).toEqual([
        ['1-0', 'c2', T0 + 100, 1n],
        ['2-0', 'c2', T0 + 100, 1n],
      ]);
    });

    it('takes XNACKed entries first, in NACK order (8.8)', () => {
      xadd(h, 's', '3-0');
      read(h, 'c1', 'STREAMS', 's', '>');
      for (const id of ['1-0', '2-0', '3-0', '1-0']) expect(h.run('XNACK', 's', 'g', 'FAIL', 'IDS', 1, id)).toBe(1);
      const got = [1, 2, 3].map(() => {
        const r = read(h, 'c2', 'COUNT', 1, 'CLAIM', 5, 'STREAMS', 's', '>') as [string, Reply[][]][];
        return r[0][1][0][0];
      });
      expect(got).toEqual(['2-0', '3-0', '1-0']);
    });

    it('is ignored for history reads', () => {
      read(h, 'c1', 'STREAMS', 's', '>');
      expect(read(h, 'c1', 'CLAIM', 1000, 'STREAMS', 's', '0')).toEqual([['s', [E('1-0'), E('2-0')]]]);
    });

    it('blocks until the next pending entry becomes claimable (wakeAt)', () => {
      read(h, 'c1', 'STREAMS', 's', '>'); // both at T0
      h.now += 10;
      const req = block(h, 'XREADGROUP', 'GROUP', 'g', 'c2', 'CLAIM', 100, 'BLOCK', 5000, 'STREAMS', 's', '>');
      expect(req.wakeAt).toBe(T0 + 100);
      expect(req.keys).toEqual(['s']);
      h.now = T0 + 99;
      const again = req.retry(retryCtx(h));
      expect(isBlockRequest(again) && again.wakeAt).toBe(T0 + 100);
      h.now = T0 + 100;
      expect(req.retry(retryCtx(h))).toEqual([['s', [C('1-0', 100, 1n), C('2-0', 100, 1n)]]]);
    });

    it('has no wakeAt when nothing is pending', () => {
      const hh = new Harness();
      hh.run('XGROUP', 'CREATE', 's', 'g', '$', 'MKSTREAM');
      expect(block(hh, 'XREADGROUP', 'GROUP', 'g', 'c', 'CLAIM', 10, 'BLOCK', 0, 'STREAMS', 's', '>').wakeAt).toBeNull();
    });
  });

  describe('MAXCOUNT and MAXSIZE (8.10)', () => {
    beforeEach(() => {
      for (const k of ['s1', 's2', 's3']) {
        for (let i = 1; i <= 100; i++) h.run('XADD', k, `${i}-0`, 'f', 'v');
        createGroup(h, k);
      }
    });
    const total = (r: Reply) => (r as [string, Reply[]][]).reduce((n, [, es]) => n + es.length, 0);

    it('caps the total across streams (redis.io examples)', () => {
      expect(total(read(h, 'c', 'COUNT', 50, 'STREAMS', 's1', 's2', 's3', '>', '>', '>'))).toBe(150);
      for (const k of ['s1', 's2', 's3']) h.run('XGROUP', 'CREATE', k, 'g2', '0');
      const capped = h.run('XREADGROUP', 'GROUP', 'g2', 'c', 'COUNT', 50, 'MAXCOUNT', 80, 'STREAMS', 's1', 's2', 's3', '>', '>', '>') as [string, Reply[]][];
      expect(capped.map(([k, es]) => [k, es.length])).toEqual([
        ['s1', 50],
        ['s2', 30],
      ]);
      for (const k of ['s1', 's2', 's3']) h.run('XGROUP', 'CREATE', k, 'g3', '0');
      expect(total(h.run('XREADGROUP', 'GROUP', 'g3', 'c', 'MAXCOUNT', 5, 'MAXSIZE', 100000, 'STREAMS', 's1', 's2', 's3', '>', '>', '>') as Reply)).toBe(5);
    });

    it('does not deliver (nor add to the PEL) what the caps leave out', () => {
      read(h, 'c', 'MAXCOUNT', 3, 'STREAMS', 's1', 's2', '>', '>');
      expect(pel(h, 's1')).toHaveLength(3);
      expect(pel(h, 's2')).toHaveLength(0);
      expect(formatId(group(h, 's2').lastId)).toBe('0-0');
      expect(group(h, 's2').consumers.size).toBe(0); // skipped streams are not looked at
    });

    it('MAXSIZE always returns one entry, however large', () => {
      h.run('XADD', 'big', '1-0', 'f', 'x'.repeat(5000));
      h.run('XADD', 'big', '2-0', 'f', 'y');
      createGroup(h, 'big');
      expect(read(h, 'c', 'MAXSIZE', 100, 'STREAMS', 'big', '>')).toEqual([['big', [['1-0', ['f', 'x'.repeat(5000)]]]]]);
      expect(pel(h, 'big')).toHaveLength(1);
    });

    it('applies to history reads too', () => {
      read(h, 'c', 'COUNT', 10, 'STREAMS', 's1', 's2', '>', '>');
      expect(total(read(h, 'c', 'MAXCOUNT', 12, 'STREAMS', 's1', 's2', '0', '0'))).toBe(12);
      expect(read(h, 'c', 'MAXCOUNT', 1, 'STREAMS', 's1', 's2', '0', '0')).toEqual([['s1', [['1-0', ['f', 'v']]]]]);
    });
  });

  describe('consumers on 7.0 (checked on redis-server 7.0.15)', () => {
    beforeEach(() => {
      h.version = '7.0';
      xadd(h, 's', '1-0');
      createGroup(h, 's', 'g', '$');
      h.events.length = 0;
    });

    it('a > read that returns nothing does not create the consumer', () => {
      expect(read(h, 'c1', 'STREAMS', 's', '>')).toBeNull();
      expect(consumerTimes(h, 'c1')).toBeUndefined();
      expect(h.events).toEqual([]);
    });

    it('a history read creates it even when empty', () => {
      expect(read(h, 'c2', 'STREAMS', 's', '0')).toEqual([['s', []]]);
      expect(consumerTimes(h, 'c2')?.[0]).toBe(T0);
      expect(h.events).toEqual([['xgroup-createconsumer', 's']]);
    });

    it('a blocked read creates it only when woken and served', () => {
      const req = block(h, 'XREADGROUP', 'GROUP', 'g', 'c4', 'BLOCK', 0, 'STREAMS', 's', '>');
      expect(consumerTimes(h, 'c4')).toBeUndefined();
      h.now += 10;
      xadd(h, 's', '2-0');
      expect(req.retry(retryCtx(h))).toEqual([['s', [E('2-0')]]]);
      expect(consumerTimes(h, 'c4')?.[0]).toBe(T0 + 10);
      expect(pel(h)).toEqual([['2-0', 'c4', T0 + 10, 1n]]);
    });

    it('seen-time moves only for streams that are served', () => {
      xadd(h, 't', '1-0');
      createGroup(h, 't', 'g', '$');
      read(h, 'c', 'STREAMS', 's', 't', '0', '0');
      h.now += 10;
      xadd(h, 't', '2-0');
      read(h, 'c', 'STREAMS', 's', 't', '>', '>');
      expect(consumerTimes(h, 'c', 's')?.[0]).toBe(T0);
      expect(consumerTimes(h, 'c', 't')?.[0]).toBe(T0 + 10);
    });
  });

  describe('blocking', () => {
    beforeEach(() => {
      xadd(h, 's', '1-0');
      createGroup(h, 's', 'g', '$');
    });

    it('returns a BlockRequest and creates the consumer at once (7.2+)', () => {
      const req = block(h, 'XREADGROUP', 'GROUP', 'g', 'Alice', 'BLOCK', 100, 'STREAMS', 's', '>');
      expect(req).toMatchObject({ kind: 'block', keys: ['s'], timeoutMs: 100, wakeAt: null });
      expect(consumerTimes(h, 'Alice')).toEqual([T0, -1]);
      h.now += 20;
      expect(isBlockRequest(req.retry(retryCtx(h)))).toBe(true);
      expect(consumerTimes(h, 'Alice')).toEqual([T0 + 20, -1]); // every re-run is an attempt
      xadd(h, 's', '2-0');
      expect(req.retry(retryCtx(h))).toEqual([['s', [E('2-0')]]]);
      expect(consumerTimes(h, 'Alice')).toEqual([T0 + 20, T0 + 20]);
    });

    it('a key that is deleted answers NOGROUP on the re-run', () => {
      const req = block(h, 'XREADGROUP', 'GROUP', 'g', 'Alice', 'BLOCK', 0, 'STREAMS', 's', '>');
      h.keys.delete('s');
      expect(retryError(h, req)).toBe(NOGROUP('s', 'g'));
    });

    it('a key that changes type answers WRONGTYPE', () => {
      const req = block(h, 'XREADGROUP', 'GROUP', 'g', 'Alice', 'BLOCK', 0, 'STREAMS', 's', '>');
      h.keys.set('s', 'x');
      expect(retryError(h, req)).toBe(WRONGTYPE);
    });

    it('XGROUP DESTROY answers NOGROUP', () => {
      const req = block(h, 'XREADGROUP', 'GROUP', 'g', 'Alice', 'BLOCK', 0, 'STREAMS', 's', '>');
      h.run('XGROUP', 'DESTROY', 's', 'g');
      expect(retryError(h, req)).toBe(NOGROUP('s', 'g'));
    });

    it('of two readers of one group, the first re-run takes the entry and the other waits', () => {
      const rd1 = block(h, 'XREADGROUP', 'GROUP', 'g', 'c1', 'BLOCK', 0, 'STREAMS', 's', '>');
      const rd2 = block(h, 'XREADGROUP', 'GROUP', 'g', 'c2', 'BLOCK', 1000, 'STREAMS', 's', '>');
      h.now += 200;
      xadd(h, 's', '2-0');
      expect(rd1.retry(retryCtx(h))).toEqual([['s', [E('2-0')]]]);
      const again = rd2.retry(retryCtx(h));
      expect(isBlockRequest(again) && again.timeoutMs).toBe(1000);
    });

    it('cannot block inside MULTI or scripts: nil at once', () => {
      h.canBlock = false;
      expect(read(h, 'c', 'BLOCK', 0, 'STREAMS', 's', '>')).toBeNull();
    });

    it('never blocks for a history ID', () => {
      expect(read(h, 'c', 'BLOCK', 0, 'STREAMS', 's', '0')).toEqual([['s', []]]);
    });

    it('honours MAXCOUNT after waking', () => {
      const req = block(h, 'XREADGROUP', 'GROUP', 'g', 'c', 'MAXCOUNT', 1, 'BLOCK', 0, 'STREAMS', 's', '>');
      xadd(h, 's', '2-0', '3-0');
      expect(req.retry(retryCtx(h))).toEqual([['s', [E('2-0')]]]);
    });

    describe('7.0 wake-up (checked on redis-server 7.0.15)', () => {
      beforeEach(() => {
        h.version = '7.0';
      });

      it('answers UNBLOCKED when the key is deleted or changes type', () => {
        const req = block(h, 'XREADGROUP', 'GROUP', 'g', 'c', 'BLOCK', 0, 'STREAMS', 's', '>');
        h.keys.delete('s');
        expect(retryError(h, req)).toBe('UNBLOCKED the stream key no longer exists');
        xadd(h, 's', '1-0');
        createGroup(h, 's', 'g', '$');
        const req2 = block(h, 'XREADGROUP', 'GROUP', 'g', 'c', 'BLOCK', 0, 'STREAMS', 's', '>');
        h.keys.set('s', 'x');
        expect(retryError(h, req2)).toBe('UNBLOCKED the stream key no longer exists');
      });

      it('answers a NOGROUP of its own when the group is destroyed', () => {
        const req = block(h, 'XREADGROUP', 'GROUP', 'g', 'c', 'BLOCK', 0, 'STREAMS', 's', '>');
        h.run('XGROUP', 'DESTROY', 's', 'g');
        expect(retryError(h, req)).toBe('NOGROUP the consumer group this client was blocked on no longer exists');
      });

      it('serves [key, []] when the new entry was deleted in the same transaction', () => {
        const req = block(h, 'XREADGROUP', 'GROUP', 'g', 'c', 'BLOCK', 0, 'STREAMS', 's', '>');
        xadd(h, 's', '2-0');
        h.run('XDEL', 's', '2-0');
        expect(req.retry(retryCtx(h))).toEqual([['s', []]]);
        expect(consumerTimes(h, 'c')).toBeDefined();
      });

      it('serves at most 1000 entries without COUNT, from the group position', () => {
        const req = block(h, 'XREADGROUP', 'GROUP', 'g', 'c', 'BLOCK', 0, 'STREAMS', 's', '>');
        for (let i = 2; i <= 1501; i++) h.run('XADD', 's', `${i}-0`, 'f', 'v');
        expect(((req.retry(retryCtx(h)) as [string, Reply[]][])[0][1]).length).toBe(1000);
        expect(formatId(group(h).lastId)).toBe('1001-0');
      });

      it('after XGROUP SETID back, a woken reader starts from the group position', () => {
        const req = block(h, 'XREADGROUP', 'GROUP', 'g', 'c', 'COUNT', 1, 'BLOCK', 0, 'STREAMS', 's', '>');
        h.run('XGROUP', 'SETID', 's', 'g', '0');
        xadd(h, 's', '3-0');
        expect(req.retry(retryCtx(h))).toEqual([['s', [E('1-0')]]]);
      });

      it('serves only the signalled key', () => {
        xadd(h, 't', '1-0');
        createGroup(h, 't', 'g', '$');
        const req = block(h, 'XREADGROUP', 'GROUP', 'g', 'c', 'BLOCK', 0, 'STREAMS', 's', 't', '>', '>');
        xadd(h, 't', '2-0');
        xadd(h, 's', '2-0');
        const retry = req.retry as (ctx: CommandContext, key?: string) => Reply | BlockRequest;
        expect(retry(retryCtx(h), 't')).toEqual([['t', [E('2-0')]]]);
        expect(formatId(group(h, 's').lastId)).toBe('1-0');
      });
    });
  });

  describe('error cases', () => {
    beforeEach(() => {
      xadd(h, 's', '1-0');
      createGroup(h);
      h.keys.set('str', 'x');
    });

    it('rejects an unbalanced STREAMS list, with the text of each version', () => {
      const v72 = "ERR Unbalanced 'xreadgroup' list of streams: for each stream key an ID or '>' must be specified.";
      expect(h.error('XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', 's', 'a', 'b')).toBe(v72);
      expect(h.error('XREADGROUP', 'COUNT', 1, 'STREAMS', 's', '>', 'GROUP')).toBe(v72);
      h.version = '7.2';
      expect(h.error('XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', 's', 'a', 'b')).toBe(v72);
      h.version = '7.0';
      expect(h.error('XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', 's', '1-0', 'extra')).toBe(
        "ERR Unbalanced XREAD list of streams: for each stream key an ID or '$' must be specified.",
      );
    });

    it('requires GROUP', () => {
      expect(h.error('XREADGROUP', 'COUNT', 1, 'NOACK', 'STREAMS', 's', '>')).toBe('ERR Missing GROUP option for XREADGROUP');
      expect(h.error('XREADGROUP', 'GROUP', 'g', 'STREAMS', 's', 't', '>', '>')).toBe('ERR syntax error');
      expect(h.error('XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS')).toBe("ERR wrong number of arguments for 'xreadgroup' command");
    });

    it('rejects $ and + as IDs', () => {
      expect(h.error('XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', 's', '$')).toBe(MEANINGLESS('$'));
      expect(h.error('XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', 's', '+')).toBe(MEANINGLESS('+'));
      h.version = '7.0';
      expect(h.error('XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', 's', '$')).toBe(MEANINGLESS('$'));
      expect(h.error('XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', 's', '+')).toBe(INVALID_ID);
    });

    it('checks each stream in order: WRONGTYPE, NOGROUP, then the ID', () => {
      expect(h.error('XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', 's', 'str', 'bad', '>')).toBe(INVALID_ID);
      expect(h.error('XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', 'str', 's', '>', 'bad')).toBe(WRONGTYPE);
      expect(h.error('XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', 'nokey', 'str', '>', '>')).toBe(NOGROUP('nokey', 'g'));
      expect(h.error('XREADGROUP', 'GROUP', 'nog', 'c', 'STREAMS', 's', '>')).toBe(NOGROUP('s', 'nog'));
      expect(h.error('XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', 's', 'nokey', '$', '>')).toBe(MEANINGLESS('$'));
      for (const bad of ['0-1-2', '1-', '-']) expect(h.error('XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', 's', bad)).toBe(INVALID_ID);
      // nothing was created along the way
      expect(group(h).consumers.size).toBe(0);
    });

    it('rejects bad option values before looking at keys', () => {
      expect(h.error('XREADGROUP', 'GROUP', 'g', 'c', 'COUNT', 'x', 'STREAMS', 'str', '>')).toBe(
        'ERR value is not an integer or out of range',
      );
      expect(h.error('XREADGROUP', 'GROUP', 'g', 'c', 'BLOCK', 10, 'BLOCK', 'x', 'STREAMS', 's', '>')).toBe(
        'ERR timeout is not an integer or out of range',
      );
      expect(h.error('XREADGROUP', 'GROUP', 'g', 'c', 'BLOCK', -1, 'STREAMS', 's', '>')).toBe('ERR timeout is negative');
      expect(h.error('XREADGROUP', 'GROUP', 'g', 'c', 'FOO', 'STREAMS', 's', '>')).toBe('ERR syntax error');
    });

    it('rejects bad CLAIM values (cg.tcl@8.8)', () => {
      const claim = (v: string) => h.error('XREADGROUP', 'GROUP', 'g', 'c', 'CLAIM', v, 'STREAMS', 's', '>');
      expect(claim('-10')).toBe('ERR min-idle-time must be a positive integer');
      expect(claim('5.5')).toBe('ERR min-idle-time is not an integer');
      expect(claim('-0')).toBe('ERR min-idle-time is not an integer');
      expect(claim('+10')).toBe('ERR min-idle-time is not an integer');
      // a missing value swallows the next token
      expect(h.error('XREADGROUP', 'GROUP', 'g', 'c', 'CLAIM', 'STREAMS', 's', 't', '>', '>')).toBe(
        'ERR min-idle-time is not an integer',
      );
      // GROUP takes the next two tokens, so CLAIM becomes the consumer name
      expect(h.error('XREADGROUP', 'GROUP', 'g', 'CLAIM', '50', 'c', 'STREAMS', 's', '>')).toBe('ERR syntax error');
      // CLAIM may come before GROUP
      expect(h.run('XREADGROUP', 'CLAIM', 0, 'GROUP', 'g', 'c', 'STREAMS', 's', '>')).toEqual([
        ['s', [['1-0', ['f', 'v1-0'], 0, 0]]],
      ]);
    });

    it('treats CLAIM before 8.4 and MAXCOUNT/MAXSIZE before 8.10 as syntax errors', () => {
      h.version = '8.2';
      expect(h.error('XREADGROUP', 'GROUP', 'g', 'c', 'CLAIM', 10, 'STREAMS', 's', '>')).toBe('ERR syntax error');
      h.version = '8.8';
      expect(h.error('XREADGROUP', 'GROUP', 'g', 'c', 'MAXCOUNT', 1, 'STREAMS', 's', '>')).toBe('ERR syntax error');
      expect(h.error('XREADGROUP', 'GROUP', 'g', 'c', 'MAXSIZE', 1, 'STREAMS', 's', '>')).toBe('ERR syntax error');
      h.version = '7.0';
      expect(h.error('XREADGROUP', 'GROUP', 'g', 'c', 'CLAIM', 10, 'STREAMS', 's', '>')).toBe('ERR syntax error');
    });

    it('rejects bad MAXCOUNT and MAXSIZE values', () => {
      const rg = (...opts: (string | number)[]) => h.error('XREADGROUP', 'GROUP', 'g', 'c', ...opts, 'STREAMS', 's', '>');
      expect(rg('MAXCOUNT', 0)).toBe('ERR MAXCOUNT must be a positive integer');
      expect(rg('MAXCOUNT', 'x')).toBe('ERR MAXCOUNT must be a positive integer');
      expect(rg('MAXSIZE', -5)).toBe('ERR MAXSIZE must be a positive integer');
      expect(rg('COUNT', 10, 'MAXCOUNT', 5)).toBe('ERR MAXCOUNT must be greater than or equal to COUNT');
      expect(h.run('XREADGROUP', 'GROUP', 'g', 'c', 'COUNT', 5, 'MAXCOUNT', 5, 'STREAMS', 's', '>')).toEqual([['s', [E('1-0')]]]);
    });
  });
});
