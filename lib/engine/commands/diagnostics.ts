/**
 * LATENCY and SLOWLOG (latency.c, slowlog.c). The latency monitor (lib/stats/latency-monitor.ts)
 * samples the commands that run for `latency-monitor-threshold` ms or longer while it is set
 * (0, Redis's default, turns it off): a fake's commands take microseconds, so only a slow one
 * (`DEBUG SLEEP`, a long script) is sampled; the slow log likewise (`slowlog-log-slower-than`
 * 10000 µs by default).
 *
 * LATENCY LATEST — `[event, time, latest ms, max ms]` per event. LATENCY HISTORY event — its
 * `[time, ms]` samples (`[]` for none). LATENCY RESET [event …] — the events reset. LATENCY GRAPH
 * event — its ASCII graph (verbatim), or "ERR No samples available for event '<event>'". LATENCY
 * DOCTOR — the "monitoring is disabled" report (verbatim string), or with a
 * `latency-monitor-threshold` set (CONFIG SET) the "no latency spike was observed" one (Redis's
 * analysis of recorded spikes is not emulated: the README says so). LATENCY HISTOGRAM — see `histogram`.
 * SLOWLOG GET [count] — the entries (lib/engine/slowlog.ts; default 10, -1 all; "ERR count
 * should be greater than or equal to -1" for a count that is not an integer ≥ -1; more than one
 * argument: subcommand syntax error). SLOWLOG LEN, SLOWLOG RESET — `+OK`. HELP of both: their subcommand lists ("Prints" → "Print" in 7.2).
 * Texts checked on redis-server 7.0.15 and the post-7.4 build.
 */
import { CommandError, errSubcommandSyntax } from '../../errors';
import { MapReply, OK, type Reply, SimpleString, VerbatimReply } from '../../reply/reply';
import { helpFooter } from '../../version';
import type { ConnectionCommandSpec } from '../command-types';
import type { Connection } from '../connection';

function help(conn: Connection, lines: string[]): SimpleString[] {
  const footer = helpFooter(conn.keyspace.redisVersion);
  return [...lines, 'HELP', footer].map((l) => new SimpleString(l));
}

const LATENCY_HELP = [
  'LATENCY <subcommand> [<arg> [value] [opt] ...]. Subcommands are:',
  'DOCTOR',
  '    Return a human readable latency analysis report.',
  'GRAPH <event>',
  '    Return an ASCII latency graph for the <event> class.',
  'HISTORY <event>',
  '    Return time-latency samples for the <event> class.',
  'LATEST',
  '    Return the latest latency samples for all events.',
  'RESET [<event> ...]',
  '    Reset latency data of one or more <event> classes.',
  '    (default: reset all data for all event classes)',
  'HISTOGRAM [COMMAND ...]',
  '    Return a cumulative distribution of latencies in the format of a histogram for the specified command names.',
  '    If no commands are specified then all histograms are replied.',
];

const SLOWLOG_HELP = [
  'SLOWLOG <subcommand> [<arg> [value] [opt] ...]. Subcommands are:',
  'GET [<count>]',
  '    Return top <count> entries from the slowlog (default: 10, -1 mean all).',
  '    Entries are made of:',
  '    id, timestamp, time in microseconds, arguments array, client IP and port,',
  '    client name',
  'LEN',
  '    Return the length of the slowlog.',
  'RESET',
  '    Reset the slowlog.',
];

/**
 * latency.c createLatencyReport with no samples: the "disabled" report while
 * `latency-monitor-threshold` is 0, else the "no spike" one (the advice a host with transparent
 * huge pages in use adds — THPGetAnonHugePagesSize, a fact of the host — is left out).
 */
function doctor(conn: Connection): VerbatimReply {
  return new VerbatimReply(conn.server.config.get('latency-monitor-threshold') === '0' ? DOCTOR_DISABLED : DOCTOR_NO_SPIKES);
}

