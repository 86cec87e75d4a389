/**
 * Blocked XREAD/XREADGROUP calls of one keyspace, served as Redis serves them (blocked.c):
 * clients blocked on a key are re-executed in FIFO blocking order when the key is signalled;
 * signals raised while a command (or a whole MULTI/EXEC) runs are handled after it; a client
 * that still has nothing to read keeps waiting with its original deadline. Nothing polls: a
 * waiter wakes on a signal, on its deadline, or at its `wakeAt` (XREADGROUP CLAIM), each
 * scheduled once on the keyspace clock.
 */
import { readNow, scheduleChecked, type Clock, type ClockTimer } from '../clock/clock';
import type { BlockRequest, Reply } from '../commands/types';
import { isBlockRequest } from '../commands/types';
import { NIL_ARRAY } from '../reply/reply';
import { firstPastMs } from '../model/expiry-time';

/** Re-runs a blocked command: returns a reply, a BlockRequest (keep waiting) or throws. */
export type Retry = (request: BlockRequest, signalledKey?: string) => Reply | BlockRequest;

interface Waiter {
  readonly seq: number;
  readonly client: object;
  readonly keys: string[]; // full (prefixed) keys
  request: BlockRequest;
  readonly retry: Retry;
  readonly resolve: (reply: Reply) => void;
  readonly reject: (err: unknown) => void;
  deadlineTimer: ClockTimer | null;
  wakeTimer: ClockTimer | null;
  done: boolean;
}

export class BlockingQueue {
  private readonly byKey = new Map<string, Waiter[]>();
  private readonly ready: string[] = [];
  private readonly readySet = new Set<string>();
  private seq = 0;
  private flushScheduled = false;
  private flushing = false;
  /** While > 0, signals wait (MULTI/EXEC in progress). */
  private holds = 0;

  /**
   * Blocked calls served so far (answered or failed by a re-execution). A front end reads it
   * before and after running a command: when it moved, the command woke blocked clients (in
   * `woken`), whose replies a server writes before the command's own (see `woken`).
   */
  served = 0;
  /**
   * The clients of the calls the latest batch of re-executions served (one signal flush, or one
   * timer wake-up), in serving order. Redis queues a client with a reply to write at the head of
   * its pending-write list (networking.c putClientInPendingWriteQueue, listLinkNodeHead), so a
   * command's own reply goes out after those of the clients it unblocked: with 7.0.15 and 8.x,
   * `BLPOP` on one connection and `LPUSH` on another, the BLPOP caller's reply arrives first.
   */
  readonly woken: object[] = [];

  /** Active-expiry timers of keys that have waiters and a TTL (Redis deletes expired keys in the background). */
  private readonly expiryTimers = new Map<string, ClockTimer>();

  constructor(
    private readonly getClock: () => Clock,
    /** TTL of a full key (absolute ms) or undefined, and a probe that expires it if due. */
    private readonly expiry: { at(key: string): number | undefined; probe(key: string): void } = {
      at: () => undefined,
      probe: () => undefined,
    },
  ) {}

  /**
   * (Re)arm the active-expiry timer of `key` while calls wait on it. A clock that cannot
   * schedule it (library misuse) rejects the calls waiting on the key with its StreamsMockError.
   */
  armExpiry(key: string): void {
    this.expiryTimers.get(key)?.cancel();
    this.expiryTimers.delete(key);
    if (!this.hasWaiters(key)) return;
    const at = this.expiry.at(key);
    if (at === undefined) return;
    const clock = this.getClock();
    try {
      const timer = scheduleChecked(clock, () => {
        this.expiryTimers.delete(key);
        this.expiry.probe(key);
        this.flush();
      }, Math.max(0, firstPastMs(at) - readNow(clock)));
      this.expiryTimers.set(key, timer);
    } catch (err) {
      for (const w of [...(this.byKey.get(key) ?? [])]) this.finish(w, (x) => x.reject(err));
    }
  }

