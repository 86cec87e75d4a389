/**
 * MOCKCLOCK GET | TICK milliseconds | SET unix-time-milliseconds | HELP
 *
 * Clock control over the wire, for processes that reach the fake only through the RESP server
 * (redis-cli, a worker in a child process, another language). Not a Redis command: a server
 * started with the clock command disabled answers it like any unknown command.
 * - `GET` → the server time in ms since the epoch (integer);
 * - `TICK ms` → moves the clock forward by ms (>= 0); BLOCK timeouts, XREADGROUP CLAIM wake-ups
 *   and key expiries that the new time reaches fire at once, in deadline order; replies the
 *   new time;
 * - `SET ms` → jumps to that time (forward or back; stream IDs never go back: XADD `*` keeps
 *   increasing from the last ID); timers reached fire at once; replies the new time.
 * Errors: `ERR value is not an integer or out of range`, `ERR value is out of range, must be
 * positive` (negative ms), `ERR unknown subcommand '…'. Try MOCKCLOCK HELP.`,
 * `ERR wrong number of arguments for 'mockclock|tick' command`.
 */
import { ERR_NOT_INTEGER, errUnknownSubcommand, errWrongArity, fail } from '../../errors';
import { type Reply, statusLines } from '../../reply/reply';
import { parseInt64 } from '../args';

/** How a front end moves its clock (the server's `tick`/`setTime`). */
export interface ClockControl {
  now(): number;
  /** Advance by ms (>= 0), firing what becomes due; returns the new time. */
  tick(ms: number): number;
  /** Jump to ms since the epoch, firing what becomes due; returns the new time. */
  setTime(ms: number): number;
}

const HELP = [
  'MOCKCLOCK <subcommand> [<arg> ...]. Subcommands are:',
  'GET',
  '    Return the server time in milliseconds since the Unix epoch.',
  'TICK <milliseconds>',
  '    Move the server clock forward; due BLOCK timeouts and key expiries fire. Returns the new time.',
  'SET <unix-time-milliseconds>',
  '    Set the server clock; due BLOCK timeouts and key expiries fire. Returns the new time.',
  'HELP',
  '    Print this help.',
];

function msArg(s: string): number {
  const v = parseInt64(s);
  if (v === null) fail(ERR_NOT_INTEGER);
  if (v < 0n) fail('ERR value is out of range, must be positive');
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) fail(ERR_NOT_INTEGER);
  return Number(v);
}

/** Run MOCKCLOCK against `control`. */
export function mockclockReply(argv: readonly string[], control: ClockControl): Reply {
  const sub = argv[1].toLowerCase();
  const arity: Record<string, number> = { get: 2, tick: 3, set: 3, help: 2 };
  if (!(sub in arity)) fail(errUnknownSubcommand(argv[1], 'mockclock'));
  if (argv.length !== arity[sub]) fail(errWrongArity(`mockclock|${sub}`));
  switch (sub) {
    case 'get':
      return control.now();
    case 'tick':
      return control.tick(msArg(argv[2]));
    case 'set':
      return control.setTime(msArg(argv[2]));
    default:
      return statusLines(HELP);
  }
}
