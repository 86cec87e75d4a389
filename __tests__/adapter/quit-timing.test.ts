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

// ioredis answers a QUIT sent before the connection is ready, with nothing queued, itself
// (Redis#sendCommand: `command.resolve(Buffer.from("OK"))`): text for quit(), the Buffer for
// quitBuffer() (found by ioredis-mock's own quit test; real ioredis 6.1 on both servers)
it('a QUIT sent as the first command answers OK: text for quit(), a Buffer for quitBuffer()', async () => {
  expect(await new Redis({ port: 22_003 }).quit()).toBe('OK');
  // quitBuffer is ioredis-mock's method (ioredis's typings have no Buffer twin of quit)
  const buffer: Buffer = await (new Redis({ port: 22_004 }) as any).quitBuffer();
  expect(Buffer.isBuffer(buffer)).toBe(true);
  expect(buffer.toString()).toBe('OK');
});
