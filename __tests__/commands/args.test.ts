import { is, parseInt64 } from '../../lib/commands/args';
import { parseUint64Part } from '../../lib/model/stream-id';

describe('argument parsing (util.c string2ll / string2ull, strcasecmp)', () => {
  it('accepts only canonical signed 64-bit decimals as integers, short or long', () => {
    const cases: [string, bigint | null][] = [
      ['0', 0n], ['7', 7n], ['-7', -7n], ['123456789012345', 123456789012345n], ['-123456789012345', -123456789012345n],
      ['1234567890123456', 1234567890123456n], ['9223372036854775807', 9223372036854775807n],
      ['-9223372036854775808', -9223372036854775808n], ['9223372036854775808', null],
      ['-0', null], ['01', null], ['00', null], ['-01', null], ['+1', null], [' 1', null], ['1 ', null], ['1.5', null],
      ['', null], ['-', null], ['1e3', null],
    ];
    expect(cases.map(([s]) => [s, parseInt64(s)])).toEqual(cases);
  });

  it('reads ID parts as string2ull does: a negative canonical number rejected, else strtoull (leading zeros, +, whitespace, wrapping minus)', () => {
    const cases: [string, bigint | null][] = [
      ['0', 0n], ['007', 7n], ['1700000000123', 1700000000123n], ['18446744073709551615', 18446744073709551615n],
      ['18446744073709551616', null], ['+5', 5n], ['  5', 5n], ['-1', null], [' -1', 18446744073709551615n], ['-00', 0n], ['5 ', null], ['', null], ['x', null],
    ];
    expect(cases.map(([s]) => [s, parseUint64Part(s)])).toEqual(cases);
  });

  it('compares option words case-insensitively for ASCII letters only, up to a NUL byte', () => {
    expect([is('count', 'COUNT'), is('CoUnT', 'COUNT'), is('COUNTS', 'COUNT'), is(undefined, 'COUNT')]).toEqual([true, true, false, false]);
    expect([is('c\u00f6unt', 'COUNT'), is('CO\u00dcNT', 'COUNT')]).toEqual([false, false]);
    // a C string ends at its NUL: strcasecmp("count\0x", "COUNT") is 0 (both real servers)
    expect([is('count\u0000', 'COUNT'), is('COUNT\u0000junk', 'COUNT'), is('cou\u0000nt', 'COUNT'), is('\u0000', 'COUNT')]).toEqual([true, true, false, false]);
  });
});
