/**
 * The generic key commands against real servers: the same command sequences on a fresh engine
 * connection and on a real one (RESP2, replies as bytes, database 13) answer the same values and
 * error texts, change INFO's rdb_changes_since_last_save by the same count, and publish the same
 * keyspace events of classes g and x (a pattern subscriber on `__key*@1[34]__:*`).
 * `REDIS_URL`: redis-server 7.0.15 (emulated 7.0); `REDIS_UNSTABLE_URL`: the post-7.4 build
 * (emulated 8.0). Keys include non-UTF-8 bytes. Skips with a message when a URL is unset.
 */
import { createConnection } from '../../lib/engine';
import { toResp2Plain } from '../../lib/reply/reply';
import { connectReal, describeOnRealServers, expectSameDirty, expectSameOutcomes, sequenceRows, type Outcome } from '../helpers/real-server';

const BIN = '\xff\xfe\x00\x80'; // not UTF-8
const MAX = '9223372036854775807';
const MIN = '-9223372036854775808';

const SEQUENCES: string[][][] = [
  // DEL/UNLINK/EXISTS/TOUCH/TYPE, binary keys, repeats
  [['SET', 'a', '1'], ['SET', BIN, 'v'], ['EXISTS', 'a', 'a', BIN, 'nokey'], ['TOUCH', 'a', 'nokey'], ['TYPE', 'a'], ['TYPE', 'nokey'], ['DEL', 'a', 'a', BIN, 'nokey'],
    ['UNLINK', 'a'], ['DEL', ''], ['SET', '', 'x'], ['EXISTS', ''], ['DEL', '']],
  // RENAME / RENAMENX with TTLs
  [['RENAME', 'nokey', 'x'], ['RENAME', 'nokey', 'nokey'], ['RENAMENX', 'nokey', 'nokey'], ['SET', 's', 'v'], ['PEXPIRE', 's', '100000'], ['SET', 'd', 'old'], ['EXPIRE', 'd', '5000'],
    ['RENAME', 's', 'd'], ['EXISTS', 's'], ['TYPE', 'd'], ['EXPIRETIME', 'nokey'], ['RENAME', 'd', 'd'], ['RENAMENX', 'd', 'd'], ['SET', 'e', 'x'], ['RENAMENX', 'd', 'e'], ['RENAMENX', 'd', BIN], ['PERSIST', BIN], ['TTL', BIN]],
  // MOVE / SWAPDB errors and moves (the connection is on database 13)
  [['SET', 'm', 'v'], ['MOVE', 'm', 'abc'], ['MOVE', 'm', '99999999999'], ['MOVE', 'm', '-1'], ['MOVE', 'm', '16'], ['MOVE', 'm', '13'], ['MOVE', 'nokey', '13'], ['MOVE', 'nokey', '14'],
    ['EXPIRE', 'm', '100'], ['MOVE', 'm', '14'], ['EXISTS', 'm'], ['SELECT', '14'], ['TTL', 'm'], ['SET', 'm2', 'x'], ['SELECT', '13'], ['SET', 'm2', 'y'], ['MOVE', 'm2', '14'], ['SELECT', '14'], ['DEL', 'm', 'm2'], ['SELECT', '13'],
    ['SWAPDB', 'x', 'y'], ['SWAPDB', '0', 'y'], ['SWAPDB', '0', '2147483648'], ['SWAPDB', '-1', '0'], ['SWAPDB', '13', '14'], ['DBSIZE'], ['SWAPDB', '14', '13'], ['DBSIZE'], ['SWAPDB', '13', '13']],
  // KEYS / SCAN options and errors / RANDOMKEY / DBSIZE
  [['RANDOMKEY'], ['DBSIZE'], ['SET', 'hello', '1'], ['SET', 'hallo', '1'], ['SET', BIN, '1'], ['KEYS', 'h[^e]llo'], ['KEYS', '\xff*'], ['KEYS', 'a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b'], ['DBSIZE'],
    ['SCAN', 'abc'], ['SCAN', '0', 'COUNT', '0'], ['SCAN', '0', 'COUNT', 'x'], ['SCAN', '0', 'MATCH'], ['SCAN', '0', 'FOO', 'x'], ['SCAN', '18446744073709551616'], ['SCAN', '0', 'MATCH', 'h?llo', 'TYPE', 'list', 'COUNT', '100'],
    ['DEL', 'hello', 'hallo'], ['SCAN', '0', 'MATCH', '\xff*', 'COUNT', '100'], ['SCAN', '0', 'TYPE', 'STRING', 'COUNT', '100'], ['RANDOMKEY']],
  // EXPIRE family: options, overflows, conditions, past times
  [['SET', 'k', 'v'], ['EXPIRE', 'k', 'abc', 'nx', 'zz'], ['EXPIRE', 'k', '10', 'XX', 'NX'], ['EXPIRE', 'k', '10', 'gt', 'lt'], ['EXPIRE', 'k', 'abc'], ['EXPIRE', 'k', '9223372036854776'],
    ['EXPIRE', 'k', '-9223372036854776'], ['EXPIRE', 'k', '9223370399119966'], ['PEXPIRE', 'k', '9223372036854770000'], ['PEXPIRE', 'k', MAX], ['EXPIREAT', 'k', MIN], ['TTL', 'k'],
    ['EXPIRE', 'k', '100', 'XX'], ['EXPIRE', 'k', '100', 'GT'], ['EXPIRE', 'k', '100', 'LT'], ['EXPIRE', 'k', '200', 'NX'], ['EXPIRE', 'k', '50', 'GT'], ['EXPIRE', 'k', '200', 'gt'], ['TTL', 'k'],
    ['EXPIRE', 'nokey', '10'], ['PEXPIREAT', 'nokey', '1'], ['EXPIREAT', 'k', '1'], ['EXISTS', 'k'], ['SET', 'k', 'v'], ['PEXPIRE', 'k', '-1'], ['EXISTS', 'k'],
    ['SET', 'k', 'v'], ['PERSIST', 'k'], ['EXPIRE', 'k', '0'], ['TTL', 'k'], ['PTTL', 'k'], ['PEXPIRETIME', 'k'], ['SET', 'k', 'v'], ['TTL', 'k'], ['EXPIRETIME', 'k'], ['PERSIST', 'nokey']],
  // OBJECT
  [['SET', 'i', '12345'], ['SET', 'e', 'x'.repeat(44)], ['SET', 'r', 'x'.repeat(45)], ['SET', 'one', '1'], ['OBJECT', 'ENCODING', 'i'], ['OBJECT', 'ENCODING', 'e'], ['OBJECT', 'encoding', 'r'],
    ['OBJECT', 'ENCODING', 'nokey'], ['OBJECT', 'REFCOUNT', 'one'], ['OBJECT', 'REFCOUNT', 'i'], ['OBJECT', 'REFCOUNT', 'nokey'], ['OBJECT', 'FREQ', 'i'], ['OBJECT', 'IDLETIME', 'nokey'],
    ['OBJECT', 'ENCODING'], ['OBJECT', 'HELP', 'x'], ['OBJECT', 'FOO', 'bar'], ['OBJECT', 'HELP']],
];

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers('generic key commands', ({ url, version }) => {
  let port = 48_900 + (version === '7.0' ? 0 : 100);
  it.each(sequenceRows(SEQUENCES))('sequence %i: %s', async (_i, _text, seq) => {
    const real = await connectReal(url, 14, { stringNumbers: true });
    const realSub = await connectReal(url, 14, { stringNumbers: true });
    const fake = createConnection({ port: port++, streams: { redisVersion: version } });
    const fakeSub = createConnection({ port: fake.server.port, streams: { redisVersion: version } });
    const realEvents: string[] = [];
    const fakeEvents: string[] = [];
    realSub.on('pmessageBuffer', (_p: Buffer, channel: Buffer, message: Buffer) => realEvents.push(`${channel.toString('latin1')} ${message.toString('latin1')}`));
    fakeSub.onPush((msg) => {
      const items = toResp2Plain(msg) as string[];
      if (items[0] === 'pmessage') fakeEvents.push(`${items[2]} ${items[3]}`);
    });
    try {
      for (const c of [real, fake] as const) {
        const run = (...argv: string[]) => (c === real ? real.call(argv[0], ...argv.slice(1)) : fake.execute(argv));
        await run('SELECT', '14');
        await run('FLUSHDB');
        await run('SELECT', '13');
        await run('FLUSHDB');
        // generic and expired events (this branch's SET is not the engine's: no `set`/`new` events)
        await run('CONFIG', 'SET', 'notify-keyspace-events', 'KEgx');
      }
      await realSub.psubscribe('__key*@1[34]__:*');
      await fakeSub.execute(['PSUBSCRIBE', '__key*@1[34]__:*']);
      // the help text is checked on the harness
      const skip = (argv: readonly string[], expected: Outcome) => argv[0] === 'OBJECT' && argv[1] === 'HELP' && 'ok' in expected;
      await expectSameDirty(real, fake, () => expectSameOutcomes(real, fake, seq, { skip }));
      await real.call('PING');
      await new Promise((resolve) => setTimeout(resolve, 50));
      // every event, the __keyspace channels of non-UTF-8 keys with their bytes too
      expect(fakeEvents).toEqual(realEvents);
    } finally {
      await real.call('CONFIG', 'SET', 'notify-keyspace-events', '');
      await real.call('SELECT', '14');
      await real.call('FLUSHDB');
      await real.call('SELECT', '13');
      await real.call('FLUSHDB');
      real.disconnect();
      realSub.disconnect();
      fake.close();
      fakeSub.close();
    }
  });
});
