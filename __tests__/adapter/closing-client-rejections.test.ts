/**
 * What a client that is closing or closed rejects, as ioredis rejects it (found by a fresh-user
 * trial writing a worker suite for both):
 * - a blocked call released by disconnect() rejects after the client has ended: ioredis's close
 *   handler sets `end` before it rejects its command queue, so a worker loop's `catch` that
 *   checks `status === 'end'` stops (the fake rejected it while still `ready`);
 * - a QUIT sent behind a blocked call whose connection the server closes first (CLIENT KILL) ends
 *   the client (ioredis's manuallyClosing): `close`, `end`, both reject then (the fake stayed
 *   `ready`, without events);
 * - a transaction sent right after quit()/disconnect() (the client closing) rejects with one error that is also each of its
 *   `previousErrors` (MULTI's and every command's; none on ioredis 6.1, which leaves out EXEC's
 *   own) and what the commands' callbacks get; one sent once the client has ended, and one
 *   refused before `ready` with `enableOfflineQueue: false` has an error per command and EXEC's
 *   own (the fake gave no `previousErrors`, nor the callbacks' errors there).
 * Run on the fake and with real ioredis on both real servers.
 */
import { runOnFakeAndRealIoredis, type Client } from '../helpers/fake-and-real-ioredis';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const [major, minor] = (require('ioredis/package.json') as { version: string }).version.split('.').map(Number);
/** ioredis 6.1 leaves out of previousErrors the errors that are EXEC's own (transaction.js). */
const closedPrevious = major > 6 || (major === 6 && minor >= 1) ? [0, [], [-1, -1]] : [3, [true, true, true], [0, 0]];

async function releasedByDisconnect(r: Client, call: () => Promise<unknown>): Promise<unknown> {
  const outcome = call().then(
    () => ['resolved', r.status],
    (err: Error) => [err.message, r.status],
  );
  await new Promise((resolve) => setTimeout(resolve, 20));
  r.disconnect();
  return outcome;
}

/** exec()'s rejection: its message, how many previousErrors, which of them is the error itself, and the callbacks' errors by index in previousErrors. */
async function transactionRejection(r: Client, key: string): Promise<unknown> {
  const got: unknown[] = [];
  const m = r.multi();
  m.set(key, '1', (err: unknown) => got.push(err));
  m.get(key, (err: unknown) => got.push(err));
  try {
    await m.exec();
    return 'resolved';
  } catch (err) {
    const previous: unknown[] = (err as { previousErrors?: unknown[] }).previousErrors ?? [];
    return [(err as Error).message, previous.length, previous.map((e) => e === err), got.map((e) => previous.indexOf(e))];
  }
}

