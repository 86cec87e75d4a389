/**
 * A server's CONFIG and ACL users snapshotted and restored (ServerState.settingsSnapshot /
 * restoreSettings), what the per-test reset of the test-runner entries does around each test:
 * the snapshot is a deep copy, reused while nothing changed, and the restore sets each parameter
 * back as CONFIG SET sets it.
 */
import Redis from 'ioredis-mock-streams';
import { serverFor } from '../../lib/engine/registry';

type Client = Record<string, any>;

let port = 57_300;
let redis: Client;
beforeEach(() => {
  redis = new Redis({ port: ++port }) as unknown as Client;
});
afterEach(() => redis.disconnect());

const server = () => serverFor('localhost', port);
const aclList = () => redis.call('ACL', 'LIST');

it('an ACL users snapshot is a copy: users changed after it come back as they were, however often', async () => {
  await redis.call('ACL', 'SETUSER', 'alice', 'on', '>pw', '%R~r:*', '~k:*', '&news', '+get', '+set|x', '(+del ~d:*)');
  const before = await aclList();
  const snapshot = server().settingsSnapshot();
  for (let round = 0; round < 2; round++) {
    await redis.call('ACL', 'SETUSER', 'alice', '~more:*', '&sports', '-get', '+hset', '>other', 'clearselectors', '(+ping)', 'off');
    await redis.call('ACL', 'SETUSER', 'default', '>secret');
    await redis.call('ACL', 'SETUSER', 'bob', 'on', 'nopass');
    expect(await aclList()).not.toEqual(before);
    server().restoreSettings(snapshot);
    expect(await aclList()).toEqual(before);
  }
});

it('a snapshot is reused while CONFIG and the users have not changed', async () => {
  const first = server().settingsSnapshot();
  expect(server().settingsSnapshot(first)).toBe(first);
  await redis.config('SET', 'hz', '20');
  const second = server().settingsSnapshot(first);
  expect(second).not.toBe(first);
  await redis.call('ACL', 'SETUSER', 'carol');
  expect(server().settingsSnapshot(second)).not.toBe(second);
  // after a restore the snapshot describes the server again
  server().restoreSettings(second);
  expect(server().settingsSnapshot(second)).toBe(second);
});

it('CONFIG is set back as CONFIG SET sets it: what the server derives from a parameter follows', async () => {
  const snapshot = server().settingsSnapshot();
  await redis.config('SET', 'maxmemory', '1gb', 'notify-keyspace-events', 'KEA', 'latency-tracking', 'no', 'acl-pubsub-default', 'allchannels');
  expect(server().shortPath).toBe(false); // maxmemory in force
  expect(server().config.notifyKeyspaceEvents).toBe('AKE');
  server().restoreSettings(snapshot);
  expect(await redis.config('GET', 'maxmemory')).toEqual(['maxmemory', '0']);
  expect(server().shortPath).toBe(true);
  expect(server().config.notifyKeyspaceEvents).toBeUndefined(); // not set: each client's own option decides again
  expect(await redis.config('GET', 'latency-tracking')).toEqual(['latency-tracking', 'yes']);
  // a user made now gets the restored acl-pubsub-default: no channels
  await redis.call('ACL', 'SETUSER', 'dave');
  expect(await redis.call('ACL', 'GETUSER', 'dave')).toEqual(expect.arrayContaining(['channels', '']));
});

it('requirepass set back: the default user has the password it had when the snapshot was taken', async () => {
  await redis.config('SET', 'requirepass', 'first');
  await redis.auth('first');
  const snapshot = server().settingsSnapshot();
  await redis.config('SET', 'requirepass', 'second');
  server().restoreSettings(snapshot);
  await expect(redis.auth('second')).rejects.toThrow(/WRONGPASS/);
  expect(await redis.auth('first')).toBe('OK');
  expect(await redis.config('GET', 'requirepass')).toEqual(['requirepass', 'first']);
});
