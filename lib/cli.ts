#!/usr/bin/env node
/**
 * ioredis-mock-streams command line.
 *
 *   ioredis-mock-streams replay [paths...] [--url redis://host:port[/db] [--flush] | --upstash]
 *     Replays scenario fixtures (default: fixtures/) on the fake, with --upstash on the fake
 *     through its Upstash REST front end (scenarios that need blocking or connection state are
 *     skipped), or with --url on a real server (only scenarios with source "recorded"). One line per scenario, then
 *     "N passed, M failed[, K skipped]". Exit code 1 if any failed.
 *
 *   ioredis-mock-streams record --url redis://host:port[/db] [--flush] [--redis-version 8.0 --server LABEL] [paths...]
 *     Plays scenarios on a real server and writes its replies into the files. On a
 *     development build (INFO says 255.255.255) --redis-version names the fake mode the
 *     tree matches and --server the build (e.g. "redis 4f8cdc2a (7.4+ unstable)").
 *     Exit code 1 if any file could not be recorded.
 *
 *   ioredis-mock-streams serve [--port P] [--host H] [--redis-version V] [--password PW]
 *                              [--clock adjustable|manual|real] [--time MS] [--no-clock-command]
 *                              [--cluster N]
 *     Runs the fake as a RESP server (RESP2/RESP3) until SIGINT/SIGTERM (started by npm: also
 *     until the npm process that started it ends, see watchProcess). Prints one line,
 *     "ioredis-mock-streams server listening on redis://HOST:PORT (Redis V)", once it accepts
 *     connections (--port 0, the default, picks a free port). The clock moves over the wire
 *     with MOCKCLOCK GET | TICK ms | SET ms (see the README). With --cluster N: N masters of a
 *     Redis Cluster over one keyspace, one port each, printed as "ioredis-mock-streams cluster of
 *     N masters listening on redis://HOST:P1 redis://HOST:P2 … (Redis V)".
 *
 *   With --url the database must be empty (refused otherwise, exit code 2) unless --flush
 *   allows deleting its keys; the keys the scenarios create are deleted afterwards. A scenario
 *   that reaches beyond that database or the server's data (FLUSHALL, SELECT, scripts, CONFIG
 *   SET …; lib/scenarios/targets/reach.ts) is skipped unless --allow-whole-server is given, and
 *   then runs only on an empty server with no other client; a client connecting meanwhile makes
 *   it RACE (exit code 1) and its next whole-server command is not sent. SHUTDOWN, DEBUG,
 *   MIGRATE … are never sent. A database the server does not have is refused (exit code 2).
 *
 *   ioredis-mock-streams format [paths...]
 *     Validates scenario files and rewrites them in the stable fixture layout (for
 *     hand-written scenarios, which the recorder does not touch). Exit code 1 if any is invalid.
 *
 * Exit code 2 for usage or connection problems.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Argument, Command } from 'commander';
import { ScenarioPathError, listScenarioFiles, parseScenario, readScenarioText } from './scenarios/format';
import { formatJson } from './scenarios/json-format';
import type { Json } from './scenarios/matchers';
import { formatResult, formatSummary, replayFiles } from './scenarios/replay';
import { recordFiles } from './scenarios/record';
import { RealTarget } from './scenarios/targets/real';
import { parseRedisVersion } from './version';
import type { Target } from './scenarios/targets/target';

const DEFAULT_PATHS = ['fixtures/'];

/**
 * For a missing `fixtures/` (the README's commands, run in a project that installed the
 * package): where the package's own fixtures are.
 */
function fixturesHint(e: unknown): string {
  if (!(e instanceof ScenarioPathError) || path.basename(path.resolve(e.path)) !== 'fixtures') return '';
  const own = path.resolve(__dirname, '..', 'fixtures');
  if (!fs.existsSync(own) || path.resolve(e.path) === own) return '';
  return ` (the package's own fixtures are in ${path.relative(process.cwd(), own) || own}/)`;
}