// skip: the real-ioredis half of each case skips (with the helper's message) without REDIS_URL /
// REDIS_UNSTABLE_URL: nothing to compare with; CI sets both
runOnFakeAndRealIoredis(
  [
    [
      'a BLPOP released by disconnect() rejects once the client has ended',
      {},
      async (r, { key }) => releasedByDisconnect(r, () => r.blpop(key, 0)),
      ['Connection is closed.', 'end'],
    ],
    [
      'a QUIT waiting behind a blocked call when the server closes the connection: no reconnection, close and end, each rejects once ended',
      {},
      async (r, { key, other }) => {
        const events: string[] = [];
        for (const ev of ['close', 'end', 'reconnecting']) r.on(ev, () => events.push(`${ev}:${r.status}`));
        const outcome = (p: Promise<unknown>) =>
          p.then(
            () => ['resolved', r.status],
            (err: Error) => [err.message, r.status],
          );
        const id = await r.client('ID');
        const popped = outcome(r.blpop(key, 0));
        const quitted = outcome(r.quit());
        await new Promise((resolve) => setTimeout(resolve, 20));
        await other().client('KILL', 'ID', id);
        const out = [await popped, await quitted, r.status];
        await new Promise((resolve) => setTimeout(resolve, 50));
        return [...out, events, r.status];
      },
      [['Connection is closed.', 'end'], ['Connection is closed.', 'end'], 'end', ['close:end', 'end:end'], 'end'],
    ],
    [
      "the same with QUIT sent by call('quit'), in a pipeline or in a multi()",
      {},
      async (r, { key, other }) => {
        const out: unknown[] = [];
        for (const quit of [(c: Client) => c.call('quit'), (c: Client) => c.pipeline().quit().exec(), (c: Client) => c.multi().quit().exec()]) {
          const c = other({ db: 13 });
          const events: string[] = [];
          for (const ev of ['close', 'end', 'reconnecting']) c.on(ev, () => events.push(`${ev}:${c.status}`));
          const outcome = (p: Promise<unknown>) =>
            p.then(
              (v) => [Array.isArray(v) ? v.map((pair: unknown[]) => (pair[0] as Error | null)?.message ?? pair[1]) : v, c.status],
              (err: Error) => [err.message, c.status],
            );
          const id = await c.client('ID');
          const popped = outcome(c.blpop(key, 0));
          const quitted = outcome(quit(c));
          const written = outcome(c.set(`${key}:w`, 'v'));
          await new Promise((resolve) => setTimeout(resolve, 20));
          await r.client('KILL', 'ID', id);
          out.push([await popped, await quitted, await written, events, c.status]);
        }
        return out;
      },
      [
        [['Connection is closed.', 'end'], ['Connection is closed.', 'end'], ['Connection is closed.', 'end'], ['close:end', 'end:end'], 'end'],
        [['Connection is closed.', 'end'], [['Connection is closed.'], 'end'], ['Connection is closed.', 'end'], ['close:end', 'end:end'], 'end'],
        [['Connection is closed.', 'end'], ['Connection is closed.', 'end'], ['Connection is closed.', 'end'], ['close:end', 'end:end'], 'end'],
      ],
    ],
    [
      'an XREADGROUP BLOCK released by disconnect() rejects once the client has ended',
      {},
      async (r, { key }) => {
        await r.xgroup('CREATE', key, 'g', '$', 'MKSTREAM');
        const c = r.duplicate();
        try {
          await c.ping();
          return await releasedByDisconnect(c, () => c.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 0, 'STREAMS', key, '>'));
        } finally {
          c.disconnect();
          await r.del(key);
        }
      },
      ['Connection is closed.', 'end'],
    ],
    [
      'a transaction, a pipeline and a command waiting behind a blocked call settle once disconnect() has ended the client',
      {},
      async (r, { key }) => {
        const outcome = (p: Promise<unknown>) =>
          p.then(
            (v) => ['resolved', (v as [Error | null][]).map(([err]) => err && err.message), r.status],
            (e: Error & { previousErrors?: unknown[] }) => [e.message, r.status, e.previousErrors?.length],
          );
        const popped = outcome(r.blpop(key, 0));
        const transaction = outcome(r.multi().set(`${key}:a`, '1').exec());
        const pipeline = outcome(r.pipeline().set(`${key}:b`, '1').get(`${key}:b`).exec());
        const got = outcome(r.get(`${key}:b`));
        await new Promise((resolve) => setTimeout(resolve, 20));
        r.disconnect();
        return [await popped, await transaction, await pipeline, await got];
      },
      [
        ['Connection is closed.', 'end', undefined],
        ['Connection is closed.', 'end', closedPrevious[0] === 0 ? 0 : 2],
        ['resolved', ['Connection is closed.', 'Connection is closed.'], 'end'],
        ['Connection is closed.', 'end', undefined],
      ],
    ],
    [
      'disconnect() before the connection opened: still connecting, then what was queued rejects once ended, no close event',
      {},
      async (_r, { key, other }) => {
        const c = other({ db: 13 });
        const events: string[] = [];
        for (const ev of ['connecting', 'connect', 'ready', 'close', 'end']) c.on(ev, () => events.push(ev));
        const got = c.get(key).then(
          () => 'resolved',
          (e: Error) => [e.message, c.status],
        );
        const transaction = c
          .multi()
          .set(key, '1')
          .exec()
          .then(
            () => 'resolved',
            (e: Error & { previousErrors?: unknown[] }) => [e.message, c.status, e.previousErrors?.length],
          );
        c.disconnect();
        const statusThen = c.status;
        const out = [statusThen, await got, await transaction];
        await new Promise((resolve) => setTimeout(resolve, 20));
        return [...out, events];
      },
      ['connecting', ['Connection is closed.', 'end'], ['Connection is closed.', 'end', closedPrevious[0] === 0 ? 0 : 2], ['connecting', 'end']],
    ],
    [
      'pipelines, transactions and commands sent one after another before disconnect() all run and answer (the server reads them before the end)',
      {},
      async (r, { key, other }) => {
        const results = await Promise.all([
          r.pipeline().set(`${key}:a`, '1').exec(),
          r.multi().set(`${key}:b`, '1').exec(),
          r.set(`${key}:c`, '1'),
          r.pipeline().set(`${key}:d`, '1').incr(`${key}:d`).exec(),
          (r.disconnect(), r.status),
        ]);
        const check = other({ db: 13 });
        const written = await check.mget(`${key}:a`, `${key}:b`, `${key}:c`, `${key}:d`);
        await check.del(`${key}:a`, `${key}:b`, `${key}:c`, `${key}:d`);
        return [...results, written];
      },
      [[[null, 'OK']], [[null, 'OK']], 'OK', [[null, 'OK'], [null, 2]], 'ready', ['1', '1', '1', '2']],
    ],
    [
      'disconnect(true) before the connection opened: an error event, what was queued rejects, then end (no reconnection)',
      {},
      async (_r, { key, other }) => {
        const c = other({ db: 13 });
        const events: string[] = [];
        for (const ev of ['connecting', 'connect', 'ready', 'close', 'reconnecting', 'end']) c.on(ev, () => events.push(`${ev} (${c.status})`));
        c.on('error', (e: Error) => events.push(`error ${e.message} (${c.status})`));
        const got = c.get(key).then(
          () => 'resolved',
          (e: Error) => events.push(`get rejected: ${e.message} (${c.status})`),
        );
        c.disconnect(true);
        const statusThen = c.status;
        await got;
        await new Promise((resolve) => setTimeout(resolve, 50));
        return [statusThen, events, c.status];
      },
      ['connecting', ['connecting (connecting)', 'error Connection is closed. (connecting)', 'get rejected: Connection is closed. (end)', 'end (end)'], 'end'],
    ],
    [
      'a transaction after quit() rejects with one error, each previousError and callback error the same',
      {},
      async (r, { key }) => {
        await r.quit();
        return transactionRejection(r, key);
      },
      ['Connection is closed.', ...closedPrevious],
    ],
    [
      'a transaction after disconnect() the same',
      {},
      async (r, { key }) => {
        r.disconnect();
        return transactionRejection(r, key);
      },
      ['Connection is closed.', ...closedPrevious],
    ],
    [
      'a transaction once the client has ended: an error per command and EXEC its own',
      {},
      async (r, { key }) => {
        await r.quit();
        // the server closes the socket after +OK: wait for ioredis's end event (a busy machine may take a while)
        if (r.status !== 'end') await new Promise((resolve) => r.once('end', resolve));
        return [r.status, await transactionRejection(r, key)];
      },
      ['end', ['Connection is closed.', 3, [false, false, false], [1, 2]]],
    ],
    [
      'a transaction refused by enableOfflineQueue: false has an error per command and EXEC its own',
      {},
      async (_r, { key, other }) => transactionRejection(other({ enableOfflineQueue: false }), key),
      ["Stream isn't writeable and enableOfflineQueue options is false", 3, [false, false, false], [1, 2]],
    ],
  ],
  { firstPort: 56_170, base: { db: 13 }, keyPrefix: 'closing-rejections', subject: 'real ioredis', verb: 'rejects' },
);
