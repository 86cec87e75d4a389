/** The Upstash JSON encoder: every typed reply (lib/reply) in its RESP2 shape, with and without base64. */
import { encodeResult, errorBody } from '../../lib/upstash/encode';
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
  SimpleString,
  VerbatimReply,
  mapReply,
} from '../../lib/reply/reply';

const b64 = (s: string) => Buffer.from(s, 'latin1').toString('base64');

describe('encodeResult', () => {
  it('writes integers as JSON numbers, 64-bit ones digit for digit', () => {
    expect(encodeResult(42, true)).toBe('42');
    expect(encodeResult(-1, false)).toBe('-1');
    expect(encodeResult(18446744073709551615n, true)).toBe('18446744073709551615');
  });

  it('writes both nils as null', () => {
    expect(encodeResult(null, true)).toBe('null');
    expect(encodeResult(NIL_ARRAY, false)).toBe('null');
  });

  it('keeps a top-level OK status unencoded, and base64-encodes an OK nested in an array', () => {
    expect(encodeResult(OK, true)).toBe('"OK"');
    expect(encodeResult([OK], true)).toBe(`["${b64('OK')}"]`);
    expect(encodeResult(new SimpleString('PONG'), true)).toBe(`"${b64('PONG')}"`);
    expect(encodeResult(OK, false)).toBe('"OK"');
  });

  it('flattens maps, sets and pushes to arrays, and XREAD maps to [key, entries] pairs', () => {
    expect(encodeResult(mapReply('name', 'g', 'lag', 0), false)).toBe('["name","g","lag",0]');
    expect(encodeResult(new MapReply(['s', [['1-0', ['f', 'v']]]], true), false)).toBe('[["s",[["1-0",["f","v"]]]]]');
    expect(encodeResult(new SetReply(['a', 'b']), false)).toBe('["a","b"]');
    expect(encodeResult(new PushReply(['message', 'ch', 'hi']), false)).toBe('["message","ch","hi"]');
  });

  it('flattens [member, score] pairs (ZRANGE … WITHSCORES) to member, score, … with scores as strings, as RESP2 sends them', () => {
    const pairs = new PairsReply([['a', new DoubleReply(1, '1')], ['b', new DoubleReply(2.5, '2.5')]]);
    expect(encodeResult(pairs, false)).toBe('["a","1","b","2.5"]');
    expect(encodeResult([pairs], false)).toBe('[["a","1","b","2.5"]]');
    expect(encodeResult(pairs, true)).toBe(`["${b64('a')}","${b64('1')}","${b64('b')}","${b64('2.5')}"]`);
  });

  it('writes doubles, verbatim strings and big numbers as strings, booleans as 1/0', () => {
    expect(encodeResult(new DoubleReply(1.5), false)).toBe('"1.5"');
    expect(encodeResult(new DoubleReply(3, '3.0'), true)).toBe(`"${b64('3.0')}"`);
    expect(encodeResult(new DoubleReply(Infinity), false)).toBe('"inf"');
    expect(encodeResult(new VerbatimReply('a\r\nb'), false)).toBe('"a\\r\\nb"');
    expect(encodeResult(new BigNumberReply(123n), false)).toBe('"123"');
    expect(encodeResult(new BooleanReply(true), false)).toBe('1');
    expect(encodeResult(new BooleanReply(false), true)).toBe('0');
  });

  it('base64-encodes the bytes of byte strings; without base64 decodes them as UTF-8 with U+FFFD', () => {
    const bytes = '\xc3\xa9\xff'; // "é" then an invalid byte
    expect(encodeResult(bytes, true)).toBe(`"${b64(bytes)}"`);
    expect(encodeResult(bytes, false)).toBe('"é\ufffd"');
  });

  it('sends an error nested in an array as its text', () => {
    expect(encodeResult([1, new ErrorReply('ERR boom')], false)).toBe('[1,"ERR boom"]');
  });
});

describe('errorBody', () => {
  it('never encodes the text, decodes its bytes as UTF-8 and turns CR/LF into spaces', () => {
    expect(errorBody("NOGROUP No such key 'k\xc3\xa9' or consumer group 'g'")).toBe('{"error":"NOGROUP No such key \'ké\' or consumer group \'g\'"}');
    expect(errorBody('ERR a\r\nb')).toBe('{"error":"ERR a  b"}');
  });
});
