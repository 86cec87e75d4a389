/**
 * One connection's command order. On a real connection, a command sent while an earlier one
 * is blocked (XREAD/XREADGROUP BLOCK, or a pipeline waiting on one) waits behind it. Commands
 * sent while nothing is blocked run at once, synchronously, as ioredis-mock runs them.
 */
export class ClientQueue {
  private blocked = false;
  private readonly pending: (() => void)[] = [];

  /**
   * Run `invoke` in connection order. `invoke` returns the reply, or a Promise when the command
   * may occupy the connection (`occupies`: blocked reads, pipelines). Throws become rejections.
   */
  submit(invoke: () => unknown, occupies: (out: unknown) => boolean): Promise<unknown> {
    if (!this.blocked && this.pending.length === 0) return this.start(invoke, occupies);
    return new Promise((resolve, reject) => {
      this.pending.push(() => this.start(invoke, occupies).then(resolve, reject));
    });
  }

  /** Reject every command still waiting (disconnect). */
  rejectPending(error: Error): void {
    const waiting = this.pending.splice(0);
    this.failed = error;
    try {
      for (const run of waiting) run();
    } finally {
      this.failed = null;
    }
  }

  private failed: Error | null = null;

  private start(invoke: () => unknown, occupies: (out: unknown) => boolean): Promise<unknown> {
    if (this.failed) return Promise.reject(this.failed);
    let out: unknown;
    try {
      out = invoke();
    } catch (err) {
      return Promise.reject(err);
    }
    if (out instanceof Promise && occupies(out)) {
      this.blocked = true;
      const release = () => {
        this.blocked = false;
        this.drain();
      };
      out.then(release, release);
    }
    return Promise.resolve(out);
  }

  private drain(): void {
    while (!this.blocked && this.pending.length > 0) this.pending.shift()!();
  }
}
