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
  ],
  { firstPort: 56_110, keyPrefix: 'select-event', subject: 'real ioredis', verb: 'emits' },
);
