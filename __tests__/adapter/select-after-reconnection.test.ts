/**
 * The db an ioredis client selects again after a reconnection (`disconnect(true)`, CLIENT KILL)
 * or a connect() after disconnect()/quit(): its `condition.select`, which Redis#sendCommand
 * sets when it writes or queues a command named `select` (ioredis 5.11.1 and 6.0.0: exactly
 * that name; 6.1.0: any casing) whose first argument passes utils `isInt`, to
 * `parseInt(arg, 10)`, whatever the server answers. ioredis 5 and 6.0 start each connection from
 * the `db` option and select the closed connection's db once ready (prevCondition); 6.1 carries
 * the db into the next connection's condition, whose handshake selects it. Commands queued for
 * `ready` run in the db that was selected when each was sent.
 *
 * Each script runs on the fake and with real ioredis (the version the suite runs on: 6.0.0,
 * 5.11.1 under IOREDIS_MAJOR=5, 6.1.0 under IOREDIS_VERSION=6.1) on both real servers, a client
 * with `db: 13` unless the case says otherwise; both must give the expected value, measured on
 * the three versions with redis-server 7.0.15. The plain `call('SELECT')` / `call('select')` /
 * `select()` cases: __tests__/adapter/ioredis61-call-transformers.test.ts.
 */
import { ioredisMajor } from '../helpers/real-server';
import { onIoredis61 } from '../helpers/ioredis61';
import { type Client, type ClientCase, runOnFakeAndRealIoredis } from '../helpers/fake-and-real-ioredis';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** ioredis 5 and 6.0 (6.1 records any casing and carries the db in the condition). */
const before61 = !onIoredis61;

/** The client's db (CLIENT INFO). */
const dbOf = async (r: Client): Promise<string> => /db=(\d+)/.exec(await r.client('INFO'))![1];

/** disconnect(true), then once ready again (and the SELECTs ioredis sends then answered). */
async function reconnect(r: Client): Promise<void> {
  const ready = new Promise((res) => r.once('ready', res));
  r.disconnect(true);
  await ready;
  await sleep(20);
}

/** Delete `key` in each of `dbs` (the client's db is left as the last of them). */
async function cleanup(r: Client, key: string, dbs: number[]): Promise<void> {
  for (const db of dbs) {
    await r.select(db);
    await r.del(key);
  }
}

const NOT_INTEGER = 'ERR value is not an integer or out of range';
const OUT_OF_RANGE = 'ERR DB index is out of range';
const SUBSCRIBER_MODE = 'Connection in subscriber mode, only subscriber commands may be used';

