/**
 * The core fuzzer from the command line, for chasing one divergence (not a test):
 *   npx ts-node-transpile-only __tests__/differential/core/cli.ts URL VERSION FAMILIES SEEDS [STEPS] [HISTORY]
 * e.g. `… redis://127.0.0.1:6399 7.0 zsets 48 500 40` (SEEDS: `48`, `1-200` or `3,7,9`) prints
 * each divergent seed with the last HISTORY commands before it.
 */
import { describe, fuzz } from './fuzz';
import type { Family } from './generator';

async function main(): Promise<void> {
  const [url, version, families, seedSpec, steps = '500', history = '20'] = process.argv.slice(2);
  const seeds = seedSpec.split(',').flatMap((part) => {
    const [lo, hi] = part.split('-').map(Number);
    return hi === undefined ? [lo] : Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
  });
  const result = await fuzz({ url, redisVersion: version, families: families.split(',') as Family[], seeds, steps: Number(steps), resp3: true });
  for (const d of result.divergences) console.log(`${describe(d, Number(history))}\n`);
  console.log(`${result.commands} commands (${result.skipped} lex ranges skipped, ${result.knownEnded} seeds ended at a known difference), ${result.divergences.length} divergent seeds of ${seeds.length}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
