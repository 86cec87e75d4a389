import { expect, it, vi } from 'vitest';
import Redis from 'ioredis';

vi.unmock('ioredis');

it('vi.unmock gives a file real ioredis', () => {
  expect(Object.keys(Redis)).not.toContain('createFakeClock');
});
