/**
 * A request whose argument is longer than a JS string can be (536870889 .. 536870912 bytes: past
 * V8's 536870888, within proto-max-bulk-len's 512 MiB) killed `serve`: the parser's latin1 slice
 * threw ERR_STRING_TOO_LONG out of the socket's data handler (found with SET of a 536870900-byte
 * value, next to the ioredis suite's large pipelines). Redis stores the value (+OK); the fake
 * cannot hold it: it reads and drops the bytes, answers the limitation error SETRANGE gives for
 * a string that long, and goes on with the next request. On serve, and on REDIS_URL when set.
 */
import * as net from 'node:net';
import { serve, type RedisServer } from '../../lib/server';

let server: RedisServer | undefined;
const targets: [string, () => Promise<number>][] = [['serve', async () => (server ??= await serve()).port]];
if (process.env.REDIS_URL) targets.push(['REDIS_URL', async () => Number(new URL(process.env.REDIS_URL!).port || 6379)]);
else console.log('argument-past-js-string: REDIS_URL not set, checking serve only');
afterAll(async () => {
  await server?.close();
});

const LENGTH = 536870900;

describe.each(targets)('an argument longer than a JS string (%s)', (label, portOf) => {
  it('SET of a 536870900-byte value, then STRLEN and PING: the server answers all three and lives', async () => {
    const socket = net.connect({ port: await portOf(), host: '127.0.0.1' });
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const key = `argument-past-js-string:${process.pid}`;
    let text = '';
    const done = new Promise<void>((resolve, reject) => {
      socket.on('data', (d: Buffer) => {
        text += d.toString('latin1');
        if (text.endsWith('+PONG\r\n')) resolve();
      });
      socket.once('close', () => reject(new Error(`closed after ${JSON.stringify(text)}`)));
    });
    socket.write(`*3\r\n$3\r\nSET\r\n$${key.length}\r\n${key}\r\n$${LENGTH}\r\n`);
    const chunk = Buffer.alloc(64 * 1024 * 1024, 0x61);
    for (let left = LENGTH; left > 0; left -= chunk.length) {
      if (!socket.write(chunk.subarray(0, Math.min(left, chunk.length)))) await new Promise((r) => socket.once('drain', r));
    }
    socket.write(`\r\nSTRLEN ${key}\r\nDEL ${key}\r\nPING\r\n`);
    await done;
    socket.destroy();
    if (label === 'REDIS_URL') {
      expect(text).toBe(`+OK\r\n:${LENGTH}\r\n:1\r\n+PONG\r\n`);
    } else {
      expect(text).toBe(
        `-ERR [ioredis-mock-streams] a string of ${LENGTH} bytes is longer than JavaScript strings can be (536870888); Redis would store it\r\n` +
          ':0\r\n:0\r\n+PONG\r\n',
      );
    }
  }, 120000);
});
