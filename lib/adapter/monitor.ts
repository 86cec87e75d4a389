/**
 * ioredis's `redis.monitor()` on the fake: a duplicate client (its own engine connection to
 * the same server) runs MONITOR (lib/engine/connection/monitor.ts) and emits ioredis's
 * `'monitor'` event — `(time, args, source, database)`, parsed from each line exactly as
 * ioredis's DataHandler parses it — for every command any client of the server runs
 * (ioredis clients, RESP connections, scripts as source `lua`). Resolves (or calls back) with
 * that client once monitoring (status `monitoring`), after its `'monitoring'` event; it refuses
 * every command but MONITOR and AUTH as ioredis does; `disconnect()` it to stop.
 */
import { SimpleString } from '../reply/reply';
import type { EmulatorTable } from '../engine/emulators';
import { connectionOf } from './install';
import { runEngineCommand } from './methods';
import { setStatus } from './lifecycle';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Instance = any;

/** Start a monitoring duplicate of `redis`. */
export function startMonitor(redis: Instance, emulators: EmulatorTable): Promise<Instance> {
  const monitor: Instance = redis.duplicate();
  connectionOf(monitor).onPush((msg) => {
    if (msg instanceof SimpleString) emitMonitorLine(monitor, msg.value);
  });
  // status `monitoring` once MONITOR answered (ioredis readyHandler); its commands but
  // MONITOR/AUTH are refused from then on (methods.ts subscriberModeRefusal)
  return runEngineCommand(monitor, emulators, 'monitor', [], false)
    .then(() => setStatus(monitor, 'monitoring'))
    .then(() => monitor);
}

/** ioredis DataHandler.handleMonitorReply: the line's time, arguments, source and database. */
function emitMonitorLine(monitor: Instance, line: string): void {
  const text = Buffer.from(line, 'latin1').toString();
  const len = text.indexOf(' ');
  const timestamp = text.slice(0, len);
  const argIndex = text.indexOf('"');
  const args = text
    .slice(argIndex + 1, -1)
    .split('" "')
    .map((elem) => elem.replace(/\\"/g, '"'));
  const dbAndSource = text.slice(len + 2, argIndex - 2).split(' ');
  monitor.emit('monitor', timestamp, args, dbAndSource[1], dbAndSource[0]);
}
