/**
 * XINFO STREAM key [FULL [COUNT count]]
 * XINFO GROUPS key
 * XINFO CONSUMERS key group
 * XINFO HELP
 *
 * Introspection (t_stream.c `xinfoCommand`, `xinfoReplyWithStreamInfo`; Redis 5.0, FULL 6.0).
 * No state changes. Replies are flat name/value arrays (RESP2 maps), times in unix ms, idle
 * times in ms:
 * - STREAM: `length`, `radix-tree-keys`, `radix-tree-nodes`, `last-generated-id`,
 *   `max-deleted-entry-id`, `entries-added`, `recorded-first-entry-id`, `groups` (count),
 *   `first-entry`, `last-entry` (entry or nil). FULL replaces the last three by `entries` (the
 *   first COUNT entries; default 10, 0 = all, negative → 10) and `groups`: per group (name order)
 *   `name`, `last-delivered-id`, `entries-read` (nil when unknown), `lag` (nil when unknown),
 *   `pel-count`, [8.8: `nacked-count`], `pending` (first COUNT of `[id, consumer, deliveryTime,
 *   deliveryCount]`; a released entry shows consumer `""` and time 0), `consumers` (all, name
 *   order: `name`, `seen-time`, [7.2: `active-time`], `pel-count`, `pending` (first COUNT of
 *   `[id, deliveryTime, deliveryCount]`)).
 * - GROUPS: per group `name`, `consumers`, `pending`, `last-delivered-id`, `entries-read`, `lag`.
 * - CONSUMERS: per consumer `name`, `pending`, `idle` (now − seen-time, at least 0), [7.2:
 *   `inactive` (now − active-time, or -1 if never active)].
 * Lag follows reference §1.7 from 8.0; 7.x lacks the emptied-stream / behind-the-first-entry
 * rules and ignores a tombstone before the first entry (version table; redis-server 7.0.15).
 * `radix-tree-nodes` reproduces Redis's radix tree over the macro nodes (see model/rax-size.ts);
 * macro nodes split as Redis's listpacks do, by entry count and by byte size (see
 * model/stream-entries.ts). From 8.6 both forms add `idmp-duration`, `idmp-maxsize`,
 * `pids-tracked`, `iids-tracked`, `iids-added`, `iids-duplicates` after `recorded-first-entry-id`
 * (see pushIdmpFields; their place in FULL is assumed the same: unconfirmed).
 * Errors, in order (checked on redis-server 7.0.15): a missing key → `ERR no such key`;
 * WRONGTYPE; STREAM options other than `FULL` / `FULL COUNT n` → `ERR unknown subcommand or wrong
 * number of arguments for 'STREAM'. Try XINFO HELP.` (the subcommand as typed), a bad n →
 * `ERR value is not an integer or out of range`; CONSUMERS on a missing group →
 * `NOGROUP No such consumer group '<group>' for key name '<key>'`.
 */
import { ERR_NO_SUCH_KEY, errNoGroupForKey, errSubcommandSyntax, errorArg, fail } from '../errors';
import type { Consumer } from '../model/consumer';
import type { ConsumerGroup } from '../model/consumer-group';
import type { IdMap } from '../model/id-map';
import type { PendingEntry } from '../model/pel';
import { deliveryCountReply } from '../model/pel';
import { ENTRIES_READ_UNKNOWN, Stream } from '../model/stream';
import type { StreamEntry } from '../model/stream-entries';
import { MAX_ID, MIN_ID, formatId } from '../model/stream-id';
import { supports } from '../version';
import { int64OrFail, is } from './args';
import type { CommandContext, CommandHandler, CommandSpec, Reply } from './types';
import { helpReply } from './xgroup';
import { newIdmpMap } from './xadd';
import { MapReply } from '../reply/reply';

const XINFO_HELP = [
  'CONSUMERS <key> <groupname>',
  '    Show consumers of <groupname>.',
  'GROUPS <key>',
  '    Show the stream consumer groups.',
  'STREAM <key> [FULL [COUNT <count>]',
  '    Show information about the stream.',
] as const;

