/**
 * CLIENT UNBLOCK id ERROR: the unblocked call's rejection comes before the reply of a command its
 * client sends after the unblocking (a server answers one connection's commands in order). Found
 * by a fresh-user trial: the fake settled the later PING first (the rejection took two more
 * microtasks than a reply). The TIMEOUT variant was right; both compared with real ioredis (5.11.1,
 * 6.0.0, 6.1.0) on both real servers.
 */
import { type Client, type ClientCase, runOnFakeAndRealIoredis } from '../helpers/fake-and-real-ioredis';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Blocks `blocked()` on a client, unblocks it from another with `mode`, then PINGs the first: the settle order. */
function unblockThenPing(mode: 'ERROR' | 'TIMEOUT', blocked: (r: Client, key: string) => Promise<unknown>, setup?: (r: Client, key: string) => Promise<unknown>) {
  return async (r: Client, { key, other }: { key: string; other: (o?: Record<string, unknown>) => Client }) => {
    const admin = other({ db: 13 });
    if (setup) await setup(r, key);
    const id = await r.client('ID');
    const log: string[] = [];
    const call = blocked(r, key).then(
      (v) => log.push(`blocked call resolved ${JSON.stringify(v)}`),
      (e: Error) => log.push(`blocked call rejected: ${e.message}`),
    );
    await sleep(20);
    await admin.client('UNBLOCK', id, mode).then((n: number) => log.push(`UNBLOCK ${n}`));
    await Promise.all([call, r.ping().then((v: string) => log.push(`PING ${v}`))]);
    await r.del(key);
    return log;
  };
}

const errorOrder = ['UNBLOCK 1', 'blocked call rejected: UNBLOCKED client unblocked via CLIENT UNBLOCK', 'PING PONG'];

const cases: ClientCase[] = [
  ['XREAD BLOCK unblocked with ERROR', {}, unblockThenPing('ERROR', (r, key) => r.xread('BLOCK', 0, 'STREAMS', key, '$')), errorOrder],
  [
    'XREADGROUP BLOCK unblocked with ERROR',
    {},
    unblockThenPing(
      'ERROR',
      (r, key) => r.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 0, 'STREAMS', key, '>'),
      (r, key) => r.xgroup('CREATE', key, 'g', '$', 'MKSTREAM'),
    ),
    errorOrder,
  ],
  ['BLPOP unblocked with ERROR', {}, unblockThenPing('ERROR', (r, key) => r.blpop(key, 0)), errorOrder],
  ['BZPOPMIN unblocked with ERROR', {}, unblockThenPing('ERROR', (r, key) => r.bzpopmin(key, 0)), errorOrder],
  ['XREAD BLOCK unblocked with TIMEOUT', {}, unblockThenPing('TIMEOUT', (r, key) => r.xread('BLOCK', 0, 'STREAMS', key, '$')), ['UNBLOCK 1', 'blocked call resolved null', 'PING PONG']],
];

// skip: the real-ioredis half of each case skips (with the helper's message) without REDIS_URL /
// REDIS_UNSTABLE_URL: nothing to compare with; CI sets both
runOnFakeAndRealIoredis(cases, { firstPort: 56_260, base: { db: 13 }, keyPrefix: 'unblock-order', subject: 'real ioredis', verb: 'settles an unblocked call in order' });
