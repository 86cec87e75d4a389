/**
 * lib/adapter/ioredis-reply.ts against ground truth: what real ioredis 6.0.0 (protocol 2,
 * protocol 3 legacy, protocol 3 resp3, with and without stringNumbers) and ioredis 5.11.1
 * delivered from redis-server 7.0.15 (__tests__/ioredis-replies/recorded.json, written by
 * scripts/record-ioredis-replies.js), for every stream command shape of the recording: the typed
 * reply of the same command on the command layer (emulating 7.0), encoded for each client and
 * each way of calling, must equal the recorded value (Buffers, numbers, objects and key order
 * included; wall-clock values masked).
 */
import recorded from '../ioredis-replies/recorded.json';
import { encodeIoredisReply, replyContextOf, type IoredisReplyContext } from '../../lib/adapter/ioredis-reply';
import { lookupCommand } from '../../lib/commands/dispatch';

/** The stream family (the command registry also holds CONFIG, DUMP, RESTORE, COPY). */
const isStreamCommand = (name: string) => /^x/i.test(name) && lookupCommand(name) !== undefined;
import { isBlockRequest } from '../../lib/commands/types';
import { CommandError } from '../../lib/errors';
import { DoubleReply, MapReply, NIL_ARRAY, PairsReply, SetReply, SimpleString, VerbatimReply, type Reply } from '../../lib/reply/reply';
import { Harness } from '../helpers/harness';
import { formsAs61 } from '../helpers/ioredis61';
import { maskTimes, toJson, type Json } from '../helpers/ioredis-values';

interface RecordedCase {
  name: string;
  setup: string[][];
  argv: string[];
  results: Record<string, Record<string, { reply?: Json; error?: Json }>>;
}
interface Recording {
  serverVersion: string;
  clients: { id: string; ioredis: string; options: Record<string, unknown> }[];
  cases: RecordedCase[];
}
const doc = recorded as unknown as Recording;

/** Forms whose reply is the command's own (pipeline/multi wrap it; eval goes through Lua). */
const FORMS = ['method', 'methodBuffer', 'call', 'callLower', 'callBuffer', 'pipeline', 'multi'] as const;

function contextFor(client: Recording['clients'][number], form: (typeof FORMS)[number], name: string): IoredisReplyContext {
  const major = Number(client.ioredis.split('.')[0]) as 5 | 6;
  const base = replyContextOf(major, client.options);
  const buffers = form === 'methodBuffer' || form === 'callBuffer';
  const commandName = form === 'call' || form === 'callBuffer' ? name : name.toLowerCase();
  // the recording's clients are ioredis 6.0.0 / 5.11.1, whatever ioredis the suite runs on
  return { ...base, buffers, commandName, caseInsensitiveTransformers: false };
}

/** The same client as ioredis 6.1 (its transformers found from any casing: helpers/ioredis61.ts). */
function contextFor61(client: Recording['clients'][number], form: (typeof FORMS)[number], name: string): IoredisReplyContext {
  return { ...contextFor(client, form, name), caseInsensitiveTransformers: true };
}

/** Typed reply (or error text) of `argv` after `setup`, on the command layer emulating 7.0. */
function typedReply(setup: string[][], argv: string[]): { reply?: Reply; error?: string } {
  const h = new Harness();
  h.version = '7.0';
  for (const cmd of setup) h.runTyped(...cmd);
  try {
    const out = h.runTyped(...argv);
    // A BLOCK that nothing serves answers the nil array at its deadline (lib/blocking).
    return { reply: isBlockRequest(out) ? NIL_ARRAY : (out as Reply) };
  } catch (e) {
    if (e instanceof CommandError) return { error: e.message };
    throw e;
  }
}

const streamCases = doc.cases.filter(
  (c) => isStreamCommand(c.argv[0]) && c.setup.every((cmd) => isStreamCommand(cmd[0])),
);

describe('the recording', () => {
  it('comes from redis-server 7.0 and covers every stream command', () => {
    expect(doc.serverVersion).toMatch(/^7\.0\./);
    const names = new Set(streamCases.map((c) => c.argv[0]));
    for (const n of ['XADD', 'XRANGE', 'XREVRANGE', 'XLEN', 'XDEL', 'XTRIM', 'XREAD', 'XREADGROUP', 'XACK', 'XPENDING', 'XCLAIM', 'XAUTOCLAIM', 'XGROUP', 'XSETID', 'XINFO']) {
      expect(names).toContain(n);
    }
    expect(doc.clients.map((c) => c.id)).toEqual([
      'ioredis6-p2', 'ioredis6-p3-legacy', 'ioredis6-p3-resp3', 'ioredis6-p3-legacy-sn', 'ioredis6-p3-resp3-sn', 'ioredis5', 'ioredis5-sn',
    ]);
  });
});

