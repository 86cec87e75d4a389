/**
 * The keyspace-events differential fuzzer: the core fuzzer's seeded random commands
 * (./generator.ts) on the fake's RESP server (lib/server, in-process) and on a real redis-server,
 * with `notify-keyspace-events` set (a flag set per seed, FLAG_SETS) and a second connection on
 * each side subscribed to `PSUBSCRIBE __key*@<db>__:*` (RESP3: events arrive as pushes). After
 * every command the events that arrived are collected (a real server publishes them
 * synchronously, before the command's reply; a PING round-trip on the subscriber then has them
 * all in) and compared as a sequence of (pattern, channel, payload), exactly. The replies are
 * compared too, normalised as ./fuzz.ts does (the states must not part).
 *
 * What Redis leaves to chance and how it is normalised:
 * - `expired` events (the keyspace `expired` payload and the `__keyevent@<db>__:expired` channel):
 *   a key whose time has passed (`SET k v EXAT 1` keeps one until looked up) is deleted either by
 *   the first command that looks it up (lazy expiry: deterministic) or by the real server's active
 *   expire cycle, on wall time, whenever it samples it. Each `expired` event is therefore taken out
 *   of the per-command comparison and counted; at the end of a seed both sides look every key up
 *   (SCAN: expireIfNeeded on each key) and the multisets of `expired` events are compared. Every
 *   key that expires produces exactly one such event on either path (the command that would have
 *   met it lazily meets no key after the active cycle: same events otherwise).
 * - The generator's TTLs are long (≥ 100 s) or already passed, so nothing else expires by wall time.
 * - Lex ranges over a skiplist of mixed scores are skipped as in fuzz.ts (their probe, OBJECT
 *   ENCODING, is mirrored on the fake: it lazily expires the key on both sides alike).
 */
import { serve, type RedisServer } from '../../../lib/server/index';
import { callWhileBusy, configChanged, knownDifference, lexRangeUndefined, normalise, showArgv, withBusyRetries } from './fuzz';
import { type Family, Generator, Rng, isLexRange } from './generator';
import { RespClient, type Wire, showWire } from './resp';

/** The database the events fuzzer uses on each side (FLUSHDB before every seed). */
export const EVENTS_DB = process.env.EVENTS_FUZZ_DB ?? '10';

/**
 * The `notify-keyspace-events` values tried, one per seed (seed modulo their count). Both 7.0.15
 * and the post-7.4 build accept exactly `Ag$lshzxeKEtmdn` (notify.c keyspaceEventsStringToFlags;
 * `o`, `c` … are refused by both). `n` (new) and `m` (keymiss) are not part of `A`.
 */
export const FLAG_SETS = ['KEA', 'Kg$', 'Exe', 'KEAnm', 'KEAm', 'Kl$', 'Eshz', 'KEgxn', 'AK', 'Ezm', 'KEA$lshzxetgd', 'Kn'];

export interface EventsDivergence {
  seed: number;
  step: number;
  flags: string;
  argv: string[];
  /** What differed: the reply, the events after the command, or the expired events of the seed. */
  what: 'reply' | 'events' | 'expired' | 'config';
  fake: string;
  real: string;
  history: string[][];
}

export interface EventsFuzzResult {
  commands: number;
  /** Events compared (expired ones included). */
  events: number;
  skipped: number;
  knownEnded: number;
  divergences: EventsDivergence[];
}

export interface EventsFuzzOptions {
  url: string;
  redisVersion: string;
  families: readonly Family[];
  seeds: readonly number[];
  steps: number;
  resp3?: boolean;
  /** One flag set for every seed instead of FLAG_SETS. */
  flags?: string;
}

interface Side {
  cmd: RespClient;
  sub: RespClient;
  pushes: Wire[];
}

/** A pmessage push as `pattern channel payload`; other pushes (the psubscribe confirmation) as undefined. */
function eventText(w: Wire): string | undefined {
  if (w.t !== '>' || w.v.length !== 4 || w.v[0].t !== '$' || w.v[0].v !== 'pmessage') return undefined;
  return w.v.slice(1).map(showWire).join(' ');
}

const isExpired = (e: string) => / "__keyevent@\d+__:expired" | "expired"$/.test(e);

