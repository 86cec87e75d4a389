import {
  MAX_ID,
  compareIds,
  decrId,
  formatId,
  incrId,
  parseStreamId,
  parseStrictId,
  parseUint64Part,
} from '../../lib/model/stream-id';

describe('stream IDs', () => {
  it('parses both 64-bit parts exactly, beyond Number.MAX_SAFE_INTEGER', () => {
    const id = parseStrictId('18446744073709551615-18446744073709551614');
    expect(id).toEqual({ ms: 18446744073709551615n, seq: 18446744073709551614n });
    expect(formatId(id!)).toBe('18446744073709551615-18446744073709551614');
  });

  it('fills the sequence of an incomplete ID with the requested default', () => {
    expect(parseStreamId('5', { strict: true, missingSeq: 0n })).toEqual({ kind: 'id', id: { ms: 5n, seq: 0n }, seqGiven: false });
    expect(parseStreamId('5', { strict: true, missingSeq: 18446744073709551615n })).toMatchObject({
      id: { ms: 5n, seq: 18446744073709551615n },
    });
  });

  it('accepts - and + only in non-strict mode', () => {
    expect(parseStreamId('-', { strict: true })).toBeNull();
    expect(parseStreamId('+', { strict: true })).toBeNull();
    expect(parseStreamId('-', { strict: false })).toMatchObject({ id: { ms: 0n, seq: 0n } });
    expect(parseStreamId('+', { strict: false })).toMatchObject({ id: MAX_ID });
  });

  it('rejects empty parts, extra dashes, overflow and over-long text', () => {
    for (const bad of ['', '123-', '-123', '--', '1-2-3', 'abc', '18446744073709551616', '1-18446744073709551616', '1'.repeat(128), '1 ']) {
      expect(parseStrictId(bad)).toBeNull();
    }
  });

  it('reproduces strtoull leniency as real Redis does (+, leading zeros, -0, leading spaces)', () => {
    expect(parseStrictId('+1-0')).toEqual({ ms: 1n, seq: 0n });
    expect(parseStrictId('1--0')).toEqual({ ms: 1n, seq: 0n });
    expect(parseStrictId('007-1')).toEqual({ ms: 7n, seq: 1n });
    expect(parseUint64Part(' 5')).toBe(5n);
    expect(parseUint64Part('-1')).toBeNull(); // canonical negative: rejected before strtoull
    expect(parseUint64Part('-0')).toBe(0n);
  });

  it('parses ms-* only where auto-sequence is allowed', () => {
    expect(parseStreamId('5-*', { strict: true, allowAutoSeq: true })).toEqual({ kind: 'auto-seq', ms: 5n });
    expect(parseStreamId('5-*', { strict: true })).toBeNull();
  });

  it('compares ms first, then seq', () => {
    expect(compareIds({ ms: 1n, seq: 99n }, { ms: 2n, seq: 0n })).toBe(-1);
    expect(compareIds({ ms: 2n, seq: 1n }, { ms: 2n, seq: 0n })).toBe(1);
    expect(compareIds({ ms: 2n, seq: 1n }, { ms: 2n, seq: 1n })).toBe(0);
  });

  it('increments and decrements with carry, and stops at the ends', () => {
    expect(incrId({ ms: 1n, seq: 18446744073709551615n })).toEqual({ ms: 2n, seq: 0n });
    expect(incrId(MAX_ID)).toBeNull();
    expect(decrId({ ms: 2n, seq: 0n })).toEqual({ ms: 1n, seq: 18446744073709551615n });
    expect(decrId({ ms: 0n, seq: 0n })).toBeNull();
  });
});
