/**
 * A defineCommand script is sent as ioredis's Script sends it: EVAL with the body the first time
 * on a connection (caching it in the server), EVALSHA after; after SCRIPT FLUSH (or a server
 * restart) EVALSHA answers NOSCRIPT, and the call is resent as EVAL — except inside MULTI, where
 * EXEC answers NOSCRIPT in that command's place (what BullMQ's addBulk meets after a restart).
 * The same script on the fake and on real ioredis against REDIS_URL.
 */
import { createHash } from 'crypto';
import { itOnFakeAndServer } from '../helpers/real-server';

type Client = Record<string, any>;

const LUA = "return redis.call('INCR', KEYS[1])";
const SHA = createHash('sha1').update(LUA).digest('hex');
const pairs = (res: [Error | null, unknown][]) => res.map(([e, v]) => (e ? `ERR ${e.message.split(' ')[0]}` : v));

describe('defineCommand scripts after SCRIPT FLUSH', () => {
  itOnFakeAndServer(
    'EVAL first, EVALSHA after; after SCRIPT FLUSH a call and a pipeline resend as EVAL, a multi() answers NOSCRIPT',
    'defined command and NOSCRIPT',
    { port: 48_631, key: 'noscript' },
    async (client: Client, key) => {
      client.defineCommand('incrCap', { numberOfKeys: 1, lua: LUA });
      await client.script('FLUSH');
      const out: unknown[] = [await client.script('EXISTS', SHA)];
      out.push(pairs(await client.multi().incrCap(`${key}:a`).exec())); // the first send: EVAL, inside MULTI
      out.push(await client.script('EXISTS', SHA));
      out.push(await client.incrCap(`${key}:b`)); // EVALSHA now
      await client.script('FLUSH');
      out.push(pairs(await client.multi().incrCap(`${key}:a`).exec()));
      out.push(pairs(await client.pipeline().incrCap(`${key}:a`).exec()));
      await client.script('FLUSH');
      out.push(await client.incrCap(`${key}:b`));
      out.push(await client.script('EXISTS', SHA));
      await client.del(`${key}:a`, `${key}:b`);
      return out;
    },
    [[0], [1], [1], 1, ['ERR NOSCRIPT'], [2], 2, [1]],
  );
});
