/**
 * Found by this session's method-lane equivalence tests and new-user trial, checked against
 * redis-server 7.0.15 (and a build after 7.4) through real ioredis 5 and 6:
 * - CLIENT LIST `cmd=` is what processCommand looked up (`c->lastcmd`): a container's
 *   subcommand by its full name (`xgroup|create`, `xinfo|groups`, `config|get`,
 *   `object|encoding`), NULL for an unknown command or subcommand, the command even when it is
 *   refused for its arity, and `exec` once EXEC (or `multi().exec()`) ran the queued commands.
 *   The fake showed `xgroup`, kept the previous command, or showed the last queued one.
 * - A Uint8Array that is not a Buffer is sent by ioredis as its String() (`65,66`); the fake
 *   stored its bytes (`AB`).
 */
import { type AnyClient, itOnFakeAndServer } from '../helpers/real-server';

async function cmdScript(r: AnyClient, k: string): Promise<string[]> {
  const observer = r.duplicate();
  try {
    const id = await r.client('ID');
    const cmd = async () => /cmd=(\S+)/.exec(String(await observer.client('LIST', 'ID', id)))![1];
    const out: string[] = [];
    const step = async (run: () => Promise<unknown>) => {
      await run().catch(() => undefined);
      out.push(await cmd());
    };
    await r.del(k, `${k}:str`);
    await step(() => r.xgroup('CREATE', k, 'g', '$', 'MKSTREAM'));
    await step(() => r.xinfo('GROUPS', k));
    await step(() => r.call('XGROUP', 'NOPE', k));
    await step(() => r.call('NOSUCHCOMMAND'));
    await step(() => r.call('XADD', k)); // wrong arity: refused, looked up all the same
    await step(() => r.call('XGROUP', 'CREATE', k)); // wrong arity of the subcommand
    await step(() => r.config('GET', 'maxmemory'));
    await step(() => r.set(`${k}:str`, 'v'));
    await step(() => r.object('ENCODING', `${k}:str`));
    await step(() => r.multi().xlen(k).set(`${k}:str`, 'w').exec());
    await step(async () => {
      await r.call('MULTI');
      await r.xlen(k);
      await r.call('EXEC');
    });
    await r.del(k, `${k}:str`);
    return out;
  } finally {
    observer.disconnect();
  }
}

async function uint8Script(r: AnyClient, k: string): Promise<unknown[]> {
  await r.del(k);
  await r.xadd(k, '1-0', 'f', new Uint8Array([65, 66]));
  await r.call('XADD', k, '2-0', 'f', new Uint8Array([67]));
  await r.pipeline().xadd(k, '3-0', 'f', new Uint8Array([68])).exec();
  const entries = await r.xrange(k, '-', '+');
  await r.del(k);
  return entries;
}

describe('CLIENT LIST cmd', () => {
  itOnFakeAndServer(
    'is the command processCommand looked up: full subcommand names, NULL when none, exec after EXEC',
    'CLIENT LIST cmd',
    { port: 50_917, key: 'clientcmd' },
    cmdScript,
    ['xgroup|create', 'xinfo|groups', 'NULL', 'NULL', 'xadd', 'xgroup|create', 'config|get', 'set', 'object|encoding', 'exec', 'exec'],
  );
});

describe('a Uint8Array argument (not a Buffer)', () => {
  itOnFakeAndServer(
    'is written as its String(), as ioredis writes it',
    'Uint8Array arguments',
    { port: 50_918, key: 'u8args' },
    uint8Script,
    [['1-0', ['f', '65,66']], ['2-0', ['f', '67']], ['3-0', ['f', '68']]],
  );
});