/** XINFO STREAM default COUNT for FULL. */
const DEFAULT_FULL_COUNT = 10n;

function entryReply(e: StreamEntry): Reply {
  return [formatId(e.id), [...e.fields]];
}

/** The stream for every subcommand but HELP: `ERR no such key`, then WRONGTYPE. */
function streamOrFail(ctx: CommandContext, key: string): Stream {
  const stream = ctx.db.readStream(key); // lookupKeyReadOrReply
  if (!stream) fail(ERR_NO_SUCH_KEY);
  return stream;
}

function entriesRead(group: ConsumerGroup): bigint | null {
  return group.entriesRead === ENTRIES_READ_UNKNOWN ? null : group.entriesRead;
}

function lag(ctx: CommandContext, stream: Stream, group: ConsumerGroup): bigint | null {
  return stream.lag(group, {
    emptyStreamRules: supports(ctx.version, 'lagEmptyStreamRules'),
    ignoreTombstonesBeforeFirst: !supports(ctx.version, 'lagTombstoneBeforeFirstCounts'),
  });
}

/** Parse `[FULL [COUNT n]]` (argv[3…]); returns null for the default form, else the COUNT (0 = all). */
export function parseStreamOptions(argv: string[]): bigint | null {
  const optc = argv.length - 3;
  if (optc === 0) return null;
  if ((optc !== 1 && optc !== 3) || !is(argv[3], 'FULL')) fail(errSubcommandSyntax(argv[1], 'XINFO'));
  if (optc === 1) return DEFAULT_FULL_COUNT;
  if (!is(argv[4], 'COUNT')) fail(errSubcommandSyntax(argv[1], 'XINFO'));
  const count = int64OrFail(argv[5]);
  return count < 0n ? DEFAULT_FULL_COUNT : count;
}

/** The first `count` (0 = all) pending entries of `pel`, in ID order, shaped by `row`. */
function pelRows(pel: IdMap<PendingEntry>, count: bigint, row: (pe: PendingEntry) => Reply): Reply[] {
  const out: Reply[] = [];
  if (pel.size === 0) return out;
  for (const pe of pel.values()) {
    if (count !== 0n && BigInt(out.length) >= count) break;
    out.push(row(pe));
  }
  return out;
}

function fullConsumer(ctx: CommandContext, c: Consumer, count: bigint): Reply {
  const reply: Reply[] = ['name', c.name, 'seen-time', c.seenTime];
  if (supports(ctx.version, 'consumerActiveTime')) reply.push('active-time', c.activeTime);
  reply.push(
    'pel-count',
    c.pel.size,
    'pending',
    pelRows(c.pel, count, (pe) => [formatId(pe.id), pe.deliveryTime, deliveryCountReply(pe.deliveryCount)]),
  );
  return new MapReply(reply);
}

/** A group's position fields, shared by XINFO GROUPS and XINFO STREAM FULL (same order in both). */
function groupPosition(ctx: CommandContext, stream: Stream, g: ConsumerGroup): Reply[] {
  return ['last-delivered-id', formatId(g.lastId), 'entries-read', entriesRead(g), 'lag', lag(ctx, stream, g)];
}

function fullGroup(ctx: CommandContext, stream: Stream, g: ConsumerGroup, count: bigint): Reply {
  const reply: Reply[] = ['name', g.name, ...groupPosition(ctx, stream, g), 'pel-count', g.pel.size];
  // Redis 8.8; placed after pel-count (cg.tcl@8.8 reads it by name; position unconfirmed).
  if (supports(ctx.version, 'xnack')) reply.push('nacked-count', g.nackedCount);
  reply.push(
    'pending',
    pelRows(g.pel, count, (pe) => [formatId(pe.id), pe.consumer ? pe.consumer.name : '', pe.deliveryTime, deliveryCountReply(pe.deliveryCount)]),
    'consumers',
    g.sortedConsumers().map((c) => fullConsumer(ctx, c, count)),
  );
  return new MapReply(reply);
}

