import {
  containsMatcher,
  matchReply,
  mergeRecorded,
  normalizeReply,
  parseMatcher,
  resolveArgs,
  type Bindings,
  type Json,
  type Reply,
} from '../../lib/scenarios/matchers';

const match = (expected: Json, actual: Reply, bindings: Bindings = new Map()) => matchReply(expected, actual, bindings);

describe('parseMatcher', () => {
  it('parses each kind and an optional capture', () => {
    expect(parseMatcher({ any: true })).toEqual({ kind: 'any' });
    expect(parseMatcher({ id: true, capture: 'x' })).toEqual({ kind: 'id', capture: 'x' });
    expect(parseMatcher({ int: [1, null] })).toEqual({ kind: 'int', min: 1, max: null });
    expect(parseMatcher({ ref: 'x' })).toEqual({ kind: 'ref', name: 'x' });
    expect(parseMatcher({ capture: 'y' })).toEqual({ kind: 'any', capture: 'y' });
  });

  it('describes invalid matchers', () => {
    expect(parseMatcher({})).toBe('an empty object is not a matcher');
    expect(parseMatcher({ id: true, any: true })).toBe('a matcher has one kind, got id + any');
    expect(parseMatcher({ idd: true })).toBe('unknown matcher key(s) "idd"');
    expect(parseMatcher({ int: [5, 1] })).toBe('"int" range [5, 1] is empty');
    expect(parseMatcher({ int: [1.5, 2] })).toBe('"int" must be [min, max] with integer or null bounds');
    expect(parseMatcher({ int: 3 })).toBe('"int" must be [min, max] with integer or null bounds');
    expect(parseMatcher({ id: 'yes' })).toBe('"id" must be true');
    expect(parseMatcher({ ref: '' })).toBe('"ref" needs a non-empty name');
    expect(parseMatcher({ capture: 1 })).toBe('"capture" needs a non-empty name');
  });
});

describe('matchReply', () => {
  it('compares plain values exactly, arrays element by element', () => {
    expect(match(['1-0', ['f', 'v']], ['1-0', ['f', 'v']])).toEqual({ ok: true });
    expect(match(null, null)).toEqual({ ok: true });
    expect(match(3, 3)).toEqual({ ok: true });
    expect(match('3', 3)).toEqual({ ok: false, path: '', message: 'expected "3", got 3' });
    expect(match([0, null, null, null], [0, null, null, []])).toEqual({
      ok: false,
      path: '[3]',
      message: 'expected null, got []',
    });
    expect(match([['s', [1, 2]]], [['s', [1]]])).toEqual({ ok: false, path: '[0][1]', message: 'expected 2 element(s), got 1' });
    expect(match([], null)).toEqual({ ok: false, path: '', message: 'expected an array, got null' });
  });

  it('matches an integer past 2^53 as either ioredis parser rounds it, and nothing further off', () => {
    // 9223372036854775807 as ioredis 6 and ioredis 5 read it
    expect(match(9223372036854776000, 9223372036854778000)).toEqual({ ok: true });
    expect(match(-9223372036854776000, -9223372036854778000)).toEqual({ ok: true });
    expect(match(9223372036854776000, 9223372036854976000).ok).toBe(false);
    expect(match(9007199254740993, 9007199254740994).ok).toBe(true); // both 2^53 + 2 as doubles
    expect(match(9007199254740990, 9007199254740991).ok).toBe(false); // exact below 2^53
  });

  it('any accepts every value, including null and arrays', () => {
    expect(match({ any: true }, null)).toEqual({ ok: true });
    expect(match([{ any: true }], [[1, 'x']])).toEqual({ ok: true });
  });

  it('id accepts only <ms>-<seq> strings', () => {
    expect(match({ id: true }, '1700000000000-0')).toEqual({ ok: true });
    expect(match({ id: true }, '18446744073709551615-18446744073709551615')).toEqual({ ok: true });
    expect(match({ id: true }, '1700000000000')).toEqual({ ok: false, path: '', message: 'expected a stream ID, got "1700000000000"' });
    expect(match({ id: true }, '1-0-0')).toEqual({ ok: false, path: '', message: 'expected a stream ID, got "1-0-0"' });
    expect(match({ id: true }, 5)).toEqual({ ok: false, path: '', message: 'expected a stream ID, got 5' });
  });

  it('int checks integer type and inclusive bounds; null is unbounded', () => {
    expect(match({ int: [100, 400] }, 100)).toEqual({ ok: true });
    expect(match({ int: [100, 400] }, 400)).toEqual({ ok: true });
    expect(match({ int: [100, 400] }, 99)).toEqual({ ok: false, path: '', message: 'expected an integer in [100, 400], got 99' });
    expect(match({ int: [100, 400] }, 401)).toEqual({ ok: false, path: '', message: 'expected an integer in [100, 400], got 401' });
    expect(match({ int: [0, null] }, 123456789)).toEqual({ ok: true });
    expect(match({ int: [null, 0] }, -1)).toEqual({ ok: true });
    expect(match({ int: [0, 10] }, '5')).toEqual({ ok: false, path: '', message: 'expected an integer in [0, 10], got "5"' });
    expect(match({ int: [0, 10] }, 1.5)).toEqual({ ok: false, path: '', message: 'expected an integer in [0, 10], got 1.5' });
  });

  it('capture binds the value, ref compares with it (deep)', () => {
    const b: Bindings = new Map();
    expect(match([{ id: true, capture: 'first' }, { capture: 'fields' }], ['5-1', ['a', 'b']], b)).toEqual({ ok: true });
    expect(b.get('first')).toBe('5-1');
    expect(b.get('fields')).toEqual(['a', 'b']);
    expect(match([{ ref: 'first' }, { ref: 'fields' }], ['5-1', ['a', 'b']], b)).toEqual({ ok: true });
    expect(match({ ref: 'first' }, '5-2', b)).toEqual({ ok: false, path: '', message: 'expected "5-1" (captured "first"), got "5-2"' });
    expect(match({ ref: 'fields' }, ['a'], b)).toEqual({
      ok: false,
      path: '',
      message: 'expected ["a","b"] (captured "fields"), got ["a"]',
    });
    expect(match({ ref: 'nope' }, 1, b)).toEqual({ ok: false, path: '', message: '"nope" was never captured' });
  });

  it('a capture combined with a failing kind binds nothing', () => {
    const b: Bindings = new Map();
    expect(match({ id: true, capture: 'x' }, 'nope', b).ok).toBe(false);
    expect(b.has('x')).toBe(false);
  });

  it('a capture earlier in the same reply is visible to a later ref', () => {
    expect(match([{ capture: 'a' }, { ref: 'a' }], ['7-0', '7-0'])).toEqual({ ok: true });
    expect(match([{ capture: 'a' }, { ref: 'a' }], ['7-0', '8-0'])).toEqual({
      ok: false,
      path: '[1]',
      message: 'expected "7-0" (captured "a"), got "8-0"',
    });
  });
});

