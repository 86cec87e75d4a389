/**
 * CONFIG `timeout` (seconds; 0, the default, never): a client idle for longer is closed, as
 * Redis's clientsCronHandleTimeout closes it — `server.unixtime - c->lastinteraction >
 * server.maxidletime`, both in whole seconds — unless it is blocked (its BLOCK timeout applies),
 * subscribed (CLIENT_PUBSUB), a MONITOR or a replica. Redis checks every client in clientsCron
 * (each about once a second, so it closes one 0–1 s after that); the fake at the first whole
 * second past it, on the keyspace's clock: a test that moves the clock sees it at once.
 *
 * One timer per server, at the earliest such second among its idle-eligible connections, armed
 * when `timeout` is set, when a connection is made, when a command runs (`ensureIdleCheck` from
 * the general path: a server with `timeout` set takes no short path) and when a blocked call
 * ends; when it fires it closes the connections past it and arms itself for the next.
 */
import { type ClockTimer, readNow, scheduleChecked } from '../clock/clock';
import type { Connection } from './connection';
import { openConnections } from './connection';
import type { ServerState } from './registry';

/** The server's `timeout` in seconds (0: none). */
function idleSeconds(server: ServerState): number {
  return Number(server.config.get('timeout') ?? '0');
}

/** Whether `c` is one `timeout` closes when idle (not blocked, subscribed, MONITOR or a replica). */
function closesWhenIdle(c: Connection): boolean {
  return !c.closed && !c.blocked && !c.listedAsSubscriber && !c.monitoring && c.replicaFeed === null;
}

/** The keyspace-clock ms at which `c` is past `seconds` of idleness (whole seconds, as Redis counts). */
function closingAt(c: Connection, seconds: number): number {
  return (Math.floor(c.lastInteraction / 1000) + seconds + 1) * 1000;
}

/** Each server's armed check. */
const timers = new WeakMap<ServerState, ClockTimer>();

/** Arm the server's idle check if `timeout` is set and none is armed (cheap when there is one). */
export function ensureIdleCheck(server: ServerState): void {
  if (!server.idleTimeoutOn || timers.has(server)) return;
  arm(server);
}

/** `timeout` changed (CONFIG SET, a reset): the check again from now. */
export function idleTimeoutChanged(server: ServerState): void {
  timers.get(server)?.cancel();
  timers.delete(server);
  ensureIdleCheck(server);
}

function arm(server: ServerState): void {
  const seconds = idleSeconds(server);
  if (!(seconds > 0)) return;
  let next = Infinity;
  for (const c of openConnections()) {
    if (c.server === server && closesWhenIdle(c)) next = Math.min(next, closingAt(c, seconds));
  }
  if (next === Infinity) return; // none to close: the next connection, command or unblocking arms it
  const clock = server.keyspace(0).clock;
  let timer: ClockTimer;
  try {
    timer = scheduleChecked(clock, () => check(server), Math.max(0, next - readNow(clock)));
  } catch {
    return; // a clock that cannot schedule (library misuse, its commands say so): nothing closes
  }
  timer.unref?.(); // a server's timeout never keeps the test process alive
  timers.set(server, timer);
}

function check(server: ServerState): void {
  timers.delete(server);
  const seconds = idleSeconds(server);
  if (!(seconds > 0)) return;
  for (const c of [...openConnections()]) {
    // the connection moving the clock (MOCKCLOCK) is running a command: active (Redis's cron
    // never runs inside a command), its reply written after the move
    if (c.server !== server || c === server.clockMover || !closesWhenIdle(c)) continue;
    if (c.ks.clock.now() >= closingAt(c, seconds)) c.close();
  }
  arm(server);
}