const DATA_SAFETY_HELP = `
Data on the server (--url): the database the URL names (default 0) must be empty; a database
with keys is refused (exit code 2) unless --flush allows emptying it with FLUSHDB. The keys the
scenarios create are deleted afterwards. A scenario with a command that
reaches beyond that database or the server's data (FLUSHALL, SWAPDB, SELECT, MOVE, COPY ... DB,
EVAL/FCALL and other scripts, SCRIPT, FUNCTION, CONFIG SET, CLIENT KILL/PAUSE/UNBLOCK, CLIENT
TRACKING ... REDIRECT, PUBLISH, commands the CLI does not know) is skipped with the reason, unless
--allow-whole-server is given: then it runs only when every database is empty, no function is
loaded and no other client is connected; if a client connects while it runs the result is RACE
(exit code 1), never PASS, and its next whole-server command is not sent. CONFIG parameters it
changed are set back however it ends. SHUTDOWN, DEBUG,
MIGRATE, MONITOR, MODULE, ACL changes, replication and persistence commands are never sent.
`;

/** The `[paths...]` argument; its help line shows the real default (`fixtures/`). */
function pathsArgument(): Argument {
  return new Argument('[paths...]', 'scenario files or directories').default([...DEFAULT_PATHS], DEFAULT_PATHS.join(' '));
}

interface ReplayCliOptions {
  url?: string;
  upstash?: boolean;
  flush?: boolean;
  allowWholeServer?: boolean;
}

async function replay(paths: string[], opts: ReplayCliOptions): Promise<number> {
  let target: Target;
  if (opts.url && opts.upstash) throw new Error('give --url or --upstash, not both');
  if (opts.allowWholeServer && !opts.url) throw new Error('--allow-whole-server needs --url');
  if (opts.url) {
    const real = new RealTarget({ url: opts.url, flush: opts.flush, allowWholeServer: opts.allowWholeServer, cleanUpOnSignals: true });
    target = real;
    try {
      await real.prepare();
    } catch (e) {
      await real.dispose();
      throw e;
    }
  } else if (opts.upstash) {
    const { UpstashTarget } = await import('./scenarios/targets/upstash');
    target = new UpstashTarget();
  } else {
    // Loaded on demand so that the real-server commands work without loading the fake.
    const { FakeTarget } = await import('./scenarios/targets/fake');
    // the fake is an ioredis client: without ioredis in the project, one clear error (not one per scenario)
    const { installedIoredisDir } = await import('./adapter/command-table');
    installedIoredisDir();
    target = new FakeTarget();
  }
  try {
    const results = await replayFiles(paths.length > 0 ? paths : DEFAULT_PATHS, target);
    for (const r of results) console.log(formatResult(r));
    console.log(formatSummary(results));
    return results.some((r) => r.status === 'fail' || r.status === 'race') ? 1 : 0;
  } finally {
    await target.dispose();
  }
}

async function record(paths: string[], opts: { url: string; redisVersion?: string; server?: string; flush?: boolean; allowWholeServer?: boolean }): Promise<number> {
  // "8.0.1" → "8.0"; throws on a mode the fake lacks.
  const redisVersion = opts.redisVersion === undefined ? undefined : parseRedisVersion(opts.redisVersion);
  const results = await recordFiles(paths.length > 0 ? paths : DEFAULT_PATHS, opts.url, { redisVersion, server: opts.server, flush: opts.flush, allowWholeServer: opts.allowWholeServer, cleanUpOnSignals: true });
  for (const r of results) {
    const label = r.status.toUpperCase().padEnd(9);
    console.log(`${label} ${r.name}`);
    for (const m of r.messages) console.log(`    ${m}`);
  }
  const count = (s: string) => results.filter((r) => r.status === s).length;
  console.log(`${count('updated')} updated, ${count('unchanged')} unchanged, ${count('failed')} failed, ${count('skipped')} skipped`);
  return count('failed') > 0 ? 1 : 0;
}

