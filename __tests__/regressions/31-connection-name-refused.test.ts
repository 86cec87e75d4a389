/**
 * ioredis sends `connectionName` with CLIENT SETNAME in its handshake and ignores a refusal; a
 * server refuses a name with spaces, newlines or other special characters ("ERR Client names
 * cannot contain spaces, newlines or special characters."), so the connection stays unnamed.
 * The fake named it anyway (CLIENT GETNAME answered 'bad name'). Found by a fresh-user trial.
 */
import Redis from 'ioredis-mock-streams';
import { describeOnRealServers } from '../helpers/real-server';

type Client = Record<string, any>;

/** CLIENT GETNAME and CLIENT INFO's name field of a client made with `connectionName`. */
async function nameOf(client: Client): Promise<[unknown, string]> {
  const name = await client.client('GETNAME');
  const info = String(await client.client('INFO'));
  client.disconnect();
  return [name, / name=(\S*)/.exec(info)?.[1] ?? '?'];
}

it('a connectionName the server refuses leaves the connection unnamed; a valid one names it', async () => {
  const made = (connectionName: string) => new Redis({ port: 36_730, connectionName } as never) as unknown as Client;
  expect(await nameOf(made('bad name'))).toEqual([null, '']);
  expect(await nameOf(made('a\nb'))).toEqual([null, '']);
  expect(await nameOf(made('worker-1'))).toEqual(['worker-1', 'worker-1']);
});

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to compare with; CI sets both
describeOnRealServers('a connectionName with a space', (server) => {
  it('leaves the connection unnamed as real ioredis does against the server', async () => {
    const RealRedis = jest.requireActual('ioredis');
    const real = new (RealRedis.default ?? RealRedis)(server.url, { connectionName: 'bad name' }) as Client;
    const fake = new Redis({ port: 36_731, connectionName: 'bad name', streams: { redisVersion: server.version } } as never) as unknown as Client;
    expect(await nameOf(fake)).toEqual(await nameOf(real));
  });
});
