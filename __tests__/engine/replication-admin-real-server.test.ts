/**
 * FAILOVER, REPLCONF, BGREWRITEAOF and RESTORE-ASKING, now the engine's (the first three were
 * ioredis-mock's emulators: `FAILOVER TO` answered "requires connected replicas." where Redis
 * parses the options first and answers a syntax error, `REPLCONF x` answered OK; RESTORE-ASKING
 * was not emulated). The same steps on an engine connection and on the real servers
 * (REDIS_URL: 7.0.15, emulated 7.0; REDIS_UNSTABLE_URL: the post-7.4 build, emulated 8.0) must
 * answer the same; the expected values below were recorded on both.
 */
import { createConnection } from '../../lib/engine';
import { bytesNumbersReply, connectReal, cutArgs, describeOnRealServers, expectSameOutcomes, fakeOutcome } from '../helpers/real-server';

const STEPS: string[][] = [
  ['FAILOVER'], ['FAILOVER', 'TO'], ['FAILOVER', 'TO', 'h'], ['FAILOVER', 'TO', '127.0.0.1', '1'], ['FAILOVER', 'ABORT'], ['failover', 'abort'],
  ['FAILOVER', 'ABORT', 'x'], ['FAILOVER', 'TIMEOUT', 'x'], ['FAILOVER', 'FORCE'], ['FAILOVER', 'TIMEOUT', '10'], ['FAILOVER', 'TO', '127.0.0.1', '1', 'FORCE'],
  ['FAILOVER', 'TIMEOUT', '0'], ['FAILOVER', 'TIMEOUT', '-1'], ['FAILOVER', 'FORCE', 'FORCE'], ['FAILOVER', 'TO', 'h', 'p'], ['FAILOVER', 'TO', 'h', '1', 'TO', 'h', '2'],
  ['FAILOVER', 'TIMEOUT', '10', 'TIMEOUT', '10'], ['FAILOVER', 'TIMEOUT', '99999999999999999999'], ['FAILOVER', 'x'], ['FAILOVER', 'TIMEOUT'],
  ['REPLCONF'], ['REPLCONF', 'x'], ['REPLCONF', 'x', 'y'], ['REPLCONF', 'listening-port', '1'], ['REPLCONF', 'listening-port', 'x'], ['REPLCONF', 'capa', 'eof'],
  ['REPLCONF', 'capa'], ['REPLCONF', 'ip-address', 'a'.repeat(255)], ['REPLCONF', 'ip-address', 'a'.repeat(256)], ['REPLCONF', 'rdb-only', '1'], ['REPLCONF', 'rdb-only', 'x'],
  ['REPLCONF', 'rdb-only', '2'], ['REPLCONF', 'a', 'b', 'c'], ['REPLCONF', 'listening-port', '70000'], ['REPLCONF', 'rdb-filter-only', 'x'],
  ['REPLCONF', 'rdb-filter-only', 'functions'], ['REPLCONF', 'rdb-filter-only', "''"], ['REPLCONF', 'listening-port', '1', 'bogus', 'x'],
  ['REPLCONF', 'bogus', 'x', 'listening-port', 'y'],
  ['BGREWRITEAOF'], ['BGREWRITEAOF', 'x'],
  ['SET', 'src', 'v'], ['RESTORE-ASKING', 'dst', '0', 'bad'], ['RESTORE-ASKING', 'dst', '0'],
];

const SYNTAX = { err: 'ERR syntax error' };
const NOT_INT = { err: 'ERR value is not an integer or out of range' };
const NO_REPLICAS = { err: 'ERR FAILOVER requires connected replicas.' };
const OK = { ok: 'OK' };
const EXPECTED = [
  NO_REPLICAS, SYNTAX, SYNTAX, NO_REPLICAS, { err: 'ERR No failover in progress.' }, { err: 'ERR No failover in progress.' },
  SYNTAX, NOT_INT, NO_REPLICAS, NO_REPLICAS, NO_REPLICAS,
  { err: 'ERR FAILOVER timeout must be greater than 0' }, { err: 'ERR FAILOVER timeout must be greater than 0' }, SYNTAX, NOT_INT, SYNTAX,
  SYNTAX, NOT_INT, SYNTAX, SYNTAX,
  OK, SYNTAX, { err: 'ERR Unrecognized REPLCONF option: x' }, OK, NOT_INT, OK,
  SYNTAX, OK, { err: 'ERR REPLCONF ip-address provided by replica instance is too long: 256 bytes' }, OK, NOT_INT,
  { err: 'ERR value is out of range, value must between 0 and 1' }, SYNTAX, OK, { err: 'ERR Unsupported rdb-filter-only option: x' },
  OK, { err: 'ERR Unsupported rdb-filter-only option: ' }, { err: 'ERR Unrecognized REPLCONF option: bogus' },
  { err: 'ERR Unrecognized REPLCONF option: bogus' },
  { ok: 'Background append only file rewriting started' }, { err: "ERR wrong number of arguments for 'bgrewriteaof' command" },
  OK, { err: 'ERR DUMP payload version or checksum are wrong' }, { err: "ERR wrong number of arguments for 'restore-asking' command" },
];

describe.each(['7.0', '8.10'] as const)('replication and persistence admin commands on the engine (%s)', (version) => {
  it('answer as both servers do', async () => {
    const fake = createConnection({ port: version === '7.0' ? 48_980 : 48_981, streams: { redisVersion: version } });
    try {
      const got = [];
      for (const argv of STEPS) got.push(await fakeOutcome(fake, argv, bytesNumbersReply));
      expect(got.map((g, i) => ({ argv: cutArgs(STEPS[i]), ...g }))).toEqual(EXPECTED.map((e, i) => ({ argv: cutArgs(STEPS[i]), ...e })));
    } finally {
      fake.close();
    }
  });

  it('RESTORE-ASKING restores a DUMP payload as RESTORE does (BUSYKEY, REPLACE)', async () => {
    const fake = createConnection({ port: version === '7.0' ? 48_982 : 48_983, streams: { redisVersion: version } });
    try {
      await fake.execute(['SET', 'src', 'v']);
      const payload = (await fake.execute(['DUMP', 'src'])) as string;
      expect(await fake.execute(['RESTORE-ASKING', 'dst', '0', payload])).toEqual(expect.objectContaining({ value: 'OK' }));
      expect(await fake.execute(['GET', 'dst'])).toBe('v');
      await expect(fake.execute(['RESTORE-ASKING', 'dst', '0', payload])).rejects.toThrow('BUSYKEY Target key name already exists.');
      expect(await fake.execute(['RESTORE-ASKING', 'dst', '0', payload, 'REPLACE'])).toEqual(expect.objectContaining({ value: 'OK' }));
    } finally {
      fake.close();
    }
  });
});

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers('FAILOVER, REPLCONF, BGREWRITEAOF and RESTORE-ASKING', ({ url, version }) => {
  it('answer the same steps alike', async () => {
    const real = await connectReal(url, 7);
    const fake = createConnection({ port: version === '7.0' ? 48_984 : 48_985, streams: { redisVersion: version } });
    try {
      await expectSameOutcomes(real, fake, STEPS, { plainReal: bytesNumbersReply, plainFake: bytesNumbersReply, label: cutArgs });
    } finally {
      await real.call('FLUSHDB');
      real.disconnect();
      fake.close();
    }
  });
});
