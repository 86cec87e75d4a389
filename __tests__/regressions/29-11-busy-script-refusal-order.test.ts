/**
 * While another connection's script is busy past busy-reply-threshold, processCommand gives its
 * earlier refusals first (unknown command, wrong arity, DEBUG not enabled …), then BUSY to every
 * command not flagged allow-busy — CLIENT among them. The fake answered BUSY before those errors
 * and ran CLIENT subcommands (found by a differential helper; the same sequence on redis-server
 * 7.0.15 and the post-7.4 build answers as asserted here).
 */
import { type RedisServer, serve } from '../../lib/server';
import { RawClient, request } from '../server/raw-client';

const BUSY = '-BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.\r\n';
const LOOP = "local t=redis.call('time') while true do local n=redis.call('time') if (n[1]-t[1])*1000000+(n[2]-t[2]) > 3000000 then break end end return 1";

describe('commands of other connections while a script is busy', () => {
  let server: RedisServer;
  beforeEach(async () => {
    server = await serve({ port: 0 });
  });
  afterEach(async () => {
    await server.close();
  });

  it('get processCommand refusals first, then BUSY (CLIENT too); SCRIPT KILL still runs', async () => {
    const a = await RawClient.connect(server.port);
    const b = await RawClient.connect(server.port);
    expect(await b.call('CONFIG', 'SET', 'busy-reply-threshold', '100')).toBe('+OK\r\n');
    a.write(request('EVAL', LOOP, '0'));
    await new Promise((r) => setTimeout(r, 300));
    expect(await b.call('CLIENT', 'ID')).toBe(BUSY);
    expect(await b.call('GET', 'k')).toBe(BUSY);
    expect(await b.call('NOSUCH')).toBe("-ERR unknown command 'NOSUCH', with args beginning with: \r\n");
    expect(await b.call('GET')).toBe("-ERR wrong number of arguments for 'get' command\r\n");
    expect(await b.call('CONFIG', 'SET', 'x')).toBe("-ERR wrong number of arguments for 'config|set' command\r\n");
    expect(await b.call('DEBUG', 'HELP')).toMatch(/^-ERR DEBUG command not allowed\./);
    expect(await b.call('SCRIPT', 'KILL')).toBe('+OK\r\n');
    expect((await a.read())[0]).toMatch(/^-ERR Script killed by user with SCRIPT KILL\.\.\. script: /);
    a.close();
    b.close();
  });
});
