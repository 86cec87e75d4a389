/**
 * Differential test: seeded random stream-command sequences run on the fake and on a real
 * redis-server (REDIS_URL), comparing every reply and every error text exactly.
 *
 * - Fake: a fresh keyspace per run, a frozen fake clock (`createFakeClock`), and the server's
 *   <major>.<minor> as redisVersion — '7.0' for redis-server 7.0.15, the version the fixtures
 *   are recorded on. A server version the library does not emulate skips the checks (warning).
 * - Real: real ioredis on database 9 of REDIS_URL, FLUSHDB before every run (the database in the
 *   URL, used by the fixture checks, is left alone).
 * - Both through `call(...)`, so replies are compared as ioredis returns them (strings, integers,
 *   nil, nested arrays) and errors by their full text (and error class: a non-ReplyError shows).
 * - Wall-clock values (idle times, delivery/seen/active times) and `*`-generated IDs are
 *   normalised (Normaliser in ./differential.ts); everything else must be identical.
 * - Each run ends with AUDIT commands that read back every key's whole state.
 *
 * On a mismatch the test fails with the seed, a shrunk reproduction (both replies of the failing
 * step) and the full step list up to the first mismatch. Reproduce or explore with, e.g.
 *   DIFF_SEEDS=7,8 DIFF_STEPS=1000 REDIS_URL=redis://127.0.0.1:6407 npx jest __tests__/differential
 * (DIFF_SEEDS / DIFF_STEPS replace the default runs; DIFF_PROFILE=long for the long-stream mix).
 */
import {
  FakeSide,
  RealSide,
  UNSTABLE_FAKE_VERSION,
  fakeVersionFor,
  formatArgv,
  formatRecords,
  runSeed,
  shrink,
  type GeneratorProfile,
} from './differential';

/** Database reserved for this test on each server. */
const DB = 9;

interface Run {
  seed: number;
  steps: number;
  profile: GeneratorProfile;
}

/**
 * Six short-stream runs of 400 commands (3 keys, 2 groups, 3 consumers: tombstones, trimmed
 * groups, NOGROUP, re-deliveries) and two long-stream runs that cross 100-entry macro nodes.
 */
const DEFAULT_RUNS: Run[] = [
  ...[1, 2, 3, 4, 5, 6].map((seed): Run => ({ seed, steps: 400, profile: 'default' })),
  ...[101, 102].map((seed): Run => ({ seed, steps: 800, profile: 'long' })),
];
const RUNS: Run[] = process.env.DIFF_SEEDS
  ? process.env.DIFF_SEEDS.split(',').map((s) => ({
      seed: Number(s.trim()),
      steps: Number(process.env.DIFF_STEPS ?? 400),
      profile: process.env.DIFF_PROFILE === 'long' ? 'long' : 'default',
    }))
  : DEFAULT_RUNS;

/** Per run. A run takes well under a second against a local server; the rest is for shrinking. */
const TEST_TIMEOUT_MS = 30_000;
const SHRINK_BUDGET_MS = 15_000;

/**
 * One suite per real server: `REDIS_URL` (redis-server 7.0.15 in CI; the fake runs in the mode
 * named by the server's <major>.<minor>) and `REDIS_UNSTABLE_URL` (the redis/redis tree at
 * 4f8cdc2a, between 7.4 and 8.0, whose INFO says 255.255.255; the fake runs in '8.0' mode, see
 * UNSTABLE_FAKE_VERSION). An unset variable skips its suite with a visible message.
 */
describeAgainst('REDIS_URL', process.env.REDIS_URL, (serverVersion) => fakeVersionFor(serverVersion));
describeAgainst('REDIS_UNSTABLE_URL', process.env.REDIS_UNSTABLE_URL, (serverVersion) =>
  fakeVersionFor(serverVersion, { unstable: UNSTABLE_FAKE_VERSION }),
);

function describeAgainst(envName: string, url: string | undefined, fakeVersion: (serverVersion: string) => string | null): void {
  if (!url) {
    console.warn(`${envName} not set: differential random-command tests against that server skipped`);
  }
  // skip: no real server URL (REDIS_URL / REDIS_UNSTABLE_URL): nothing to compare with; CI sets both
  (url ? describe : describe.skip)(`random stream commands: fake vs real server (${envName}, db ${DB})`, () => {
    let real: RealSide | undefined;
    let fake: FakeSide | undefined;
    let serverVersion = '';

    beforeAll(async () => {
      real = await RealSide.connect(url as string, DB);
      serverVersion = await real.serverVersion();
      const version = fakeVersion(serverVersion);
      if (version) fake = new FakeSide(version);
      else console.warn(`redis-server ${serverVersion} (${envName}) has no matching redisVersion in the fake: differential checks skipped`);
    }, 10_000);

    afterAll(async () => {
      await fake?.close();
      await real?.close();
    });

    it.each(RUNS.map((r) => [r.seed, r.steps, r.profile, r] as const))(
      'seed %i: %i random commands (%s mix) answer identically',
      async (seed, _steps, _profile, run) => {
        if (!real || !fake) return;
        let result = await runSeed(seed, run.steps, real, fake, run.profile);
        // Another test file may flush the whole server (the FLUSHALL fixture): run again.
        for (let retry = 0; retry < 3 && result.mismatchAt !== null && (await real.disturbed()); retry++) {
          console.warn(`seed ${seed}: the server's database was emptied from outside during the run; running it again`);
          result = await runSeed(seed, run.steps, real, fake, run.profile);
        }
        if (result.mismatchAt === null) return;
        const at = result.mismatchAt;
        const minimal = await shrink(
          result.records.map((r) => r.argv),
          at,
          real,
          fake,
          SHRINK_BUDGET_MS,
        );
        throw new Error(
          [
            `seed ${seed} (${run.profile} mix): first mismatch at step #${at} (redis-server ${serverVersion}, fake ${fake.redisVersion}):`,
            `  ${formatArgv(result.records[at].argv)}`,
            '',
            'shrunk reproduction (the real reply after →; the last step shows both):',
            formatRecords(minimal),
            '',
            `full step list of seed ${seed} up to the mismatch:`,
            formatRecords(result, 100),
          ].join('\n'),
        );
      },
      TEST_TIMEOUT_MS,
    );
  });
}
