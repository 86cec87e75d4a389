/**
 * ioredis's Pipeline keeps its client's options (`pipeline.options` is `redis.options`, for
 * `pipeline()` and `multi()`): code that reads `pipeline.options.keyPrefix` works on the fake as
 * on ioredis. A helper running ioredis's own suite against the class found it undefined. Run on
 * the fake and with real ioredis on both real servers.
 */
import { runOnFakeAndRealIoredis } from '../helpers/fake-and-real-ioredis';

// skip: the real-ioredis half of each case skips (with the helper's message) without REDIS_URL /
// REDIS_UNSTABLE_URL: nothing to compare with; CI sets both
runOnFakeAndRealIoredis(
  [
    [
      'pipeline().options and multi().options are the client options',
      { keyPrefix: 'pipe-opts:' },
      async (r) => {
        const p = r.pipeline();
        const m = r.multi();
        const same = [p.options === r.options, m.options === r.options, p.options.keyPrefix];
        m.discard();
        return same;
      },
      [true, true, 'pipe-opts:'],
    ],
  ],
  { firstPort: 56_150, keyPrefix: 'pipeline-options', subject: 'real ioredis', verb: 'keeps' },
);
