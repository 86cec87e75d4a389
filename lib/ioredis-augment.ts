/**
 * Type-only additions to ioredis's own typings, for code that writes `import Redis from
 * 'ioredis'` and gets this fake through `jest.mock('ioredis', () => require('ioredis-mock-streams'))`:
 *
 * - `new Redis({ streams: { clock, redisVersion } })`: the `streams` option on
 *   `CommonRedisOptions`, the interface behind ioredis's `RedisOptions` (a type alias of an
 *   intersection, which cannot be augmented itself).
 * - the `…Buffer` twins of stream commands that ioredis types only in their string form
 *   (`xreadgroupBuffer`, `xautoclaimBuffer`, `xclaimBuffer`, `xpendingBuffer`, `xinfoBuffer`,
 *   `xackBuffer`, `xdelBuffer`, `xlenBuffer`, `xtrimBuffer`, `xgroupBuffer`, `xsetidBuffer`,
 *   `xdelexBuffer`). ioredis already types `xaddBuffer`, `xrangeBuffer`, `xrevrangeBuffer` and
 *   `xreadBuffer`. Arguments follow the string versions; replies are what the fake (and
 *   ioredis against a real server) gives: bulk and status replies as Buffers, integers as
 *   numbers, nil as null. They are added to `RedisCommander`, so clients, `pipeline()` and
 *   `multi()` all have them.
 *
 * `lib/index.ts` refers to this file with a type-only export, so anything importing
 * 'ioredis-mock-streams' sees these declarations, and nothing of it exists at run time.
 * XACKDEL, XNACK and options ioredis does not type (XREADGROUP CLAIM, MAXCOUNT) are not added
 * here: reach them through `redis.call(…)` / `redis.callBuffer(…)`.
 */
import type { Callback, ClientContext, RedisKey, RedisValue, Result } from 'ioredis';
import type { KeyspaceOptions } from './keyspace/keyspace';

/** `args` followed by a node-style callback. */
type WithCallback<A extends unknown[], R> = [...A, callback: Callback<R>];

type Id = string | Buffer | number;

/** A stream entry as Buffers: `[id, [field, value, …]]`. */
type EntryBuffer = [id: Buffer, fields: Buffer[]];

/** XREADGROUP options in the order ioredis types them: `[COUNT n] [BLOCK ms] [NOACK]`. */
type XReadGroupOptions =
  | []
  | [countToken: 'COUNT', count: number | string]
  | [millisecondsToken: 'BLOCK', milliseconds: number | string]
  | [noack: 'NOACK']
  | [countToken: 'COUNT', count: number | string, millisecondsToken: 'BLOCK', milliseconds: number | string]
  | [countToken: 'COUNT', count: number | string, noack: 'NOACK']
  | [millisecondsToken: 'BLOCK', milliseconds: number | string, noack: 'NOACK']
  | [countToken: 'COUNT', count: number | string, millisecondsToken: 'BLOCK', milliseconds: number | string, noack: 'NOACK'];

type XReadGroupArgs = [
  groupConsumerToken: 'GROUP',
  group: string | Buffer,
  consumer: string | Buffer,
  ...options: XReadGroupOptions,
  streamsToken: 'STREAMS',
  ...args: RedisValue[],
];

/**
 * XREADGROUP reply: per stream `[key, entries]`, or null when nothing was read (e.g. a BLOCK
 * timeout). In a history read (an ID instead of `>`) a pending entry that was deleted from the
 * stream has `null` fields.
 */
type XReadGroupReplyBuffer = [key: Buffer, entries: [id: Buffer, fields: Buffer[] | null][]][] | null;

type XAutoClaimArgs =
  | [key: RedisKey, group: string | Buffer, consumer: string | Buffer, minIdleTime: Id, start: Id]
  | [key: RedisKey, group: string | Buffer, consumer: string | Buffer, minIdleTime: Id, start: Id, countToken: 'COUNT', count: number | string];
type XAutoClaimJustIdArgs =
  | [key: RedisKey, group: string | Buffer, consumer: string | Buffer, minIdleTime: Id, start: Id, justid: 'JUSTID']
  | [key: RedisKey, group: string | Buffer, consumer: string | Buffer, minIdleTime: Id, start: Id, countToken: 'COUNT', count: number | string, justid: 'JUSTID'];
