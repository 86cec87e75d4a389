// node:test's own fake timers (mock.timers, which also replaces the functions of Node's `timers`
// module): what the package delivers by itself never waits for them to be advanced — a killed
// connection reconnects after its retryStrategy delay and realClock BLOCK timeouts pass in real
// time; a BLOCK on the default clock follows the mocked time.
import { afterEach, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { MessageChannel } from 'node:worker_threads';
import Redis from 'ioredis';
import { realClock, streamsKeyspace } from 'ioredis-mock-streams';

const realTurn = () =>
  new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.once('message', () => {
      port1.close();
      resolve();
    });
    port2.postMessage(null);
  });
/** `p`'s value, or 'pending' after `ms` of real time. */
async function within(p, ms) {
  let out = 'pending';
  let done = false;
  p.then((v) => ((out = v), (done = true)), (e) => ((out = e), (done = true)));
  const end = performance.now() + ms;
  while (!done && performance.now() < end) await realTurn();
  return out;
}

describe('under mock.timers', () => {
  afterEach(() => mock.timers.reset());

  it('a killed connection reconnects after the retryStrategy delay, in real time', async () => {
    mock.timers.enable({ apis: ['setTimeout', 'setInterval', 'setImmediate', 'Date'] });
    const a = new Redis({ retryStrategy: () => 20 });
    const b = new Redis();
    await b.client('KILL', 'ID', String(await a.client('ID')));
    assert.equal(await within(a.ping(), 2000), 'PONG');
  });

  it('realClock: a BLOCK times out in real time', async () => {
    mock.timers.enable({ apis: ['setTimeout', 'setInterval', 'setImmediate', 'Date'] });
    const r = new Redis({ streams: { clock: realClock } });
    assert.equal(await within(r.blpop('nothing', 0.05), 2000), null);
  });

  it('a BLOCK on the default clock answers when the mocked time passes its deadline', async () => {
    mock.timers.enable({ apis: ['setTimeout', 'setInterval', 'setImmediate', 'Date'] });
    const r = new Redis();
    const read = r.blpop('nothing', 1);
    await within(streamsKeyspace(r).waitForBlocked(), 1000);
    assert.equal(await within(read, 30), 'pending');
    mock.timers.tick(1000);
    assert.equal(await within(read, 1000), null);
  });
});
