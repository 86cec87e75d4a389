/**
 * The keyspace-events fuzzer from the command line (not a test):
 *   npx ts-node-transpile-only __tests__/differential/core/events-cli.ts URL VERSION FAMILIES SEEDS [STEPS] [HISTORY] [FLAGS]
 * e.g. `… redis://127.0.0.1:6470 7.0 strings,keys 1-200 300 20` (SEEDS: `48`, `1-200` or `3,7,9`;
 * FAMILIES `all` for every one; FLAGS: one notify-keyspace-events value for every seed, `''` for
 * one per seed). EVENTS_FUZZ_OTHER_DB=1 adds MOVE / COPY … DB (subscribers on every database:
 * private servers only); EVENTS_FUZZ_DB picks the database.
 */
import { describeEvents, eventsFuzz } from './events-fuzz';
import { FAMILIES, type Family } from './generator';

async function main(): Promise<void> {
  const [url, version, families, seedSpec, steps = '300', history = '20', flags] = process.argv.slice(2);
  const seeds = seedSpec.split(',').flatMap((part) => {
    const [lo, hi] = part.split('-').map(Number);
    return hi === undefined ? [lo] : Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
  });
  const fams = families === 'all' ? [...FAMILIES] : (families.split(',') as Family[]);
  const result = await eventsFuzz({ url, redisVersion: version, families: fams, seeds, steps: Number(steps), resp3: true, flags: flags || undefined, otherDb: process.env.EVENTS_FUZZ_OTHER_DB === '1' });
  for (const d of result.divergences) console.log(`${describeEvents(d, Number(history))}\n`);
  console.log(`${result.commands} commands, ${result.events} real events (${result.skipped} lex ranges skipped, ${result.knownEnded} seeds ended at a known difference), ${result.divergences.length} divergent seeds of ${seeds.length}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
