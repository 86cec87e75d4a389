/**
 * `redis.sendCommand(new Command(name, args))` as ioredis's Redis#sendCommand: the Command's
 * promise settles with the reply converted by the Command itself (a Command without
 * replyEncoding gets Buffers; ioredis's transformer for its name, e.g. HGETALL → object), and a
 * rejected one carries `command` as the Command spelled it. Values checked with real ioredis
 * 6.0.0 (default, protocol 2, replyMapping resp3) on redis-server 7.0.15.
 */
import Redis, { Command, StreamsMockError } from 'ioredis-mock-streams';

type Client = InstanceType<typeof Redis>;
let r: Client;
beforeEach(async () => {
  r = new Redis({ port: 47_200 });
  await r.flushall();
});
afterEach(() => r.disconnect());

const send = (name: string, args: (string | number)[], options?: Record<string, unknown>) =>
  (r as unknown as { sendCommand(c: unknown): Promise<unknown> }).sendCommand(new (Command as any)(name, args, options));

describe('sendCommand(command)', () => {
  it('settles the Command’s promise with the reply the Command converts (Buffers without replyEncoding)', async () => {
    expect(await send('set', ['k', 'v'])).toEqual(Buffer.from('OK'));
    expect(await send('get', ['k'])).toEqual(Buffer.from('v'));
    expect(await send('get', ['k'], { replyEncoding: 'utf8' })).toBe('v');
    expect(await send('hset', ['h', 'a', 1])).toBe(1);
    expect(await send('hgetall', ['h'])).toEqual({ a: Buffer.from('1') });
  });

  it('gives stream replies in the client’s shape and errors with the command as spelled', async () => {
    expect(await send('xadd', ['s', '1-1', 'f', 'v'])).toEqual(Buffer.from('1-1'));
    const err = (await send('xreadgroup', ['GROUP', 'g', 'c', 'STREAMS', 's', '>']).catch((e: unknown) => e)) as Error & { command: unknown };
    expect(err.message).toBe("NOGROUP No such key 's' or consumer group 'g' in XREADGROUP with GROUP option");
    expect(err.command).toEqual({ name: 'xreadgroup', args: ['GROUP', 'g', 'c', 'STREAMS', 's', '>'] });
    await send('xgroup', ['CREATE', 's', 'g', '0']);
    const b = (s: string) => Buffer.from(s);
    expect(await send('xreadgroup', ['GROUP', 'g', 'c', 'STREAMS', 's', '>'])).toEqual([[b('s'), [[b('1-1'), [b('f'), b('v')]]]]]);
  });

  it('rejects anything but a Command with a StreamsMockError saying what to pass', async () => {
    const client = r as unknown as { sendCommand(c: unknown): Promise<unknown> };
    await expect(client.sendCommand({ name: 'get' })).rejects.toThrow(StreamsMockError);
    await expect(client.sendCommand(undefined)).rejects.toThrow(/new Command\('set'/);
  });
});
