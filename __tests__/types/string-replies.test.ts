/**
 * Typed string replies of the stream commands (lib/ioredis-augment.ts), the same on ioredis 5
 * (which types XREADGROUP, XAUTOCLAIM, XCLAIM and XPENDING replies as `unknown`) and ioredis 6:
 * `npm run typecheck` compiles this file against ioredis 6, the CI matrix against ioredis
 * 5.11.1 (tsconfig.ioredis5.json). The runtime half checks the values are those shapes.
 */
import Redis, { type RedisCommander } from 'ioredis';
import { resetAllKeyspaces, type XAutoClaimJustIdReply, type XAutoClaimReply, type XPendingExtendedReply } from 'ioredis-mock-streams';

jest.mock('ioredis', () => require('ioredis-mock-streams'));

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | void {
  return undefined;
}
type Awaited2<P> = P extends Promise<infer T> ? T : never;

/** A client context with ioredis 6's RESP3 'resp3' mapping (ioredis 5 contexts never have it). */
type Resp3Context = { type: 'default'; mapping: 'resp3' };
declare const resp3: RedisCommander<Resp3Context>;

let port = 24_000;
afterEach(() => resetAllKeyspaces());

describe('typed string replies', () => {
  it("through `import Redis from 'ioredis'`: xreadgroup, xautoclaim, xclaim and xpending (forms without literal tokens)", async () => {
    const redis = new Redis({ port: port++ });
    await redis.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM');
    await redis.xadd('s', '1-0', 'f', 'v');
    const read = await redis.xreadgroup('GROUP', 'g', 'c', 'COUNT', 10, 'STREAMS', 's', '>');
    assertType<Equal<typeof read, [key: string, entries: [id: string, fields: string[] | null][]][] | null>>();
    const claimed = await redis.xautoclaim('s', 'g', 'c2', 0, '0-0');
    assertType<Equal<typeof claimed, [nextStart: string, claimed: [id: string, fields: string[]][], deletedIds: string[]]>>();
    const entries = await redis.xclaim('s', 'g', 'c2', 0, '1-0');
    assertType<Equal<typeof entries, [id: string, fields: string[]][]>>();
    const summary = await redis.xpending('s', 'g');
    assertType<Equal<typeof summary, [count: number, smallestId: string | null, largestId: string | null, consumers: [name: string, count: string][] | null]>>();
    expect([read, claimed, entries, summary]).toEqual([
      [['s', [['1-0', ['f', 'v']]]]],
      ['0-0', [['1-0', ['f', 'v']]], []],
      [['1-0', ['f', 'v']]],
      [1, '1-0', '1-0', [['c2', '1']]],
    ]);
    redis.disconnect();
  });

  it('xclaim JUSTID is typed as IDs (its own overload, ahead of the general form)', async () => {
    const redis = new Redis({ port: port++ });
    await redis.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM');
    await redis.xadd('s', '1-0', 'f', 'v');
    await redis.xreadgroup('GROUP', 'g', 'c', 'STREAMS', 's', '>');
    const ids = await redis.xclaim('s', 'g', 'c2', 0, '1-0', 'JUSTID');
    assertType<Equal<typeof ids, string[]>>();
    expect(ids).toEqual(['1-0']);
    redis.disconnect();
  });

  it('exports the reply shapes for the forms ioredis types unknown[] (XAUTOCLAIM with COUNT or JUSTID, XPENDING with IDLE), which match the replies', async () => {
    const redis = new Redis({ port: port++ });
    await redis.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM');
    await redis.xadd('s', '1-0', 'f', 'v');
    await redis.xreadgroup('GROUP', 'g', 'c', 'STREAMS', 's', '>');
    const counted = await redis.xautoclaim('s', 'g', 'c2', 0, '0-0', 'COUNT', 10);
    // what TypeScript picks (ioredis's own overload): the cast is what the exported shapes are for
    assertType<Equal<typeof counted, unknown[]>>();
    const [next, claimed, deleted] = counted as XAutoClaimReply;
    assertType<Equal<typeof claimed, [id: string, fields: string[]][]>>();
    const ids = (await redis.xautoclaim('s', 'g', 'c3', 0, '0-0', 'JUSTID')) as XAutoClaimJustIdReply;
    const idle = (await redis.xpending('s', 'g', 'IDLE', 0, '-', '+', 10)) as XPendingExtendedReply;
    expect([next, claimed, deleted, ids, idle.map(([id, consumer, , count]) => [id, consumer, count])]).toEqual([
      '0-0',
      [['1-0', ['f', 'v']]],
      [],
      ['0-0', ['1-0'], []],
      [['1-0', 'c3', 2]],
    ]);
    redis.disconnect();
  });

  it('types the RESP3 resp3-mapping shapes for an ioredis 6 client context that has them', () => {
    const read = () => resp3.xreadgroup('GROUP', 'g', 'c', 'STREAMS', 's', '>');
    assertType<Equal<Awaited2<ReturnType<typeof read>>, Record<string, [id: string, fields: string[] | null][]> | null>>();
  });
});