/** The events that reached `side`'s subscriber so far (a PING round-trip first). */
async function drain(side: Side): Promise<string[]> {
  await side.sub.call(['PING']);
  const out = side.pushes.splice(0).map(eventText).filter((e): e is string => e !== undefined);
  return out;
}

async function openSide(port: number, host: string): Promise<Side> {
  const cmd = await RespClient.connect(port, host);
  const sub = await RespClient.connect(port, host);
  const side: Side = { cmd, sub, pushes: [] };
  sub.onPush = (w) => side.pushes.push(w);
  await cmd.call(['SELECT', EVENTS_DB]);
  await sub.call(['HELLO', '3']);
  sub.send(['PSUBSCRIBE', `__key*@${EVENTS_DB}__:*`]);
  await drain(side);
  return side;
}

const configValue = async (c: RespClient) => {
  const w = await callWhileBusy(c, ['CONFIG', 'GET', 'notify-keyspace-events']);
  const l = w.t === '*' || w.t === '%' ? (w.v ?? []) : [];
  return l.length === 2 && l[1].t === '$' ? (l[1].v ?? '') : '';
};

const sortedText = (items: string[]) => `[${[...items].sort().join(', ')}]`;

async function runSeed(fake: Side, real: Side, options: EventsFuzzOptions, seed: number, result: EventsFuzzResult, retried: boolean): Promise<EventsDivergence | undefined | 'busy'> {
  const resp = options.resp3 && seed % 2 === 1 ? '3' : '2';
  const flags = options.flags ?? FLAG_SETS[seed % FLAG_SETS.length];
  const history: string[][] = [];
  const diverge = (step: number, argv: string[], what: EventsDivergence['what'], f: string, r: string): EventsDivergence => ({ seed, step, flags, argv, what, fake: f, real: r, history: [...history] });
  for (const s of [fake, real]) {
    await callWhileBusy(s.cmd, ['HELLO', resp]);
    await callWhileBusy(s.cmd, ['FLUSHDB']);
  }
  // the config reply and the flags as shown are compared first
  const set = await Promise.all([fake.cmd.call(['CONFIG', 'SET', 'notify-keyspace-events', flags]), callWhileBusy(real.cmd, ['CONFIG', 'SET', 'notify-keyspace-events', flags])]);
  const shown = await Promise.all([configValue(fake.cmd), configValue(real.cmd)]);
  if (showWire(set[0]) !== showWire(set[1]) || shown[0] !== shown[1]) return diverge(0, ['CONFIG', 'SET', 'notify-keyspace-events', flags], 'config', `${showWire(set[0])} ${shown[0]}`, `${showWire(set[1])} ${shown[1]}`);
  await Promise.all([drain(fake), drain(real)]);

  const gen = new Generator(new Rng(seed), options.families);
  const expired: [string[], string[]] = [[], []];
  let step = 0;
  let busy = false;
  // a divergence, or 'busy' when another client of the shared server may have caused it
  const settle = async (d: EventsDivergence): Promise<EventsDivergence | 'busy'> => {
    await Promise.all([fake.cmd.call(['DISCARD']), callWhileBusy(real.cmd, ['DISCARD'])]);
    if (!retried && (busy || (await configValue(real.cmd)) !== shown[1] || (await configChanged(fake.cmd, real.cmd)))) return 'busy';
    return d;
  };
  while (step < options.steps) {
    const block = gen.next();
    if (block.length === 1 && isLexRange(block[0])) {
      const key = block[0][0].toUpperCase() === 'ZRANGESTORE' ? block[0][2] : block[0][1];
      if (key !== undefined) await fake.cmd.call(['OBJECT', 'ENCODING', key]);
      if (await lexRangeUndefined(real.cmd, block[0])) {
        step++;
        result.skipped++;
        continue;
      }
    }
    if (block.length === 1 && block[0][0].toUpperCase() === 'DBSIZE') {
      await Promise.all([fake.cmd.call(['SCAN', '0', 'COUNT', '1000']), callWhileBusy(real.cmd, ['SCAN', '0', 'COUNT', '1000'])]);
    }
    const queued: string[][] = [];
    for (const argv of block) {
      step++;
      history.push(argv);
      const [f, r] = await Promise.all([fake.cmd.call(argv), real.cmd.call(argv)]);
      result.commands++;
      busy ||= r.t === '-' && /^(BUSY |EXECABORT .*: BUSY )/.test(r.v);
      const upper = argv[0].toUpperCase();
      let fn: Wire;
      let rn: Wire;
      if (upper === 'EXEC' && f.t === '*' && r.t === '*' && f.v && r.v && f.v.length === queued.length && r.v.length === queued.length) {
        fn = { t: '*', v: f.v.map((x, i) => normalise(queued[i], x)) };
        rn = { t: '*', v: r.v.map((x, i) => normalise(queued[i], x)) };
      } else {
        fn = normalise(argv, f);
        rn = normalise(argv, r);
      }
      if (upper !== 'MULTI' && upper !== 'EXEC') queued.push(argv);
      if (showWire(fn) !== showWire(rn)) {
        if (knownDifference(options.redisVersion, f, r)) {
          result.knownEnded++;
          return undefined;
        }
        return settle(diverge(step, argv, 'reply', showWire(f), showWire(r)));
      }
      const [fe, re] = await Promise.all([drain(fake), drain(real)]);
      result.events += re.length;
      expired[0].push(...fe.filter(isExpired));
      expired[1].push(...re.filter(isExpired));
      const fk = fe.filter((e) => !isExpired(e));
      const rk = re.filter((e) => !isExpired(e));
      if (fk.join('\n') !== rk.join('\n')) return settle(diverge(step, argv, 'events', `[${fk.join(', ')}]`, `[${rk.join(', ')}]`));
    }
  }
  // every key whose time has passed is looked up (and expired) on both sides
  await Promise.all([fake.cmd.call(['SCAN', '0', 'COUNT', '1000']), callWhileBusy(real.cmd, ['SCAN', '0', 'COUNT', '1000'])]);
  const [fe, re] = await Promise.all([drain(fake), drain(real)]);
  result.events += re.length;
  expired[0].push(...fe.filter(isExpired));
  expired[1].push(...re.filter(isExpired));
  const rest = [fe.filter((e) => !isExpired(e)), re.filter((e) => !isExpired(e))];
  if (sortedText(expired[0]) !== sortedText(expired[1]) || rest[0].join() !== rest[1].join()) {
    return settle(diverge(step, ['SCAN', '0', 'COUNT', '1000'], 'expired', `${sortedText(expired[0])} ${rest[0].join(', ')}`, `${sortedText(expired[1])} ${rest[1].join(', ')}`));
  }
  return undefined;
}

