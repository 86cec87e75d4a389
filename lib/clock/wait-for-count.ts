/**
 * The wait behind both `waitForBlocked`s (`streamsKeyspace(redis)` and `serve()`'s server):
 * resolves once `current()` reaches `count`, checked now and every ms of real time (Node's own
 * timers: fake ones a test installs would never fire it), and rejects with a StreamsMockError
 * saying how many there are once `timeoutMs` of real time passed (`Infinity`: never).
 */
import { StreamsMockError } from './clock';
import { wallNow } from './real-clock';
import { realClearTimeout, realSetTimeout } from './real-timers';

export interface CountWait {
  readonly promise: Promise<void>;
  /** Stop waiting: the promise rejects with `error` (a no-op once it settled). */
  cancel(error: Error): void;
}

/**
 * @param describe the count as the error says it, e.g. `n => \`${n} calls are blocked\``
 */
export function waitForCount(count: number, current: () => number, timeoutMs: number, label: string, describe: (n: number) => string): CountWait {
  let cancel: (error: Error) => void = () => undefined;
  const promise = new Promise<void>((resolve, reject) => {
    const started = wallNow(); // (the platform's clock: a test's fake Date does not move it)
    let timer: ReturnType<typeof realSetTimeout> | undefined;
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      if (timer !== undefined) realClearTimeout(timer);
      if (error === undefined) resolve();
      else reject(error);
    };
    cancel = settle;
    const poll = () => {
      if (current() >= count) return settle();
      if (wallNow() - started >= timeoutMs) return settle(new StreamsMockError(`${label}: ${describe(current())} after ${timeoutMs} ms`));
      timer = realSetTimeout(poll, 1);
    };
    poll();
  });
  return { promise, cancel: (error) => cancel(error) };
}