const DOCTOR_NO_SPIKES =
  'Dave, no latency spike was observed during the lifetime of this Redis instance, not in the slightest bit. I honestly think you ought to sit down calmly, take a stress pill, and think things over.\n';

/** latency.c createLatencyReport with monitoring disabled and no samples. */
const DOCTOR_DISABLED =
  "I'm sorry, Dave, I can't do that. Latency monitoring is disabled in this Redis instance. You may use \"CONFIG SET latency-monitor-threshold <milliseconds>.\" in order to enable it. If we weren't in a deep space mission I'd suggest to take a look at https://redis.io/topics/latency-monitor.\n";

/**
 * LATENCY HISTOGRAM [command …] (latency-tracking, on by default): per command that ran since
 * CONFIG RESETSTAT (its commandstats calls), `calls` and `histogram_usec` — every call in the
 * 1 µs bucket (a fake's commands take microseconds). A container name stands for its
 * subcommands; unknown names are skipped.
 */
function histogram(conn: Connection, argv: string[]): Reply {
  const stats = conn.server.stats.commands;
  const entry = (name: string, calls: number): Reply[] => [name, new MapReply(['calls', calls, 'histogram_usec', new MapReply([1, calls])])];
  const out: Reply[] = [];
  const seen = new Set<string>();
  const add = (name: string) => {
    const s = stats.get(name);
    if (s === undefined || s.calls === 0 || seen.has(name)) return;
    seen.add(name);
    out.push(...entry(name, s.calls));
  };
  if (argv.length === 2) for (const name of stats.keys()) add(name);
  for (const arg of argv.slice(2)) {
    const name = arg.toLowerCase();
    if (stats.has(name)) add(name);
    else for (const full of stats.keys()) if (full.startsWith(`${name}|`)) add(full);
  }
  return new MapReply(out);
}

/** slowlog.c: getRangeLongFromObjectOrReply(c, argv[2], -1, LONG_MAX, …) with its own message. */
function parseSlowlogCount(arg: string): number {
  const err = 'ERR count should be greater than or equal to -1';
  if (!/^-?(0|[1-9][0-9]*)$/.test(arg)) throw new CommandError(err);
  const n = BigInt(arg);
  if (n < -1n || n > 9223372036854775807n) throw new CommandError(err);
  return Number(n);
}

export const specs: readonly ConnectionCommandSpec[] = [
  {
    name: 'latency',
    arity: -2,
    subcommands: {
      latest: { arity: 2, run: (conn) => conn.server.latency.latest() },
      history: { arity: 3, run: (conn, argv) => conn.server.latency.history(argv[2]) },
      reset: {
        arity: -2,
        run: (conn, argv) => {
          if (argv.length === 2) return conn.server.latency.reset();
          let resets = 0;
          for (let i = 2; i < argv.length; i++) resets += conn.server.latency.reset(argv[i]);
          return resets;
        },
      },
      graph: {
        arity: 3,
        run: (conn, argv) => {
          const graph = conn.server.latency.graph(argv[2], Math.floor(conn.keyspace.clock.now() / 1000));
          if (graph === null) throw new CommandError(`ERR No samples available for event '${argv[2]}'`);
          return graph;
        },
      },
      doctor: { arity: 2, run: doctor },
      histogram: { arity: -2, run: histogram },
      help: { arity: 2, run: (conn) => help(conn, LATENCY_HELP) },
    },
  },
  {
    name: 'slowlog',
    arity: -2,
    subcommands: {
      get: {
        arity: -2,
        run: (conn, argv) => {
          if (argv.length > 3) throw new CommandError(errSubcommandSyntax(argv[1], 'slowlog'));
          return conn.server.slowlog.get(argv.length === 3 ? parseSlowlogCount(argv[2]) : 10);
        },
      },
      len: { arity: 2, run: (conn) => conn.server.slowlog.length },
      reset: {
        arity: 2,
        run: (conn) => {
          conn.server.slowlog.reset();
          return OK;
        },
      },
      help: { arity: 2, run: (conn) => help(conn, SLOWLOG_HELP) },
    },
  },
];