describe('containsMatcher', () => {
  it('finds matchers at any depth', () => {
    expect(containsMatcher([['s', [['1-0', ['f', 'v']]]]])).toBe(false);
    expect(containsMatcher(null)).toBe(false);
    expect(containsMatcher([['1-0', 'c', { int: [0, 10] }, 1]])).toBe(true);
  });
});

describe('resolveArgs', () => {
  it('replaces refs by captured strings and integers', () => {
    const b: Bindings = new Map<string, Reply>([
      ['id', '1700000000000-3'],
      ['n', 42],
    ]);
    expect(resolveArgs(['XRANGE', 's', { ref: 'id' }, '+', 'COUNT', { ref: 'n' }], b)).toEqual([
      'XRANGE',
      's',
      '1700000000000-3',
      '+',
      'COUNT',
      '42',
    ]);
  });

  it('rejects unknown refs and non-scalar values', () => {
    const b: Bindings = new Map<string, Reply>([['arr', ['a']]]);
    expect(() => resolveArgs([{ ref: 'x' }], b)).toThrow('[ioredis-mock-streams] argument {"ref": "x"} was never captured');
    expect(() => resolveArgs([{ ref: 'arr' }], b)).toThrow('[ioredis-mock-streams] argument {"ref": "arr"} is ["a"], not a string or integer');
  });
});

describe('normalizeReply', () => {
  it('turns Buffers into strings and keeps the RESP2 shapes', () => {
    expect(normalizeReply([Buffer.from('1-0'), [Buffer.from('f'), 'v'], 3, null, undefined])).toEqual(['1-0', ['f', 'v'], 3, null, null]);
    expect(normalizeReply(BigInt(7))).toBe(7);
    expect(normalizeReply(BigInt('9223372036854775807'))).toBe('9223372036854775807');
  });
});

describe('mergeRecorded', () => {
  it('takes the real reply where the expectation has no matcher', () => {
    expect(mergeRecorded(['old'], ['new', 1], new Map())).toEqual({ ok: true, value: ['new', 1] });
    expect(mergeRecorded(undefined, null, new Map())).toEqual({ ok: true, value: null });
  });

  it('keeps satisfied matchers and updates the plain parts around them', () => {
    const expected: Json = [['1-0', 'old-consumer', { int: [100, 400] }, 9]];
    expect(mergeRecorded(expected, [['1-0', 'c1', 103, 1]], new Map())).toEqual({
      ok: true,
      value: [['1-0', 'c1', { int: [100, 400] }, 1]],
    });
  });

  it('reports a violated matcher or a changed length around matchers', () => {
    expect(mergeRecorded([{ int: [100, 400] }], [99], new Map())).toEqual({
      ok: false,
      path: '[0]',
      message: 'expected an integer in [100, 400], got 99',
    });
    expect(mergeRecorded([{ id: true }], ['1-0', '2-0'], new Map())).toEqual({
      ok: false,
      path: '',
      message: 'expected 1 element(s) (with matchers), got 2',
    });
  });

  it('binds captures so later refs can be checked', () => {
    const b: Bindings = new Map();
    expect(mergeRecorded({ id: true, capture: 'a' }, '5-0', b)).toEqual({ ok: true, value: { id: true, capture: 'a' } });
    expect(mergeRecorded([{ ref: 'a' }, ['f', 'x']], ['5-0', ['f', 'v']], b)).toEqual({ ok: true, value: [{ ref: 'a' }, ['f', 'v']] });
  });
});
