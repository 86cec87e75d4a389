import { Harness } from '../helpers/harness';
import type { BlockRequest, CommandContext, Reply } from '../../lib/commands/types';
import { isBlockRequest } from '../../lib/commands/types';
import { CommandError } from '../../lib/errors';

const UNBALANCED_810 =
  "ERR Unbalanced 'xread' list of streams: for each stream key an ID, '+', or '$' must be specified.";
const UNBALANCED_72 = "ERR Unbalanced 'xread' list of streams: for each stream key an ID or '$' must be specified.";
const UNBALANCED_70 = "ERR Unbalanced XREAD list of streams: for each stream key an ID or '$' must be specified.";
const INVALID_ID = 'ERR Invalid stream ID specified as stream command argument';
const WRONGTYPE = 'WRONGTYPE Operation against a key holding the wrong kind of value';

function xadd(h: Harness, key: string, ...ids: string[]): void {
  for (const id of ids) expect(h.run('XADD', key, id, 'f', `v${id}`)).toBe(id);
}
const E = (id: string): Reply => [id, ['f', `v${id}`]];

function block(h: Harness, ...argv: (string | number)[]): BlockRequest {
  const r = h.run(...argv);
  if (!isBlockRequest(r)) throw new Error(`expected a BlockRequest, got ${JSON.stringify(r)}`);
  return r;
}
function retryCtx(h: Harness): CommandContext {
  return { ...h.ctx(), isRetry: true };
}
function retryError(h: Harness, req: BlockRequest, signalledKey?: string): string {
  try {
    (req.retry as (ctx: CommandContext, key?: string) => Reply | BlockRequest)(retryCtx(h), signalledKey);
  } catch (e) {
    if (e instanceof CommandError) return e.message;
    throw e;
  }
  throw new Error('expected the retry to fail');
}