const cases: ClientCase[] = [
  [
    'selectBuffer(n), select([n]) and select(<Buffer "n">) are recorded as select(n)',
    {},
    async (r) => {
      const dbs: string[] = [];
      for (const send of [() => r.selectBuffer(12), () => r.select([11]), () => r.select(Buffer.from('14'))]) {
        await send();
        await reconnect(r);
        dbs.push(await dbOf(r));
      }
      return dbs;
    },
    ['12', '11', '14'],
  ],
  [
    'select(0) after the db option 13 is recorded: the reconnection goes to db 0, not to the option',
    {},
    async (r) => {
      await r.select(0);
      await reconnect(r);
      return dbOf(r);
    },
    '0',
  ],
  [
    "a SELECT the server refuses is recorded when ioredis's isInt takes its argument: '14.0' reconnects to db 14, '1e1' to db 1",
    {},
    async (r) => {
      const out: string[] = [];
      for (const arg of ['14.0', '1e1']) {
        out.push(await r.call('select', arg).then(String, (e: Error) => e.message));
        await reconnect(r);
        out.push(await dbOf(r));
      }
      return out;
    },
    [NOT_INTEGER, '14', NOT_INTEGER, '1'],
  ],
  [
    "a SELECT whose argument is not an integer ('abc', 14.5) is not recorded",
    {},
    async (r) => {
      await r.select(14);
      const errors = [await r.call('select', 'abc').catch((e: Error) => e.message), await r.select(14.5).catch((e: Error) => e.message)];
      await reconnect(r);
      return [errors, await dbOf(r)];
    },
    [[NOT_INTEGER, NOT_INTEGER], '14'],
  ],
  [
    'select(16), out of range, is recorded: 5 and 6.0 select it again once ready (refused: a rejection ioredis leaves unhandled) and stay in the db option; 6.1 selects it in the handshake (refused: an error event) and stays in db 0',
    {},
    async (r) => {
      const errors: string[] = [];
      r.on('error', (e: Error) => errors.push(e.message));
      // the SELECTs the client sends itself after its handshake (ioredis's readyHandler), with
      // their outcome (read here: ioredis 5 and 6.0 attach no handler, an unhandled rejection)
      const selected: string[] = [];
      r.once('connect', () => {
        const select = r.select;
        r.select = (...args: unknown[]) => {
          const sent: Promise<unknown> = select.apply(r, args);
          sent.then(
            (v) => selected.push(`${args[0]}: ${v}`),
            (e: Error) => selected.push(`${args[0]}: ${e.message}`),
          );
          return sent;
        };
      });
      const refused = await r.select(16).then(String, (e: Error) => e.message);
      await reconnect(r);
      return { refused, selected, errors, db: await dbOf(r) };
    },
    before61
      ? { refused: OUT_OF_RANGE, selected: [`16: ${OUT_OF_RANGE}`], errors: [], db: '13' }
      : { refused: OUT_OF_RANGE, selected: [], errors: [OUT_OF_RANGE], db: '0' },
  ],
  [
    'a SELECT in multi() is recorded when exec() sends it, also when EXEC discards the transaction',
    {},
    async (r) => {
      const err = await r.multi().select(14).call('nosuchcommand').exec().then(String, (e: Error) => e.message);
      const db = await dbOf(r);
      await reconnect(r);
      return [err, db, await dbOf(r)];
    },
    ['EXECABORT Transaction discarded because of previous errors.', '13', '14'],
  ],
  [
    'a select() sent after multi({ pipeline: false }) is recorded though DISCARD drops it',
    {},
    async (r) => {
      await r.multi({ pipeline: false });
      expect(await r.select(14)).toBe('QUEUED');
      await r.discard();
      const db = await dbOf(r);
      await reconnect(r);
      return [db, await dbOf(r)];
    },
    ['13', '14'],
  ],
  [
    "pipeline().select(n) is recorded; pipeline().call('SELECT', n) as call('SELECT') is (6.1 only)",
    {},
    async (r) => {
      const dbs: string[] = [];
      await r.pipeline().select(12).exec();
      await reconnect(r);
      dbs.push(await dbOf(r));
      await r.pipeline().call('SELECT', 14).exec();
      await reconnect(r);
      dbs.push(await dbOf(r));
      return dbs;
    },
    ['12', before61 ? '12' : '14'],
  ],
  [
    "sendCommand(new Command('select', …)) is recorded; a Command named 'SELECT' on 6.1 only",
    {},
    async (r) => {
      const { Command } = jest.requireActual('ioredis');
      const dbs: string[] = [];
      await r.sendCommand(new Command('select', [12]));
      await reconnect(r);
      dbs.push(await dbOf(r));
      await r.sendCommand(new Command('SELECT', [14]));
      await reconnect(r);
      dbs.push(await dbOf(r));
      return dbs;
    },
    ['12', before61 ? '12' : '14'],
  ],
  [
    'a select() sent while reconnecting is recorded; the commands queued around it run in the db selected when each was sent',
    { db: 10 },
    async (r, { key }) => {
      await r.select(11);
      await r.set(key, 'in11');
      await r.select(12);
      await r.set(key, 'in12');
      await r.select(11);
      const ready = new Promise((res) => r.once('ready', res));
      let got: Promise<unknown>[] = [];
      r.once('reconnecting', () => {
        const first = r.get(key);
        r.select(12).catch(() => undefined);
        got = [first, r.get(key)];
      });
      r.disconnect(true);
      await ready;
      const replies = await Promise.all(got);
      await sleep(20);
      const db = await dbOf(r);
      await cleanup(r, key, [11, 12]);
      return [replies, db];
    },
    [['in11', 'in12'], '12'],
  ],
  [
    'a pipeline().select() queued while reconnecting is recorded',
    {},
    async (r) => {
      const ready = new Promise((res) => r.once('ready', res));
      let replies: Promise<unknown> = Promise.resolve('not sent');
      r.once('reconnecting', () => {
        replies = r.pipeline().select(14).exec();
      });
      r.disconnect(true);
      await ready;
      const got = await replies;
      await sleep(20);
      return [got, await dbOf(r)];
    },
    [[[null, 'OK']], '14'],
  ],
  [
    "a new client's commands queued before ready run in the db selected when each was sent, and it ends in the last one",
    {},
    async (r, { key, other }) => {
      await r.select(10);
      await r.set(key, 'in10');
      await r.select(11);
      await r.set(key, 'in11');
      const c = other({ db: 10 });
      const sent = [c.get(key), c.select(11), c.get(key)];
      const replies = await Promise.all(sent);
      const db = await dbOf(c);
      await cleanup(r, key, [10, 11]);
      return [replies, db];
    },
    [['in10', 'OK', 'in11'], '11'],
  ],
  [
    'a select() that connects a lazyConnect client is recorded',
    {},
    async (_r, { other }) => {
      const c = other({ db: 13, lazyConnect: true });
      const reply = await c.select(14);
      await reconnect(c);
      return [reply, await dbOf(c)];
    },
    ['OK', '14'],
  ],
  [
    'a command queued while connecting again runs in the db option on 5 and 6.0 (their new condition), in the selected db on 6.1',
    { db: 10 },
    async (r, { key }) => {
      await r.set(key, 'in10');
      await r.select(11);
      await r.set(key, 'in11');
      const ready = new Promise((res) => r.once('ready', res));
      let got: Promise<unknown> = Promise.resolve('not sent');
      r.once('connecting', () => {
        got = r.get(key);
      });
      r.disconnect(true);
      await ready;
      const reply = await got;
      await sleep(20);
      const db = await dbOf(r);
      await cleanup(r, key, [10, 11]);
      return [reply, db];
    },
    [before61 ? 'in10' : 'in11', '11'],
  ],
  [
    'a select() sent while connecting again: 5 and 6.0 go back to the db selected before the reconnection once ready, 6.1 keeps it',
    {},
    async (r) => {
      await r.select(12);
      const ready = new Promise((res) => r.once('ready', res));
      let sent: Promise<unknown> = Promise.resolve('not sent');
      r.once('connecting', () => {
        sent = r.select(14);
      });
      r.disconnect(true);
      await ready;
      const reply = await sent;
      await sleep(20);
      return [reply, await dbOf(r)];
    },
    ['OK', before61 ? '12' : '14'],
  ],
  [
    "CLIENT KILL: the reconnection selects the recorded db (after select(12) then call('SELECT', 14): 12 on 5 and 6.0, 14 on 6.1)",
    {},
    async (r, { other }) => {
      await r.select(12);
      await r.call('SELECT', 14);
      const id = await r.client('ID');
      const admin = other();
      const ready = new Promise((res) => r.once('ready', res));
      expect(await admin.client('KILL', 'ID', id)).toBe(1);
      await ready;
      await sleep(20);
      return dbOf(r);
    },
    before61 ? '12' : '14',
  ],
  [
    'connect() after quit() or disconnect() selects the recorded db again',
    {},
    async (r) => {
      const dbs: string[] = [];
      await r.select(12);
      let ended = new Promise((res) => r.once('end', res));
      await r.quit();
      await ended;
      await r.connect();
      await sleep(20);
      dbs.push(await dbOf(r));
      await r.call('SELECT', 14);
      ended = new Promise((res) => r.once('end', res));
      r.disconnect();
      await ended;
      await r.connect();
      await sleep(20);
      dbs.push(await dbOf(r));
      return dbs;
    },
    ['12', before61 ? '12' : '14'],
  ],
  [
    'a select() refused in RESP2 subscriber mode is not recorded',
    { protocol: 2 },
    async (r, { key }) => {
      await r.select(14);
      await r.subscribe(key);
      const refused = await r.select(5).then(String, (e: Error) => e.message);
      await reconnect(r);
      await r.unsubscribe(key);
      return [refused, await dbOf(r)];
    },
    [SUBSCRIBER_MODE, '14'],
  ],
  [
    "a subscribed client's select() on RESP3 (ioredis 6's default) is sent and recorded",
    {},
    async (r, { key }) => {
      await r.select(14);
      await r.subscribe(key);
      const reply = await r.select(5).then(String, (e: Error) => e.message);
      await reconnect(r);
      await r.unsubscribe(key);
      return [reply, await dbOf(r)];
    },
    ioredisMajor === 5 ? [SUBSCRIBER_MODE, '14'] : ['OK', '5'],
  ],
];

describe('the db a reconnection selects, as the installed ioredis records SELECT', () => {
  // skip: the real-ioredis half of each case skips (with the helper's message) without REDIS_URL /
  // REDIS_UNSTABLE_URL: nothing to compare with; CI sets both
  runOnFakeAndRealIoredis(cases, { firstPort: 37_700, keyPrefix: 'selrec', base: { db: 13 }, subject: 'a reconnection after these SELECTs', verb: 'selects the db' });
});
