/**
 * Fake target: runs a scenario on this library (ioredis-mock plus the streams fake) with a
 * fake clock that starts at the scenario's `clock`.
 *
 * Every run gets its own keyspace by using a port no other run uses; all clients of one
 * run share that host and port, so they see the same data, as clients of one server do.
 * `advance` is `clock.tickAsync(ms)`. After an `async` step the target lets pending promise
 * work run until the keyspace counts one more blocked call (or the command settled).
 * Closing a run empties its keyspace.
 */
import { parseRedisVersion } from '../../version';
import { realSetImmediate } from '../../clock/real-timers';
import Redis, { createFakeClock, streamsKeyspace, type StreamsMockOptions } from '../../index';
import { clientsOf, DEFAULT_CLOCK, type Scenario } from '../format';
import { clientNamed, type PendingCall, type Target, type TargetSession } from './target';

export interface FakeTargetOptions {
  /**
   * Longest real-time wait for one command or await step. A command that is still blocked
   * after the preceding steps ran will never be woken without a further step, so a short
   * wait is enough.
   * @default 1000
   */
  callTimeoutMs?: number;
  /** Host name used for the per-run ioredis-mock keyspaces. @default 'scenario' */
  host?: string;
}

/** Next port to hand out; ioredis-mock keys its shared data by host and port. */
let nextPort = 1;

/** Lets promise chains and queued callbacks run, in real time (no fake clock movement). */
async function drain(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
  await new Promise<void>((resolve) => realSetImmediate(resolve));
}

/** Rounds of `drain` to wait for an async command to block before going on anyway. */
const BLOCK_WAIT_ROUNDS = 50;

export class FakeTarget implements Target {
  readonly kind = 'fake' as const;
  readonly callTimeoutMs: number;
  private readonly host: string;

  constructor(opts: FakeTargetOptions = {}) {
    this.callTimeoutMs = opts.callTimeoutMs ?? 1000;
    this.host = opts.host ?? 'scenario';
  }

  async skipReason(): Promise<string | null> {
    return null;
  }

  async open(scenario: Scenario): Promise<TargetSession> {
    const clock = createFakeClock({ now: scenario.clock ?? DEFAULT_CLOCK });
    const port = nextPort++;
    const clients = new Map<string, InstanceType<typeof Redis>>();
    for (const name of clientsOf(scenario)) {
      // Fixtures hold RESP2 replies: a protocol-2 client (ioredis 6 defaults to RESP3; ioredis 5 ignores it).
      clients.set(name, new Redis({ host: this.host, port, db: 0, protocol: 2, streams: { clock, redisVersion: parseRedisVersion(scenario.redisVersion) } } as StreamsMockOptions));
    }
    // All clients share one keyspace (same host, port and db).
    const keyspace = streamsKeyspace([...clients.values()][0]);
    let blockedBefore = 0;
    const get = (name: string) => clientNamed(clients, name);
    return {
      call: (client, argv) => {
        const [command, ...args] = argv;
        blockedBefore = keyspace.blockedCount;
        // bulk replies as Buffers: bytes that are not UTF-8 text are compared as they are
        return get(client).callBuffer(typeof command === 'string' ? command : command.toString('utf8'), ...args);
      },
      advance: async (ms) => {
        await clock.tickAsync(ms);
      },
      async settleAsync(_client: string, pending: PendingCall): Promise<void> {
        for (let i = 0; i < BLOCK_WAIT_ROUNDS && !pending.settled && keyspace.blockedCount <= blockedBefore; i++) await drain();
      },
      async close(): Promise<void> {
        // reset() releases blocked calls and drops the keys, so nothing of this run stays in memory.
        keyspace.reset();
        for (const c of clients.values()) c.disconnect();
      },
    };
  }

  async dispose(): Promise<void> {
    // Nothing target-wide to release.
  }
}