function format(paths: string[]): number {
  let bad = 0;
  for (const file of listScenarioFiles(paths.length > 0 ? paths : DEFAULT_PATHS)) {
    try {
      const text = fs.readFileSync(file, 'utf8');
      const raw = JSON.parse(readScenarioText(file)) as Json;
      parseScenario(raw, { file });
      const formatted = formatJson(raw);
      if (formatted !== text) fs.writeFileSync(file, formatted);
      console.log(`${formatted !== text ? 'FORMATTED' : 'OK       '} ${file}`);
    } catch (e) {
      bad++;
      console.log(`INVALID   ${file}: ${(e as Error).message}`);
    }
  }
  return bad > 0 ? 1 : 0;
}

interface ServeCliOptions {
  port: string;
  host: string;
  redisVersion: string;
  password?: string;
  clock: string;
  time?: string;
  clockCommand: boolean;
  cluster?: string;
}

/** The parent and command line of process `pid` (ps), or undefined where ps cannot tell. */
function processInfo(pid: number): { ppid: number; args: string } | undefined {
  try {
    const out = execFileSync('ps', ['-o', 'ppid=,args=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 2000 });
    const m = /^\s*(\d+)\s+(.*?)\s*$/.exec(out);
    return m ? { ppid: Number(m[1]), args: m[2] } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether process `pid` has ended (a zombie not yet reaped by its parent counts as ended). */
function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false;
  }
}

/**
 * Started by npm (`npx ioredis-mock-streams serve`, an npm script): npm runs the CLI through
 * `sh -c`, and on SIGTERM it passes the signal to that shell only, which ends without passing it
 * on, so `npx … serve & … kill $!` left the server listening with no parent. Under npm the server
 * therefore also stops when the npm process that started it has ended. Found (before the server
 * starts listening, so before anyone can kill it on seeing the address) by its command line (`npm exec …`, `npm run …`) among the parent and
 * grandparent; where ps cannot tell (Windows), nothing is watched. Run directly
 * (`node …/cli.js serve`) the server outlives its parent as any daemon may.
 */
function npmProcess(): number | undefined {
  if (process.env.npm_command === undefined && process.env.npm_lifecycle_event === undefined) return undefined;
  let pid = process.ppid;
  let npm: number | undefined;
  for (let level = 0; level < 2 && pid > 1 && npm === undefined; level++) {
    const info = processInfo(pid);
    if (!info) return undefined;
    if (/^npm(\s|$)|npm-cli\.js|npx-cli\.js/.test(info.args)) npm = pid;
    pid = info.ppid;
  }
  return npm;
}

/** Calls `stop` once process `watched` has ended (checked every 200 ms on an unref'd timer). */
function watchProcess(watched: number, stop: () => void): ReturnType<typeof setInterval> {
  const timer = setInterval(() => {
    if (processGone(watched)) stop();
  }, 200);
  timer.unref();
  return timer;
}

/**
 * The parameters redis-server's configuration takes with several arguments (config.c, flag
 * MULTI_ARG_CONFIG, the same on 7.0 and the post-7.4 tree); `slaveof` is replicaof's alias.
 */
const MULTI_ARG_PARAMS = new Set(['save', 'client-output-buffer-limit', 'oom-score-adj-values', 'bind', 'replicaof', 'slaveof', 'latency-tracking-info-percentiles', 'shutdown-on-sigint', 'shutdown-on-sigterm']);

/** `serve`: start the RESP server and wait for SIGINT/SIGTERM. Resolves with the exit code. */
/**
 * redis-server's command-line configuration (`--name value [value …]`, every word up to the next
 * `--name` one value, space-separated: `--save 900 1`) among serve's arguments, as CONFIG
 * parameters; `--bind A [B …]` is the host (its first address, `-` prefix dropped) unless `--host`
 * was given (`hostGiven`).
 * @throws Error for an argument that is not part of a `--name value` pair
 */
export function serverArguments(args: readonly string[], hostGiven: boolean): { config: Record<string, string>; host?: string } {
  const config: Record<string, string> = {};
  let host: string | undefined;
  for (let i = 0; i < args.length; ) {
    const flag = args[i];
    if (!flag.startsWith('--') || flag.length === 2) throw new Error(`unexpected argument ${JSON.stringify(flag)}: serve takes --<config-name> <value> pairs besides its options`);
    const values: string[] = [];
    for (i++; i < args.length && !(args[i].startsWith('--') && args[i].length > 2); i++) values.push(args[i]);
    const name = flag.slice(2).toLowerCase();
    if (name === 'bind') {
      if (values.length === 0) throw new Error('--bind needs an address');
      if (!hostGiven) host = values[0].replace(/^-/, '');
      continue;
    }
    // redis-server: `--save` alone is `save ""` (its main() special case, checked on 7.0.15 and
    // the post-7.4 build); any other parameter named without a value is the wrong number of arguments
    if (values.length === 0 && name === 'save') values.push('');
    if (values.length === 0) throw new Error(`--${name}: Bad directive or wrong number of arguments`);
    // redis-server takes several words only for its multi-argument parameters (`--save 900 1`);
    // `--requirepass a b` is "wrong number of arguments" (config.c MULTI_ARG_CONFIG)
    if (values.length > 1 && !MULTI_ARG_PARAMS.has(name)) throw new Error(`--${name} ${values.join(' ')}: wrong number of arguments`);
    config[name] = values.join(' ');
  }
  return host === undefined ? { config } : { config, host };
}

async function serveCommand(opts: ServeCliOptions, extra: { config: Record<string, string>; host?: string } = { config: {} }): Promise<number> {
  // Loaded on demand: the server code stays off every other path.
  const { serve } = await import('./server/index');
  const { createFakeClock } = await import('./clock/fake-clock');
  const { realClock } = await import('./clock/real-clock');
  const { AdjustableClock } = await import('./clock/adjustable-clock');
  const port = Number(opts.port);
  if (!/^\d+$/.test(opts.port) || port > 65535) throw new Error(`--port must be 0-65535, got ${opts.port}`);
  const time = opts.time === undefined ? undefined : Number(opts.time);
  if (opts.time !== undefined && (!/^\d+$/.test(opts.time) || !Number.isSafeInteger(time))) {
    throw new Error(`--time must be ms since the epoch, got ${opts.time}`);
  }
  let cluster: number | undefined;
  if (opts.cluster !== undefined) {
    cluster = Number(opts.cluster);
    if (!/^\d+$/.test(opts.cluster) || cluster < 1 || cluster > 1000) throw new Error(`--cluster must be a number of masters 1-1000, got ${opts.cluster}`);
  }
  let clock;
  if (opts.clock === 'manual') clock = createFakeClock({ now: time ?? Date.now() });
  else if (opts.clock === 'real') clock = realClock;
  else if (opts.clock === 'adjustable') clock = new AdjustableClock(time);
  else throw new Error(`--clock must be adjustable, manual or real, got ${opts.clock}`);
  const npm = npmProcess();
  const server = await serve({
    port,
    host: extra.host ?? opts.host,
    config: extra.config,
    redisVersion: opts.redisVersion,
    password: opts.password,
    clock,
    clockCommand: opts.clockCommand,
    cluster,
  });
  if (cluster !== undefined) {
    const urls = server.nodes.map((n) => n.url).join(' ');
    console.log(`ioredis-mock-streams cluster of ${cluster} masters listening on ${urls} (Redis ${server.redisVersion})`);
  } else {
    console.log(`ioredis-mock-streams server listening on ${server.url} (Redis ${server.redisVersion})`);
  }
  let parentWatch: ReturnType<typeof setInterval> | undefined;
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    void server.whenClosed.then(stop); // a client's SHUTDOWN
    if (npm !== undefined) parentWatch = watchProcess(npm, stop);
  });
  if (parentWatch !== undefined) clearInterval(parentWatch);
  await server.close();
  return 0;
}

