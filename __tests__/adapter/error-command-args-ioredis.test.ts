/**
 * A rejected command's `err.command.args` as real ioredis sets them: a Buffer argument stays that
 * Buffer (numbers become strings), for methods, `call`, `…Buffer` methods, argument transformers
 * (hset of an object), pipelines and stream commands; the fake gave the Buffer's bytes decoded as
 * UTF-8 text (found by the core fuzzer through ioredis, seeds 1-20: every WRONGTYPE on the key `k\xff`).
 */
import { type Client, type ClientCase, runOnFakeAndRealIoredis } from '../helpers/fake-and-real-ioredis';

/** The error's command, Buffers shown as `Buffer(hex)`. */
async function commandOf(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
    return 'no error';
  } catch (e) {
    const c = (e as { command?: { name: string; args: unknown[] } }).command;
    return c && { name: c.name, args: c.args.map((a) => (Buffer.isBuffer(a) ? `Buffer(${a.toString('hex')})` : a)) };
  }
}

const cases: ClientCase[] = [
  [
    'Buffer arguments stay Buffers in err.command.args, numbers become strings',
    {},
    async (r: Client, { key }) => {
      await r.set(key, 'x');
      const k = Buffer.from(key);
      const out = [
        await commandOf(r.call('LPUSH', k, 1, Buffer.from([0xff]))),
        await commandOf(r.lpush(key, 2.5, Buffer.from([0xfe, 0x00]), 'b')),
        await commandOf(r.lpushBuffer(k, 'a')),
        await commandOf(r.hset(key, { a: 1, b: Buffer.from([0xc3]) })),
        await commandOf(r.xadd(k, '*', Buffer.from('f'), 1)),
        await commandOf(r.incrby(key, 5)),
      ];
      const piped = await r.pipeline().lpush(k, Buffer.from([0xff])).exec();
      out.push(await commandOf(Promise.reject(piped[0][0])));
      await r.del(key);
      return out;
    },
    (key: string) => {
      const hex = Buffer.from(key).toString('hex');
      return [
        { name: 'LPUSH', args: [`Buffer(${hex})`, '1', 'Buffer(ff)'] },
        { name: 'lpush', args: [key, '2.5', 'Buffer(fe00)', 'b'] },
        { name: 'lpush', args: [`Buffer(${hex})`, 'a'] },
        { name: 'hset', args: [key, 'a', '1', 'b', 'Buffer(c3)'] },
        { name: 'xadd', args: [`Buffer(${hex})`, '*', 'Buffer(66)', '1'] },
        { name: 'incrby', args: [key, '5'] },
        { name: 'lpush', args: [`Buffer(${hex})`, 'Buffer(ff)'] },
      ];
    },
  ],
];

describe('err.command.args', () => {
  // skip: the real-ioredis half of each case skips (with the helper's message) without REDIS_URL /
  // REDIS_UNSTABLE_URL: nothing to compare with; CI sets both
  runOnFakeAndRealIoredis(cases, { firstPort: 38_900, keyPrefix: 'errargs', subject: "a rejected command's err.command", verb: 'holds the arguments as given' });
});
