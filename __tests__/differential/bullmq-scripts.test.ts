/**
 * BullMQ's own Lua scripts on the fake and on both real servers (issue 21): the commands BullMQ
 * 6.2.0 sent during a recorded scenario (./fixtures/bullmq-scripts.json, written by
 * scripts/record-bullmq-scripts.js: add / addBulk / delayed / prioritized / deduplicated jobs,
 * manual processing to completion and failure with retries, progress, logs, lock extension,
 * changeDelay / changePriority / updateData, promote, retryJobs, pause / resume, a flow,
 * getters, remove, clean, drain, obliterate) replayed in their recorded order on one fresh
 * engine connection and on one real connection, every reply equal byte for byte (RESP2, replies
 * as byte strings, errors by text). The ARGV timestamps, lock tokens and job ids are the
 * recorded ones, and none of the recorded scripts reads the server's clock (no TIME call in
 * BullMQ's scripts; XADD `*` ids of the events stream are made from each server's clock but no
 * replayed reply contains one).
 *
 * One thing is normalised, and only where the raw replies differ: the field order of a job hash
 * that Redis holds as a hashtable (a failed job's stacktrace, a child's `parent` JSON: values
 * over hash-max-listpack-value's 64 bytes). A dict iterates in bucket order, from a SipHash seeded
 * at random when the server starts, so that order differs between two runs of the same server
 * and no fake can reproduce it. Such a reply (HGETALL, or a script returning HGETALL data:
 * getJobs, moveToActive) must then be equal once each job hash's field/value pairs are sorted;
 * for a direct HGETALL both sides must also report OBJECT ENCODING hashtable. Job hashes held as
 * listpacks (insertion order) are compared as they come. Likewise SMEMBERS of a flow parent's
 * dependencies set (two job keys, not integers): 7.0 holds it as a hashtable (no listpack sets
 * before 7.2), so its order is the dict's; it must be equal sorted, both sides reporting
 * OBJECT ENCODING hashtable. On 7.4+ it is a listpack and compared as it comes.
 *
 * Each script is SCRIPT LOADed first on both sides (the shas compared), so the real servers'
 * script caches left by earlier runs change nothing. Left out when recording (the fixture's
 * `dropped`): the clients' CLIENT SETNAME/SETINFO, INFO ready checks and QUIT; no blocking
 * command was sent (jobs are fetched with `getNextJob(token, { block: false })`), and the
 * test checks none is in the fixture.
 *
 * Real side: db 12 (shared with itOnServer tests that only touch their own named keys); this
 * file deletes only BullMQ's `bull:diffq:*` keys, before and after, never FLUSHDB. If another
 * test file flushes the whole server mid-replay (the FLUSHALL scenario fixture), the sentinel
 * key disappears and the replay runs once more.
 */
import { createConnection } from '../../lib/engine';
import { bytesReply, connectReal, describeOnRealServers, fakeOutcome, realOutcome, type AnyClient, type Outcome } from '../helpers/real-server';
import fixture from './fixtures/bullmq-scripts.json';

const DB = 12;
const SENTINEL = 'bqdiff:sentinel';

interface Fixture {
  bullmq: string;
  scripts: Record<string, { name: string; keys: number; body: string }>;
  commands: string[][];
}
const { scripts, commands, bullmq } = fixture as Fixture;
const replayed = commands.filter((c) => c[0] !== '#');

/** Steps whose replies differed only in a hashtable's order (see the header). */
const hashOrderOnly: string[] = [];
/** Steps the real server answered with an error: none (every recorded command succeeded when recorded). */
const realErrors: string[] = [];

/** `reply` with every job hash (a flat field/value list with a `timestamp` field) as its pairs sorted by field. */
function sortJobHashes(reply: unknown): unknown {
  if (!Array.isArray(reply)) return reply && typeof reply === 'object' ? Object.fromEntries(Object.entries(reply).map(([k, v]) => [k, sortJobHashes(v)])) : reply;
  const flat = reply.length % 2 === 0 && reply.every((x) => typeof x === 'string');
  if (flat && reply.some((x, i) => i % 2 === 0 && x === 'timestamp')) {
    const pairs: [string, string][] = [];
    for (let i = 0; i < reply.length; i += 2) pairs.push([reply[i] as string, reply[i + 1] as string]);
    return pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).flat();
  }
  return reply.map(sortJobHashes);
}

/** SMEMBERS's reply sorted. */
const sortSetMembers = (reply: unknown): unknown => ('ok' in (reply as object) && Array.isArray((reply as { ok: unknown }).ok) ? { ok: [...((reply as { ok: string[] }).ok)].sort() } : reply);

async function deleteQueueKeys(real: AnyClient): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = (await real.call('SCAN', cursor, 'MATCH', 'bull:diffq:*', 'COUNT', '1000')) as [string, string[]];
    if (keys.length) await real.call('DEL', ...keys);
    cursor = next;
  } while (cursor !== '0');
}

interface Divergence {
  step: number;
  scenario: string;
  script?: string;
  argv: string[];
  fake: Outcome;
  real: Outcome;
}

