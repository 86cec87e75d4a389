/**
 * Issue 10 (12): creating clients in a loop that never yields retained every client
 * (ioredis-mock registers a listener per instance on the shared context's WATCH emitter, and
 * built ~500 closures per instance): a 20,000-client churn ran out of memory. Now nothing
 * registers an instance: an unreferenced client that was never disconnected is collected,
 * and a disconnected one is released at once.
 */
import { runInNewContext } from 'vm';
import { setFlagsFromString } from 'v8';
import Redis from 'ioredis-mock-streams';

setFlagsFromString('--expose-gc');
const gc: () => void = runInNewContext('gc');

async function collected(refs: WeakRef<object>[]): Promise<number> {
  // finalizers and WeakRef clearing need a turn of the event loop between collections
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setImmediate(r));
  }
  return refs.filter((ref) => ref.deref() === undefined).length;
}

describe('clients a test drops are garbage', () => {
  it('collects never-disconnected clients created in a loop that never yields', async () => {
    const refs: WeakRef<object>[] = [];
    (() => {
      for (let i = 0; i < 200; i++) {
        const r = new Redis({ port: 47_400, lazyConnect: true });
        refs.push(new WeakRef(r));
      }
    })();
    expect(await collected(refs)).toBe(200);
  });

  it('collects connected clients that ran commands, once dropped', async () => {
    const refs: WeakRef<object>[] = [];
    await (async () => {
      for (let i = 0; i < 50; i++) {
        const r = new Redis({ port: 47_401 });
        await r.xadd('s', '*', 'f', String(i));
        await r.set('k', String(i));
        refs.push(new WeakRef(r));
      }
    })();
    expect(await collected(refs)).toBe(50);
  });

  it('releases a disconnected client even while another client still uses the keyspace', async () => {
    const keep = new Redis({ port: 47_402 });
    const refs: WeakRef<object>[] = [];
    await (async () => {
      const r = new Redis({ port: 47_402 });
      await r.watch('k');
      await r.subscribe('ch');
      r.disconnect();
      refs.push(new WeakRef(r));
    })();
    expect(await collected(refs)).toBe(1);
    expect(await keep.publish('ch', 'x')).toBe(0);
    keep.disconnect();
  });
});
