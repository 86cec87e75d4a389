/**
 * A client's `options` are ioredis's: the arguments given, with `Redis.defaultOptions` of the
 * installed ioredis filled in (Redis#parseOptions), so a library that reads them (Bull refuses a
 * subscriber client whose `enableReadyCheck` or `maxRetriesPerRequest` is set; BullMQ checks
 * `maxRetriesPerRequest`) sees what it sees on a real client. Pipelines and transactions say
 * `isPipeline`. The fake gave the given options alone (maxRetriesPerRequest undefined, where
 * ioredis has 20). Its command methods are those ioredis defines: the fake had methods for every
 * command it emulates (a plain-JS worker calling `redis.xackdel()` passed on it and failed on
 * ioredis 5). Run on the fake and with real ioredis on both real servers.
 */
import { runOnFakeAndRealIoredis } from '../helpers/fake-and-real-ioredis';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const major = Number((require('ioredis/package.json') as { version: string }).version.split('.')[0]);

const picked = (o: Record<string, unknown>) => ({
  maxRetriesPerRequest: o.maxRetriesPerRequest,
  enableReadyCheck: o.enableReadyCheck,
  connectTimeout: o.connectTimeout,
  enableOfflineQueue: o.enableOfflineQueue,
  autoResubscribe: o.autoResubscribe,
  keyPrefix: o.keyPrefix,
  db: o.db,
  connectionName: o.connectionName,
  protocol: o.protocol,
  retryStrategy: typeof o.retryStrategy,
});

// skip: the real-ioredis half of each case skips (with the helper's message) without REDIS_URL /
// REDIS_UNSTABLE_URL: nothing to compare with; CI sets both
runOnFakeAndRealIoredis(
  [
    [
      "ioredis's defaults fill the options a client was not given",
      {},
      async (r) => picked(r.options),
      {
        maxRetriesPerRequest: 20,
        enableReadyCheck: true,
        connectTimeout: 10_000,
        enableOfflineQueue: true,
        autoResubscribe: true,
        keyPrefix: '',
        db: 0,
        connectionName: null,
        protocol: major >= 6 ? 3 : undefined,
        retryStrategy: 'function',
      },
    ],
    [
      'the options given win over the defaults, and a duplicate keeps them',
      { maxRetriesPerRequest: null, enableReadyCheck: false, db: 4, connectionName: 'worker' },
      async (r) => {
        const d = r.duplicate();
        try {
          await d.ping();
          return [picked(r.options).maxRetriesPerRequest, r.options.enableReadyCheck, r.options.db, picked(d.options).maxRetriesPerRequest, d.options.db, d.options.connectionName, d.options.connectTimeout];
        } finally {
          d.disconnect();
        }
      },
      [null, false, 4, null, 4, 'worker', 10_000],
    ],
    [
      'a pipeline and a transaction say isPipeline and carry the client options',
      {},
      async (r) => {
        const p = r.pipeline();
        const m = r.multi();
        const out = [p.isPipeline, p.isCluster, m.isPipeline, p.options.maxRetriesPerRequest];
        m.discard?.();
        return out;
      },
      [true, false, true, 20],
    ],
    [
      "its command methods are the installed ioredis's: none for a command it does not list (XACKDEL, WAITAOF on ioredis 5), call() for those",
      {},
      async (r) => [typeof r.xackdel, typeof r.waitaofBuffer, typeof r.pipeline().xackdel, typeof r.xadd, typeof r.hgetex, typeof r.sentinel, typeof r.mockclock],
      major >= 6 ? ['function', 'function', 'function', 'function', 'function', 'function', 'undefined'] : ['undefined', 'undefined', 'undefined', 'function', 'function', 'function', 'undefined'],
    ],
  ],
  { firstPort: 56_160, keyPrefix: 'client-options-defaults', subject: 'real ioredis', verb: 'fills options' },
);
