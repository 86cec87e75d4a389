/**
 * Expire times past 2^53 ms (the year 287396) kept exactly, as Redis keeps them in a long long
 * (found by an independent fuzzer, session 13: the keyspace held doubles, so `PEXPIREAT a
 * 9007199254740993` answered PEXPIRETIME …992 and `EXPIRETIME` of EXAT 9223372036854775 …774).
 * Absolute times only (TTL/PTTL move with the wall clock); the real client reads integers as
 * strings (ioredis's numbers would round them too). Recorded from both real servers (the same on
 * both) and compared live.
 */
import { createConnection } from '../../lib/engine';
import { bytesReply, connectReal, describeOnRealServers, fakeOutcome, realOutcome } from '../helpers/real-server';

const STEPS: string[][] = [
      ['SET', 'a', 'v'], ['PEXPIREAT', 'a', '9007199254740993'], ['PEXPIRETIME', 'a'], ['PEXPIREAT', 'a', '9007199254740992', 'LT'], ['PEXPIRETIME', 'a'],
      ['PEXPIREAT', 'a', '9007199254740993', 'GT'], ['PEXPIRETIME', 'a'], ['EXPIREAT', 'a', '9223372036854775'], ['EXPIRETIME', 'a'], ['PEXPIRETIME', 'a'],
      ['EXPIREAT', 'a', '9223372036854775', 'GT'], ['SET', 'e', 'v', 'EXAT', '9223372036854775'], ['EXPIRETIME', 'e'],
      ['SET', 'b', 'v', 'PXAT', '123456789012345678'], ['PEXPIRETIME', 'b'], ['SET', 'k3', 'v', 'PXAT', '9223372036854775806'], ['PEXPIRETIME', 'k3'],
      ['GETEX', 'k3', 'PXAT', '9223372036854775805'], ['PEXPIRETIME', 'k3'], ['COPY', 'k3', 'k4'], ['PEXPIRETIME', 'k4'], ['RENAME', 'k4', 'k5'],
      ['PEXPIRETIME', 'k5'], ['SET', 'm', 'v', 'PXAT', '9223372036854775807'], ['EXPIRETIME', 'm'], ['PEXPIRETIME', 'm'],
];

const EXPECTED = [
  'OK', '1', '9007199254740993', '1', '9007199254740992', '1', '9007199254740993', '1', '9223372036854775', '9223372036854775000',
  '0', 'OK', '9223372036854775', 'OK', '123456789012345678', 'OK', '9223372036854775806',
  'v', '9223372036854775805', '1', '9223372036854775805', 'OK', '9223372036854775805', 'OK', '9223372036854776', '9223372036854775807',
];

describe.each(['7.0', '8.0'] as const)('expire times past 2^53 ms (emulated %s)', (version) => {
  it('are kept, compared and copied exactly', async () => {
    const fake = createConnection({ port: version === '7.0' ? 48_980 : 48_981, streams: { redisVersion: version } });
    try {
      const got: unknown[] = [];
      for (const argv of STEPS) {
        const o = await fakeOutcome(fake, argv, bytesReply);
        got.push('ok' in o ? o.ok : o.err);
      }
      expect(got).toEqual(EXPECTED);
    } finally {
      fake.close();
    }
  });
});

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers('expire times past 2^53 ms', ({ url, version }) => {
  it('as the real server keeps them', async () => {
    const real = await connectReal(url, 9, { stringNumbers: true });
    const fake = createConnection({ port: version === '7.0' ? 48_982 : 48_983, streams: { redisVersion: version } });
    try {
      for (const argv of STEPS) expect({ argv, ...(await fakeOutcome(fake, argv, bytesReply)) }).toEqual({ argv, ...(await realOutcome(real, argv, bytesReply)) });
    } finally {
      await real.call('FLUSHDB');
      real.disconnect();
      fake.close();
    }
  });
}, 'are kept');