describe('XREAD', () => {
  let h: Harness;
  beforeEach(() => {
    h = new Harness();
  });

  describe('reading', () => {
    it('returns the entries after the given ID, per stream', () => {
      xadd(h, 's', '1-0', '2-0', '3-0');
      expect(h.run('XREAD', 'STREAMS', 's', '1-0')).toEqual([['s', [E('2-0'), E('3-0')]]]);
      expect(h.run('XREAD', 'STREAMS', 's', '1')).toEqual([['s', [E('2-0'), E('3-0')]]]);
      expect(h.run('XREAD', 'STREAMS', 's', '0')).toEqual([['s', [E('1-0'), E('2-0'), E('3-0')]]]);
    });

    it('keeps field order and duplicate fields', () => {
      h.run('XADD', 's', '1-0', 'b', '1', 'a', '2', 'b', '3');
      expect(h.run('XREAD', 'STREAMS', 's', '0')).toEqual([['s', [['1-0', ['b', '1', 'a', '2', 'b', '3']]]]]);
    });

    it('COUNT limits each stream; negative or 0 means no limit', () => {
      xadd(h, 's', '1-0', '2-0', '3-0');
      xadd(h, 't', '1-0', '2-0');
      expect(h.run('XREAD', 'COUNT', 1, 'STREAMS', 's', 't', 0, 0)).toEqual([
        ['s', [E('1-0')]],
        ['t', [E('1-0')]],
      ]);
      expect(h.run('XREAD', 'COUNT', -5, 'STREAMS', 's', 0)).toEqual([['s', [E('1-0'), E('2-0'), E('3-0')]]]);
      expect(h.run('XREAD', 'COUNT', 0, 'STREAMS', 's', 0)).toEqual([['s', [E('1-0'), E('2-0'), E('3-0')]]]);
      expect(h.run('xread', 'count', 2, 'count', 1, 'streams', 's', 0)).toEqual([['s', [E('1-0')]]]);
    });

    it('leaves out streams with nothing newer and replies nil when none has anything', () => {
      xadd(h, 's', '1-0');
      xadd(h, 't', '5-0');
      expect(h.run('XREAD', 'STREAMS', 'nokey', 's', 't', 0, '1-0', '1-0')).toEqual([['t', [E('5-0')]]]);
      expect(h.run('XREAD', 'STREAMS', 's', 't', '1-0', '5-0')).toBeNull();
      // stream.tcl: XREAD on missing keys
      expect(h.run('XREAD', 'STREAMS', 's1', 's2', '0-0', '0-0')).toBeNull();
    });

    it('handles a key listed twice independently', () => {
      xadd(h, 's', '1-0', '2-0');
      expect(h.run('XREAD', 'STREAMS', 's', 's', 0, '1-0')).toEqual([
        ['s', [E('1-0'), E('2-0')]],
        ['s', [E('2-0')]],
      ]);
    });

    it('serves only live entries (a stream whose last entries were deleted is not served)', () => {
      xadd(h, 's', '666-0', '667-0');
      h.run('XDEL', 's', '667');
      expect(h.run('XREAD', 'STREAMS', 's', '666')).toBeNull();
      expect(h.run('XREAD', 'STREAMS', 's', '0')).toEqual([['s', [E('666-0')]]]);
    });

    it('`$` means the last-generated ID: nothing to read without BLOCK', () => {
      xadd(h, 's', '1-0');
      expect(h.run('XREAD', 'STREAMS', 's', '$')).toBeNull();
    });

    it('accepts the largest IDs', () => {
      xadd(h, 'x', '1-1', '1-18446744073709551615', '2-1');
      // stream.tcl "XREAD streamID edge (blocking)": served at once
      expect(h.run('XREAD', 'BLOCK', 0, 'STREAMS', 'x', '1-18446744073709551615')).toEqual([['x', [E('2-1')]]]);
      expect(h.run('XREAD', 'STREAMS', 'x', '18446744073709551615-18446744073709551615')).toBeNull();
    });

    it('makes no state change and emits no event', () => {
      xadd(h, 's', '1-0');
      h.events.length = 0;
      h.signals.length = 0;
      h.run('XREAD', 'STREAMS', 's', 0);
      expect(h.events).toEqual([]);
      expect(h.signals).toEqual([]);
    });
  });

  describe('the + ID (7.4+)', () => {
    it('returns only the last entry, whatever COUNT', () => {
      h.run('XADD', 's', '1-0', 'k1', 'v1');
      h.run('XADD', 's', '2-0', 'k2', 'v2');
      h.run('XADD', 's', '3-0', 'k3', 'v3');
      expect(h.run('XREAD', 'STREAMS', 's', '+')).toEqual([['s', [['3-0', ['k3', 'v3']]]]]);
      expect(h.run('XREAD', 'COUNT', 3, 'STREAMS', 's', '+')).toEqual([['s', [['3-0', ['k3', 'v3']]]]]);
    });

    it('returns nothing when the last entry was deleted (XREAD last element from empty stream)', () => {
      xadd(h, 's', '1-0');
      h.run('XDEL', 's', '1-0');
      expect(h.run('XREAD', 'STREAMS', 's', '+')).toBeNull();
      xadd(h, 't', '1-0', '2-0');
      h.run('XDEL', 't', '2-0');
      expect(h.run('XREAD', 'STREAMS', 't', '+')).toBeNull();
    });

    it('mixes with other IDs and missing keys', () => {
      xadd(h, 's', '1-0', '2-0');
      expect(h.run('XREAD', 'STREAMS', 'nokey', 's', '+', '+')).toEqual([['s', [E('2-0')]]]);
      expect(h.run('XREAD', 'STREAMS', 's', 's', '+', '0')).toEqual([
        ['s', [E('2-0')]],
        ['s', [E('1-0'), E('2-0')]],
      ]);
    });

    it('fails on a stream whose last ID is still 0-0', () => {
      h.run('XGROUP', 'CREATE', 's', 'g', '$', 'MKSTREAM');
      expect(h.error('XREAD', 'STREAMS', 's', '+')).toBe('ERR the stream last element ID is 0-0');
    });

    it('is an invalid ID before 7.4 (checked on 7.0.15)', () => {
      xadd(h, 's', '1-0');
      for (const v of ['7.0', '7.2'] as const) {
        h.version = v;
        expect(h.error('XREAD', 'STREAMS', 's', '+')).toBe(INVALID_ID);
        expect(h.error('XREAD', 'STREAMS', 'nokey', '+')).toBe(INVALID_ID);
      }
    });
  });

  describe('MAXCOUNT and MAXSIZE (8.10)', () => {
    beforeEach(() => {
      for (const k of ['s1', 's2', 's3']) xadd(h, k, '1-0', '2-0', '3-0');
    });

    it('MAXCOUNT caps the total across streams, filling from the first stream', () => {
      expect(h.run('XREAD', 'COUNT', 2, 'MAXCOUNT', 3, 'STREAMS', 's1', 's2', 's3', 0, 0, 0)).toEqual([
        ['s1', [E('1-0'), E('2-0')]],
        ['s2', [E('1-0')]],
      ]);
      expect(h.run('XREAD', 'MAXCOUNT', 4, 'STREAMS', 's1', 's2', 's3', 0, 0, 0)).toEqual([
        ['s1', [E('1-0'), E('2-0'), E('3-0')]],
        ['s2', [E('1-0')]],
      ]);
      expect(h.run('XREAD', 'MAXCOUNT', 100, 'COUNT', 1, 'STREAMS', 's1', 's2', 's3', 0, 0, 0)).toEqual([
        ['s1', [E('1-0')]],
        ['s2', [E('1-0')]],
        ['s3', [E('1-0')]],
      ]);
    });

    it('MAXSIZE is soft: at least one entry, then stop once the byte budget is reached', () => {
      expect(h.run('XREAD', 'MAXSIZE', 1, 'STREAMS', 's1', 's2', 0, 0)).toEqual([['s1', [E('1-0')]]]);
      // Per entry `*2\r\n$3\r\n1-0\r\n*2\r\n$1\r\nf\r\n$4\r\nv1-0\r\n` = 34 bytes; stream header
      // `*2\r\n$2\r\ns1\r\n` = 12 bytes: after 12 + 34 + 34 = 80 bytes a budget of 80 is used up.
      expect(h.run('XREAD', 'MAXSIZE', 80, 'STREAMS', 's1', 's2', 0, 0)).toEqual([['s1', [E('1-0'), E('2-0')]]]);
      expect(h.run('XREAD', 'MAXSIZE', 81, 'STREAMS', 's1', 's2', 0, 0)).toEqual([
        ['s1', [E('1-0'), E('2-0'), E('3-0')]],
      ]);
      // 12 + 3×34 = 114; the next stream header brings it to 126: s2 gets an entry from 127 on,
      // and is left out below that.
      expect(h.run('XREAD', 'MAXSIZE', 127, 'STREAMS', 's1', 's2', 0, 0)).toEqual([
        ['s1', [E('1-0'), E('2-0'), E('3-0')]],
        ['s2', [E('1-0')]],
      ]);
      expect(h.run('XREAD', 'MAXSIZE', 126, 'STREAMS', 's1', 's2', 0, 0)).toEqual([
        ['s1', [E('1-0'), E('2-0'), E('3-0')]],
      ]);
    });

    it('whichever bound is reached first wins', () => {
      expect(h.run('XREAD', 'MAXCOUNT', 2, 'MAXSIZE', 100000, 'STREAMS', 's1', 's2', 0, 0)).toEqual([
        ['s1', [E('1-0'), E('2-0')]],
      ]);
      expect(h.run('XREAD', 'MAXCOUNT', 9, 'MAXSIZE', 1, 'STREAMS', 's1', 's2', 0, 0)).toEqual([['s1', [E('1-0')]]]);
    });

    it('keeps an empty result empty', () => {
      expect(h.run('XREAD', 'MAXCOUNT', 5, 'STREAMS', 's1', '3-0')).toBeNull();
    });
  });

  describe('blocking', () => {
    it('returns a BlockRequest when nothing can be served', () => {
      xadd(h, 's', '1-0');
      const req = block(h, 'XREAD', 'BLOCK', 1500, 'STREAMS', 's', 't', 's', '$', '$', '1-0');
      expect(req.kind).toBe('block');
      expect(req.keys).toEqual(['s', 't']);
      expect(req.timeoutMs).toBe(1500);
      expect(req.wakeAt).toBeNull();
      expect(block(h, 'XREAD', 'BLOCK', 0, 'STREAMS', 's', '$').timeoutMs).toBe(0);
    });

    it('re-executes with `$` pinned to the ID seen when blocking', () => {
      xadd(h, 's', '1-0');
      const req = block(h, 'XREAD', 'BLOCK', 0, 'STREAMS', 's', '$');
      const again = req.retry(retryCtx(h));
      expect(isBlockRequest(again)).toBe(true);
      xadd(h, 's', '2-0', '3-0');
      expect(req.retry(retryCtx(h))).toEqual([['s', [E('2-0'), E('3-0')]]]);
    });

    it('`$` on a missing key waits for entries after 0-0', () => {
      const req = block(h, 'XREAD', 'BLOCK', 0, 'STREAMS', 's', '$');
      xadd(h, 's', '1-0');
      expect(req.retry(retryCtx(h))).toEqual([['s', [E('1-0')]]]);
    });

    it('XADD + DEL does not serve a `$` reader; a later XADD does (stream.tcl)', () => {
      const req = block(h, 'XREAD', 'BLOCK', 20000, 'STREAMS', 's1', '$');
      h.run('XADD', 's1', '*', 'old', 'x');
      h.keys.delete('s1');
      const again = req.retry(retryCtx(h));
      expect(isBlockRequest(again)).toBe(true);
      h.now += 1;
      const id = h.run('XADD', 's1', '*', 'new', 'x') as string;
      expect((again as BlockRequest).retry(retryCtx(h))).toEqual([['s1', [[id, ['new', 'x']]]]]);
    });

    it('keeps `+` as is: a woken reader gets only the newest entry', () => {
      xadd(h, 's', '1-0');
      h.run('XDEL', 's', '1-0');
      const req = block(h, 'XREAD', 'BLOCK', 0, 'STREAMS', 's', '+');
      xadd(h, 's', '2-0', '3-0');
      expect(req.retry(retryCtx(h))).toEqual([['s', [E('3-0')]]]);
    });

    it('blocks when the only newer entries are deleted, then times out (stream.tcl)', () => {
      h.run('XADD', 's', '666', 'f', 'v');
      h.run('XADD', 's', '667', 'f2', 'v2');
      h.run('XDEL', 's', '667');
      const req = block(h, 'XREAD', 'BLOCK', 10, 'STREAMS', 's', '666');
      expect(req.timeoutMs).toBe(10);
      expect(isBlockRequest(req.retry(retryCtx(h)))).toBe(true);
    });

    it('is not woken when its key is deleted or overwritten with another type (7.2+)', () => {
      // Checked on the 4f8cdc2a tree (fixture xreadgroup-block-rerun-on-del-type-destroy).
      xadd(h, 's', '1-0');
      const req = block(h, 'XREAD', 'BLOCK', 0, 'STREAMS', 's', '$');
      const retry = req.retry as (ctx: CommandContext, key?: string) => Reply | BlockRequest;
      h.keys.set('s', 'a string');
      expect(isBlockRequest(retry(retryCtx(h), 's'))).toBe(true);
      h.keys.delete('s');
      expect(isBlockRequest(retry(retryCtx(h), 's'))).toBe(true);
      xadd(h, 's', '2-0');
      expect(retry(retryCtx(h), 's')).toEqual([['s', [E('2-0')]]]);
    });

    it('a re-run woken by one key answers WRONGTYPE when another listed key changed type (7.2+)', () => {
      // Checked on the 4f8cdc2a tree: XREAD BLOCK 0 STREAMS s t $ $; SET s x; XADD t 1-0.
      const req = block(h, 'XREAD', 'BLOCK', 0, 'STREAMS', 's', 't', '$', '$');
      h.keys.set('s', 'a string');
      xadd(h, 't', '1-0');
      expect(retryError(h, req, 't')).toBe(WRONGTYPE);
    });

    it('cannot block inside MULTI or scripts: nil at once, even with BLOCK 0', () => {
      h.canBlock = false;
      expect(h.run('XREAD', 'BLOCK', 0, 'STREAMS', 's', '$')).toBeNull();
      xadd(h, 's', '1-0');
      expect(h.run('XREAD', 'BLOCK', 0, 'STREAMS', 's', '0')).toEqual([['s', [E('1-0')]]]);
    });

    it('honours MAXCOUNT after waking', () => {
      const req = block(h, 'XREAD', 'MAXCOUNT', 1, 'BLOCK', 0, 'STREAMS', 's', '$');
      xadd(h, 's', '1-0', '2-0');
      expect(req.retry(retryCtx(h))).toEqual([['s', [E('1-0')]]]);
    });

    describe('7.0 wake-up (checked on redis-server 7.0.15)', () => {
      beforeEach(() => {
        h.version = '7.0';
      });

      it('serves the stream once its last ID moved, even if the new entries are gone', () => {
        xadd(h, 's', '1-0');
        const req = block(h, 'XREAD', 'BLOCK', 0, 'STREAMS', 's', '$');
        xadd(h, 's', '2-0');
        h.run('XDEL', 's', '2-0');
        expect(req.retry(retryCtx(h))).toEqual([['s', []]]);
      });

      it('serves at most 1000 entries without COUNT', () => {
        const req = block(h, 'XREAD', 'BLOCK', 0, 'STREAMS', 's', '$');
        for (let i = 1; i <= 1500; i++) h.run('XADD', 's', `${i}-0`, 'f', 'v');
        const reply = req.retry(retryCtx(h)) as [string, Reply[]][];
        expect(reply[0][1]).toHaveLength(1000);
        const req2 = block(h, 'XREAD', 'COUNT', 1200, 'BLOCK', 0, 'STREAMS', 's', '$');
        for (let i = 1501; i <= 3000; i++) h.run('XADD', 's', `${i}-0`, 'f', 'v');
        expect((req2.retry(retryCtx(h)) as [string, Reply[]][])[0][1]).toHaveLength(1200);
      });

      it('serves only the signalled key', () => {
        xadd(h, 's', '1-0');
        xadd(h, 't', '1-0');
        const req = block(h, 'XREAD', 'BLOCK', 0, 'STREAMS', 's', 't', '$', '$');
        xadd(h, 't', '2-0');
        xadd(h, 's', '2-0');
        const retry = req.retry as (ctx: CommandContext, key?: string) => Reply | BlockRequest;
        expect(retry(retryCtx(h), 't')).toEqual([['t', [E('2-0')]]]);
        // without the signalled key, the first servable key in argument order
        expect(req.retry(retryCtx(h))).toEqual([['s', [E('2-0')]]]);
      });

      it('keeps waiting when the key is deleted or holds another type', () => {
        xadd(h, 's', '1-0');
        const req = block(h, 'XREAD', 'BLOCK', 0, 'STREAMS', 's', '$');
        h.keys.set('s', 'x');
        expect(isBlockRequest(req.retry(retryCtx(h)))).toBe(true);
        h.keys.delete('s');
        expect(isBlockRequest(req.retry(retryCtx(h)))).toBe(true);
      });

      it('accepts a BLOCK value whose deadline overflows and waits forever', () => {
        expect(block(h, 'XREAD', 'BLOCK', '9223372036854775807', 'STREAMS', 's', '$').timeoutMs).toBe(0);
      });
    });
  });

  describe('error cases', () => {
    it('rejects an unbalanced STREAMS list, with the text of each version', () => {
      expect(h.error('XREAD', 'COUNT', 1, 'STREAMS', 's')).toBe(UNBALANCED_810);
      expect(h.error('XREAD', 'STREAMS', 's', 'a', 'b')).toBe(UNBALANCED_810);
      h.version = '7.4';
      expect(h.error('XREAD', 'STREAMS', 's', 'a', 'b')).toBe(UNBALANCED_72);
      h.version = '7.2';
      expect(h.error('XREAD', 'STREAMS', 's', 'a', 'b')).toBe(UNBALANCED_72);
      h.version = '7.0';
      expect(h.error('XREAD', 'STREAMS', 's', 'a', 'b')).toBe(UNBALANCED_70);
      expect(h.error('XREAD', 'STREAMS', 's', '0', 'STREAMS', 's', '0')).toBe(UNBALANCED_70);
    });

    it('rejects the XREADGROUP options', () => {
      expect(h.error('XREAD', 'GROUP', 'g', 'c', 'STREAMS', 's', '0')).toBe(
        'ERR The GROUP option is only supported by XREADGROUP. You called XREAD instead.',
      );
      expect(h.error('XREAD', 'NOACK', 'STREAMS', 's', '0')).toBe(
        'ERR The NOACK option is only supported by XREADGROUP. You called XREAD instead.',
      );
      expect(h.error('XREAD', 'CLAIM', 10, 'STREAMS', 's', '0')).toBe(
        'ERR The CLAIM option is only supported by XREADGROUP. You called XREAD instead.',
      );
      expect(h.error('XREAD', 'STREAMS', 's', '>')).toBe(
        'ERR The > ID can be specified only when calling XREADGROUP using the GROUP <group> <consumer> option.',
      );
    });

    it('treats CLAIM before 8.4 and MAXCOUNT/MAXSIZE before 8.10 as syntax errors', () => {
      h.version = '8.2';
      expect(h.error('XREAD', 'CLAIM', 10, 'STREAMS', 's', '0')).toBe('ERR syntax error');
      h.version = '8.8';
      expect(h.error('XREAD', 'MAXCOUNT', 1, 'STREAMS', 's', '0')).toBe('ERR syntax error');
      expect(h.error('XREAD', 'MAXSIZE', 1, 'STREAMS', 's', '0')).toBe('ERR syntax error');
      h.version = '7.0';
      expect(h.error('XREAD', 'CLAIM', 10, 'STREAMS', 's', '0')).toBe('ERR syntax error');
      expect(h.error('XREAD', 'MAXCOUNT', 1, 'STREAMS', 's', '0')).toBe('ERR syntax error');
    });

    it('rejects bad option values', () => {
      expect(h.error('XREAD', 'COUNT', 'x', 'STREAMS', 's', '0')).toBe('ERR value is not an integer or out of range');
      expect(h.error('XREAD', 'COUNT', '1.5', 'STREAMS', 's', '0')).toBe('ERR value is not an integer or out of range');
      expect(h.error('XREAD', 'BLOCK', -1, 'STREAMS', 's', '0')).toBe('ERR timeout is negative');
      expect(h.error('XREAD', 'BLOCK', 'x', 'STREAMS', 's', '0')).toBe('ERR timeout is not an integer or out of range');
      expect(h.error('XREAD', 'BLOCK', '9223372036854775807', 'STREAMS', 's', '0')).toBe('ERR timeout is out of range');
      expect(h.error('XREAD', 'MAXCOUNT', 0, 'STREAMS', 's', '0')).toBe('ERR MAXCOUNT must be a positive integer');
      expect(h.error('XREAD', 'MAXCOUNT', -1, 'STREAMS', 's', '0')).toBe('ERR MAXCOUNT must be a positive integer');
      expect(h.error('XREAD', 'MAXSIZE', 0, 'STREAMS', 's', '0')).toBe('ERR MAXSIZE must be a positive integer');
      expect(h.error('XREAD', 'COUNT', 5, 'MAXCOUNT', 3, 'STREAMS', 's', '0')).toBe(
        'ERR MAXCOUNT must be greater than or equal to COUNT',
      );
    });

    it('answers syntax error for unknown tokens and a missing STREAMS', () => {
      expect(h.error('XREAD', 'FOO', 'STREAMS', 's', '0')).toBe('ERR syntax error');
      expect(h.error('XREAD', 'COUNT', 1, 'BLOCK')).toBe('ERR syntax error');
      expect(h.error('XREAD', 'COUNT')).toBe("ERR wrong number of arguments for 'xread' command");
    });

    it('checks the streams in order: WRONGTYPE and the ID of the first failing stream', () => {
      xadd(h, 's', '1-0');
      h.keys.set('str', 'x');
      expect(h.error('XREAD', 'STREAMS', 's', 'str', 'bad', '0')).toBe(INVALID_ID);
      expect(h.error('XREAD', 'STREAMS', 'str', 's', '0', 'bad')).toBe(WRONGTYPE);
      expect(h.error('XREAD', 'STREAMS', 'nokey', 's', '0', 'bad')).toBe(INVALID_ID);
      for (const bad of ['0-1-2', '1-', '-1', '-', 'abc']) expect(h.error('XREAD', 'STREAMS', 's', bad)).toBe(INVALID_ID);
    });

    it('parses options before touching keys', () => {
      h.keys.set('str', 'x');
      expect(h.error('XREAD', 'COUNT', 'x', 'STREAMS', 'str', '0')).toBe('ERR value is not an integer or out of range');
    });
  });
});