/**
 * The IDMP fields (8.6): on every stream, with or without IDMP use (Redis's stream.tcl reads
 * `iids-tracked` 0 of a stream never given an iid, in both forms; redis.io's example places them
 * after `recorded-first-entry-id`). A stream without an IDMP map shows the server's defaults;
 * iids past their duration are not counted (Redis's cron forgets them without an XADD).
 */
function pushIdmpFields(ctx: CommandContext, stream: Stream, reply: Reply[]): void {
  const idmp = stream.idmp ?? newIdmpMap(ctx);
  idmp.expireAll(ctx.now); // what the server cron would have forgotten by now
  reply.push(
    'idmp-duration',
    idmp.duration,
    'idmp-maxsize',
    idmp.maxSize,
    'pids-tracked',
    idmp.producers.size,
    'iids-tracked',
    idmp.tracked,
    'iids-added',
    idmp.iidsAdded,
    'iids-duplicates',
    idmp.iidsDuplicates,
  );
}

/** XINFO STREAM reply for `stream`; `full` is the FULL COUNT, or null for the default form. */
export function streamInfo(ctx: CommandContext, stream: Stream, full: bigint | null): Reply {
  const reply: Reply[] = [
    'length',
    stream.length,
    'radix-tree-keys',
    stream.entries.nodeCount,
    'radix-tree-nodes',
    stream.entries.radixTreeNodes,
    'last-generated-id',
    formatId(stream.lastId),
    'max-deleted-entry-id',
    formatId(stream.maxDeletedEntryId),
    'entries-added',
    stream.entriesAdded,
    'recorded-first-entry-id',
    formatId(stream.firstId),
  ];
  if (supports(ctx.version, 'xaddIdmp')) pushIdmpFields(ctx, stream, reply);
  if (full === null) {
    const first = stream.entries.first();
    const last = stream.entries.last();
    reply.push(
      'groups',
      stream.groups.size,
      'first-entry',
      first ? entryReply(first) : null,
      'last-entry',
      last ? entryReply(last) : null,
    );
    return new MapReply(reply);
  }
  const limit = full > BigInt(Number.MAX_SAFE_INTEGER) ? 0 : Number(full);
  reply.push(
    'entries',
    stream.range(MIN_ID, MAX_ID, limit).map(entryReply),
    'groups',
    stream.sortedGroups().map((g) => fullGroup(ctx, stream, g, full)),
  );
  return new MapReply(reply);
}

const xinfoStream: CommandHandler = (ctx, argv) => {
  const stream = streamOrFail(ctx, argv[2]);
  return streamInfo(ctx, stream, parseStreamOptions(argv));
};

const xinfoGroups: CommandHandler = (ctx, argv) => {
  const stream = streamOrFail(ctx, argv[2]);
  return stream
    .sortedGroups()
    .map((g): Reply => new MapReply(['name', g.name, 'consumers', g.consumers.size, 'pending', g.pel.size, ...groupPosition(ctx, stream, g)]));
};

const xinfoConsumers: CommandHandler = (ctx, argv) => {
  const [, , key, groupName] = argv;
  const group = streamOrFail(ctx, key).groups.get(groupName);
  if (!group) fail(errNoGroupForKey(errorArg(key), errorArg(groupName)));
  const now = ctx.now;
  const withInactive = supports(ctx.version, 'consumerActiveTime');
  return group.sortedConsumers().map((c): Reply => {
    const reply: Reply[] = ['name', c.name, 'pending', c.pel.size, 'idle', Math.max(0, Math.floor(now - c.seenTime))];
    if (withInactive) reply.push('inactive', c.activeTime === -1 ? -1 : Math.floor(now - c.activeTime));
    return new MapReply(reply);
  });
};

const xinfoHelp: CommandHandler = (ctx) => helpReply('XINFO', XINFO_HELP, ctx.version);

export const specs: CommandSpec[] = [
  {
    name: 'xinfo',
    arity: -2,
    write: false,
    subcommands: {
      stream: { arity: -3, run: xinfoStream },
      groups: { arity: 3, run: xinfoGroups },
      consumers: { arity: 4, run: xinfoConsumers },
      help: { arity: 2, run: xinfoHelp },
    },
  },
];