/** XAUTOCLAIM reply: next start cursor, claimed entries (IDs with JUSTID), IDs of deleted entries removed from the PEL. */
export type XAutoClaimReplyBuffer = [nextStart: Buffer, claimed: EntryBuffer[], deletedIds: Buffer[]];
export type XAutoClaimJustIdReplyBuffer = [nextStart: Buffer, claimedIds: Buffer[], deletedIds: Buffer[]];

type XClaimHead = [key: RedisKey, group: string | Buffer, consumer: string | Buffer, minIdleTime: Id];
/** XCLAIM with JUSTID last, or followed by `LASTID id` (the order ioredis types the options in). */
type XClaimJustIdArgs =
  | [...XClaimHead, ...idsAndOptions: Id[], justid: 'JUSTID']
  | [...XClaimHead, ...idsAndOptions: Id[], justid: 'JUSTID', lastidToken: 'LASTID', lastid: Id];
/** XCLAIM: IDs, then any of `IDLE ms`, `TIME ms`, `RETRYCOUNT n`, `FORCE`, `LASTID id`. */
type XClaimArgs = [...XClaimHead, ...idsAndOptions: Id[]];

type XPendingSummaryArgs = [key: RedisKey, group: string | Buffer];
type XPendingExtendedArgs =
  | [key: RedisKey, group: string | Buffer, start: Id, end: Id, count: number | string]
  | [key: RedisKey, group: string | Buffer, start: Id, end: Id, count: number | string, consumer: string | Buffer]
  | [key: RedisKey, group: string | Buffer, minIdleTimeToken: 'IDLE', minIdleTime: number | string, start: Id, end: Id, count: number | string]
  | [key: RedisKey, group: string | Buffer, minIdleTimeToken: 'IDLE', minIdleTime: number | string, start: Id, end: Id, count: number | string, consumer: string | Buffer];
/** XPENDING summary: count, smallest and largest pending ID, `[consumer, count]` pairs (counts are bulk strings). */
export type XPendingSummaryReplyBuffer = [
  count: number,
  smallestId: Buffer | null,
  largestId: Buffer | null,
  consumers: [name: Buffer, count: Buffer][] | null,
];
/** XPENDING extended form: `[id, consumer, idle ms, delivery count]` per entry. */
export type XPendingExtendedReplyBuffer = [id: Buffer, consumer: Buffer, idle: number, deliveryCount: number][];

/** XINFO GROUPS / CONSUMERS: one flat `[name, value, name, value, …]` array per group or consumer. */
type XInfoListReplyBuffer = (Buffer | number | null)[][];

type XTrimArgs = [key: RedisKey, strategy: 'MAXLEN' | 'MINID', ...thresholdAndOptions: RedisValue[]];
type XSetIdArgs = [key: RedisKey, lastId: Id, ...options: RedisValue[]];
type XDelExArgs = [key: RedisKey, ...policyAndIds: RedisValue[]];
type XGroupSetArgs = [key: RedisKey, groupname: string | Buffer, id: Id, ...options: RedisValue[]];

/**
 * Typed string replies (ioredis 5 types XREADGROUP, XAUTOCLAIM, XCLAIM, XPENDING and XINFO
 * replies as `unknown`; ioredis 6 types XREADGROUP only). `Shape` picks the RESP3 form for an
 * ioredis 6 client with `replyMapping: 'resp3'` (its context has `mapping: 'resp3'`; ioredis 5
 * contexts never do), the RESP2 / legacy form otherwise — the way ioredis 6 types XREADGROUP.
 * Only forms ioredis declares without a string-literal parameter are typed: TypeScript tries
 * overloads with literal parameters first, in declaration order, ioredis's before any augmentation
 * (XINFO subcommands, XAUTOCLAIM with `COUNT` or `JUSTID`, XPENDING with `IDLE` stay as ioredis
 * types them; the shapes are exported below for a cast).
 */
type Shape<Legacy, Resp3Mapped, Context> = Context extends { mapping: 'resp3' } ? Resp3Mapped : Legacy;
type Entry = [id: string, fields: string[]];
type XReadGroupReply<Context> = Shape<
  [key: string, entries: [id: string, fields: string[] | null][]][] | null,
  Record<string, [id: string, fields: string[] | null][]> | null,
  Context
