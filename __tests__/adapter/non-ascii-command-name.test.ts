/**
 * A command name that is not ASCII (`call('áéűáű')`, `callBuffer('€x')`) is sent as its UTF-8
 * bytes, as ioredis writes it: Redis echoes those bytes in "unknown command", which ioredis
 * decodes as UTF-8, and the error's `command.name` is the name as given. A helper running
 * ioredis's own suite against the class found `'��q�q'` (one byte per character, ű → 0x71).
 * Run on the fake and with real ioredis on both real servers.
 */
import { runOnFakeAndRealIoredis } from '../helpers/fake-and-real-ioredis';

const failure = async (p: Promise<unknown>) => {
  try {
    return ['resolved', await p];
  } catch (err) {
    const e = err as { message: string; command?: { name: string; args: unknown[] } };
    return [e.message, e.command];
  }
};

// skip: the real-ioredis half of each case skips (with the helper's message) without REDIS_URL /
// REDIS_UNSTABLE_URL: nothing to compare with; CI sets both
runOnFakeAndRealIoredis(
  [
    [
      'call() of a non-ASCII name rejects with the name as given, in the text and in err.command',
      {},
      (r) => failure(r.call('áéűáű', 'ű', 'x')),
      ["ERR unknown command 'áéűáű', with args beginning with: 'ű' 'x' ", { name: 'áéűáű', args: ['ű', 'x'] }],
    ],
    ['callBuffer() alike', {}, (r) => failure(r.callBuffer('€x')), ["ERR unknown command '€x', with args beginning with: ", { name: '€x', args: [] }]],
    [
      'in a pipeline the entry is that error',
      {},
      async (r) => {
        const [[err]] = await r.pipeline().call('ű', 'a').exec();
        return [err.message, err.command];
      },
      ["ERR unknown command 'ű', with args beginning with: 'a' ", { name: 'ű', args: ['a'] }],
    ],
  ],
  { firstPort: 56_100, keyPrefix: 'non-ascii-name', subject: 'real ioredis', verb: 'rejects' },
);
