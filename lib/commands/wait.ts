/**
 * WAIT numreplicas timeout · WAITAOF numlocal numreplicas timeout (7.2+)
 *
 * The fake is a server without replicas and without AOF (`appendonly no`), so:
 * - WAIT answers 0 (replicas that acknowledged): at once when numreplicas <= 0 or inside
 *   MULTI/EXEC (no blocking), otherwise once `timeout` ms passed on the keyspace clock
 *   (0 = wait for ever), as Redis waits for acknowledgements that never come;
 * - WAITAOF answers `[0, 0]` (local fsyncs, replicas); numlocal 1 is refused with "ERR WAITAOF
 *   cannot be used when numlocal is set but appendonly is disabled."; numreplicas > 0 waits like
 *   WAIT.
 * Errors (replication.c `waitCommand`/`waitaofCommand`, timeout.c with UNIT_MILLISECONDS, checked on
 * redis-server 7.0.15 and the 4f8cdc2a 7.4+ build): "ERR value is not an integer or out of range",
 * "ERR value is out of range, value must between 0 and 1" (numlocal), "ERR value is out of range,
 * must be positive" (WAITAOF numreplicas), "ERR timeout is not an integer or out of range",
 * "ERR timeout is negative", "ERR timeout is out of range".
 * https://redis.io/docs/latest/commands/wait/ · https://redis.io/docs/latest/commands/waitaof/
 */
import { ERR_NOT_INTEGER, fail } from '../errors';
import { predates, supports } from '../version';
import type { BlockRequest, CommandContext, CommandResult, CommandSpec, Reply } from './types';

const LLONG_MAX = 9223372036854775807n;

function long(arg: string, message = ERR_NOT_INTEGER): bigint {
  if (!/^-?\d+$/.test(arg)) fail(message);
  const v = BigInt(arg);
  if (v > LLONG_MAX || v < -LLONG_MAX - 1n) fail(message);
  return v;
}

/**
 * A millisecond timeout as getTimeoutFromObjectOrReply(…, UNIT_MILLISECONDS) reads it. A deadline
 * (now + timeout) past LLONG_MAX is "ERR timeout is out of range" from 7.2; 7.0 has no such check
 * and waits for ever (0 here): `WAIT 0 9223372036854775807` answers 0 and `WAIT 1 …` blocks on
 * redis-server 7.0.15.
 */
function timeoutMs(arg: string, now: number, version: CommandContext['version']): number {
  const t = long(arg, 'ERR timeout is not an integer or out of range');
  if (t < 0n) fail('ERR timeout is negative');
  if (t > 0n && t > LLONG_MAX - BigInt(Math.floor(now))) {
    if (!supports(version, 'blockTimeoutOverflowCheck')) return 0;
    fail('ERR timeout is out of range');
  }
  return Number(t);
}

/** Waits `ms` on the clock (0 = for ever) for acknowledgements that never come, then `reply`. */
function waitFor(ctx: CommandContext, ms: number, reply: Reply): CommandResult {
  if (!ctx.canBlock) return reply;
  const request: BlockRequest = {
    kind: 'block',
    keys: [],
    timeoutMs: ms,
    wakeAt: null,
    timeoutReply: reply,
    retry: () => request,
  };
  return request;
}

function wait(ctx: CommandContext, argv: string[]): CommandResult {
  // noscript up to 7.0; from 7.2 a script runs it without blocking (redis#11568)
  if (ctx.inScript && predates(ctx.version, '7.2')) fail('ERR This Redis command is not allowed from script');
  const numreplicas = long(argv[1]);
  const ms = timeoutMs(argv[2], ctx.now, ctx.version);
  if (numreplicas <= 0n) return 0;
  return waitFor(ctx, ms, 0);
}

function waitaof(ctx: CommandContext, argv: string[]): CommandResult {
  // noscript in 7.2; from 7.4 a script runs it without blocking (redis#12977)
  if (ctx.inScript && predates(ctx.version, '7.4')) fail('ERR This Redis command is not allowed from script');
  const numlocal = long(argv[1]);
  if (numlocal < 0n || numlocal > 1n) fail('ERR value is out of range, value must between 0 and 1');
  const numreplicas = long(argv[2], 'ERR value is out of range, must be positive');
  if (numreplicas < 0n) fail('ERR value is out of range, must be positive');
  const ms = timeoutMs(argv[3], ctx.now, ctx.version);
  if (numlocal === 1n) fail('ERR WAITAOF cannot be used when numlocal is set but appendonly is disabled.');
  if (numreplicas === 0n) return [0, 0];
  return waitFor(ctx, ms, [0, 0]);
}

export const specs: CommandSpec[] = [
  { name: 'wait', arity: 3, write: false, run: wait },
  { name: 'waitaof', arity: 4, write: false, run: waitaof },
];
