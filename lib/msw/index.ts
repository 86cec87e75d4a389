/**
 * `ioredis-mock-streams/msw`: msw request handlers serving the Upstash REST API on a fake
 * keyspace, for `setupServer(...)` (msw 2.x on Node 20, msw 3.x on Node >= 22). msw is an
 * optional peer dependency: only this entry loads it, never the main one.
 *
 * @example
 * import { setupServer } from 'msw/node';
 * import { upstashHandlers } from 'ioredis-mock-streams/msw';
 * const server = setupServer(...upstashHandlers({ url: 'https://fake.upstash.io', token: 't' }));
 */
import { http, type HttpHandler } from 'msw';
import { createUpstashHandler, type UpstashHandler, type UpstashHandlerOptions } from '../upstash/handler';

export type { UpstashHandler, UpstashHandlerOptions } from '../upstash/handler';

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * msw request handlers for the Upstash REST API: every method on the base URL and every path
 * under it goes to `createUpstashHandler` (one command, `/pipeline`, `/multi-exec`, path
 * commands); other URLs are left to your other handlers and `onUnhandledRequest`.
 * @param options the options of `createUpstashHandler` (`url`, `token`, `redis` | `streams`),
 *   or a handler it made (to keep access to its `keyspace`, or to share it)
 * @returns an array of msw handlers: `setupServer(...upstashHandlers(options))`
 * @throws StreamsMockError for invalid options (see `createUpstashHandler`)
 */
export function upstashHandlers(options: UpstashHandlerOptions | UpstashHandler): HttpHandler[] {
  const handler = typeof options === 'function' ? options : createUpstashHandler(options);
  const pattern = new RegExp(`^${escapeRegExp(handler.url)}(?:/.*)?$`);
  return [http.all(pattern, ({ request }) => handler(request))];
}
