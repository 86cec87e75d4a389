/**
 * Issue 10, item 6: argument arrays of any size go through every call path. Real ioredis sends
 * `xack(key, group, ids)` with 140 000 IDs (and XADD with 70 000 field pairs) and Redis answers;
 * the fake used to throw a synchronous `RangeError: Maximum call stack size exceeded` from
 * spreading the array into a function call or `push`.
 */
import Redis from 'ioredis-mock-streams';

let port = 50_600;
// ioredis's typings list IDs one by one; at run time it flattens array arguments (as here).
const client = () => new Redis({ port: ++port }) as any;

const N = 140_000;
const ids = Array.from({ length: N }, (_, i) => `${i + 1}-0`);
const fieldPairs: string[] = [];
for (let i = 0; i < 70_000; i++) fieldPairs.push(`f${i}`, 'v');

async function withPending(r: any, count: number): Promise<void> {
  await r.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM');
  await Promise.all(ids.slice(0, count).map((id) => r.xadd('s', id, 'f', 'v')));
  await r.xreadgroup('GROUP', 'g', 'c', 'COUNT', count, 'STREAMS', 's', '>');
}

describe('argument arrays above the JS call-argument limit', () => {
  it('XACK with 140 000 IDs as one array acknowledges them on every call path', async () => {
    const r = client();
    await withPending(r, 10);
    expect(await r.xack('s', 'g', ids)).toBe(10);
    expect(await (r as any).xackBuffer('s', 'g', ids)).toBe(0);
    expect(await r.call('XACK', 's', 'g', ids)).toBe(0);
    expect(await r.pipeline().xack('s', 'g', ids).exec()).toEqual([[null, 0]]);
    expect(await (r.pipeline() as any).call('XACK', 's', 'g', ids).exec()).toEqual([[null, 0]]);
    expect(await r.multi().xack('s', 'g', ids).exec()).toEqual([[null, 0]]);
    r.disconnect();
  });

  it('XADD with 70 000 field/value pairs stores them all', async () => {
    const r = client();
    expect(await r.xadd('s', '1-0', fieldPairs)).toBe('1-0');
    expect(await r.call('XADD', 's', '2-0', fieldPairs)).toBe('2-0');
    expect(await r.pipeline().xadd('s', '3-0', fieldPairs).exec()).toEqual([[null, '3-0']]);
    const [[, fields]] = (await r.xrange('s', '1-0', '1-0')) as [string, string[]][];
    expect(fields.length).toBe(140_000);
    expect(fields.slice(-2)).toEqual(['f69999', 'v']);
    r.disconnect();
  });

  it('Lua scripts receive 140 000 ARGV', async () => {
    const r = client();
    expect(await r.eval('return #ARGV', 0, ids)).toBe(N);
    r.disconnect();
  });

  it.each([
    ['sadd', (r: any) => r.sadd('set', ids), N],
    ['del', (r: any) => r.del(ids), 0],
    ['exists', (r: any) => r.exists(ids), 0],
    ['rpush', (r: any) => r.rpush('list', ids), N],
    ['mget', (r: any) => r.mget(ids).then((v: unknown[]) => v.length), N],
    ['hset', (r: any) => r.hset('h', ...fieldPairs.slice(0, 2)).then(() => r.hmget('h', ids)).then((v: unknown[]) => v.length), N],
    ['srem in a pipeline', (r: any) => r.pipeline().srem('set', ids).exec(), [[null, 0]]],
    ['sunion (an engine command: 140 000 missing keys are empty sets, as on redis-server)', (r: any) => r.sunion(ids), []],
  ])('the built-in %s takes a 140 000-element array', async (_name, run, expected) => {
    const r = client();
    expect(await run(r)).toEqual(expected);
    r.disconnect();
  });

  it('MSETNX (an engine command now, no longer sliced for an emulator) takes a 140 000-element array as redis-server does', async () => {
    const r = client();
    expect(await r.msetnx(fieldPairs)).toBe(1);
    expect(await r.get(fieldPairs[0])).toBe(fieldPairs[1]);
    r.disconnect();
  });
});
