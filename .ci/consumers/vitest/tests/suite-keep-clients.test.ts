// The setup entry with globalThis.__IOREDIS_MOCK_STREAMS_KEEP_CLIENTS__ = true: a client made on
// first use inside a test and kept in the module (a lazy getRedis()) is left open for the next
// test, as a beforeAll client is, while the keyspace is still emptied after each test. The tests
// of this file run in order and depend on it.
import { afterAll, expect, it } from 'vitest';
import Redis from 'ioredis';

(globalThis as Record<string, unknown>).__IOREDIS_MOCK_STREAMS_KEEP_CLIENTS__ = true;
let shared: Redis | undefined;
const getRedis = () => (shared ??= new Redis());
afterAll(async () => {
  expect(await shared!.quit()).toBe('OK');
  delete (globalThis as Record<string, unknown>).__IOREDIS_MOCK_STREAMS_KEEP_CLIENTS__;
});

it('makes the shared client on first use', async () => {
  expect(await getRedis().set('k', 'v')).toBe('OK');
});

it('uses it again: open, the keyspace emptied', async () => {
  expect(shared!.status).toBe('ready');
  expect(await getRedis().get('k')).toBe(null);
});
