/**
 * Reply timing of ioredis clients. By default (`'microtask'`) a reply settles as a plain promise,
 * in the chain of microtasks of the command (README: fake timers can never hold a reply back; a
 * loop of commands is kept from starving the event loop by the spin guard). With `'macrotask'`
 * replies reach callers as they would through a socket: in a later turn of the event loop than
 * the one that sent the command.
 *
 * A real client reads each reply in an I/O callback (a macrotask), so code that sends a command
 * always lets other code run before it resumes: a listener attached right after `await
 * queue.add(…)` is in place before a worker on another connection has fetched the job, and a
 * worker's bookkeeping after emitting an event is done before the test's next command answers.
 * Libraries and tests rely on that (BullMQ's own suite does). Answering in microtasks ran every
 * such chain to its end first.
 *
 * Every reply settled during one turn is delivered in the next, in the order settled (so one
 * connection's replies keep their order), each in an immediate of its own (`later`). The hop uses
 * Node's own `setImmediate` (../clock/real-timers.ts), so faked timers never hold a reply back.
 */
import { StreamsMockError } from '../clock/clock';
import { realSetImmediate } from '../clock/real-timers';

/** How replies reach ioredis callers: in the command's microtasks, or a turn of the event loop later. */
export type ReplyTiming = 'microtask' | 'macrotask';

let defaultTiming: ReplyTiming = 'microtask';
/** `defaultTiming === 'macrotask'`, read as a variable on the per-command path (no call). */
export let macrotaskTiming = false;

/**
 * Sets the reply timing of every ioredis client of the package (not of `serve`, whose clients
 * read a socket anyway, nor of the Upstash handler, whose replies go through fetch).
 * `'macrotask'` gives code that relies on network latency between a command and its reply (a
 * listener attached right after `await queue.add(…)`, BullMQ's own test suite) the ordering it
 * has against a server. Default `'microtask'`.
 * @throws StreamsMockError for any other value
 */
export function setReplyTiming(timing: ReplyTiming): void {
  if (timing !== 'microtask' && timing !== 'macrotask') {
    throw new StreamsMockError(`setReplyTiming(timing): timing must be 'microtask' or 'macrotask', got ${String(timing)}`);
  }
  defaultTiming = timing;
  macrotaskTiming = timing === 'macrotask';
}

/**
 * `fn` in the next turn of the event loop, in an immediate of its own: Node runs the immediates
 * queued in one turn back to back and drains the microtask queue between them, as it does between
 * the I/O callbacks of several sockets. So a woken client's caller runs to its end, however many
 * `await`s deep, before the reply of the command that woke it is handled (one immediate for all
 * of a turn's replies resumed them in step, a microtask at a time: the waking command's caller
 * resumed first as soon as the woken one was wrapped in one async function; found by a helper).
 */
function later(fn: () => void): void {
  realSetImmediate(fn);
}

/**
 * With macrotask timing, a promise that resolves in the turn of the event loop after the next
 * batch of replies (a connection's `close`/`end`/`ready` event comes after the reply that caused
 * it has been handled, as a socket's events follow its data); undefined on microtask timing.
 */
export function afterReplies(): Promise<void> | undefined {
  if (defaultTiming !== 'macrotask') return undefined;
  return new Promise<void>((resolve) => later(() => later(resolve)));
}

/**
 * `p` itself on microtask timing; else `p`'s outcome, delivered in the turn of the
 * event loop after it settles.
 */

export function delivered<T>(p: Promise<T>): Promise<T> {
  if (defaultTiming !== 'macrotask') return p;
  return new Promise<T>((resolve, reject) => {
    p.then(
      (v) => later(() => resolve(v)),
      (e) => later(() => reject(e)),
    );
  });
}
