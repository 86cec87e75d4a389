#!/usr/bin/env node
/**
 * ioredis-mock-streams command line.
 *
 *   ioredis-mock-streams replay [paths...] [--url redis://host:port | --upstash]
 *     Replays scenario fixtures (default: fixtures/) on the fake, with --upstash on the fake
 *     through its Upstash REST front end (scenarios that need blocking or connection state are
 *     skipped), or with --url on a real server (only scenarios with source "recorded"). One line per scenario, then
 *     "N passed, M failed[, K skipped]". Exit code 1 if any failed.
 *
 *   ioredis-mock-streams record --url redis://host:port [--redis-version 8.0 --server LABEL] [paths...]
 *     Plays scenarios on a real server and writes its replies into the files. On a
 *     development build (INFO says 255.255.255) --redis-version names the fake mode the
 *     tree matches and --server the build (e.g. "redis 4f8cdc2a (7.4+ unstable)").
 *     Exit code 1 if any file could not be recorded.
 *
 *   ioredis-mock-streams format [paths...]
 *     Validates scenario files and rewrites them in the stable fixture layout (for
 *     hand-written scenarios, which the recorder does not touch). Exit code 1 if any is invalid.
 *
 * Exit code 2 for usage or connection problems.
 */
import * as fs from 'node:fs';
import { Argument, Command } from 'commander';
import { listScenarioFiles, parseScenario } from './scenarios/format';
import { formatJson } from './scenarios/json-format';
import type { Json } from './scenarios/matchers';
import { formatResult, formatSummary, replayFiles } from './scenarios/replay';
import { recordFiles } from './scenarios/record';
import { RealTarget } from './scenarios/targets/real';
import { parseRedisVersion } from './version';
import type { Target } from './scenarios/targets/target';

const DEFAULT_PATHS = ['fixtures/'];

/** The `[paths...]` argument; its help line shows the real default (`fixtures/`). */
function pathsArgument(): Argument {
  return new Argument('[paths...]', 'scenario files or directories').default([...DEFAULT_PATHS], DEFAULT_PATHS.join(' '));
}

async function replay(paths: string[], opts: { url?: string; upstash?: boolean }): Promise<number> {
  let target: Target;
  if (opts.url && opts.upstash) throw new Error('give --url or --upstash, not both');
  if (opts.url) {
    target = new RealTarget({ url: opts.url });
  } else if (opts.upstash) {
    const { UpstashTarget } = await import('./scenarios/targets/upstash');
    target = new UpstashTarget();
  } else {
    // Loaded on demand so that the real-server commands work without loading the fake.
    const { FakeTarget } = await import('./scenarios/targets/fake');
    target = new FakeTarget();
  }
  try {
    const results = await replayFiles(paths.length > 0 ? paths : DEFAULT_PATHS, target);
    for (const r of results) console.log(formatResult(r));
    console.log(formatSummary(results));
    return results.some((r) => r.status === 'fail') ? 1 : 0;
  } finally {
    await target.dispose();
  }
}

async function record(paths: string[], opts: { url: string; redisVersion?: string; server?: string }): Promise<number> {
  // "8.0.1" → "8.0"; throws on a mode the fake lacks.
  const redisVersion = opts.redisVersion === undefined ? undefined : parseRedisVersion(opts.redisVersion);
  const results = await recordFiles(paths.length > 0 ? paths : DEFAULT_PATHS, opts.url, { redisVersion, server: opts.server });
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
      const raw = JSON.parse(text) as Json;
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

export async function main(argv: readonly string[] = process.argv): Promise<number> {
  let code = 0;
  const program = new Command();
  // Before the subcommands are added, so that they inherit it: errors come back as exceptions.
  program.exitOverride();
  program.name('ioredis-mock-streams').description('Replay and record Redis Streams scenario fixtures.');
  program
    .command('replay')
    .description('replay scenarios on the fake (or on a real server with --url)')
    .addArgument(pathsArgument())
    .option('--url <url>', 'replay on this real Redis server instead of the fake (recorded scenarios only)')
    .option('--upstash', 'replay on the fake through its Upstash REST front end (raw REST requests)')
    .action(async (paths: string[], opts: { url?: string; upstash?: boolean }) => {
      code = await replay(paths, opts);
    });
  program
    .command('record')
    .description('play scenarios on a real server and write its replies into the files')
    .requiredOption('--url <url>', 'real Redis server, e.g. redis://127.0.0.1:6399')
    .option('--redis-version <version>', 'fake mode the recording stands for (needed on a 255.255.255 development build), e.g. 8.0')
    .option('--server <label>', 'which server this is, written as "server" (needed on a development build)')
    .addArgument(pathsArgument())
    .action(async (paths: string[], opts: { url: string; redisVersion?: string; server?: string }) => {
      code = await record(paths, opts);
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
    console.error(`ioredis-mock-streams: ${err.message ?? String(e)}`);
    return 2;
  }
  return code;
}

if (require.main === module) {
  main().then((code) => {
    process.exitCode = code;
  });
}
