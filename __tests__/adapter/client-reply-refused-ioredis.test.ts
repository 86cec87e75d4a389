/**
 * CLIENT REPLY OFF and SKIP through the ioredis front end. Against a real server ioredis pairs
 * each reply with the oldest command still waiting for one, so once the server stops answering
 * (OFF, or SKIP's next command) every later command gets an earlier command's reply and the last
 * ones none (found with real ioredis 5.11.1 and 6.1.0 on redis-server 7.0.15: `client('REPLY',
 * 'OFF')` resolved 'OK' — SET's reply —, `set` resolved GET's). The fake refuses them with a
 * StreamsMockError (ConnectionOptions.clientReplyRefusal), which the RESP server's connections
 * do not set (there CLIENT REPLY silences replies, as on Redis).
 */
import Redis from 'ioredis-mock-streams';
import { StreamsMockError } from '../../lib/clock/clock';

let port = 48_400;
const open = (): Record<string, any> => new (Redis as any)({ port: port++ });

describe('CLIENT REPLY through an ioredis client', () => {
  it('OFF and SKIP reject with a StreamsMockError that says why and where to test them; later commands keep their own replies', async () => {
    const r = open();
    const off = await r.client('REPLY', 'OFF').catch((e: Error) => e);
    expect(off).toBeInstanceOf(StreamsMockError);
    expect(off.message).toMatch(/ioredis pairs each reply with the oldest command still waiting for one.*`serve`/);
    await expect(r.call('client', 'reply', 'skip')).rejects.toBeInstanceOf(StreamsMockError);
    expect(await r.set('a', '1')).toBe('OK');
    expect(await r.get('a')).toBe('1');
    // ON (a no-op here) and a bad argument answer as Redis does
    expect(await r.client('REPLY', 'ON')).toBe('OK');
    await expect(r.client('REPLY', 'maybe')).rejects.toThrow('ERR syntax error');
    r.disconnect();
  });

  it('inside MULTI, the refusal is a queueing error: EXEC answers EXECABORT with it among the previous errors, nothing runs', async () => {
    const r = open();
    const err = await r.multi().client('reply', 'off').set('a', '1').exec().catch((e: Error) => e);
    expect(err.message).toBe('EXECABORT Transaction discarded because of previous errors.');
    expect((err as Error & { previousErrors: unknown[] }).previousErrors[0]).toBeInstanceOf(StreamsMockError);
    expect(await r.get('a')).toBeNull();
    r.disconnect();
  });

  it('in a pipeline, only that command fails', async () => {
    const r = open();
    const out = await r.pipeline().client('reply', 'skip').set('a', '1').get('a').exec();
    expect(out[0][0]).toBeInstanceOf(StreamsMockError);
    expect(out.slice(1)).toEqual([[null, 'OK'], [null, '1']]);
    r.disconnect();
  });
});
