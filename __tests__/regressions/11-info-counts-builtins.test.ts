/**
 * Found by a new-user trial: INFO commandstats and total_commands_processed of an ioredis fake
 * left out every command ioredis-mock's emulators answer through the methods (SET, GET, HSET …):
 * only the engine's own commands (streams, connection, server) were counted. Now a built-in run
 * through a method, `call()` or a pipeline counts as Redis counts it: a call, a rejected call
 * (wrong arity: refused before running) or a failed call (WRONGTYPE), with its errorstats. The
 * script reads the changes of a few commands other tests do not send, so it can run on a shared
 * server too (REDIS_URL): the same deltas as redis-server. Likewise rdb_changes_since_last_save
 * (server.dirty) grows by what each built-in changed, as redis-server 7.0.15 counts it (checked on
 * an idle server).
 */
import Redis from 'ioredis-mock-streams';
import { type AnyClient, itOnServer } from '../helpers/real-server';


/** `cmdstat_<name>` of `info commandstats` as { calls, rejected_calls, failed_calls }. */
async function statsOf(r: AnyClient, names: string[]): Promise<Record<string, number[]>> {
  const text: string = await r.info('commandstats');
  const out: Record<string, number[]> = {};
  for (const name of names) {
    const m = new RegExp(`^cmdstat_${name.replace('|', '\\|')}:calls=(\\d+),.*rejected_calls=(\\d+),failed_calls=(\\d+)`, 'm').exec(text);
    out[name] = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 0, 0];
  }
  return out;
}

const NAMES = ['strlen', 'getrange', 'hstrlen'];

async function script(r: AnyClient, k: string): Promise<Record<string, number[]>> {
  await r.del(k);
  await r.set(k, 'hello');
  const before = await statsOf(r, NAMES);
  await r.strlen(k);
  await r.call('STRLEN', k);
  await r.pipeline().strlen(k).getrange(k, 0, 1).exec();
  await r.call('strlen').catch(() => undefined); // wrong arity: rejected
  await r.hstrlen(k, 'f').catch(() => undefined); // WRONGTYPE: failed
  const after = await statsOf(r, NAMES);
  await r.del(k);
  return Object.fromEntries(NAMES.map((n) => [n, after[n].map((v, i) => v - before[n][i])]));
}

// a failed call is still a call; a rejected one is not (and is not processed)
const EXPECTED = { strlen: [3, 1, 0], getrange: [1, 0, 0], hstrlen: [1, 0, 1] };

describe('INFO commandstats of an ioredis fake', () => {
  it('counts the built-in commands run through methods, call() and pipelines, with rejected and failed calls', async () => {
    const r = new Redis({ port: 50_911 }) as unknown as AnyClient;
    const processed = async () => Number(/total_commands_processed:(\d+)/.exec(await r.info('stats'))![1]);
    const before = await processed();
    expect(await script(r, 'infobuiltins')).toEqual(EXPECTED);
    // the first INFO, DEL ×2, SET, INFO ×2, STRLEN ×3, GETRANGE, HSTRLEN (the rejected STRLEN
    // is not processed; the last INFO counts after its reply): 11, as redis-server 7.0.15 counts
    expect((await processed()) - before).toBe(11);
    expect(await r.info('errorstats')).toMatch(/^errorstat_WRONGTYPE:count=1$/m);
    r.disconnect();
  });

  itOnServer('as redis-server counts them', 'INFO commandstats of built-ins', {}, async (r) => {
    expect(await script(r, `infobuiltins:${process.pid}`)).toEqual(EXPECTED);
  });
});

/** rdb_changes_since_last_save after each of `steps`, in order. */
async function dirtyDeltas(r: AnyClient, steps: (() => Promise<unknown>)[]): Promise<number[]> {
  const dirty = async () => Number(/rdb_changes_since_last_save:(\d+)/.exec(await r.info('persistence'))![1]);
  const out: number[] = [];
  let before = await dirty();
  for (const step of steps) {
    await step();
    const now = await dirty();
    out.push(now - before);
    before = now;
  }
  return out;
}

/** rdb_changes_since_last_save after each step (keys of this script only). */
async function dirtySteps(r: AnyClient, k: string): Promise<number[]> {
  await r.del(k, `${k}:h`, `${k}:l`);
  const out = await dirtyDeltas(r, [
    () => r.set(k, '1'),
    () => r.incr(k),
    () => r.get(k),
    () => r.hset(`${k}:h`, 'a', '1', 'b', '2'),
    () => r.hincrby(`${k}:h`, 'a', 5),
    () => r.rpush(`${k}:l`, 'x', 'y', 'z'),
    () => r.lpop(`${k}:l`),
    () => r.incr(`${k}:h`).catch(() => undefined), // WRONGTYPE: nothing changed
    () => r.del(k, `${k}:h`, `${k}:l`),
    () => r.pipeline().set(k, 'v').get(k).exec(),
  ]);
  await r.del(k);
  return out;
}

const DIRTY = [1, 1, 0, 2, 1, 3, 1, 0, 3, 1];

describe('INFO rdb_changes_since_last_save of an ioredis fake', () => {
  it('grows by what each built-in run through methods and pipelines changed', async () => {
    const r = new Redis({ port: 50_914 }) as unknown as AnyClient;
    expect(await dirtySteps(r, 'dirty')).toEqual(DIRTY);
    r.disconnect();
  });
  // not run on REDIS_URL: the counter is the whole server's, and other test files write to it
  // in parallel; DIRTY is what redis-server 7.0.15 gave for these steps on an idle server
});

/** rdb_changes_since_last_save after each ZADD / ZINCRBY step (Redis counts members added or changed). */
async function zsetDirtySteps(r: AnyClient, k: string): Promise<number[]> {
  await r.del(k);
  const out = await dirtyDeltas(r, [
    () => r.zadd(k, 1, 'a'),
    () => r.zadd(k, 1, 'a'), // unchanged
    () => r.zadd(k, 1, 'b', 2, 'c', 3, 'd'),
    () => r.zadd(k, 1, 'b', 2, 'c', 3, 'd'),
    () => r.zadd(k, 'NX', 9, 'b'),
    () => r.zadd(k, 'XX', 9, 'b', 5, 'new'),
    () => r.zadd(k, 'INCR', 0, 'b'),
    () => r.zadd(k, 'INCR', 1, 'b'),
    () => r.zincrby(k, 0, 'b'),
    () => r.zincrby(k, 2, 'zz'),
    () => r.zadd(k, 1, 'q', 2, 'q', 2, 'q'), // added, then changed, then the same
    () => r.zadd(k, 'CH', 7, 'a', 7, 'b'),
    () => r.eval("redis.call('zadd', KEYS[1], 100, 'a'); return redis.call('zincrby', KEYS[1], 0, 'a')", 1, k),
    () => r.pipeline().zadd(k, 5, 'p').zadd(k, 5, 'p').exec(),
    () => r.zadd(k, 'NX', 'INCR', 1, 'a'),
  ]);
  await r.del(k);
  return out;
}

describe('INFO rdb_changes_since_last_save for ZADD and ZINCRBY', () => {
  it('grows by the members added or changed, as redis-server 7.0.15 counts them', async () => {
    const r = new Redis({ port: 50_915 }) as unknown as AnyClient;
    // from redis-server 7.0.15 on an idle server (the counter is the whole server's: not run on REDIS_URL)
    expect(await zsetDirtySteps(r, 'zdirty')).toEqual([1, 0, 3, 0, 0, 1, 0, 1, 0, 1, 2, 2, 1, 1, 0]);
    r.disconnect();
  });
});
