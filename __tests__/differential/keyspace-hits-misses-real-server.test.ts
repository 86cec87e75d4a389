/**
 * INFO stats `keyspace_hits` / `keyspace_misses` command by command, against the real servers
 * (REDIS_URL: redis-server 7.0.15, emulated 7.0; REDIS_UNSTABLE_URL: the post-7.4 build, emulated
 * 8.0; skipped with a message when unset). The cases are scripts/keyspace-stats-cases.js (every
 * family: reads, writes that read first, WRONGTYPE, missing and expired keys, scripts), each run
 * as `MULTI, INFO stats, <its commands>, INFO stats, EXEC`: the two INFOs are read with nothing
 * else in between, so a shared server's other clients do not disturb the counts (no FLUSHDB, no
 * CONFIG RESETSTAT; the keys are prefixed and deleted). The cases that block, or hold MULTI/WATCH
 * themselves, need a server of their own: scripts/keyspace-stats-diff.js runs every case so.
 */
import { createConnection } from '../../lib/engine';
import { toResp2Plain } from '../../lib/reply/reply';
import { connectReal, describeOnRealServers } from '../helpers/real-server';

interface Case {
  readonly pre?: string[][];
  readonly block?: unknown;
  readonly cmds: string[][];
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { SETUP, KEYS, CASES, EXPIRED_WAIT } = require('../../scripts/keyspace-stats-cases') as {
  SETUP: string[][];
  KEYS: string[];
  CASES: Case[];
  EXPIRED_WAIT: number;
};

const TRANSACTION = new Set(['MULTI', 'EXEC', 'WATCH', 'UNWATCH', 'DISCARD']);
const COMPARED = CASES.filter((c) => c.block === undefined && !c.cmds.some((argv) => TRANSACTION.has(argv[0])));
const DB = 11;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function counts(info: unknown): [number, number] {
  const text = String(info);
  return [Number(/keyspace_hits:(\d+)/.exec(text)![1]), Number(/keyspace_misses:(\d+)/.exec(text)![1])];
}

type Send = (argv: string[]) => Promise<unknown>;

/** Each case's [hits, misses] change, or null when its transaction was refused (a command the server lacks). */
async function deltas(send: Send, prefix: string): Promise<([number, number] | null)[]> {
  const sub = (argv: readonly string[]) => argv.map((a) => a.replace(/@/g, prefix));
  const out: ([number, number] | null)[] = [];
  for (const c of COMPARED) {
    await send(['DEL', ...KEYS.map((k) => prefix + k)]);
    for (const argv of [...SETUP, ...(c.pre ?? [])]) await send(sub(argv)).catch(() => undefined);
    await sleep(EXPIRED_WAIT);
    await send(['MULTI']);
    let refused = false;
    for (const argv of [['INFO', 'stats'], ...c.cmds.map(sub), ['INFO', 'stats']]) {
      await send(argv).catch(() => {
        refused = true;
      });
    }
    const replies = (await send(['EXEC']).catch(() => null)) as unknown[] | null;
    if (refused || replies === null) {
      out.push(null);
      continue;
    }
    const [before, after] = [counts(replies[0]), counts(replies[replies.length - 1])];
    out.push([after[0] - before[0], after[1] - before[1]]);
  }
  await send(['DEL', ...KEYS.map((k) => prefix + k)]);
  return out;
}

const text = (c: Case) => c.cmds.map((argv) => argv.join(' ')).join(' ; ');

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers('keyspace_hits / keyspace_misses', ({ url, version }) => {
  it('change as on the real server, command by command', async () => {
    const real = await connectReal(url, DB, {}, false);
    const prefix = `ksdiff:${process.pid}:`;
    let realDeltas: ([number, number] | null)[];
    try {
      realDeltas = await deltas((argv) => real.call(...argv), prefix);
    } finally {
      real.disconnect();
    }
    const fake = createConnection({ port: version === '7.0' ? 48_790 : 48_791, streams: { redisVersion: version } });
    let fakeDeltas: ([number, number] | null)[];
    try {
      await fake.execute(['SELECT', String(DB)]);
      fakeDeltas = await deltas(async (argv) => toResp2Plain(await fake.execute(argv)), prefix);
    } finally {
      fake.close();
    }
    const differ = COMPARED.flatMap((c, i) =>
      realDeltas[i] === null || JSON.stringify(realDeltas[i]) === JSON.stringify(fakeDeltas[i]) ? [] : [`${text(c)}: real ${realDeltas[i]}, fake ${fakeDeltas[i]}`],
    );
    expect(differ).toEqual([]);
    // most cases ran on the real server (a few commands are newer than it)
    expect(realDeltas.filter((d) => d !== null).length).toBeGreaterThan(COMPARED.length * 0.9);
  }, 60_000);
});