/** The fixture replayed on both sides: the divergences, or null when the sentinel vanished (another file flushed the server). */
async function replay(real: AnyClient, fake: { execute(argv: string[]): unknown }): Promise<Divergence[] | null> {
  const divergences: Divergence[] = [];
  for (const [sha, { body }] of Object.entries(scripts)) {
    const argv = ['SCRIPT', 'LOAD', body];
    const [r, f] = [await realOutcome(real, argv), await fakeOutcome(fake, argv)];
    expect({ script: sha, ...f }).toEqual({ script: sha, ok: sha });
    expect(r).toEqual({ ok: sha });
  }
  await real.call('SET', SENTINEL, '1');
  let scenario = '';
  let step = 0;
  for (const argv of commands) {
    if (argv[0] === '#') {
      scenario = argv[1];
      continue;
    }
    const r = await realOutcome(real, argv, bytesReply);
    if ('err' in r) realErrors.push(`${step} ${argv[0]} ${r.err}`);
    const f = await fakeOutcome(fake, argv, bytesReply);
    const normalise = argv[0] === 'SMEMBERS' ? sortSetMembers : sortJobHashes;
    if (JSON.stringify(r) !== JSON.stringify(f) && JSON.stringify(normalise(r)) === JSON.stringify(normalise(f))) {
      const script = argv[0] === 'EVALSHA' ? scripts[argv[1]]?.name : argv[0];
      if (argv[0] === 'HGETALL' || argv[0] === 'SMEMBERS') {
        const encodings = [await realOutcome(real, ['OBJECT', 'ENCODING', argv[1]]), await fakeOutcome(fake, ['OBJECT', 'ENCODING', argv[1]])];
        expect({ argv, encodings }).toEqual({ argv, encodings: [{ ok: 'hashtable' }, { ok: 'hashtable' }] });
      }
      hashOrderOnly.push(`${step} ${script}`);
    } else if (JSON.stringify(r) !== JSON.stringify(f)) divergences.push({ step, scenario, script: argv[0] === 'EVALSHA' ? scripts[argv[1]]?.name : undefined, argv: argv.map((a) => a.slice(0, 60)), fake: f, real: r });
    step++;
  }
  if ((await real.call('EXISTS', SENTINEL)) !== 1) return null;
  return divergences;
}

describe(`the BullMQ ${bullmq} fixture`, () => {
  it('holds the scripts it replays, EVALSHA only of those, and no blocking command', () => {
    const used = new Set(replayed.filter((c) => c[0] === 'EVALSHA').map((c) => c[1]));
    expect([...used].every((sha) => sha in scripts)).toBe(true);
    expect(used.size).toBeGreaterThanOrEqual(24);
    expect(replayed.filter((c) => c[0] === 'EVALSHA').length).toBeGreaterThanOrEqual(100);
    expect(replayed.filter((c) => /^(B[LRZ]|XREAD)/.test(c[0]))).toEqual([]);
  });

  it.each(['7.0', '8.0'] as const)('replays on the fake (emulated %s) without an error, obliterate leaving no key of the queue', async (version) => {
    const fake = createConnection({ port: 48_990 + (version === '7.0' ? 0 : 1), db: DB, streams: { redisVersion: version } });
    try {
      for (const body of Object.values(scripts).map((x) => x.body)) await fake.execute(['SCRIPT', 'LOAD', body]);
      const errors: string[] = [];
      for (const argv of replayed) {
        const outcome = await fakeOutcome(fake, argv);
        if ('err' in outcome) errors.push(`${argv[0]} ${outcome.err}`);
      }
      expect(errors).toEqual([]);
      // obliterate (the last script) left no key of the queue
      expect(await fakeOutcome(fake, ['KEYS', 'bull:diffq:*'])).toEqual({ ok: [] });
    } finally {
      fake.close();
    }
  });
});

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers(
  `BullMQ ${bullmq}'s Lua scripts (${Object.keys(scripts).length} scripts, ${replayed.length} commands)`,
  ({ url, version }) => {
    let port = 48_900 + (version === '7.0' ? 0 : 50);
    it('every reply of the recorded scenario equals the real one', async () => {
      const real = await connectReal(url, DB, {}, false);
      try {
        let result: Divergence[] | null = null;
        for (let attempt = 0; attempt < 3 && result === null; attempt++) {
          hashOrderOnly.length = 0;
          realErrors.length = 0;
          await deleteQueueKeys(real);
          const fake = createConnection({ port: port++, db: DB, streams: { redisVersion: version } });
          try {
            result = await replay(real, fake);
          } finally {
            fake.close();
          }
        }
        expect(result).toEqual([]);
        expect(realErrors).toEqual([]);
        // only HGETALL, SMEMBERS and the two scripts that return job hashes may differ in order
        expect(hashOrderOnly.filter((s) => !/ (HGETALL|SMEMBERS|getJobs|moveToActive)$/.test(s))).toEqual([]);
      } finally {
        await deleteQueueKeys(real);
        await real.call('DEL', SENTINEL);
        real.disconnect();
      }
    }, 60_000);
  },
  'replay',
);
