/**
 * Differential test: seeded random stream-command sequences run on the fake and on a real
 * redis-server (REDIS_URL), comparing every reply and every error text exactly.
 *
 * - Fake: a fresh keyspace per run, a frozen fake clock, and the server's <major>.<minor> as
 *   redisVersion ('7.0' for the usual redis-server 7.0.15).
 * - Real: real ioredis on database 9 of REDIS_URL (FLUSHDB before every run; any database in the
 *   URL is ignored so the fixtures' database is left alone).
 * - Both through `call(...)`, so replies are compared as ioredis returns them (strings, integers,
 *   nil, nested arrays) and errors by their full text.
 * - Wall-clock values (idle times, delivery/seen/active times) and `*`-generated IDs are
 *   normalised, see Normaliser in ./differential.ts; everything else must be identical.
 *
 * On a mismatch the test prints the seed, the full step list up to the first mismatch (with
 * both replies of that step) and a shrunk reproduction. Reproduce or explore with
 *   DIFF_SEEDS=7,8 DIFF_STEPS=1000 REDIS_URL=redis://127.0.0.1:6407 npx jest __tests__/differential
 */
import { FakeSide, RealSide, fakeVersionFor, formatRecords, runSeed, shrink } from './differential';

const REDIS_URL = process.env.REDIS_URL;
/** Database reserved for this test on the REDIS_URL server. */
const DB = 9;
const SEEDS = process.env.DIFF_SEEDS ? process.env.DIFF_SEEDS.split(',').map((s) => Number(s.trim())) : [1, 2, 3, 4, 5, 6];
const STEPS = Number(process.env.DIFF_STEPS ?? 400);
/** Per seed: the run itself takes well under a second against a local server; the rest is for shrinking. */
const TEST_TIMEOUT_MS = 30_000;
const SHRINK_BUDGET_MS = 15_000;

if (!REDIS_URL) {
  console.warn('REDIS_URL not set: differential random-command tests against a real server skipped');
}

(REDIS_URL ? describe : describe.skip)(`random stream commands: fake vs real server (REDIS_URL, db ${DB})`, () => {
  let real: RealSide;
  let fake: FakeSide | undefined;
  let serverVersion = '';

  beforeAll(async () => {
    real = await RealSide.connect(REDIS_URL as string, DB);
    serverVersion = await real.serverVersion();
    const version = fakeVersionFor(serverVersion);
    if (version) fake = new FakeSide(version);
    else console.warn(`redis-server ${serverVersion} has no matching redisVersion in the fake: differential tests skipped`);
  }, 10_000);

  afterAll(async () => {
    await fake?.close();
    await real?.close();
  });

  it.each(SEEDS)(
    `seed %i: ${STEPS} random commands answer identically`,
    async (seed) => {
      if (!fake) return;
      const run = await runSeed(seed, STEPS, real, fake);
      if (run.mismatchAt === null) return;
      const at = run.mismatchAt;
      const minimal = await shrink(
        run.records.map((r) => r.argv),
        at,
        real,
        fake,
        SHRINK_BUDGET_MS,
      );
      throw new Error(
        [
          `seed ${seed}: first mismatch at step #${at} (redis-server ${serverVersion})`,
          `  ${run.records[at].argv.join(' ')}`,
          '',
          'shrunk reproduction (real reply after →; the last step shows both):',
          formatRecords(minimal),
          '',
          `full step list of seed ${seed} up to the mismatch:`,
          formatRecords(run, 100),
        ].join('\n'),
      );
    },
    TEST_TIMEOUT_MS,
  );
});
