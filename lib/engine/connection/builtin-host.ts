/**
 * The bridge to ioredis-mock's emulators a connection runs built-ins on: the byte strings it
 * hands them, the `this` they run with when no ioredis-mock instance is the front end, and
 * ioredis-mock's parsed `notify-keyspace-events` flags.
 */
import { withRealNextTick } from '../../clock/real-timers';
import { commandSpec } from '../../commands/command-data';
import { utf8Of as decodeBytes } from '../../bytes/index';
import type { Connection } from '../connection';

/** A byte string for ioredis-mock's emulators: the UTF-8 text when it is valid, else a Buffer. */
export function builtinArg(s: string): string | Buffer {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(s)) return s;
  const text = decodeBytes(s);
  return Buffer.from(text, 'utf8').toString('latin1') === s ? text : Buffer.from(s, 'latin1');
}

/** Redis's arity of a command ioredis's table knows. */
export function builtinArity(name: string): number | undefined {
  return commandSpec(name)?.arity;
}

/** Event classes of `notify-keyspace-events` (Redis notify.c; `A` = all of g$lshzxetd). */
const EVENT_CLASSES = 'g$lshzxetdmn';
const parsedEvents = new Map<string, { K: Record<string, boolean>; E: Record<string, boolean> }>();
/** ioredis-mock's `keyspaceEvents` shape for a flags string: per K/E, which classes are on. */
export function parsedKeyspaceEvents(flags: string): { K: Record<string, boolean>; E: Record<string, boolean> } {
  let out = parsedEvents.get(flags);
  if (!out) {
    const on: Record<string, boolean> = {};
    for (const c of EVENT_CLASSES) on[c] = flags.includes(c) || (flags.includes('A') && 'g$lshzxetd'.includes(c));
    const off = Object.fromEntries([...EVENT_CLASSES].map((c) => [c, false]));
    out = { K: flags.includes('K') ? on : off, E: flags.includes('E') ? on : off };
    parsedEvents.set(flags, out);
  }
  return out;
}

/**
 * The `this` of ioredis-mock's emulators for a connection without an ioredis-mock instance:
 * key views of the connection's current keyspace, the server's pub/sub channels.
 */
export class EngineBuiltinHost {
  subscriberMode = false;
  connected = true;
  dirty = false;
  readonly watching = new Set<string>();
  readonly customCommands = {};
  readonly shaScripts = {};
  constructor(readonly conn: Connection) {}
  get data(): unknown {
    return this.conn.keyViews().data;
  }
  get expires(): unknown {
    return this.conn.keyViews().expires;
  }
  get channels(): unknown {
    return this.conn.server.channels;
  }
  get patternChannels(): unknown {
    return this.conn.server.patternChannels;
  }
  get options(): object {
    // keys reach the emulators whole (the front end applied any keyPrefix)
    return { keyPrefix: '', notifyKeyspaceEvents: this.conn.notifyKeyspaceEvents };
  }
  /** ioredis-mock's parsed notify-keyspace-events flags (its emulators read them). */
  get keyspaceEvents(): { K: Record<string, boolean>; E: Record<string, boolean> } {
    return parsedKeyspaceEvents(this.conn.notifyKeyspaceEvents);
  }
  publish(channel: string, message: string): unknown {
    // the emitters deliver on process.nextTick: Node's own, whatever fake timers (clock/real-timers.ts)
    return withRealNextTick(() => this.conn.emulators.publish.call(this, channel, message));
  }
  /** ioredis-mock delivers pub/sub messages as events of the instance. */
  emit(event: string, ...args: unknown[]): boolean {
    this.conn.deliverMessage(event, args);
    return true;
  }
  flushall(): unknown {
    return this.conn.emulators.flushall.call(this);
  }
  rpoplpush(...args: unknown[]): unknown {
    return this.conn.emulators.rpoplpush.apply(this, args);
  }
  disconnect(): void {
    this.conn.close();
  }
}
