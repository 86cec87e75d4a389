/**
 * After a protocol error the server closes the connection both ways (Redis's close()): a client
 * that keeps writing gets an error (EPIPE / ECONNRESET) instead of writing into a half-closed
 * socket forever (unit/protocol "Protocol desync regression test": "\x00", "*\x00", "$\x00"
 * then "payload" over and over; 7.0.15 and the post-7.4 build answer the error, then the
 * writes fail after ~64 KB). On serve, and on REDIS_URL when set.
 */
import * as net from 'node:net';
import { serve, type RedisServer } from '../../lib/server';

let server: RedisServer | undefined;
const targets: [string, () => Promise<number>][] = [['serve', async () => (server ??= await serve()).port]];
if (process.env.REDIS_URL) targets.push(['REDIS_URL', async () => Number(new URL(process.env.REDIS_URL!).port || 6379)]);
afterAll(async () => {
  await server?.close();
});

describe.each(targets)('a protocol desync closes the connection (%s)', (_label, portOf) => {
  it.each([
    ['\x00', '-ERR Protocol error: too big inline request\r\n'],
    ['*\x00', '-ERR Protocol error: too big mbulk count string\r\n'],
  ])('%j then "payload" repeated: the error, then writes fail', async (seq, error) => {
    // half-open allowed: the client keeps writing after the server's FIN, as the Tcl test does
    const socket = net.connect({ port: await portOf(), host: '127.0.0.1', allowHalfOpen: true });
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    let text = '';
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
    });
    const failed = new Promise<string>((resolve) => socket.once('error', (e: NodeJS.ErrnoException) => resolve(String(e.code))));
    socket.write(seq);
    let stop = false;
    void failed.then(() => {
      stop = true;
    });
    for (let i = 0; i < 1000 && !stop; i++) {
      socket.write('payload'.repeat(100));
      await new Promise((r) => setTimeout(r, 2));
    }
    expect(['EPIPE', 'ECONNRESET']).toContain(await Promise.race([failed, new Promise((r) => setTimeout(() => r('still writable'), 3000))]));
    expect(text).toBe(error);
    socket.destroy();
  }, 20000);
});
