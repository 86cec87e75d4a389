/**
 * patternHashSlot (cluster.c, Redis 7.4+): the slot of every key a SORT BY/GET pattern can form,
 * or -1 when they may fall in several. Used by SORT in cluster mode from 7.4 (before 7.4 any
 * pattern is refused: __tests__/server/cluster.test.ts compares that with a real 7.0.15 cluster).
 */
import { keyHashSlot, patternHashSlot } from '../../lib/bytes/crc16';

it('gives the hash tag slot of a pattern whose tag comes before any wildcard', () => {
  expect(patternHashSlot('{orders}w*')).toBe(keyHashSlot('{orders}:list'));
  expect(patternHashSlot('{orders}w*')).toBe(keyHashSlot('orders'));
  expect(patternHashSlot('x{user1}->field')).toBe(keyHashSlot('user1'));
});

it('gives -1 when a wildcard, class or escape comes before a complete tag', () => {
  expect(patternHashSlot('w*')).toBe(-1);
  expect(patternHashSlot('w?{orders}')).toBe(-1);
  expect(patternHashSlot('[ab]{orders}')).toBe(-1);
  expect(patternHashSlot('\\{orders}x')).toBe(-1);
  expect(patternHashSlot('{ord*}x')).toBe(-1);
});

it('hashes the whole pattern when it names one key (no wildcard, no tag or an empty one)', () => {
  expect(patternHashSlot('nosort')).toBe(keyHashSlot('nosort'));
  expect(patternHashSlot('#')).toBe(keyHashSlot('#'));
  expect(patternHashSlot('{}x{orders}')).toBe(keyHashSlot('{}x{orders}'));
  expect(keyHashSlot('{}x{orders}')).not.toBe(keyHashSlot('orders'));
});
