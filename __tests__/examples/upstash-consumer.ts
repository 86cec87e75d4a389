import type { Redis } from '@upstash/redis';

type Fields = Record<string, unknown>;
type Entry = [id: string, fields: unknown[]];

function toFields(flat: unknown[]): Fields {
  const o: Fields = {};
  for (let i = 0; i < flat.length; i += 2) o[String(flat[i])] = flat[i + 1];
  return o;
}

/**
 * A stream consumer for serverless code: each invocation reads what is new (Upstash serves no
 * BLOCK over REST, so it polls), retries entries idle for `minIdleMs` with XAUTOCLAIM, and
 * moves an entry to `<stream>:dead` once it has been delivered `maxDeliveries` times.
 */
export class UpstashStreamConsumer {
  constructor(
    private readonly redis: Redis,
    private readonly opts: {
      stream: string;
      group: string;
      consumer: string;
      handle(fields: Fields, id: string): Promise<void>;
      minIdleMs?: number;
      maxDeliveries?: number;
    },
  ) {}

  async ensureGroup(): Promise<void> {
    const { stream, group } = this.opts;
    try {
      await this.redis.xgroup(stream, { type: 'CREATE', group, id: '0', options: { MKSTREAM: true } });
    } catch (err) {
      if (!/BUSYGROUP/.test((err as Error).message)) throw err;
    }
  }

  /** New entries: handle each, XACK the ones that succeeded. */
  async consumeOnce(): Promise<number> {
    const { stream, group, consumer } = this.opts;
    const reply = (await this.redis.xreadgroup(group, consumer, stream, '>', { count: 10 })) as [string, Entry[]][] | null;
    let handled = 0;
    for (const [, entries] of reply ?? []) {
      for (const [id, flat] of entries) if (await this.tryHandle(id, toFields(flat))) handled++;
    }
    return handled;
  }

  /** Entries idle for minIdleMs: retried, or dead-lettered after maxDeliveries deliveries. */
  async reclaimOnce(): Promise<{ retried: number; deadLettered: number }> {
    const { stream, group, consumer, minIdleMs = 30_000, maxDeliveries = 3 } = this.opts;
    const [, claimed] = (await this.redis.xautoclaim(stream, group, consumer, minIdleMs, '0-0', { count: 10 })) as [string, Entry[], string[]];
    let retried = 0;
    let deadLettered = 0;
    for (const [id, flat] of claimed) {
      const [[, , , deliveries]] = (await this.redis.xpending(stream, group, id, id, 1)) as [string, string, number, number][];
      if (deliveries > maxDeliveries) {
        await this.redis.xadd(`${stream}:dead`, '*', { ...toFields(flat), failedId: id });
        await this.redis.xack(stream, group, id);
        deadLettered++;
      } else if (await this.tryHandle(id, toFields(flat))) {
        retried++;
      }
    }
    return { retried, deadLettered };
  }

  private async tryHandle(id: string, fields: Fields): Promise<boolean> {
    try {
      await this.opts.handle(fields, id);
    } catch {
      return false; // stays pending: reclaimOnce retries it once it is idle long enough
    }
    await this.redis.xack(this.opts.stream, this.opts.group, id);
    return true;
  }
}
