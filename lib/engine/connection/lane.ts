/**
 * The short path of the ioredis client methods for stream commands (`Connection.runLane`): a
 * front end resolves a command once (`streamLane`) and each call skips the general dispatch
 * when nothing it checks applies, with the same replies, errors and INFO counts.
 */
import { performance } from 'perf_hooks';
import { lookupCommand } from '../../commands/dispatch';
import type { BlockRequest, CommandHandler } from '../../commands/types';
import { isBlockRequest } from '../../commands/types';
import type { Reply } from '../../reply/reply';
import type { CommandStats, ServerStats } from '../../stats/server-stats';
import { StreamsMockError } from '../../clock/clock';
import { commandSince, predates, type RedisVersion } from '../../version';
import { COMMAND_KINDS, COMMAND_KINDS_MAX, TIMED_CALLS, TIMING_SAMPLE } from '../command-timing';
import type { Connection } from '../connection';
import { block } from './dispatch';
import { occupy } from './order';
import { countedLater, recordCommand } from './stats';

/**
 * A stream command as a client method sends it (see `Connection.runLane`): its handler in the
 * version it was last resolved for, and its INFO timing sample. Made once per method.
 */
export interface StreamLane {
  /** Lower-case name, a name of the stream command table (lib/commands/index.ts). */
  readonly name: string;
  /** Redis arity (command name included; negative: at least). */
  readonly arity: number;
  /** The version `handler` was resolved for. */
  version: RedisVersion | undefined;
  /** The handler; null when the general path must run it (a container, absent from `version`). */
  handler: CommandHandler | null;
  /** The name's INFO commandstats entry of the general path (shared: one timing sample per name). */
  stats: { seen: number };
  /** The commandstats record last counted into, of server stats `recordOf` at `recordGeneration`. */
  record: CommandStats | null;
  recordOf: ServerStats | null;
  recordGeneration: number;
}

/**
 * The lane of stream command `name` (lower case).
 * @throws StreamsMockError when `name` is not a stream command
 */
export function streamLane(name: string): StreamLane {
  const spec = lookupCommand(name);
  if (spec === undefined || spec.name !== name) throw new StreamsMockError(`streamLane(${name}): not a stream command name in lower case`);
  return { name, arity: spec.arity, version: undefined, handler: null, stats: { seen: 0 }, record: null, recordOf: null, recordGeneration: 0 };
}

function resolveLane(lane: StreamLane, version: RedisVersion): void {
  const spec = lookupCommand(lane.name)!;
  lane.handler = !predates(version, commandSince(lane.name)) && !spec.subcommands && spec.run ? spec.run : null;
  lane.version = version;
  if (lane.handler !== null) {
    // the entry recordCommand caches for this spelling: one timing sample per name on both paths
    let known = COMMAND_KINDS.get(lane.name);
    if (known === undefined) {
      known = { name: lane.name, kind: 'command', subNamed: false, seen: 0 };
      if (COMMAND_KINDS.size < COMMAND_KINDS_MAX) COMMAND_KINDS.set(lane.name, known);
    }
    lane.stats = known;
  }
}

/**
 * `Connection.runLane` (installed on its prototype: no extra call per command). `runReady(argv)`
 * for a lane; whatever the short path does not cover takes the general path (a closed
 * connection, AUTH pending, MULTI, subscriptions, CLIENT NO-TOUCH, a container command, a wrong
 * arity, a command the emulated version lacks, any server state the general path checks).
 */
export function runLane(this: Connection, lane: StreamLane, argv: string[]): Reply | Promise<Reply> {
  const ks = this.ks;
  const version = ks.redisVersion;
  if (lane.version !== version) resolveLane(lane, version);
  const handler = lane.handler;
  if (
    handler === null ||
    this.isClosed ||
    !this.authenticated ||
    !this.user.unrestricted ||
    this.multiQueue !== null ||
    this.channelSubs !== undefined ||
    this.patternSubs !== undefined ||
    this.shardSubs !== undefined ||
    this.frontEndSubscriber ||
    this.noTouch ||
    !this.server.shortPath ||
    (lane.arity >= 0 ? argv.length !== lane.arity : argv.length < -lane.arity)
  ) {
    return this.runReady(argv);
  }
  const server = this.server;
  if (server.expiryArmed.size !== 0) server.expireDue(); // expireDueFirst
  if (server.pendingDeliveries !== null) server.deliverPending();
  const name = lane.name;
  // sampledWeight(lane.stats) and, below, stats.commandOk written out: V8 compiles functions
  // that small with TurboFan within a test file's first commands (a ms of CPU each)
  const seen = ++lane.stats.seen;
  const weight = seen <= TIMED_CALLS ? 1 : (seen & (TIMING_SAMPLE - 1)) === 0 ? TIMING_SAMPLE : 0;
  const start = weight === 0 ? 0 : performance.now();
  this.lastCommand = name;
  const now = ks.now();
  this.lastInteractionAt = now;
  let result: Reply | BlockRequest;
  try {
    result = handler({ now, version, db: this.streamDb, canBlock: !ks.inTransaction, isRetry: false }, argv);
  } catch (err) {
    recordCommand(this, argv, start, weight, err);
    throw err;
  } finally {
    ks.blocking.flush();
  }
  if (!isBlockRequest(result)) {
    // recordOutcome(name, start, weight, undefined) with the lane's commandstats record
    const stats = this.server.stats;
    if (lane.record === null || lane.recordOf !== stats || lane.recordGeneration !== stats.generation) {
      lane.record = stats.commandRecord(name);
      lane.recordOf = stats;
      lane.recordGeneration = stats.generation;
    }
    const record = lane.record;
    record.calls++;
    if (weight !== 0) record.usec += Math.round((performance.now() - start) * 1000) * weight;
    stats.totalCommandsProcessed++;
    return result;
  }
  const blocked = countedLater(this, argv, start, weight, block(this, ks, result, argv));
  occupy(this, blocked);
  return blocked;
}
