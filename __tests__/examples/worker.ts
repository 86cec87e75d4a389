/**
 * An example Redis Streams worker, as an application would write it against ioredis:
 * a consumer loop (XREADGROUP … BLOCK + XACK) and a reclaimer (XAUTOCLAIM) that retries
 * entries whose consumer died or failed, and dead-letters an entry once it has been delivered
 * `maxDeliveries` times. Nothing here knows it runs against a fake.
 */
import type Redis from 'ioredis';

export interface WorkerOptions {
  stream: string;
  group: string;
  consumer: string;
  /** Processes one entry's fields; throwing leaves the entry pending for the reclaimer. */
  handle(fields: Record<string, string>, id: string): Promise<void>;
  /** XREADGROUP BLOCK in ms. */
  blockMs?: number;
  /** An entry idle this long (ms) is reclaimed. */
  minIdleMs?: number;
  /** Deliveries after which an entry goes to the dead-letter stream. */
  maxDeliveries?: number;
  deadLetterStream?: string;
}

type Entry = [id: string, fields: string[] | null];

function toObject(fields: string[]): Record<string, string> {
  const o: Record<string, string> = {};
  for (let i = 0; i < fields.length; i += 2) o[fields[i]] = fields[i + 1];
  return o;
}

export class StreamWorker {
  private readonly blockMs: number;
  private readonly minIdleMs: number;
  private readonly maxDeliveries: number;
  private readonly deadLetterStream: string;
  private cursor = '0-0';
  private stopped = false;

  constructor(private readonly redis: Redis, private readonly opts: WorkerOptions) {
    this.blockMs = opts.blockMs ?? 5_000;
    this.minIdleMs = opts.minIdleMs ?? 30_000;
    this.maxDeliveries = opts.maxDeliveries ?? 3;
    this.deadLetterStream = opts.deadLetterStream ?? `${opts.stream}:dead`;
  }

  async ensureGroup(): Promise<void> {
    try {
      await this.redis.xgroup('CREATE', this.opts.stream, this.opts.group, '0', 'MKSTREAM');
    } catch (err) {
      if (!String((err as Error).message).startsWith('BUSYGROUP')) throw err;
    }
  }

  /** One XREADGROUP round: waits up to blockMs for new entries, handles and acks them. */
  async consumeOnce(): Promise<number> {
    const reply = (await this.redis.xreadgroup(
      'GROUP', this.opts.group, this.opts.consumer,
      'COUNT', 10, 'BLOCK', this.blockMs,
      'STREAMS', this.opts.stream, '>',
    )) as [string, Entry[]][] | null;
    if (!reply) return 0;
    let handled = 0;
    for (const [, entries] of reply) {
      for (const [id, fields] of entries) {
        if (fields && (await this.tryHandle(id, fields))) handled++;
      }
    }
    return handled;
  }

  /** One XAUTOCLAIM round: retries idle entries, dead-letters exhausted ones. */
  async reclaimOnce(): Promise<{ retried: number; deadLettered: number }> {
    const [next, claimed] = (await this.redis.xautoclaim(
      this.opts.stream, this.opts.group, this.opts.consumer, this.minIdleMs, this.cursor, 'COUNT', 10,
    )) as [string, Entry[], string[]];
    this.cursor = next;
    let retried = 0;
    let deadLettered = 0;
    for (const [id, fields] of claimed) {
      if (!fields) continue;
      const [[, , , deliveries]] = (await this.redis.xpending(this.opts.stream, this.opts.group, id, id, 1)) as [
        string, string, number, number,
      ][];
      if (deliveries > this.maxDeliveries) {
        await this.redis
          .multi()
          .xadd(this.deadLetterStream, '*', ...fields, 'origin-id', id, 'deliveries', String(deliveries))
          .xack(this.opts.stream, this.opts.group, id)
          .exec();
        deadLettered++;
      } else if (await this.tryHandle(id, fields)) {
        retried++;
      }
    }
    return { retried, deadLettered };
  }

  private async tryHandle(id: string, fields: string[]): Promise<boolean> {
    try {
      await this.opts.handle(toObject(fields), id);
    } catch {
      return false;
    }
    await this.redis.xack(this.opts.stream, this.opts.group, id);
    return true;
  }

  /** Consume until stop(); each round blocks at most blockMs. */
  async run(): Promise<void> {
    while (!this.stopped) await this.consumeOnce();
  }

  stop(): void {
    this.stopped = true;
  }
}
