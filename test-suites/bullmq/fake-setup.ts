// In-process target only (BULLMQ_TARGET=fake), loaded after the package's vitest entry and before
// BullMQ's own vitest.setup.ts.
//
// 1. The keyspace BullMQ's tests use keeps wall time, as a server does. Several of BullMQ's tests
//    fake the client's Date and setTimeout with sinon and expect the server's TTLs (job locks set
//    with PX) and BLOCK timeouts to keep real time; the package's default clock follows the
//    faked Date. Set before each test (the vitest entry puts keyspaces back on the default clock
//    after each one).
// 2. Replies come a turn of the event loop after their command, as through a socket: BullMQ's
//    tests, like code written against a server, attach listeners right after `await queue.add()`.
import { beforeEach } from 'vitest';
import Redis, { realClock, setReplyTiming, streamsKeyspace } from 'ioredis-mock-streams';

const keyspaceOfTheSuite = new Redis({ host: process.env.REDIS_HOST || 'localhost', port: Number(process.env.REDIS_PORT) || 6379 });
beforeEach(() => streamsKeyspace(keyspaceOfTheSuite).setClock(realClock));

setReplyTiming('macrotask');
