/**
 * A pipeline's `length` is ioredis's Pipeline#length, the length of its command queue (5.x and
 * 6.x): a `multi()` counts its MULTI from the start and its EXEC once `exec()` has queued it, and
 * the commands stay counted after `exec()`. The fake gave ioredis-mock's (the commands not yet
 * sent: one lower for a multi(), 0 after exec()). Run on the fake and with real ioredis on both
 * real servers.
 */
import { runOnFakeAndRealIoredis, type Client } from '../helpers/fake-and-real-ioredis';

/** A batch's length empty, with SET and GET of `key` queued, after exec() and after a second exec(). */
async function lengthsThroughExec(batch: Client, key: string): Promise<number[]> {
  const empty = batch.length;
  batch.set(key, 1).get(key);
  const queued = batch.length;
  await batch.exec();
  const after = batch.length;
  await batch.exec();
  return [empty, queued, after, batch.length];
}

// skip: the real-ioredis half of each case skips (with the helper's message) without REDIS_URL /
// REDIS_UNSTABLE_URL: nothing to compare with; CI sets both
runOnFakeAndRealIoredis(
  [
    [
      "a pipeline counts its commands, and still does after exec()",
      {},
      async (r, { key }) => {
        const out = [...(await lengthsThroughExec(r.pipeline(), key)), r.pipeline([['set', key, 1], ['get', key]]).length];
        await r.del(key);
        return out;
      },
      [0, 2, 2, 2, 2],
    ],
    [
      "a multi() counts its MULTI, and its EXEC once exec() queued it",
      {},
      async (r, { key }) => {
        const lengths = await lengthsThroughExec(r.multi(), key);
        const fromArray = r.multi([['set', key, 1], ['get', key]]).length;
        const e = r.multi();
        await e.exec();
        await r.del(key);
        return [...lengths, fromArray, e.length];
      },
      [1, 3, 4, 4, 3, 2],
    ],
    [
      'a transaction refused with EXECABORT counts as one that ran',
      {},
      async (r, { key }) => {
        const m = r.multi().set(key);
        const queued = m.length;
        const err = await m.exec().catch((e: Error) => e.message);
        return [queued, err, m.length];
      },
      [2, 'EXECABORT Transaction discarded because of previous errors.', 3],
    ],
    [
      "a transaction inside a pipeline counts as the pipeline's commands",
      {},
      async (r, { key }) => {
        const p = r.pipeline().set(key, 1).multi().set(key, 2).exec();
        const queued = p.length;
        await p.exec();
        await r.del(key);
        return [queued, p.length];
      },
      [4, 4],
    ],
  ],
  { firstPort: 56_190, base: { db: 13 }, keyPrefix: 'pipeline-length', subject: 'real ioredis', verb: 'counts' },
);
