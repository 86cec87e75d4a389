/**
 * CLIENT PAUSE timeout [WRITE|ALL] / CLIENT UNPAUSE (networking.c pauseClientsByClient,
 * server.c processCommand): while a pause lasts, a command that passed the unknown-command and
 * arity checks waits (the client is blocked: CLIENT LIST flags=b, INFO blocked_clients) — every
 * command with ALL (CLIENT UNPAUSE too: it waits for the timeout, as on Redis), with WRITE only
 * the commands that write or may replicate (write-flagged commands, EVAL/EVALSHA/FCALL unless
 * the script declares `no-writes`, PFCOUNT, PUBLISH, SPUBLISH, and EXEC of a transaction holding
 * one). A new pause keeps the later end and never relaxes ALL to WRITE. The pause ends at its
 * timeout on the keyspace clock of the connection that paused (a fake clock's time, like BLOCK
 * timeouts; its timer keeps a process alive only while a command waits for it) or at CLIENT UNPAUSE; the waiting commands
 * then run in the order they came. While a pause lasts keys are not expired (db.c
 * expireIfNeeded, PAUSE_ACTION_EXPIRE): a key past its TTL reads as missing but stays (DBSIZE
 * counts it, INFO expired_keys unchanged) until the pause ends (lib/keyspace/store.ts expiryPaused).
 */
import { commandSpec } from '../commands/command-data';
import { type Clock, type ClockTimer, readNow, scheduleChecked } from '../clock/clock';
import type { Connection } from './connection';
import { librariesOf } from '../scripting/libraries';
import type { ServerState } from './registry';

/** A server's pause (Redis client_pause_per_purpose[PAUSE_BY_CLIENT_COMMAND]). */
export interface ClientPause {
  all: boolean;
  /** End on the pausing connection's keyspace clock (ms). */
  end: number;
  timer: ClockTimer | null;
  /** The clock `end` is on (the pausing connection's keyspace clock). */
  clock: Clock;
  /** `timer` keeps the process alive (a command waits for the end); else it is unref'd. */
  held: boolean;
  /** Commands waiting for the end, in arrival order. */
  readonly waiting: (() => void)[];
}

const MAY_REPLICATE = new Set(['eval', 'evalsha', 'fcall', 'pfcount', 'publish', 'spublish']);
const WRITE_SUBCOMMANDS: Record<string, Set<string>> = {
  xgroup: new Set(['create', 'setid', 'destroy', 'createconsumer', 'delconsumer']),
  function: new Set(['load', 'delete', 'flush', 'restore']),
};

/** The shebang flags of a script body say `no-writes` (evalGetCommandFlags). */
function scriptWithoutWrites(body: string | undefined): boolean {
  if (body === undefined || !body.startsWith('#!')) return false;
  const line = body.slice(0, body.indexOf('\n') === -1 ? undefined : body.indexOf('\n'));
  const m = /flags=(\S*)/.exec(line);
  return m !== null && m[1].split(',').includes('no-writes');
}

/** server.c is_may_replicate_command for argv (EXEC: the queued commands). */
export function writesOrReplicates(server: ServerState, argv: readonly string[], queued: readonly string[][] | null): boolean {
  const name = String(argv[0]).toLowerCase();
  if (name === 'exec') return queued !== null && queued.some((q) => writesOrReplicates(server, q, null));
  if (name === 'eval') return !scriptWithoutWrites(argv[1]);
  if (name === 'evalsha') return !scriptWithoutWrites(server.scripts.get(String(argv[1] ?? '').toLowerCase()));
  if (name === 'fcall') return !(librariesOf(server).functions.get(String(argv[1] ?? '').toLowerCase())?.flags.includes('no-writes') ?? false);
  if (MAY_REPLICATE.has(name)) return true;
  const subs = WRITE_SUBCOMMANDS[name];
  if (subs) return argv.length > 1 && subs.has(String(argv[1]).toLowerCase());
  const spec = commandSpec(name);
  if (spec === undefined) return !/^(x?info|object|memory|config|client|command|latency|slowlog|cluster|pubsub|script|debug|acl|module)$/.test(name);
  return spec.flags.includes('write');
}

/** CLIENT PAUSE: pause the server's clients for `ms` more (keeping a later end and ALL). */
export function pauseClients(conn: Connection, ms: number, all: boolean): void {
  const server = conn.server;
  const clock = conn.keyspace.clock;
  const now = readNow(clock);
  const prev = server.clientPause;
  // a timeout of 0 ends at time 0: nothing is paused unless an earlier pause still lasts
  if (ms === 0 && prev === null) return;
  const end = Math.max(prev?.end ?? -Infinity, ms === 0 ? 0 : now + ms);
  const pause: ClientPause = prev ?? { all, end, timer: null, clock, held: false, waiting: [] };
  pause.all = all || (prev !== null && prev.all);
  pause.end = end;
  pause.clock = clock;
  server.clientPause = pause;
  for (const ks of server.keyspaces()) ks.store.expiryPaused = true;
  armPauseEnd(server, pause, now);
}

/**
 * (Re)schedules the end of `pause` on its clock. The timer lets the process exit while no command
 * waits for the end (a test that paused and finished), and keeps it alive while one does, as the
 * client's socket keeps it alive on a server (a blocked call's timeout does the same).
 */
function armPauseEnd(server: ServerState, pause: ClientPause, now: number): void {
  pause.timer?.cancel();
  pause.timer = null;
  let timer: ClockTimer;
  try {
    timer = scheduleChecked(pause.clock, () => {
      if (pause.timer === timer) unpauseClients(server);
    }, Math.max(0, pause.end - now));
  } catch {
    unpauseClients(server); // a clock that cannot schedule: no pause that could never end
    return;
  }
  pause.held = pause.waiting.length > 0;
  if (!pause.held) timer.unref?.();
  pause.timer = timer;
}

/**
 * A command that must wait for the pause's end (mustWait): resolves when CLIENT UNPAUSE or the
 * timeout ends it. The first waiter makes the end's timer keep the process alive.
 */
export function untilUnpaused(server: ServerState): Promise<void> {
  const pause = server.clientPause!;
  return new Promise<void>((resolve) => {
    pause.waiting.push(resolve);
    if (!pause.held && server.clientPause === pause) {
      let now: number;
      try {
        now = readNow(pause.clock);
      } catch {
        return; // a clock answering no time: the timer armed before stays (unref'd)
      }
      armPauseEnd(server, pause, now);
    }
  });
}

/** CLIENT UNPAUSE (or the timeout): the waiting commands run, in order. */
export function unpauseClients(server: ServerState): void {
  const pause = server.clientPause;
  if (pause === null) return;
  server.clientPause = null;
  pause.timer?.cancel();
  for (const ks of server.keyspaces()) ks.store.resumeExpiry();
  for (const resume of pause.waiting.splice(0)) resume();
}

/**
 * True when argv must wait for the pause to end. MOCKCLOCK (the fake's clock control, not a Redis
 * command) never waits: a pause ends when the clock reaches its end, and on a clock that moves
 * only when told, MOCKCLOCK TICK is how another process moves it.
 */
export function mustWait(server: ServerState, argv: readonly string[], queued: readonly string[][] | null): boolean {
  const pause = server.clientPause;
  if (pause === null) return false;
  if (server.clockControl !== null && argv[0].toLowerCase() === 'mockclock') return false;
  return pause.all || writesOrReplicates(server, argv, queued);
}