  /** Number of blocked calls. */
  get size(): number {
    const all = new Set<Waiter>();
    for (const ws of this.byKey.values()) for (const w of ws) all.add(w);
    return all.size;
  }

  /** True if a call is blocked on this full key. */
  hasWaiters(key: string): boolean {
    if (this.byKey.size === 0) return false;
    return (this.byKey.get(key)?.length ?? 0) > 0;
  }

  /**
   * Block a call. `fullKeys` are the prefixed keys of `request.keys`. The promise settles with
   * the reply of a later re-execution, with null at the deadline (BLOCK ms; 0 = never), or
   * rejects when the client disconnects.
   */
  block(client: object, fullKeys: string[], request: BlockRequest, retry: Retry): Promise<Reply> {
    return new Promise<Reply>((resolve, reject) => {
      const w: Waiter = {
        seq: ++this.seq,
        client,
        keys: [...new Set(fullKeys)],
        request,
        retry,
        resolve,
        reject,
        deadlineTimer: null,
        wakeTimer: null,
        done: false,
      };
      // The deadline first: a clock that cannot schedule it (library misuse) rejects the call
      // with its StreamsMockError before anything is registered.
      if (request.timeoutMs > 0) {
        try {
          w.deadlineTimer = scheduleChecked(this.getClock(), () => this.finish(w, (x) => x.resolve(request.timeoutReply ?? NIL_ARRAY)), request.timeoutMs);
        } catch (err) {
          w.done = true;
          reject(err);
          return;
        }
      }
      for (const key of w.keys) {
        let list = this.byKey.get(key);
        if (!list) this.byKey.set(key, (list = []));
        list.push(w);
        if (list.length === 1) this.armExpiry(key);
        if (w.done) return; // the clock failed: armExpiry rejected it
      }
      this.armWake(w);
    });
  }

  private armWake(w: Waiter): void {
    w.wakeTimer?.cancel();
    w.wakeTimer = null;
    const at = w.request.wakeAt;
    if (at === null || w.done) return;
    const clock = this.getClock();
    try {
      w.wakeTimer = scheduleChecked(clock, () => {
        w.wakeTimer = null;
        this.woken.length = 0;
        this.rerun(w);
        this.flush();
      }, Math.max(0, at - readNow(clock)));
    } catch (err) {
      this.finish(w, (x) => x.reject(err));
    }
  }

  /**
   * While a flush serves waiters: their settlements, run when it ends, last served first. Redis
   * queues each served client at the head of its pending-write list (networking.c
   * putClientInPendingWriteQueue, listLinkNodeHead) and writes the list from the head, so of three
   * clients one RPUSH of three elements serves in blocking order, the third one's reply goes out
   * first (7.0.15 and 8.x alike), and the RPUSH caller's own reply last (`woken`).
   */
  private settlements: (() => void)[] | null = null;

  private finish(w: Waiter, settle: (w: Waiter) => void): void {
    if (w.done) return;
    w.done = true;
    w.deadlineTimer?.cancel();
    w.wakeTimer?.cancel();
    for (const key of w.keys) {
      const list = this.byKey.get(key);
      if (!list) continue;
      const i = list.indexOf(w);
      if (i >= 0) list.splice(i, 1);
      if (list.length === 0) {
        this.byKey.delete(key);
        this.expiryTimers.get(key)?.cancel();
        this.expiryTimers.delete(key);
      }
    }
    if (this.settlements !== null) this.settlements.push(() => settle(w));
    else settle(w);
  }

  /** Re-execute a waiter; `key` is the signalled full key (undefined for a timer wake-up). */
  private rerun(w: Waiter, key?: string): void {
    if (w.done) return;
    let out: Reply | BlockRequest;
    try {
      out = w.retry(w.request, key);
    } catch (err) {
      this.served++;
      this.woken.push(w.client);
      this.finish(w, (x) => x.reject(err));
      return;
    }
    if (isBlockRequest(out)) {
      const rearm = out.wakeAt !== w.request.wakeAt;
      w.request = out;
      if (rearm) this.armWake(w);
      return;
    }
    this.served++;
    this.woken.push(w.client);
    this.finish(w, (x) => x.resolve(out as Reply));
  }