export async function main(argv: readonly string[] = process.argv): Promise<number> {
  let code = 0;
  const program = new Command();
  // Before the subcommands are added, so that they inherit it: errors come back as exceptions.
  program.exitOverride();
  program.name('ioredis-mock-streams').description('Replay and record Redis Streams scenario fixtures; serve the fake over RESP.');
  program
    .command('replay')
    .description('replay scenarios on the fake (or on a real server with --url)')
    .addArgument(pathsArgument())
    .option('--url <url>', 'replay on this real Redis server instead of the fake (recorded scenarios only); its database must be empty')
    .option('--flush', 'with --url: allow deleting every key of the URL\'s database first (FLUSHDB) when it is not empty')
    .option('--allow-whole-server', 'with --url: run scenarios that reach beyond the database (FLUSHALL, SELECT, scripts, CONFIG SET ...) on a server that is empty, with no other client')
    .option('--upstash', 'replay on the fake through its Upstash REST front end (raw REST requests)')
    .addHelpText('after', DATA_SAFETY_HELP)
    .action(async (paths: string[], opts: ReplayCliOptions) => {
      code = await replay(paths, opts);
    });
  program
    .command('record')
    .description('play scenarios on a real server and write its replies into the files')
    .requiredOption('--url <url>', 'real Redis server, e.g. redis://127.0.0.1:6399/15; its database must be empty')
    .option('--flush', 'allow deleting every key of the URL\'s database first (FLUSHDB) when it is not empty')
    .option('--allow-whole-server', 'run scenarios that reach beyond the database (FLUSHALL, SELECT, scripts, CONFIG SET ...) on a server that is empty, with no other client')
    .option('--redis-version <version>', 'fake mode the recording stands for (needed on a 255.255.255 development build), e.g. 8.0')
    .option('--server <label>', 'which server this is, written as "server" (needed on a development build)')
    .addArgument(pathsArgument())
    .addHelpText('after', DATA_SAFETY_HELP)
    .action(async (paths: string[], opts: { url: string; redisVersion?: string; server?: string; flush?: boolean; allowWholeServer?: boolean }) => {
      code = await record(paths, opts);
    });
  program
    .command('serve')
    .description('run the fake as a Redis server (RESP2/RESP3) on a TCP port until SIGINT/SIGTERM')
    .option('--port <port>', 'TCP port (0 = any free port, printed)', '0')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--redis-version <version>', 'Redis version to emulate (7.0 … 8.10)', '8.10')
    .option('--password <password>', 'require AUTH with this password')
    .option('--clock <kind>', 'adjustable (wall time, MOCKCLOCK moves it), manual (moves only by MOCKCLOCK) or real', 'adjustable')
    .option('--time <ms>', 'start time in ms since the epoch (adjustable and manual clocks)')
    .option('--no-clock-command', 'answer MOCKCLOCK as an unknown command')
    .option('--cluster <masters>', 'serve a Redis Cluster of this many masters over one keyspace, one port each (--port P: P, P+1, ...), slots as redis-cli --cluster create assigns them')
    .addHelpText('after', "\nAny other --<name> <value...> sets a CONFIG parameter at start-up, as redis-server's arguments do\n(e.g. --notify-keyspace-events KEA --enable-debug-command yes --save '' --appendonly no; --bind A: --host A).")
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async (opts: ServeCliOptions, cmd: Command) => {
      code = await serveCommand(opts, serverArguments(cmd.args, cmd.getOptionValueSource('host') !== 'default'));
    });
  program
    .command('format')
    .description('validate scenario files and rewrite them in the stable fixture layout')
    .addArgument(pathsArgument())
    .action((paths: string[]) => {
      code = format(paths);
    });
  try {
    await program.parseAsync([...argv]);
  } catch (e) {
    const err = e as { code?: string; exitCode?: number; message?: string };
    if (typeof err.code === 'string' && err.code.startsWith('commander.')) {
      // commander already printed usage or help text.
      return err.exitCode === 0 ? 0 : 2;
    }
    console.error(`ioredis-mock-streams: ${(err.message ?? String(e)).replace(/^\[ioredis-mock-streams\] /, '')}${fixturesHint(e)}`);
    return 2;
  }
  return code;
}

if (require.main === module) {
  main().then((code) => {
    process.exitCode = code;
  });
}
