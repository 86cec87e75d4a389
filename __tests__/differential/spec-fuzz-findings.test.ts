/**
 * Divergences found by scripts/spec-fuzz.js (commands generated from the real servers' own
 * COMMAND DOCS argument specs, compared on the wire with `serve`), each minimised to a short
 * sequence. Every step's outcome was recorded from redis-server 7.0.15 (emulated 7.0) and the
 * post-7.4 4f8cdc2a build (emulated 8.0) over RESP2 and is asserted on a fresh engine connection;
 * the same sequences also run live on REDIS_URL / REDIS_UNSTABLE_URL when set (db 9).
 */
import { createConnection } from '../../lib/engine';
import { bytesNumbersReply, connectReal, cutArgs, describeOnRealServers, expectSameOutcomes, fakeOutcome, type Outcome } from '../helpers/real-server';

interface Finding {
  title: string;
  steps: string[][];
  /** The real servers' outcomes, one per step (`both` when the two servers agree). */
  expected: { '7.0': Outcome[]; '8.0': Outcome[] } | { both: Outcome[] };
}

const WRONGTYPE = { err: 'WRONGTYPE Operation against a key holding the wrong kind of value' };
const EMPTY_SCAN = { ok: ['0', []] };
const INVALID_CURSOR = { err: 'ERR invalid cursor' };

const FINDINGS: Finding[] = [
  {
    title: 'HSCAN/ZSCAN/SSCAN read their cursor as SCAN does (7.0 strtoul: "" and -1 accepted; 7.2+ string2ull: leading blanks, huge negatives wrap)',
    steps: [['SET', 's', 'x'], ['HSCAN', 'nokey', ''], ['HSCAN', 'nokey', '-1'], ['ZSCAN', 'nokey', '-1'], ['ZSCAN', 'nokey', ''], ['ZSCAN', 's', ' 2'], ['HSCAN', 's', '-9223372036854775809'], ['SSCAN', 'nokey', '-9223372036854775809']],
    expected: {
      '7.0': [{ ok: 'OK' }, EMPTY_SCAN, EMPTY_SCAN, EMPTY_SCAN, EMPTY_SCAN, INVALID_CURSOR, WRONGTYPE, EMPTY_SCAN],
      '8.0': [{ ok: 'OK' }, INVALID_CURSOR, INVALID_CURSOR, INVALID_CURSOR, INVALID_CURSOR, WRONGTYPE, WRONGTYPE, EMPTY_SCAN],
    },
  },
];

const expectedFor = (f: Finding, version: '7.0' | '8.0'): Outcome[] => ('both' in f.expected ? f.expected.both : f.expected[version]);

describe.each(['7.0', '8.0'] as const)('spec-fuzz findings answer as recorded from the real server (emulated %s)', (version) => {
  let port = 48_900 + (version === '7.0' ? 0 : 50);
  it.each(FINDINGS.map((f) => [f.title, f] as const))('%s', async (_title, f) => {
    const fake = createConnection({ port: port++, streams: { redisVersion: version } });
    try {
      const got: unknown[] = [];
      for (const argv of f.steps) got.push({ argv: cutArgs(argv), ...(await fakeOutcome(fake, argv, bytesNumbersReply)) });
      expect(got).toEqual(f.steps.map((argv, i) => ({ argv: cutArgs(argv), ...expectedFor(f, version)[i] })));
    } finally {
      fake.close();
    }
  });
});

describeOnRealServers('spec-fuzz findings', ({ url, version }) => {
  let port = 49_000 + (version === '7.0' ? 0 : 50);
  it.each(FINDINGS.map((f) => [f.title, f] as const))('%s', async (_title, f) => {
    const real = await connectReal(url, 9);
    const fake = createConnection({ port: port++, streams: { redisVersion: version } });
    try {
      await expectSameOutcomes(real, fake, f.steps, { plainReal: bytesNumbersReply, plainFake: bytesNumbersReply, label: cutArgs });
    } finally {
      await real.call('FLUSHDB');
      real.disconnect();
      fake.close();
    }
  });
}, 'answer');
