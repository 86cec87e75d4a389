/**
 * `ioredis-mock-streams/upstash`: the Upstash REST API (what @upstash/redis talks to) served
 * on a fake keyspace, as a plain fetch-API handler. No msw here; see `ioredis-mock-streams/msw`
 * for msw request handlers built on it.
 *
 * @example
 * import { createUpstashHandler } from 'ioredis-mock-streams/upstash';
 * const upstash = createUpstashHandler({ url: 'https://fake.upstash.io', token: 'test' });
 * globalThis.fetch = upstash; // or hand it to any request interceptor
 */
export { createUpstashHandler } from './handler';
export type { UpstashHandler, UpstashHandlerOptions, FetchLike } from './handler';