describe.each(streamCases)('$name: $argv', ({ setup, argv, results }) => {
  const typed = typedReply(setup, argv);

  it.each(doc.clients)('encodes as $id delivered it, for every way of calling', (client) => {
    const perForm = results[client.id];
    for (const form of FORMS) {
      const got = perForm[form];
      if (!got) continue;
      if (typed.error !== undefined) {
        if (form === 'multi' && got.error) {
          // wrong arity / unknown subcommand fail at queue time: EXEC aborts the transaction
          expect(got.error).toEqual({ $error: 'EXECABORT Transaction discarded because of previous errors.' });
          continue;
        }
        const message = form === 'pipeline' || form === 'multi' ? (got.reply as Json[][])[0][0] : got.error;
        expect({ form, error: (message as { $error: string }).$error }).toEqual({ form, error: typed.error });
        continue;
      }
      const value = encodeIoredisReply(typed.reply!, contextFor(client, form, argv[0]));
      const expected = form === 'pipeline' || form === 'multi' ? (got.reply as Json[][])[0][1] : got.reply;
      expect({ form, reply: maskTimes(toJson(value)) }).toEqual({ form, reply: maskTimes(expected as Json) });
    }
  });
});

/** Built-ins: typed replies written by hand as Redis types them (the fake's built-ins come from ioredis-mock). */
const BUILTINS: [string, Reply][] = [
  ['hgetall', new MapReply(['a', '1', 'b', '2'])],
  ['hgetall missing', new MapReply([])],
  ['zscore', new DoubleReply(2.5, '2.5')],
  ['zscore missing', null],
  ['zincrby', new DoubleReply(1.5, '1.5')],
  ['zmscore', [new DoubleReply(1, '1'), null]],
  ['smembers', new SetReply(['x'])],
  ['incrbyfloat', '10.75'],
  ['incr', 42],
  ['get', 'hello'],
  ['set', new SimpleString('OK')],
  ['type', new SimpleString('zset')],
  ['type stream', new SimpleString('stream')],
  ['config get', new MapReply(['maxmemory-policy', 'noeviction'])],
  ['info server', new VerbatimReply('# Server')],
  ['ping', new SimpleString('PONG')],
  ['echo', 'hi'],
  // [member, score] pairs: nested over RESP3, flat over RESP2 and after ioredis 6's legacy transformers
  ['zrange withscores', new PairsReply([['c', new DoubleReply(-3, '-3')], ['a', new DoubleReply(1, '1')], ['b', new DoubleReply(2.5, '2.5')]])],
  ['zrangebyscore withscores', new PairsReply([['c', new DoubleReply(-3, '-3')], ['a', new DoubleReply(1, '1')], ['b', new DoubleReply(2.5, '2.5')]])],
  ['zpopmin', new PairsReply([['c', new DoubleReply(-3, '-3')], ['a', new DoubleReply(1, '1')]])],
  ['zrandmember withscores', new PairsReply([['only', new DoubleReply(7, '7')]])],
  ['hrandfield withvalues', new PairsReply([['k', 'v']])],
];

describe.each(BUILTINS)('built-in %s', (name, typed) => {
  const c = doc.cases.find((x) => x.name === name)!;

  it.each(doc.clients)('encodes as $id delivered it', (client) => {
    expect(c).toBeDefined();
    for (const form of FORMS) {
      const got = c.results[client.id][form];
      if (!got) continue;
      const value = encodeIoredisReply(typed, contextFor(client, form, c.argv[0]));
      const expected = form === 'pipeline' || form === 'multi' ? (got.reply as Json[][])[0][1] : got.reply;
      expect({ form, reply: toJson(value) }).toEqual({ form, reply: expected });
    }
  });
});