  /** A key got new data, was deleted, or changed type: its waiters re-run after the current command. */
  signal(key: string): void {
    if (this.byKey.size === 0 || !this.byKey.has(key) || this.readySet.has(key)) return;
    this.readySet.add(key);
    this.ready.push(key);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      // Safety net for changes made outside a command wrapper; a plain promise, never nextTick.
      void Promise.resolve().then(() => {
        this.flushScheduled = false;
        this.flush();
      });
    }
  }

  /** Defer signal handling until `release()` (MULTI/EXEC, scripts). */
  hold(): void {
    this.holds++;
  }

  release(): void {
    this.holds = Math.max(0, this.holds - 1);
    this.flush();
  }

  /** Serve waiters of signalled keys in FIFO order (Redis handleClientsBlockedOnKeys). */
  flush(): void {
    // (after every command: nothing to do, nothing allocated, unless a key was signalled)
    if (this.flushing || this.holds > 0 || this.ready.length === 0) return;
    this.flushing = true;
    this.woken.length = 0;
    const settlements: (() => void)[] = [];
    this.settlements = settlements;
    try {
      while (this.ready.length > 0) {
        const keys = this.ready.splice(0);
        this.readySet.clear();
        for (let k = 0; k < keys.length; k++) {
          const key = keys[k];
          const list = this.byKey.get(key);
          if (list === undefined) continue;
          // a copy: a re-run may finish (remove) waiters; those blocking again keep their place
          const waiters = list.slice();
          for (let i = 0; i < waiters.length; i++) this.rerun(waiters[i], key);
        }
      }
    } finally {
      this.flushing = false;
      this.settlements = null;
      for (let i = settlements.length - 1; i >= 0; i--) settlements[i]();
    }
  }

  /**
   * End the blocked calls of `client` early (CLIENT UNBLOCK): as a timeout (the nil array) when
   * `error` is null, else rejected with `error`.
   */
  settleClient(client: object, error: Error | null): void {
    for (const w of this.allWaiters()) {
      if (w.client === client) this.finish(w, (x) => (error ? x.reject(error) : x.resolve(x.request.timeoutReply ?? NIL_ARRAY)));
    }
  }

  /** Every key with blocked calls (full key → their current requests), for INFO clients. */
  waitingKeys(): Map<string, BlockRequest[]> {
    const out = new Map<string, BlockRequest[]>();
    for (const [key, ws] of this.byKey) if (ws.length) out.set(key, ws.map((w) => w.request));
    return out;
  }

  /** Settle every blocked call of `client` (disconnect/quit) by rejecting with `error`. */
  releaseClient(client: object, error: Error): void {
    for (const w of this.allWaiters()) if (w.client === client) this.finish(w, (x) => x.reject(error));
  }

  /**
   * CLIENT UNBLOCK: answer the blocked calls of `client` now, as a timeout (the nil array) or
   * with `error`. Returns true if a call was blocked.
   */
  unblockClient(client: object, error?: Error): boolean {
    let found = false;
    for (const w of this.allWaiters()) {
      if (w.client !== client) continue;
      found = true;
      this.finish(w, (x) => (error ? x.reject(error) : x.resolve(x.request.timeoutReply ?? NIL_ARRAY)));
    }
    return found;
  }

  /** The client of each blocked call, in blocking order (one entry per call). */
  blockedClients(): object[] {
    return this.allWaiters().map((w) => w.client);
  }

  /** Settle every blocked call (keyspace reset) by rejecting with `error`. */
  releaseAll(error: Error): void {
    for (const w of this.allWaiters()) this.finish(w, (x) => x.reject(error));
    this.ready.length = 0;
    this.readySet.clear();
  }

  private allWaiters(): Waiter[] {
    const all = new Set<Waiter>();
    for (const ws of this.byKey.values()) for (const w of ws) all.add(w);
    return [...all].sort((a, b) => a.seq - b.seq);
  }
}
