/**
 * The RESP3 types of ioredis-mock's built-ins as the engine types them
 * (lib/engine/builtin-replies.ts) against a real server speaking RESP3 (`HELLO 3`): status
 * `+`, bulk `$`, integer `:`, null `_`, array `*`, map `%`, set `~`, double `,`, verbatim `=`.
 * Needs `REDIS_URL` (redis-server 7.0.15); skips with a message otherwise. The shape is
 * compared, not the values (ioredis-mock's values are its own).
 */
import { Socket, connect } from 'net';
import { createConnection } from '../../lib/engine';
import {
  BigNumberReply,
  BooleanReply,
  DoubleReply,
  ErrorReply,
  MapReply,
  NIL_ARRAY,
  PairsReply,
  PushReply,
  type Reply,
  SetReply,
  SimpleString,
  VerbatimReply,
} from '../../lib/reply/reply';
import { CommandError } from '../../lib/errors';
import { typedBuiltinReply } from '../../lib/engine/builtin-replies';

/** The RESP3 type tree of a reply: its type byte, and its elements' trees. */
type Shape = string | [string, Shape[]];

function shapeOfReply(r: Reply): Shape {
  if (r === null || r === NIL_ARRAY) return '_';
  if (typeof r === 'string') return '$';
  if (typeof r === 'number' || typeof r === 'bigint') return ':';
  if (Array.isArray(r)) return ['*', r.map(shapeOfReply)];
  if (r instanceof SimpleString) return '+';
  if (r instanceof MapReply) return ['%', r.items.map(shapeOfReply)];
  if (r instanceof SetReply) return ['~', r.items.map(shapeOfReply)];
  if (r instanceof PushReply) return ['>', r.items.map(shapeOfReply)];
  if (r instanceof PairsReply) return ['*', r.items.map(([e, v]): Shape => ['*', [shapeOfReply(e), shapeOfReply(v)]])];
  if (r instanceof DoubleReply) return ',';
  if (r instanceof VerbatimReply) return '=';
  if (r instanceof BooleanReply) return '#';
  if (r instanceof BigNumberReply) return '(';
  if (r instanceof ErrorReply) return '-';
  return '?';
}

/** A minimal RESP3 reader giving shapes (enough for these replies). */
class Resp3Shapes {
  private buf = Buffer.alloc(0);
  private waiting: ((s: Shape) => void)[] = [];
  constructor(private readonly socket: Socket) {
    socket.on('data', (d) => {
      this.buf = Buffer.concat([this.buf, d]);
      this.drain();
    });
  }

