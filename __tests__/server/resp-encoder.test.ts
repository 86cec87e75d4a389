import {
  BigNumberReply,
  BooleanReply,
  DoubleReply,
  ErrorReply,
  MapReply,
  NIL_ARRAY,
  OK,
  PairsReply,
  PushReply,
  SetReply,
  VerbatimReply,
} from '../../lib/reply/reply';
import { encodeToString } from '../../lib/server/resp-encoder';

const both = (r: Parameters<typeof encodeToString>[0]) => [encodeToString(r, 2), encodeToString(r, 3)];

describe('typed reply → RESP bytes (networking.c addReply*)', () => {
  it('writes strings, integers and simple strings the same in both protocols', () => {
    expect(both('abc')).toEqual(['$3\r\nabc\r\n', '$3\r\nabc\r\n']);
    expect(both('')).toEqual(['$0\r\n\r\n', '$0\r\n\r\n']);
    expect(both(-12)).toEqual([':-12\r\n', ':-12\r\n']);
    expect(both(18446744073709551615n)).toEqual([':18446744073709551615\r\n', ':18446744073709551615\r\n']);
    expect(both(OK)).toEqual(['+OK\r\n', '+OK\r\n']);
  });

  it('writes byte strings byte for byte (one char per byte)', () => {
    expect(encodeToString('\x00\xff\r\n', 2)).toBe('$4\r\n\x00\xff\r\n\r\n');
  });

  it('writes both nils as $-1 / *-1 in RESP2 and _ in RESP3', () => {
    expect(both(null)).toEqual(['$-1\r\n', '_\r\n']);
    expect(both(NIL_ARRAY)).toEqual(['*-1\r\n', '_\r\n']);
  });

  it('flattens maps in RESP2 (or as pairs for XREAD), % in RESP3', () => {
    const m = new MapReply(['a', 1, 'b', ['x']]);
    expect(both(m)).toEqual(['*4\r\n$1\r\na\r\n:1\r\n$1\r\nb\r\n*1\r\n$1\r\nx\r\n', '%2\r\n$1\r\na\r\n:1\r\n$1\r\nb\r\n*1\r\n$1\r\nx\r\n']);
    const pairs = new MapReply(['s', []], true);
    expect(both(pairs)).toEqual(['*1\r\n*2\r\n$1\r\ns\r\n*0\r\n', '%1\r\n$1\r\ns\r\n*0\r\n']);
  });

  it('writes sets, pushes, doubles, booleans, verbatim strings and big numbers per protocol', () => {
    expect(both(new SetReply(['a']))).toEqual(['*1\r\n$1\r\na\r\n', '~1\r\n$1\r\na\r\n']);
    expect(both(new PushReply(['message', 'c', 'm']))).toEqual([
      '*3\r\n$7\r\nmessage\r\n$1\r\nc\r\n$1\r\nm\r\n',
      '>3\r\n$7\r\nmessage\r\n$1\r\nc\r\n$1\r\nm\r\n',
    ]);
    expect(both(new DoubleReply(1.5))).toEqual(['$3\r\n1.5\r\n', ',1.5\r\n']);
    expect(both(new DoubleReply(Infinity))).toEqual(['$3\r\ninf\r\n', ',inf\r\n']);
    expect(both(new DoubleReply(0.1, '0.10000000000000001'))).toEqual(['$19\r\n0.10000000000000001\r\n', ',0.10000000000000001\r\n']);
    expect(both(new BooleanReply(true))).toEqual([':1\r\n', '#t\r\n']);
    expect(both(new BooleanReply(false))).toEqual([':0\r\n', '#f\r\n']);
    expect(both(new VerbatimReply('# Server\r\n'))).toEqual(['$10\r\n# Server\r\n\r\n', '=14\r\ntxt:# Server\r\n\r\n']);
    expect(both(new BigNumberReply(12345678901234567890n))).toEqual(['$20\r\n12345678901234567890\r\n', '(12345678901234567890\r\n']);
  });

  it('writes [element, value] pairs flat in RESP2, as 2-element arrays in RESP3 (ZRANGE … WITHSCORES)', () => {
    const pairs = new PairsReply([['a', new DoubleReply(1, '1')], ['b', new DoubleReply(2.5, '2.5')]]);
    // bytes of redis-server 7.0.15 for ZRANGE z 0 -1 WITHSCORES
    expect(both(pairs)).toEqual([
      '*4\r\n$1\r\na\r\n$1\r\n1\r\n$1\r\nb\r\n$3\r\n2.5\r\n',
      '*2\r\n*2\r\n$1\r\na\r\n,1\r\n*2\r\n$1\r\nb\r\n,2.5\r\n',
    ]);
    expect(both(new PairsReply([['f', 'v']]))).toEqual(['*2\r\n$1\r\nf\r\n$1\r\nv\r\n', '*1\r\n*2\r\n$1\r\nf\r\n$1\r\nv\r\n']);
    expect(both(new PairsReply([]))).toEqual(['*0\r\n', '*0\r\n']);
  });

  it('writes error replies inside arrays, with CR/LF mapped to spaces', () => {
    expect(encodeToString([1, new ErrorReply('ERR bad\r\nthing')], 2)).toBe('*2\r\n:1\r\n-ERR bad  thing\r\n');
  });
});
