/**
 * quit() sent in the same tick as disconnect() (node-resque's Connection.end() does this): real
 * ioredis (6.0.0; 5.11.1 under IOREDIS_MAJOR=5) finds its socket ended and, with nothing queued,
 * answers the QUIT itself with 'OK' (Redis#sendCommand); a command sent between the two queues and
 * the QUIT queues behind it, both rejecting with 'Connection is closed.'; once the client has
 * ended, quit() rejects. The fake rejected the first too, an unhandled rejection that failed
 * node-resque's test files. Compared with real ioredis on redis-server at REDIS_URL (db 13).
 */
import * as IORedisModule from 'ioredis';
import Redis from 'ioredis-mock-streams';

type AnyClient = Record<string, any>;
const realModule = jest.requireActual('ioredis') as typeof IORedisModule & { default: any };
const RealRedis = realModule.default ?? realModule;
const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) console.warn('REDIS_URL not set: quit() after disconnect() on real ioredis is skipped');

const outcome = (p: Promise<unknown>) =>
  p.then(
    (v) => (Buffer.isBuffer(v) ? `buffer ${v.toString()}` : `ok ${String(v)}`),
    (e: Error) => `rejected ${e.message}`,
  );

async function script(make: () => AnyClient): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  let r = make();
  await r.ping();
  r.disconnect();
  out.quitAfterDisconnect = await outcome(r.quit());
  r = make();
  await r.ping();
  r.disconnect();
  out.quitBufferAfterDisconnect = await outcome(r.quitBuffer());
  r = make();
  await r.ping();
  r.disconnect();
  const get = outcome(r.get('quit-after-disconnect:k'));
  out.quitBehindAGet = await outcome(r.quit());
  out.thatGet = await get;
  r = make();
  await r.ping();
  const ended = new Promise((resolve) => r.once('end', resolve));
  r.disconnect();
  await ended;
  out.quitAfterEnd = await outcome(r.quit());
  return out;
}

const expected = {
  quitAfterDisconnect: 'ok OK',
  quitBufferAfterDisconnect: 'buffer OK',
  quitBehindAGet: 'rejected Connection is closed.',
  thatGet: 'rejected Connection is closed.',
  quitAfterEnd: 'rejected Connection is closed.',
};

describe('quit() right after disconnect()', () => {
  it("answers 'OK' when nothing was sent in between, as ioredis answers it itself; rejects behind a queued command or once ended", async () => {
    let port = 56_400;
    expect(await script(() => new Redis({ port: port++ }) as unknown as AnyClient)).toEqual(expected);
  });

  // skip: no REDIS_URL (a real redis-server): the warning above says so; CI sets it
  (REDIS_URL ? it : it.skip)('the same on real ioredis and redis-server', async () => {
    expect(await script(() => new RealRedis(`${REDIS_URL}/13`) as AnyClient)).toEqual(expected);
  });
});
