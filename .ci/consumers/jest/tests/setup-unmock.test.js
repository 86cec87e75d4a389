jest.unmock('ioredis');
const Redis = require('ioredis');

test('jest.unmock gives a file real ioredis', () => {
  expect(Object.keys(Redis)).not.toContain('createFakeClock');
  expect(typeof Redis.prototype.connect).toBe('function');
});
