/**
 * Keyspace notifications as Redis publishes them, for every command of the core fuzzer's
 * generator: the keyspace-events differential fuzzer (./core/events-fuzz.ts) against Debian's
 * redis-server 7.0.15 (REDIS_URL; the fake in '7.0' mode) and the post-7.4 build
 * (REDIS_UNSTABLE_URL; '8.0' mode). Each seed sets its own `notify-keyspace-events` (FLAG_SETS:
 * KEA, Kg$, Exe, KEAnm …) on both sides, runs random commands over every family in db 10
 * (EVENTS_DB: no other test file uses db 10 of the real servers; the subscriber's pattern
 * `__key*@10__:*` sees this file's events only) and compares the events after every command
 * (`expired` ones as a multiset per seed: the real server's active expire cycle picks their moment).
 *
 * The real server's `notify-keyspace-events` is read before and set back after (other test files
 * share the servers); a seed that diverges while another client changed it runs again.
 * EVENTS_FUZZ_SEEDS / EVENTS_FUZZ_STEPS size the run; events-cli.ts runs many more.
 */
import { describeEvents, eventsFuzz, type EventsFuzzResult, FLAG_SETS } from './core/events-fuzz';
import { FAMILIES } from './core/generator';

const SEEDS = Number(process.env.EVENTS_FUZZ_SEEDS ?? FLAG_SETS.length);
const STEPS = Number(process.env.EVENTS_FUZZ_STEPS ?? 150);

const servers: [string, string | undefined, string][] = [
  ['redis-server 7.0.15 (REDIS_URL)', process.env.REDIS_URL, '7.0'],
  ['the post-7.4 build (REDIS_UNSTABLE_URL)', process.env.REDIS_UNSTABLE_URL, '8.0'],
];

describe('keyspace notifications match real servers, command by command (events differential fuzzer)', () => {
  // both servers fuzzed at once (each its own fake server): the seeds wait on timers (blocked
  // calls, the expiry epilogue) more than they compute
  const runs = new Map<string, Promise<EventsFuzzResult>>();
  beforeAll(() => {
    const seeds = Array.from({ length: SEEDS }, (_, i) => i + 1);
    for (const [label, url, version] of servers) {
      if (!url) continue;
      const run = eventsFuzz({ url, redisVersion: version, families: FAMILIES, seeds, steps: STEPS, resp3: true });
      run.catch(() => undefined); // reported by its test
      runs.set(label, run);
    }
  });

  for (const [label, url] of servers) {
    if (!url) {
      console.warn(`${label.replace(/ \(.*/, '')} not available: the keyspace-events fuzzer against it is skipped`);
      // skip: no server URL (REDIS_URL / REDIS_UNSTABLE_URL): skipped with the warning printed above; CI sets both
      it.skip(`matches ${label}`, () => undefined);
      continue;
    }
    it(`matches ${label}: ${SEEDS} seeds × ${STEPS} commands, every family, one flag set per seed`, async () => {
      const result = await runs.get(label)!;
      console.log(`keyspace-events fuzzer vs ${label}: ${result.commands} commands, ${result.events} events, ${result.divergences.length} divergent seeds of ${SEEDS}`);
      expect(result.divergences.map((d) => describeEvents(d)).join('\n\n')).toBe('');
      expect(result.events).toBeGreaterThan(0);
    }, 60_000);
  }
});
