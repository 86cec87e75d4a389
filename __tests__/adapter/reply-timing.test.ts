/**
 * setReplyTiming (issue 22): 'macrotask' delivers replies a turn of the event loop after their
 * command, as a socket does; 'microtask' (the default) settles them in the command's own promise
 * chain.
 */
import Redis, { setReplyTiming, StreamsMockError } from 'ioredis-mock-streams';

const redis = new Redis({ port: 22_001 });
afterAll(() => redis.disconnect());
afterEach(() => setReplyTiming('microtask'));

async function orderOf(send: () => Promise<unknown>): Promise<string[]> {
  const order: string[] = [];
  const reply = send().then(() => order.push('reply'));
  setImmediate(() => order.push('next turn of the event loop'));
  await reply;
  await new Promise((resolve) => setImmediate(resolve));
  return order;
}

it('answers in the same turn of the event loop by default (microtask timing)', async () => {
  expect(await orderOf(() => redis.set('k', 'v'))).toEqual(['reply', 'next turn of the event loop']);
});

it('answers a turn of the event loop later with macrotask timing, as through a socket', async () => {
  setReplyTiming('macrotask');
  expect(await orderOf(() => redis.set('k', 'v'))).toEqual(['next turn of the event loop', 'reply']);
  expect(await orderOf(() => redis.call('GET', 'k'))).toEqual(['next turn of the event loop', 'reply']);
  expect(await orderOf(() => redis.pipeline().get('k').exec())).toEqual(['next turn of the event loop', 'reply']);
  expect(await orderOf(() => redis.xadd('s', '*', 'f', 'v'))).toEqual(['next turn of the event loop', 'reply']);
});

it('keeps replies in the order their commands were sent, across clients, with macrotask timing', async () => {
  setReplyTiming('macrotask');
  const other = new Redis({ port: 22_001 });
  await other.ping(); // connected: its commands run when sent, not when it becomes ready
  const order: string[] = [];
  await Promise.all([
    redis.set('a', '1').then(() => order.push('set a')),
    other.get('a').then((v) => order.push(`get a = ${v}`)),
    redis.incr('a').then((v) => order.push(`incr a = ${v}`)),
    redis.get('missing').then(() => order.push('get missing')),
  ]);
  expect(order).toEqual(['set a', 'get a = 1', 'incr a = 2', 'get missing']);
  await expect(redis.incr('k')).rejects.toThrow('ERR value is not an integer or out of range');
  other.disconnect();
});

it('refuses another timing with a StreamsMockError naming the two it takes', () => {
  expect(() => setReplyTiming('socket' as never)).toThrow(StreamsMockError);
  expect(() => setReplyTiming('socket' as never)).toThrow("timing must be 'microtask' or 'macrotask', got socket");
});
