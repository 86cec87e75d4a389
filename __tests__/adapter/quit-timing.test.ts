/**
 * A listener attached once `await redis.quit()` has returned hears `end`, as with real ioredis
 * (the socket closes after the QUIT reply was read), in both reply timings (issue 22: BullMQ's
 * worker tests do `await connection.quit(); connection.on('end', resolve)`; with
 * setReplyTiming('macrotask') the events came before the delayed reply and the test hung).
 */
import Redis, { setReplyTiming } from 'ioredis-mock-streams';

afterEach(() => setReplyTiming('microtask'));

it.each(['microtask', 'macrotask'] as const)('emits end after the QUIT reply has been handled (%s timing)', async (timing) => {
  setReplyTiming(timing);
  const redis = new Redis({ port: 22_002 });
  await redis.ping();
  await redis.quit();
  const events: string[] = [];
  redis.on('close', () => events.push('close'));
  const ended = new Promise<void>((resolve) => redis.on('end', () => resolve()));
  await ended;
  // real ioredis emits close too after the reply (the socket's close, a moment after it)
  expect(events).toEqual(['close']);
  expect(redis.status).toBe('end');
});
