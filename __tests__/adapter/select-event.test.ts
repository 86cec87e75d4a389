/**
 * ioredis emits `select` with the db when a SELECT changes the client's db, as it sends the
 * command (Redis#sendCommand: a method, `call`, a pipeline entry alike), not for a SELECT of the
 * db it is on, nor for the handshake's SELECT of `options.db`. A helper running ioredis's own
 * suite against the class found no event at all. Run on the fake and with real ioredis on both
 * real servers.
 */
import { runOnFakeAndRealIoredis } from '../helpers/fake-and-real-ioredis';

const selects = (r: Record<string, any>) => {
  const got: number[] = [];
  r.on('select', (db: number) => got.push(db));
  return got;
};

// skip: the real-ioredis half of each case skips (with the helper's message) without REDIS_URL /
// REDIS_UNSTABLE_URL: nothing to compare with; CI sets both
runOnFakeAndRealIoredis(
  [
    [
      'emits select for each change of db, none for the db it is on',
      {},
      async (r) => {
        const got = selects(r);
        const replies = [await r.select(2), await r.select(4), await r.select(4), await r.call('select', '3'), await r.select(0)];
        return [replies, got];
      },
      [['OK', 'OK', 'OK', 'OK', 'OK'], [2, 4, 3, 0]],
    ],
    [
      'emits as a pipeline sends its SELECTs, before their replies',
      {},
      async (r) => {
        const got = selects(r);
        const p = r.pipeline().select(5).ping().select(5).select(1).exec();
        const atSend = [...got];
        return [atSend, (await p).map(([, v]: [unknown, unknown]) => v), got];
      },
      [[5, 1], ['OK', 'PONG', 'OK', 'OK'], [5, 1]],
    ],
    [
      'nothing for the handshake of options.db, then the db it changes to',
      {},
      async (_r, { other }) => {
        const c = other({ db: 6 }); // listened to before it connects
        const got = selects(c);
        return [await c.ping(), [...got], await c.select(7), got];
      },
      ['PONG', [], 'OK', [7]],
    ],
    [
      'a pipeline sent before ready: its SELECTs when queued and again when the offline queue is flushed',
      {},
      async (_r, { key, other }) => {
        const c = other({ db: 3 });
        const got = selects(c);
        const replies = (await c.pipeline().select(2).set(key, 'v').select(5).get(key).exec()).map(([, v]: [unknown, unknown]) => v);
        const events = [...got];
        await c.select(2);
        await c.del(key);
        return [replies, events];
      },
      [['OK', 'OK', 'OK', null], [2, 5, 2, 5]],
    ],
    [
      'before ready, a batch that does not open with SELECT is sent in the db it was queued in (a SELECT of that db first)',
      {},
      async (_r, { other }) => {
        const c = other({ db: 3 });
        const got = selects(c);
        const p = c.pipeline().ping().select(2).exec();
        const s = c.select(4);
        const replies = [(await p).map(([, v]: [unknown, unknown]) => v), await s];
        return [replies, got];
      },
      [[['PONG', 'OK'], 'OK'], [2, 4, 3, 2, 4]],
    ],
    [
      'a transaction queued before ready: the db it was queued in selected before its MULTI',
      {},
      async (_r, { key, other }) => {
        const c = other({ db: 3 });
        const got = selects(c);
        const replies = await c.multi().select(2).set(key, 'v').exec();
        const events = [...got];
        const value = await c.get(key);
        await c.del(key);
        return [replies, events, value];
      },
      [[[null, 'OK'], [null, 'OK']], [2, 3, 2], 'v'],
    ],
  ],
  { firstPort: 56_110, keyPrefix: 'select-event', subject: 'real ioredis', verb: 'emits' },
);
