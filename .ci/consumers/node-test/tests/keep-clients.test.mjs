// The register entry under node:test: a client made on first use inside a test and kept in the
// module is closed when its test ends, and a later test's command on it rejects with "Connection
// is closed." and a warning naming both tests; with globalThis.__IOREDIS_MOCK_STREAMS_KEEP_CLIENTS__
// = true such a client is left open, the keyspace still emptied after each test. The tests of this
// file run in order and depend on it.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Redis from 'ioredis';

const warnings = [];
const consoleWarn = console.warn;
console.warn = (...args) => void warnings.push(args.map(String).join(' '));
after(() => {
  console.warn = consoleWarn;
});

describe('lazy client', () => {
  let shared;
  const getRedis = () => (shared ??= new Redis());
  it('made on first use', async () => {
    assert.equal(await getRedis().set('k', 'v'), 'OK');
  });
  it('used by a later test: rejected, and warned', async () => {
    await assert.rejects(getRedis().get('k'), /Connection is closed\./);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /during test "(lazy client > )?used by a later test: rejected, and warned", GET was sent to a client created during test "(lazy client > )?made on first use"/);
  });
});

describe('lazy client with __IOREDIS_MOCK_STREAMS_KEEP_CLIENTS__', () => {
  let shared;
  const getRedis = () => (shared ??= new Redis());
  it('made on first use', async () => {
    globalThis.__IOREDIS_MOCK_STREAMS_KEEP_CLIENTS__ = true;
    assert.equal(await getRedis().set('k', 'v'), 'OK');
  });
  it('used by a later test: open, the keyspace emptied', async () => {
    assert.equal(shared.status, 'ready');
    assert.equal(await getRedis().get('k'), null);
    delete globalThis.__IOREDIS_MOCK_STREAMS_KEEP_CLIENTS__;
    assert.equal(await shared.quit(), 'OK');
  });
});
