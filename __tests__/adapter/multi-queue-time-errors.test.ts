/**
 * ioredis `multi()` (the pipeline object) when the server refuses a command at queue time: EXEC
 * answers EXECABORT and the promise of exec() rejects with it, `previousErrors` holding each
 * refusal with its command — as real ioredis 5.11.1 and 6.0.0 on redis-server 7.0.15 and the
 * post-7.4 build (recorded; the transaction ran with the OOM error in place before). Out of
 * memory: 7.0 refuses every command queued but EXEC/DISCARD/QUIT/RESET, 7.4+ only the denyoom
 * ones. A WRONGTYPE is not a queue-time error: it stays in place.
 */
import Redis from 'ioredis-mock-streams';

type Client = Record<string, any>;
let port = 35_300;
beforeEach(() => {
  port++;
});

async function execAbort(m: Client): Promise<[string, { name: string; args: string[] }][]> {
  try {
    await m.exec();
  } catch (err) {
    const e = err as Error & { previousErrors?: (Error & { command: { name: string; args: string[] } })[] };
    expect(e.message).toBe('EXECABORT Transaction discarded because of previous errors.');
    return (e.previousErrors ?? []).map((p) => [p.message, p.command]);
  }
  throw new Error('exec() did not reject');
}

const OOM = "OOM command not allowed when used memory > 'maxmemory'.";

describe('multi() exec() with a queue-time error', () => {
  it('aborts on OOM, refusing the denyoom commands (8.x)', async () => {
    const r = new Redis({ port }) as unknown as Client;
    await r.config('set', 'maxmemory', '1');
    expect(await execAbort(r.multi().get('x').set('k', 'v').incr('n'))).toEqual([
      [OOM, { name: 'set', args: ['k', 'v'] }],
      [OOM, { name: 'incr', args: ['n'] }],
    ]);
    await r.config('set', 'maxmemory', '0');
    expect(await r.exists('k', 'n')).toBe(0);
    r.disconnect();
  });

  it('aborts on OOM, refusing every command queued (7.0)', async () => {
    const r = new Redis({ port, streams: { redisVersion: '7.0' } } as never) as unknown as Client;
    await r.config('set', 'maxmemory', '1');
    expect(await execAbort(r.multi().get('x').set('k', 'v').incr('n'))).toEqual([
      [OOM, { name: 'get', args: ['x'] }],
      [OOM, { name: 'set', args: ['k', 'v'] }],
      [OOM, { name: 'incr', args: ['n'] }],
    ]);
    await r.config('set', 'maxmemory', '0');
    r.disconnect();
  });

  it('aborts on a wrong arity and on an unknown command', async () => {
    const r = new Redis({ port }) as unknown as Client;
    expect(await execAbort(r.multi().get('x').call('get').incr('n'))).toEqual([["ERR wrong number of arguments for 'get' command", { name: 'get', args: [] }]]);
    expect(await execAbort(r.multi().get('x').call('nosuchcmd', 'a').incr('n'))).toEqual([
      ["ERR unknown command 'nosuchcmd', with args beginning with: 'a' ", { name: 'nosuchcmd', args: ['a'] }],
    ]);
    expect(await r.exists('n')).toBe(0);
    r.disconnect();
  });

  it('aborts on an ACL NOPERM, in each version\'s words', async () => {
    for (const [version, text] of [
      ['7.0', "NOPERM this user has no permissions to run the 'set' command"],
      ['8.10', "NOPERM User np has no permissions to run the 'set' command"],
    ]) {
      port++;
      const admin = new Redis({ port, streams: { redisVersion: version } } as never) as unknown as Client;
      await admin.call('acl', 'setuser', 'np', 'on', '>np', '~*', '+@all', '-set');
      const u = new Redis({ port, username: 'np', password: 'np' } as never) as unknown as Client;
      expect(await execAbort(u.multi().get('x').set('k', 'v').incr('n'))).toEqual([[text, { name: 'set', args: ['k', 'v'] }]]);
      expect(await admin.exists('n')).toBe(0);
      [admin, u].forEach((c) => c.disconnect());
    }
  });

  it('runs a transaction whose WRONGTYPE comes at run time, the error in place', async () => {
    const r = new Redis({ port }) as unknown as Client;
    const out = await r.multi().set('s', 'a').lpush('s', 'x').get('s').exec();
    expect(out[0]).toEqual([null, 'OK']);
    expect(out[1][0].message).toBe('WRONGTYPE Operation against a key holding the wrong kind of value');
    expect(out[2]).toEqual([null, 'a']);
    r.disconnect();
  });
});
