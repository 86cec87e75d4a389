/**
 * ioredis's Commander methods a client library may call: `getBuiltinCommands()` (ioredis's
 * command list without MONITOR, plus SENTINEL), `addBuiltinCommand(name)` (methods `name` and
 * `nameBuffer`) and `createBuiltinCommand(name)` (`{ string, buffer }` functions of a client),
 * each command sent as `call(name, …)` sends it. The same script on the fake and on real ioredis.
 */
import { itOnFakeAndServer } from '../helpers/real-server';

type Client = Record<string, any>;

describe('ioredis Commander methods', () => {
  itOnFakeAndServer(
    'getBuiltinCommands, addBuiltinCommand and createBuiltinCommand answer as ioredis’s',
    'builtin command methods',
    { port: 48_621, key: 'builtin:k' },
    async (client: Client, key) => {
      const list: string[] = client.getBuiltinCommands();
      client.addBuiltinCommand('echo');
      const strlen = client.createBuiltinCommand('strlen');
      await client.set(key, 'hello');
      const out = [
        list.length > 200,
        list.includes('sentinel'),
        list.includes('monitor'),
        list.includes('xreadgroup'),
        await client.echo('x'),
        Buffer.isBuffer(await client.echoBuffer('y')),
        await strlen.string.call(client, key),
        Buffer.isBuffer(await strlen.buffer.call(client, key)) ? 'buffer' : typeof (await strlen.buffer.call(client, key)),
        [...client.addedBuiltinSet],
      ];
      await client.del(key);
      return out;
    },
    [true, true, false, true, 'x', true, 5, 'number', ['echo']],
  );
});