  send(argv: string[]): Promise<Shape> {
    this.socket.write(`*${argv.length}\r\n${argv.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private drain(): void {
    for (;;) {
      const parsed = this.parse(0);
      if (!parsed) return;
      this.buf = this.buf.subarray(parsed[1]);
      this.waiting.shift()?.(parsed[0]);
    }
  }

  private parse(at: number): [Shape, number] | null {
    const eol = this.buf.indexOf('\r\n', at);
    if (eol < 0) return null;
    const type = String.fromCharCode(this.buf[at]);
    const head = this.buf.toString('latin1', at + 1, eol);
    let next = eol + 2;
    if ('$=!'.includes(type)) {
      const len = Number(head);
      if (len < 0) return ['_', next];
      if (this.buf.length < next + len + 2) return null;
      return [type, next + len + 2];
    }
    if ('*%~>'.includes(type)) {
      const n = Number(head);
      if (n < 0) return ['_', next];
      const count = type === '%' ? 2 * n : n;
      const items: Shape[] = [];
      for (let i = 0; i < count; i++) {
        const p = this.parse(next);
        if (!p) return null;
        items.push(p[0]);
        next = p[1];
      }
      return [[type, items], next];
    }
    return [type, next]; // + - : , _ # (
  }
}

const COMMANDS: string[][] = [
  ['SET', 'k', 'v'],
  ['SET', 'k', 'w', 'GET'],
  ['SET', 'k', 'x', 'NX'],
  ['GET', 'k'],
  ['MSET', 'a', '1', 'b', '2'],
  ['TYPE', 'k'],
  ['RENAME', 'a', 'a2'],
  ['HSET', 'h', 'f', '1', 'g', '2'],
  ['HMSET', 'h', 'x', '1'],
  ['HGETALL', 'h'],
  ['HINCRBYFLOAT', 'h', 'f', '1.5'],
  ['INCRBYFLOAT', 'fl', '2.5'],
  ['SADD', 'st', 'x', 'y'],
  ['SMEMBERS', 'st'],
  ['SINTER', 'st'],
  ['SUNION', 'st'],
  ['SDIFF', 'st'],
  ['SRANDMEMBER', 'st', '2'],
  ['SPOP', 'st', '1'],
  ['ZADD', 'z', '1.5', 'm'],
  ['ZSCORE', 'z', 'm'],
  ['ZINCRBY', 'z', '1', 'm'],
  ['ZMSCORE', 'z', 'm', 'nope'],
  ['RPUSH', 'l', 'a', 'b'],
  ['LRANGE', 'l', '0', '-1'],
  ['LPOP', 'l'],
  ['LMPOP', '1', 'nolist', 'LEFT'],
  ['SISMEMBER', 'st', 'x'],
  ['SMISMEMBER', 'st', 'x', 'q'],
  ['HRANDFIELD', 'h'],
  ['GETDEL', 'fl'],
  ['EXPIRE', 'k', '100'],
  ['TTL', 'k'],
  ['PERSIST', 'k'],
  ['INFO', 'server'],
  ['TIME'],
  ['SCAN', '0'],
  ['ZRANGE', 'z', '0', '-1'],
  ['ZADD', 'z', '2', 'n', '-1', 'o'],
  ['ZRANGE', 'z', '0', '-1', 'WITHSCORES'],
  ['ZRANGE', 'z', '(0', '+inf', 'BYSCORE', 'LIMIT', '0', '5', 'WITHSCORES'],
  ['ZRANGEBYSCORE', 'z', '-inf', '+inf', 'WITHSCORES'],
  ['ZREVRANGE', 'z', '0', '1', 'WITHSCORES'],
  ['ZREVRANGEBYSCORE', 'z', '+inf', '-inf', 'WITHSCORES', 'LIMIT', '0', '1'],
  ['ZDIFF', '1', 'z', 'WITHSCORES'],
  ['ZSCAN', 'z', '0'],
  ['HRANDFIELD', 'h', '2', 'WITHVALUES'],
  ['HRANDFIELD', 'h', '-3', 'WITHVALUES'],
  ['ZPOPMIN', 'z'],
  ['ZPOPMAX', 'z', '1'],
  ['ZPOPMIN', 'z', '5'],
  ['ZPOPMIN', 'z', '2'],
  ['OBJECT', 'ENCODING', 'l'],
  ['EXISTS', 'k'],
  ['DEL', 'k'],
  ['GET', 'k'],
  ['FLUSHDB'],
];

const url = process.env.REDIS_URL;
if (!url) {
  // eslint-disable-next-line no-console
  console.warn('REDIS_URL not set: RESP3 types of built-ins not checked against a real server');
}
// skip: no REDIS_URL (warned above): nothing to compare the RESP3 types with; CI starts a redis-server and sets it
(url ? describe : describe.skip)('built-ins typed as the server types them in RESP3 (REDIS_URL)', () => {
  it('gives each built-in the RESP3 type of redis-server 7.0.15', async () => {
    const u = new URL(url!);
    const socket = connect(Number(u.port || 6379), u.hostname);
    await new Promise((r) => socket.once('connect', r));
    const real = new Resp3Shapes(socket);
    await real.send(['HELLO', '3']);
    await real.send(['FLUSHALL']);
    const fake = createConnection({ port: 48_900, streams: { redisVersion: '7.0' } });
    await fake.execute(['HELLO', '3']);
    try {
      for (const argv of COMMANDS) {
        const expected = await real.send(argv);
        let got: Shape;
        try {
          got = shapeOfReply(await fake.execute(argv));
        } catch (e) {
          got = e instanceof CommandError ? '-' : `(library error ${(e as Error).message})`;
        }
        expect({ argv, shape: got }).toEqual({ argv, shape: expected });
      }
    } finally {
      socket.destroy();
      fake.close();
    }
  });
});

describe('built-ins that answer [element, value] pairs (typedBuiltinReply)', () => {
  const scores = (...flat: [string, string][]) => new PairsReply(flat.map(([m, s]) => [m, new DoubleReply(Number(s), s)]));

  it('types WITHSCORES replies of the ZRANGE family as [member, double] pairs', () => {
    expect(typedBuiltinReply('zrange', ['z', '0', '-1', 'WITHSCORES'], ['a', '1', 'b', '2.5'])).toEqual(scores(['a', '1'], ['b', '2.5']));
    expect(typedBuiltinReply('zrangebyscore', ['z', '-inf', '+inf', 'withscores', 'LIMIT', '0', '1'], ['a', '1'])).toEqual(scores(['a', '1']));
    expect(typedBuiltinReply('zrevrange', ['z', '0', '-1', 'WITHSCORES'], ['b', '2.5', 'a', '1'])).toEqual(scores(['b', '2.5'], ['a', '1']));
    expect(typedBuiltinReply('zdiff', ['1', 'z', 'WITHSCORES'], ['a', '-3'])).toEqual(scores(['a', '-3']));
  });

  it('keeps replies without WITHSCORES plain, even for a key named withscores', () => {
    expect(typedBuiltinReply('zrange', ['z', '0', '-1'], ['a', 'b'])).toEqual(['a', 'b']);
    expect(typedBuiltinReply('zrange', ['withscores', '0', '-1'], ['a', 'b'])).toEqual(['a', 'b']);
    expect(typedBuiltinReply('zdiff', ['2', 'a', 'withscores'], ['x', 'y'])).toEqual(['x', 'y']);
  });

  it('gives ZPOPMIN/ZPOPMAX pairs only with a count; without one member and double score, flat', () => {
    expect(typedBuiltinReply('zpopmin', ['z', '2'], ['a', '1', 'b', '2.5'])).toEqual(scores(['a', '1'], ['b', '2.5']));
    expect(typedBuiltinReply('zpopmax', ['z'], ['b', '2.5'])).toEqual(['b', new DoubleReply(2.5, '2.5')]);
    expect(typedBuiltinReply('zpopmin', ['z'], [])).toEqual([]);
    expect(typedBuiltinReply('zpopmin', ['z', '2'], [])).toEqual(new PairsReply([]));
  });

  it('types HRANDFIELD … WITHVALUES as [field, value] pairs of bulk strings, and infinite scores as inf', () => {
    expect(typedBuiltinReply('hrandfield', ['h', '2', 'WITHVALUES'], ['f', 'v', 'g', 'w'])).toEqual(new PairsReply([['f', 'v'], ['g', 'w']]));
    expect(typedBuiltinReply('hrandfield', ['h', '2'], ['f', 'g'])).toEqual(['f', 'g']);
    expect(typedBuiltinReply('zrange', ['z', '0', '-1', 'WITHSCORES'], ['a', 'Infinity', 'b', '-inf'])).toEqual(
      new PairsReply([['a', new DoubleReply(Infinity, 'inf')], ['b', new DoubleReply(-Infinity, '-inf')]]),
    );
  });
});
