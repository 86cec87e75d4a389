/**
 * Issue 10 (5): `eval`/`evalsha` skipped the connection's queue: a script sent while the
 * client's read was blocked ran at once (it could even serve that read), and scripts still ran
 * after `disconnect()`. A script is a command of the connection like any other.
 */
import Redis from 'ioredis-mock-streams';
import { settled } from '../helpers/settled';

let port = 47_300;
beforeEach(() => {
  port++;
});

describe('scripts in connection order', () => {
  it('runs a script sent while the same client is blocked only after the blocked read answers', async () => {
    const r = new Redis({ port });
    const producer = new Redis({ port });
    await producer.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM');
    const read = r.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 0, 'STREAMS', 's', '>');
    const script = r.eval("return redis.call('XADD', KEYS[1], '2-0', 'from', 'script')", 1, 's');
    expect(await settled(script)).toBe(false);
    await producer.xadd('s', '1-0', 'from', 'producer');
    expect(await read).toEqual([['s', [['1-0', ['from', 'producer']]]]]);
    expect(await script).toBe('2-0');
    const sha = (await r.script('LOAD', 'return 1')) as string;
    const read2 = r.xread('BLOCK', 0, 'STREAMS', 's', '$');
    const viaSha = r.evalsha(sha, 0);
    expect(await settled(viaSha)).toBe(false);
    await producer.xadd('s', '3-0', 'f', 'v');
    await read2;
    expect(await viaSha).toBe(1);
    r.disconnect();
    producer.disconnect();
  });

  it('rejects scripts after disconnect()', async () => {
    const r = new Redis({ port });
    r.disconnect();
    await expect(r.eval('return 1', 0)).rejects.toThrow('Connection is closed.');
    await expect(r.evalsha('e0e1f9fabfc9d4800c877a703b823ac0578ff8db', 0)).rejects.toThrow('Connection is closed.');
  });
});