describe('ioredis 6.1: call / callBuffer of a transformed name shaped as the method (6.0 recordings read by the 6.1 rule)', () => {
  const clients6 = doc.clients.filter((c) => c.ioredis.startsWith('6.'));
  const rows: [string, string[], Reply, Record<string, Record<string, { reply?: Json; error?: Json }>>][] = [];
  for (const c of streamCases) {
    const t = typedReply(c.setup, c.argv);
    if (t.error === undefined) rows.push([c.name, c.argv, t.reply!, c.results]);
  }
  for (const [name, typed] of BUILTINS) {
    const c = doc.cases.find((x) => x.name === name);
    if (c) rows.push([name, c.argv, typed, c.results]);
  }

  it.each(rows)('%s', (_name, argv, typed, results) => {
    for (const client of clients6) {
      const forms = formsAs61(results[client.id], argv[0]);
      for (const form of FORMS) {
        const got = forms[form];
        if (!got || got.error) continue;
        const value = encodeIoredisReply(typed, contextFor61(client, form, argv[0]));
        const expected = form === 'pipeline' || form === 'multi' ? (got.reply as Json[][])[0][1] : got.reply;
        expect({ client: client.id, form, reply: maskTimes(toJson(value)) }).toEqual({ client: client.id, form, reply: maskTimes(expected as Json) });
      }
    }
  });

  it('changes the uppercase call of XREAD, ZRANGE WITHSCORES and HRANDFIELD WITHVALUES (RESP3 legacy), not HGETALL', () => {
    const legacy = doc.clients.find((c) => c.id === 'ioredis6-p3-legacy')!;
    const enc = (typed: Reply, name: string, v61: boolean) =>
      encodeIoredisReply(typed, v61 ? contextFor61(legacy, 'call', name) : contextFor(legacy, 'call', name));
    const stream = new MapReply(['s', [['1-1', ['f', 'v']]]]);
    expect(enc(stream, 'XREAD', false)).toEqual(['s', [['1-1', ['f', 'v']]]]);
    expect(enc(stream, 'XREAD', true)).toEqual([['s', [['1-1', ['f', 'v']]]]]);
    const pairs = new PairsReply([['x', new DoubleReply(1.5, '1.5')], ['y', new DoubleReply(2, '2')]]);
    expect(enc(pairs, 'ZRANGE', false)).toEqual([['x', '1.5'], ['y', '2']]);
    expect(enc(pairs, 'ZRANGE', true)).toEqual(['x', '1.5', 'y', '2']);
    expect(enc(new PairsReply([['a', '1']]), 'HRANDFIELD', true)).toEqual(['a', '1']);
    expect(enc(new MapReply(['a', '1']), 'HGETALL', true)).toEqual(['a', '1']);
  });
});

describe('findings the recording shows', () => {
  const reply = (name: string, client: string, form: string) => doc.cases.find((c) => c.name === name)!.results[client][form].reply;

  it('ioredis 6 on RESP3 (default) gives call("XREADGROUP") the flat map, xreadgroup() the RESP2 pairs', () => {
    expect(reply('xreadgroup new', 'ioredis6-p3-legacy', 'call')).toEqual(['s', [['1-1', ['f', 'v']], ['2-1', ['f2', 'v2']]]]);
    expect(reply('xreadgroup new', 'ioredis6-p3-legacy', 'method')).toEqual([['s', [['1-1', ['f', 'v']], ['2-1', ['f2', 'v2']]]]]);
    expect(reply('xreadgroup new', 'ioredis6-p3-legacy', 'callLower')).toEqual(reply('xreadgroup new', 'ioredis5', 'call'));
  });

  it('ioredis 6 resp3 mapping: maps as objects keyed by strings even for Buffer replies, doubles as numbers', () => {
    expect(reply('xinfo groups', 'ioredis6-p3-resp3', 'methodBuffer')).toEqual([
      { $object: [['name', { $buffer: 'Zw==' }], ['consumers', 1], ['pending', 2], ['last-delivered-id', { $buffer: 'Mi0x' }], ['entries-read', 2], ['lag', 1]] },
    ]);
    expect(reply('zscore', 'ioredis6-p3-resp3', 'methodBuffer')).toBe(2.5);
    expect(reply('zscore', 'ioredis6-p3-resp3-sn', 'method')).toBe('2.5');
  });

  it('ioredis 5 cannot read a RESP3 reply (HELLO 3): protocol error', () => {
    expect(doc.cases.find((c) => c.name === 'hello 3')!.results.ioredis5.method.error).toEqual({
      $error: 'Protocol error, got "%" as reply type byte. Please report this.',
    });
  });
});
