/**
 * Lua's integers as on Redis's 64-bit hosts (user trial, session 13: the WebAssembly build had
 * 32-bit `long`): string.format's %d/%i/%x/%X/%o/%u of values past 2^31 (a ms timestamp in a key
 * or stream ID built by a script), struct's l/L/T sizes and 8-byte integers, and lua_Integer
 * arguments past 2^31 (string.sub/rep/byte). On the fake and as real ioredis on both real servers.
 */
import { type Client, type ClientCase, runOnFakeAndRealIoredis } from '../helpers/fake-and-real-ioredis';

const SCRIPTS: [string, unknown][] = [
  ["return string.format('%d', 1704067200000)", '1704067200000'],
  ["return string.format('%s:%d', 'job', 1704067200123)", 'job:1704067200123'],
  ["return string.format('%i|%d', -1704067200000, 2^53)", '-1704067200000|9007199254740992'],
  ["return string.format('%x|%X|%o', 2^40, 2^40 + 255, 2^33)", '10000000000|100000000FF|100000000000'],
  ["return string.format('%u', 2^32 + 5)", '4294967301'],
  ["return string.format('%5d|%-5d|%05d', 2^31, 7, -3)", '2147483648|7    |-0003'],
  ["return struct.unpack('>i8', struct.pack('>i8', 2^40))", 1099511627776],
  ["return struct.unpack('<l', struct.pack('<l', -2^40))", -1099511627776],
  ["return struct.size('l') .. struct.size('L') .. struct.size('T') .. struct.size('i') .. struct.size('h')", '88842'],
  ["return #struct.pack('>L', 2^36)", 8],
  ["return string.sub('abcdef', 2, 2^40)", 'bcdef'],
  ["return string.sub('abcdef', -2^40, 3)", 'abc'],
  ["return {string.byte('abc', 1, 2^33)}", [97, 98, 99]],
  ["return {string.byte('abc', 1, -10)}", []],
  ["return {string.find('abcabc', 'c', 2^40)}", []],
  ["return {string.find('abcabc', 'c', -2^40)}", [3, 3]],
  ["return tostring(2^40) .. '|' .. tostring(-2^31 - 1)", '1099511627776|-2147483649'],
];

const cases: ClientCase[] = SCRIPTS.map(([script, expected]) => [script, {}, (r: Client) => r.eval(script, 0), expected]);

describe('Lua integers past 2^31', () => {
  // skip: the real-ioredis half of each case skips (with the helper's message) without REDIS_URL /
  // REDIS_UNSTABLE_URL: nothing to compare with; CI sets both
  runOnFakeAndRealIoredis(cases, { firstPort: 38_950, keyPrefix: 'lua64', subject: 'Lua integers past 2^31', verb: 'format and pack as on 64-bit Redis' });
});