>;
export type XAutoClaimReply = [nextStart: string, claimed: Entry[], deletedIds: string[]];
export type XAutoClaimJustIdReply = [nextStart: string, claimedIds: string[], deletedIds: string[]];
export type XPendingSummaryReply = [count: number, smallestId: string | null, largestId: string | null, consumers: [name: string, count: string][] | null];
export type XPendingExtendedReply = [id: string, consumer: string, idle: number, deliveryCount: number][];

/**
 * The reply shapes (these, XAutoClaimReply … above and their Buffer twins) are exported by the package for the forms TypeScript leaves as ioredis types them
 * (`unknown[]`): XAUTOCLAIM with `COUNT` or `JUSTID` and XPENDING with `IDLE` (ioredis declares
 * those with string-literal parameters, and TypeScript tries such overloads first), e.g.
 * `const [next, claimed] = (await redis.xautoclaim(key, group, consumer, 30_000, '0-0', 'COUNT', 10)) as XAutoClaimReply`.
 * Strings as ioredis's string methods decode them; the `…Buffer` ones for the `…Buffer` methods.
 */
export type StreamEntry = Entry;
export type StreamEntryBuffer = EntryBuffer;

declare module 'ioredis' {
  interface CommonRedisOptions {
    /**
     * ioredis-mock-streams: clock and emulated Redis version of this client's keyspace (shared
     * by every client of the same host:port/db). Ignored by real ioredis.
     */
    streams?: KeyspaceOptions;
  }

  interface RedisCommander<Context extends ClientContext = { type: 'default' }> {
    xreadgroup(...args: WithCallback<XReadGroupArgs, XReadGroupReply<Context>>): Result<XReadGroupReply<Context>, Context>;
    xreadgroup(...args: XReadGroupArgs): Result<XReadGroupReply<Context>, Context>;

    xautoclaim(...args: WithCallback<XAutoClaimJustIdArgs, XAutoClaimJustIdReply>): Result<XAutoClaimJustIdReply, Context>;
    xautoclaim(...args: XAutoClaimJustIdArgs): Result<XAutoClaimJustIdReply, Context>;
    xautoclaim(...args: WithCallback<XAutoClaimArgs, XAutoClaimReply>): Result<XAutoClaimReply, Context>;
    xautoclaim(...args: XAutoClaimArgs): Result<XAutoClaimReply, Context>;

    // JUSTID first: the general form below would match it too
    xclaim(...args: WithCallback<XClaimJustIdArgs, string[]>): Result<string[], Context>;
    xclaim(...args: XClaimJustIdArgs): Result<string[], Context>;
    xclaim(...args: WithCallback<XClaimArgs, Entry[]>): Result<Entry[], Context>;
    xclaim(...args: XClaimArgs): Result<Entry[], Context>;

    xpending(...args: WithCallback<XPendingSummaryArgs, XPendingSummaryReply>): Result<XPendingSummaryReply, Context>;
    xpending(...args: XPendingSummaryArgs): Result<XPendingSummaryReply, Context>;
    xpending(...args: WithCallback<XPendingExtendedArgs, XPendingExtendedReply>): Result<XPendingExtendedReply, Context>;
    xpending(...args: XPendingExtendedArgs): Result<XPendingExtendedReply, Context>;

    xackBuffer(...args: WithCallback<[key: RedisKey, group: string | Buffer, ...ids: Id[]], number>): Result<number, Context>;
    xackBuffer(...args: [key: RedisKey, group: string | Buffer, ...ids: Id[]]): Result<number, Context>;

    xautoclaimBuffer(...args: WithCallback<XAutoClaimJustIdArgs, XAutoClaimJustIdReplyBuffer>): Result<XAutoClaimJustIdReplyBuffer, Context>;
    xautoclaimBuffer(...args: XAutoClaimJustIdArgs): Result<XAutoClaimJustIdReplyBuffer, Context>;
    xautoclaimBuffer(...args: WithCallback<XAutoClaimArgs, XAutoClaimReplyBuffer>): Result<XAutoClaimReplyBuffer, Context>;
    xautoclaimBuffer(...args: XAutoClaimArgs): Result<XAutoClaimReplyBuffer, Context>;

