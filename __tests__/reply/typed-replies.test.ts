/**
 * Commands answer typed replies carrying the RESP3 type Redis gives them (t_stream.c), and the
 * RESP2 form (what ioredis 5, RESP2 clients and Lua see) flattens them as Redis does.
 */
import { Harness } from '../helpers/harness';
import {
  DoubleReply,
  ErrorReply,
  MapReply,
  NIL_ARRAY,
  PairsReply,
  SimpleString,
  mapPairs,
  toResp2Plain,
} from '../../lib/reply/reply';
import { encodeReply } from '../../lib/adapter/encoding';

function setUp(): Harness {
  const h = new Harness();
  h.run('XADD', 's', '1-1', 'f', 'v');
  h.run('XGROUP', 'CREATE', 's', 'g', '0');
  return h;
}

describe('typed replies of the stream commands', () => {
  it('XGROUP CREATE and XSETID answer the simple string OK (+OK)', () => {
    const h = new Harness();
    h.run('XADD', 's', '1-1', 'f', 'v');
    const created = h.runTyped('XGROUP', 'CREATE', 's', 'g', '$');
    expect(created).toBeInstanceOf(SimpleString);
    expect((created as SimpleString).value).toBe('OK');
    expect(h.runTyped('XSETID', 's', '2-0')).toEqual(new SimpleString('OK'));
  });

  it('HELP lines are simple strings (addReplyHelp)', () => {
    const lines = new Harness().runTyped('XINFO', 'HELP') as SimpleString[];
    expect(lines[0]).toEqual(new SimpleString('XINFO <subcommand> [<arg> [value] [opt] ...]. Subcommands are:'));
    expect(lines.every((l) => l instanceof SimpleString)).toBe(true);
  });

  it('XINFO STREAM, GROUPS and CONSUMERS answer maps (arrays of maps for GROUPS/CONSUMERS)', () => {
    const h = setUp();
    h.run('XREADGROUP', 'GROUP', 'g', 'alice', 'STREAMS', 's', '>');
    const info = h.runTyped('XINFO', 'STREAM', 's') as MapReply;
    expect(info).toBeInstanceOf(MapReply);
    expect(mapPairs(info).map(([k]) => k)).toEqual([
      'length', 'radix-tree-keys', 'radix-tree-nodes', 'last-generated-id', 'max-deleted-entry-id',
      'entries-added', 'recorded-first-entry-id',
      'idmp-duration', 'idmp-maxsize', 'pids-tracked', 'iids-tracked', 'iids-added', 'iids-duplicates',
      'groups', 'first-entry', 'last-entry',
    ]);
    const groups = h.runTyped('XINFO', 'GROUPS', 's') as MapReply[];
    expect(groups).toHaveLength(1);
    expect(groups[0]).toBeInstanceOf(MapReply);
    const consumers = h.runTyped('XINFO', 'CONSUMERS', 's', 'g') as MapReply[];
    expect(consumers[0].items.slice(0, 2)).toEqual(['name', 'alice']);
    const full = h.runTyped('XINFO', 'STREAM', 's', 'FULL') as MapReply;
    const fullGroups = mapPairs(full).find(([k]) => k === 'groups')![1] as MapReply[];
    expect(fullGroups[0]).toBeInstanceOf(MapReply);
    const fullConsumers = mapPairs(fullGroups[0]).find(([k]) => k === 'consumers')![1] as MapReply[];
    expect(fullConsumers[0]).toBeInstanceOf(MapReply);
  });

  it('XREAD/XREADGROUP answer a map of key → entries that RESP2 sends as [key, entries] pairs', () => {
    const h = setUp();
    h.run('XADD', 't', '1-1', 'a', 'b');
    const reply = h.runTyped('XREAD', 'STREAMS', 's', 't', '0', '0') as MapReply;
    expect(reply).toBeInstanceOf(MapReply);
    expect(reply.resp2Pairs).toBe(true);
    expect(reply.items).toEqual(['s', [['1-1', ['f', 'v']]], 't', [['1-1', ['a', 'b']]]]);
    expect(toResp2Plain(reply)).toEqual([
      ['s', [['1-1', ['f', 'v']]]],
      ['t', [['1-1', ['a', 'b']]]],
    ]);
  });

  it('nothing to read, XRANGE COUNT 0 and a deleted history entry answer the nil array (*-1)', () => {
    const h = setUp();
    expect(h.runTyped('XREAD', 'STREAMS', 's', '1-1')).toBe(NIL_ARRAY);
    expect(h.runTyped('XRANGE', 's', '-', '+', 'COUNT', '0')).toBe(NIL_ARRAY);
    h.run('XREADGROUP', 'GROUP', 'g', 'alice', 'STREAMS', 's', '>');
    h.run('XDEL', 's', '1-1');
    const history = h.runTyped('XREADGROUP', 'GROUP', 'g', 'alice', 'STREAMS', 's', '0') as MapReply;
    expect(history.items).toEqual(['s', [['1-1', NIL_ARRAY]]]);
  });

  it('XPENDING summary of an empty PEL: nil, nil and the nil array', () => {
    expect(setUp().runTyped('XPENDING', 's', 'g')).toEqual([0, null, null, NIL_ARRAY]);
  });
});

describe('RESP2 encoding for ioredis (encodeReply)', () => {
  const enc = { buffers: false, stringNumbers: false };

  it('flattens maps, keeps XREAD pairs, turns both nils into null and status into a string', () => {
    expect(encodeReply(new MapReply(['a', 1, 'b', NIL_ARRAY]), enc)).toEqual(['a', 1, 'b', null]);
    expect(encodeReply(new MapReply(['k', [['1-1', ['f', 'v']]]], true), enc)).toEqual([['k', [['1-1', ['f', 'v']]]]]);
    expect(encodeReply(new SimpleString('OK'), enc)).toBe('OK');
    expect(encodeReply(new SimpleString('OK'), { buffers: true, stringNumbers: false })).toEqual(Buffer.from('OK'));
  });

  it('flattens [member, score] pairs to member, score, … with the scores as strings', () => {
    const pairs = new PairsReply([['a', new DoubleReply(1, '1')], ['b', new DoubleReply(2.5, '2.5')]]);
    expect(encodeReply(pairs, enc)).toEqual(['a', '1', 'b', '2.5']);
    expect(toResp2Plain(pairs)).toEqual(['a', '1', 'b', '2.5']);
  });

  it('turns an error reply inside an array into a ReplyError with its text', () => {
    const [err] = encodeReply([new ErrorReply('ERR boom')], enc) as Error[];
    expect(err.name).toBe('ReplyError');
    expect(err.message).toBe('ERR boom');
  });
});
