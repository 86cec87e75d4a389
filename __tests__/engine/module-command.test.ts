/**
 * MODULE as a server without modules and with `enable-module-command no` (Redis 7.0+'s default)
 * answers it, and Redis's PROTECTED check (DEBUG, MODULE LOAD/LOADEX/UNLOAD) made right after the
 * arity check as processCommand does: inside MULTI the refusal comes at queue time and EXEC
 * answers EXECABORT (it used to be queued and fail inside EXEC). MODULE was not emulated at all
 * ("MODULE is not emulated"). Compared live with both real servers when REDIS_URL /
 * REDIS_UNSTABLE_URL are set.
 */
import { createConnection } from '../../lib/engine';
import { SimpleString } from '../../lib/reply/reply';
import { connectReal, describeOnRealServers } from '../helpers/real-server';
import { engineConnections, errorOf } from '../helpers/engine-connections';

const engine = engineConnections(36_700);
const NOT_ALLOWED = (cmd: string, setting: string) =>
  `ERR ${cmd} command not allowed. If the ${setting} option is set to "local", you can run it from a local connection, otherwise you need to set this option in the configuration file, and then restart the server.`;

describe('MODULE on a server without modules', () => {
  it('MODULE LIST answers an empty list', async () => {
    expect(await engine.conn().execute(['MODULE', 'LIST'])).toEqual([]);
  });

  it('MODULE HELP lists LIST, LOAD, LOADEX, UNLOAD and HELP, ending "Print this help." (8.x) or "Prints this help." (7.0)', async () => {
    const help = (await engine.conn().execute(['MODULE', 'HELP'])) as SimpleString[];
    expect(help.map((s) => s.value)).toEqual([
      'MODULE <subcommand> [<arg> [value] [opt] ...]. Subcommands are:',
      'LIST',
      '    Return a list of loaded modules.',
      'LOAD <path> [<arg> ...]',
      '    Load a module library from <path>, passing to it any optional arguments.',
      'LOADEX <path> [[CONFIG NAME VALUE] [CONFIG NAME VALUE]] [ARGS ...]',
      '    Load a module library from <path>, while passing it module configurations and optional arguments.',
      'UNLOAD <name>',
      '    Unload a module.',
      'HELP',
      '    Print this help.',
    ]);
    const old = (await engine.conn({ streams: { redisVersion: '7.0' } }).execute(['MODULE', 'HELP'])) as SimpleString[];
    expect(old[old.length - 1].value).toBe('    Prints this help.');
  });

  it('MODULE LOAD, LOADEX and UNLOAD are refused while enable-module-command is no; arity and unknown subcommands first', async () => {
    const c = engine.conn();
    expect(await errorOf(c.execute(['MODULE', 'LOAD', '/x.so']))).toBe(NOT_ALLOWED('MODULE', 'enable-module-command'));
    expect(await errorOf(c.execute(['MODULE', 'LOADEX', '/x.so', 'CONFIG']))).toBe(NOT_ALLOWED('MODULE', 'enable-module-command'));
    expect(await errorOf(c.execute(['MODULE', 'UNLOAD', 'm']))).toBe(NOT_ALLOWED('MODULE', 'enable-module-command'));
    expect(await errorOf(c.execute(['MODULE', 'LOAD']))).toBe("ERR wrong number of arguments for 'module|load' command");
    expect(await errorOf(c.execute(['MODULE', 'LIST', 'x']))).toBe("ERR wrong number of arguments for 'module|list' command");
    expect(await errorOf(c.execute(['MODULE', 'FOO']))).toBe("ERR unknown subcommand 'FOO'. Try MODULE HELP.");
    expect(await errorOf(c.execute(['MODULE']))).toBe("ERR wrong number of arguments for 'module' command");
  });

  it('inside MULTI a protected command is refused when queued and EXEC answers EXECABORT', async () => {
    for (const argv of [['MODULE', 'LOAD', '/x.so'], ['DEBUG', 'SLEEP', '0']]) {
      const c = engine.conn();
      await c.execute(['MULTI']);
      expect(await errorOf(c.execute(argv))).toMatch(/^ERR (MODULE|DEBUG) command not allowed/);
      expect(await errorOf(c.execute(['EXEC']))).toBe('EXECABORT Transaction discarded because of previous errors.');
    }
  });

  it('a script may call MODULE HELP but not MODULE LIST (noscript)', async () => {
    const c = engine.conn();
    expect(await c.execute(['EVAL', "return redis.call('module','help')[2]", '0'])).toEqual(new SimpleString('LIST')); // a status reply, as Lua hands it back
    expect(await errorOf(c.execute(['EVAL', "return redis.call('module','list')", '0']))).toMatch(/^ERR This Redis command is not allowed from script/);
  });
});

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers('MODULE and the protected commands', (server) => {
  const cases: string[][] = [
    ['MODULE', 'LIST'],
    ['MODULE', 'HELP'],
    ['MODULE', 'LOAD', '/x.so'],
    ['MODULE', 'LOADEX', '/x.so', 'CONFIG'],
    ['MODULE', 'UNLOAD', 'm'],
    ['MODULE', 'LOAD'],
    ['MODULE', 'help', 'x'],
    ['MODULE', 'FOO'],
    ['DEBUG', 'SLEEP', '0'],
  ];
  it.each(cases.map((c) => [c.join(' '), c]))('%s', async (_, argv) => {
    const real = await connectReal(server.url, 13, {}, false);
    const fake = createConnection({ port: 36_799, streams: { redisVersion: server.version } });
    try {
      const outcome = (p: Promise<unknown>) => p.then((ok) => ({ ok: JSON.parse(JSON.stringify(ok, (_k, v) => (v instanceof SimpleString ? v.value : v))) }), (e: Error) => ({ err: e.message }));
      expect(await outcome(fake.execute(argv as string[]))).toEqual(await outcome(real.call(...(argv as [string, ...string[]]))));
    } finally {
      fake.close();
      real.disconnect();
    }
  });
});