    xclaimBuffer(...args: WithCallback<XClaimJustIdArgs, Buffer[]>): Result<Buffer[], Context>;
    xclaimBuffer(...args: XClaimJustIdArgs): Result<Buffer[], Context>;
    xclaimBuffer(...args: WithCallback<XClaimArgs, EntryBuffer[]>): Result<EntryBuffer[], Context>;
    xclaimBuffer(...args: XClaimArgs): Result<EntryBuffer[], Context>;

    xdelBuffer(...args: WithCallback<[key: RedisKey, ...ids: Id[]], number>): Result<number, Context>;
    xdelBuffer(...args: [key: RedisKey, ...ids: Id[]]): Result<number, Context>;

    xdelexBuffer(...args: WithCallback<XDelExArgs, number[]>): Result<number[], Context>;
    xdelexBuffer(...args: XDelExArgs): Result<number[], Context>;

    xgroupBuffer(subcommand: 'CREATE', ...args: WithCallback<XGroupSetArgs, Buffer>): Result<Buffer, Context>;
    xgroupBuffer(subcommand: 'CREATE', ...args: XGroupSetArgs): Result<Buffer, Context>;
    xgroupBuffer(subcommand: 'SETID', ...args: WithCallback<XGroupSetArgs, Buffer>): Result<Buffer, Context>;
    xgroupBuffer(subcommand: 'SETID', ...args: XGroupSetArgs): Result<Buffer, Context>;
    xgroupBuffer(subcommand: 'CREATECONSUMER' | 'DELCONSUMER', key: RedisKey, groupname: string | Buffer, consumername: string | Buffer, callback?: Callback<number>): Result<number, Context>;
    xgroupBuffer(subcommand: 'DESTROY', key: RedisKey, groupname: string | Buffer, callback?: Callback<number>): Result<number, Context>;
    xgroupBuffer(subcommand: 'HELP', callback?: Callback<Buffer[]>): Result<Buffer[], Context>;

    xinfoBuffer(subcommand: 'CONSUMERS', key: RedisKey, groupname: string | Buffer, callback?: Callback<XInfoListReplyBuffer>): Result<XInfoListReplyBuffer, Context>;
    xinfoBuffer(subcommand: 'GROUPS', key: RedisKey, callback?: Callback<XInfoListReplyBuffer>): Result<XInfoListReplyBuffer, Context>;
    xinfoBuffer(subcommand: 'HELP', callback?: Callback<Buffer[]>): Result<Buffer[], Context>;
    xinfoBuffer(subcommand: 'STREAM', key: RedisKey, callback?: Callback<unknown[]>): Result<unknown[], Context>;
    xinfoBuffer(subcommand: 'STREAM', key: RedisKey, fullToken: 'FULL', callback?: Callback<unknown[]>): Result<unknown[], Context>;
    xinfoBuffer(subcommand: 'STREAM', key: RedisKey, fullToken: 'FULL', countToken: 'COUNT', count: number | string, callback?: Callback<unknown[]>): Result<unknown[], Context>;

    xlenBuffer(key: RedisKey, callback?: Callback<number>): Result<number, Context>;

    xpendingBuffer(...args: WithCallback<XPendingSummaryArgs, XPendingSummaryReplyBuffer>): Result<XPendingSummaryReplyBuffer, Context>;
    xpendingBuffer(...args: XPendingSummaryArgs): Result<XPendingSummaryReplyBuffer, Context>;
    xpendingBuffer(...args: WithCallback<XPendingExtendedArgs, XPendingExtendedReplyBuffer>): Result<XPendingExtendedReplyBuffer, Context>;
    xpendingBuffer(...args: XPendingExtendedArgs): Result<XPendingExtendedReplyBuffer, Context>;

    xreadgroupBuffer(...args: WithCallback<XReadGroupArgs, XReadGroupReplyBuffer>): Result<XReadGroupReplyBuffer, Context>;
    xreadgroupBuffer(...args: XReadGroupArgs): Result<XReadGroupReplyBuffer, Context>;

    xsetidBuffer(...args: WithCallback<XSetIdArgs, Buffer>): Result<Buffer, Context>;
    xsetidBuffer(...args: XSetIdArgs): Result<Buffer, Context>;

    xtrimBuffer(...args: WithCallback<XTrimArgs, number>): Result<number, Context>;
    xtrimBuffer(...args: XTrimArgs): Result<number, Context>;
  }
}