/**
 * Every seed, each stopping at its first divergence. The real server's `notify-keyspace-events`
 * is read first and restored at the end (other test files share the server).
 */
export async function eventsFuzz(options: EventsFuzzOptions): Promise<EventsFuzzResult> {
  const server: RedisServer = await serve({ port: 0, redisVersion: options.redisVersion, clockCommand: false });
  const u = new URL(options.url);
  const fake = await openSide(server.port, '127.0.0.1');
  const real = await openSide(Number(u.port || 6379), u.hostname);
  const previous = await configValue(real.cmd);
  const result: EventsFuzzResult = { commands: 0, events: 0, skipped: 0, knownEnded: 0, divergences: [] };
  try {
    for (const seed of options.seeds) {
      const outcome = await withBusyRetries((retried) => runSeed(fake, real, options, seed, result, retried));
      if (outcome !== undefined) result.divergences.push(outcome);
    }
  } finally {
    await callWhileBusy(real.cmd, ['CONFIG', 'SET', 'notify-keyspace-events', previous]).catch(() => undefined);
    await callWhileBusy(real.cmd, ['FLUSHDB']).catch(() => undefined);
    for (const s of [fake, real]) {
      s.cmd.close();
      s.sub.close();
    }
    await server.close();
  }
  return result;
}

/** A divergence report: what differed, both sides, and the seed's history before it. */
export function describeEvents(d: EventsDivergence, historyLines = 15): string {
  const before = d.history.slice(-historyLines - 1, -1).map((a) => `    ${showArgv(a)}`);
  return [`seed ${d.seed} step ${d.step} (flags ${d.flags}) ${d.what}: ${showArgv(d.argv)}`, `  fake: ${d.fake}`, `  real: ${d.real}`, '  after:', ...before].join('\n');
}
