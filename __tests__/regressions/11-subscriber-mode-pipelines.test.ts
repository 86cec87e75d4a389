/**
 * Found by the new-user trial (ioredis 5, and ioredis 6 with `protocol: 2`): in RESP2 subscriber
 * mode ioredis refuses every command but the subscriber ones, in pipelines and `multi()` too —
 * a pipeline's stream command answers the error in place, a `multi()` rejects as a whole (its
 * MULTI is refused). The fake ran the pipeline's XADD (writing an entry) and the multi's XLEN.
 * Checked with real ioredis 5.11.1 and 6.0.0 against redis-server 7.0.15.
 */
import { type AnyClient, itOnFakeAndServer } from '../helpers/real-server';

const REFUSED = 'Connection in subscriber mode, only subscriber commands may be used';

async function script(r: AnyClient, k: string): Promise<unknown[]> {
  const message = (v: unknown): unknown => (v instanceof Error ? v.message : Array.isArray(v) ? v.map(message) : v);
  await r.del(k);
  await r.subscribe(`${k}:ch`);
  const out: unknown[] = [];
  out.push(message(await r.pipeline().xadd(k, '*', 'f', 'v').xlen(k).get(`${k}:s`).exec()));
  out.push(message(await r.multi().xlen(k).exec().catch((e: unknown) => e)));
  out.push(message(await r.multi().get(`${k}:s`).exec().catch((e: unknown) => e)));
  await r.unsubscribe(`${k}:ch`);
  out.push(await r.xlen(k)); // nothing was written
  return out;
}

describe('RESP2 subscriber mode', () => {
  itOnFakeAndServer(
    'refuses the stream commands of a pipeline in place and a multi() as a whole, as ioredis does',
    'subscriber-mode pipelines',
    { port: 50_919, key: 'subpipes', options: { protocol: 2 } },
    script,
    [[[REFUSED], [REFUSED], [REFUSED]], REFUSED, REFUSED, 0],
  );
});
