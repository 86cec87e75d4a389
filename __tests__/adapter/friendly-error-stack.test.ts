/**
 * ioredis's `showFriendlyErrorStack: true`: an error reply's stack is the caller's (captured when
 * the method is called, the library's own frames left out), so its first frame is the line that
 * sent the command — for methods, `call()`, the stream commands' short path and defined
 * commands alike. Without the option the stack is the library's. A helper running ioredis's own
 * suite against the class found the option ignored. Run on the fake and with real ioredis on
 * both real servers.
 */
import { basename } from 'path';
import { runOnFakeAndRealIoredis } from '../helpers/fake-and-real-ioredis';

const HERE = basename(__filename);
/** The file of the first frame of an error's stack. */
async function firstFrameFile(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'resolved';
  } catch (err) {
    const frame = (err as Error).stack!.split('\n')[1] ?? '';
    return frame.includes(HERE) ? 'the caller' : 'elsewhere';
  }
}

// skip: the real-ioredis half of each case skips (with the helper's message) without REDIS_URL /
// REDIS_UNSTABLE_URL: nothing to compare with; CI sets both
runOnFakeAndRealIoredis(
  [
    [
      'the first frame is the caller',
      { showFriendlyErrorStack: true },
      async (r, { key }) => {
        await r.set(key, 'text');
        r.defineCommand('incrViaScript', { lua: "return redis.call('INCR', KEYS[1])", numberOfKeys: 1 });
        const files = [await firstFrameFile(r.xadd(key, '*', 'f', 'v')), await firstFrameFile(r.incr(key)), await firstFrameFile(r.call('nosuch')), await firstFrameFile(r.incrViaScript(key))];
        await r.del(key);
        return files;
      },
      ['the caller', 'the caller', 'the caller', 'the caller'],
    ],
    [
      "a pipeline's error replies have the line that queued the command (those in a transaction's EXEC reply do not)",
      { showFriendlyErrorStack: true },
      async (r, { key }) => {
        await r.set(key, 'text');
        const p = r.pipeline();
        p.incr(key);
        p.xadd(key, '*', 'f', 'v');
        p.get(key);
        const pairs = await p.exec();
        const inPipeline = await Promise.all(pairs.slice(0, 2).map(([err]: [unknown]) => firstFrameFile(Promise.reject(err))));
        const m = r.multi();
        m.incr(key);
        const [[inTransaction]] = await m.exec();
        await r.del(key);
        return [inPipeline, pairs[2][1], await firstFrameFile(Promise.reject(inTransaction))];
      },
      [['the caller', 'the caller'], 'text', 'elsewhere'],
    ],
    [
      "a transaction's EXECABORT has exec()'s caller, and its previousErrors the lines that queued them",
      { showFriendlyErrorStack: true },
      async (r, { key }) => {
        const m = r.multi();
        m.set(key);
        let aborted: unknown;
        try {
          await m.exec();
        } catch (err) {
          aborted = err;
        }
        const previous = (aborted as { previousErrors: unknown[] }).previousErrors;
        return [(aborted as Error).message, await firstFrameFile(Promise.reject(aborted)), previous.length, await firstFrameFile(Promise.reject(previous[0]))];
      },
      ['EXECABORT Transaction discarded because of previous errors.', 'the caller', 1, 'the caller'],
    ],
    [
      'without the option, the library frames stay',
      {},
      async (r, { key }) => [await r.set(key, 'text'), await firstFrameFile(r.incr(key)), await r.del(key)],
      ['OK', 'elsewhere', 1],
    ],
  ],
  { firstPort: 56_140, base: { db: 12 }, keyPrefix: 'friendly-stack', subject: 'real ioredis', verb: 'rewrites' },
);
