/**
 * With `setReplyTiming('macrotask')`, a command that wakes a blocked client answers after the
 * woken client's caller has run to its end, however many `await`s deep it waits — as against a
 * server, where each socket's reply is read in an I/O callback of its own and Node drains the
 * microtask queue between them. The replies of one turn used to be resolved in one immediate, in
 * step, a microtask at a time: `await lpush()` resumed before a `brpop()` wrapped in one async
 * function (found by a helper; real 7.0.15 and 8.x: the woken caller first at every depth).
 */
import Redis, { setReplyTiming } from '../../lib/index';

const PORT = 26_200;

describe('macrotask timing: a woken caller resumes before the waking command', () => {
  beforeAll(() => setReplyTiming('macrotask'));
  afterAll(() => setReplyTiming('microtask'));

  it.each([0, 1, 2, 5, 10])('BRPOP woken by LPUSH, the caller %i async functions deep', async (depth) => {
    const a = new Redis({ port: PORT });
    const b = new Redis({ port: PORT });
    await b.ping();
    const order: string[] = [];
    let pop: () => Promise<unknown> = () => b.brpop('l', 1);
    for (let i = 0; i < depth; i++) {
      const inner = pop;
      pop = async () => await inner();
    }
    const woken = pop().then(() => order.push('brpop'));
    await new Promise((resolve) => setImmediate(resolve));
    await a.lpush('l', 'x');
    order.push('lpush');
    await woken;
    expect(order).toEqual(['brpop', 'lpush']);
    a.disconnect();
    b.disconnect();
  });

  it('XREADGROUP … BLOCK woken by XADD, the caller three async functions deep', async () => {
    const a = new Redis({ port: PORT + 1 });
    const b = new Redis({ port: PORT + 1 });
    await a.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM');
    const order: string[] = [];
    const read = async () => await (async () => await (async () => await b.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 0, 'STREAMS', 's', '>'))())();
    const woken = read().then(() => order.push('xreadgroup'));
    await new Promise((resolve) => setImmediate(resolve));
    await a.xadd('s', '*', 'f', 'v');
    order.push('xadd');
    await woken;
    expect(order).toEqual(['xreadgroup', 'xadd']);
    a.disconnect();
    b.disconnect();
  });
});
