/**
 * XGROUP CREATE key group <id | $> [MKSTREAM] [ENTRIESREAD entries-read]
 * XGROUP SETID key group <id | $> [ENTRIESREAD entries-read]
 * XGROUP DESTROY key group
 * XGROUP CREATECONSUMER key group consumer
 * XGROUP DELCONSUMER key group consumer
 * XGROUP HELP
 *
 * Consumer-group management (t_stream.c `xgroupCommand`, Redis 5.0; CREATECONSUMER 6.2;
 * ENTRIESREAD 7.0). CREATE adds a group at `id` (`$` = the stream's last-generated-id, 0-0 for a
 * stream MKSTREAM creates) → `OK`; SETID moves it (non-strict ID, so `-`/`+` work) and sets
 * entries-read to ENTRIESREAD or to "unknown" (-1) when omitted → `OK`; DESTROY drops the group
 * with its PEL and consumers and wakes blocked XREADGROUP readers of the key → 1/0;
 * CREATECONSUMER → 1 if created (seen-time now, active-time -1), 0 if it existed; DELCONSUMER
 * drops a consumer and its pending entries (Redis 8.8: released, unowned entries stay) → the
 * number it owned. Newer releases (redis #14257; emulated from 8.4, release unconfirmed) clamp ENTRIESREAD to
 * entries-added.
 * Errors, in Redis's order (the common preamble of every subcommand but HELP, checked on
 * redis-server 7.0.15): options from argv[5] (`MKSTREAM` for CREATE, `ENTRIESREAD n` for CREATE
 * and SETID), anything else → `ERR unknown subcommand or wrong number of arguments for '<sub>'.
 * Try XGROUP HELP.`, a non-integer → `ERR value is not an integer or out of range`, n < -1 →
 * `ERR value for ENTRIESREAD must be positive or -1`; WRONGTYPE; a missing key without MKSTREAM
 * → `ERR The XGROUP subcommand requires the key to exist. …`; a missing group (SETID,
 * CREATECONSUMER, DELCONSUMER) → `NOGROUP No such consumer group '<g>' for key name '<k>'`;
 * then the argument count (CREATE 5–8, SETID 5 or 7 → the "unknown subcommand" error), the ID
 * (`ERR Invalid stream ID specified as stream command argument`) and `BUSYGROUP Consumer Group
 * name already exists`.
 * Keyspace: events `xgroup-create`, `xgroup-setid`, `xgroup-destroy`, `xgroup-createconsumer`,
 * `xgroup-delconsumer`. Like Redis, only the MKSTREAM creation dirties WATCH (redis-server
 * 7.0.15: no XGROUP subcommand invalidates a WATCH on an existing key).
 */
import {
  ERR_BUSYGROUP,
  ERR_ENTRIESREAD_RANGE,
  ERR_XGROUP_KEY_NOT_FOUND,
  errNoGroupForKey,
  errSubcommandSyntax,
  errorArg,
  fail,
} from '../errors';
import { ConsumerGroup } from '../model/consumer-group';
import { ENTRIES_READ_UNKNOWN, Stream } from '../model/stream';
import { MIN_ID, StreamId } from '../model/stream-id';
import { helpFooter, RedisVersion, supports } from '../version';
import { int64OrFail, is, nonStrictIdOrFail, strictIdOrFail } from './args';
import type { CommandContext, CommandHandler, CommandSpec, Reply } from './types';
import { OK, SimpleString, statusLines } from '../reply/reply';

/** Redis `addReplyHelp`: header, the command's lines, then the HELP lines (wording per version). */
export function helpReply(container: string, lines: readonly string[], version: RedisVersion): SimpleString[] {
  return statusLines([
    `${container} <subcommand> [<arg> [value] [opt] ...]. Subcommands are:`,
    ...lines,
    'HELP',
    helpFooter(version),
  ]);
}

const XGROUP_HELP = [
  'CREATE <key> <groupname> <id|$> [option]',
  '    Create a new consumer group. Options are:',
  '    * MKSTREAM',
  '      Create the empty stream if it does not exist.',
  '    * ENTRIESREAD entries_read',
  "      Set the group's entries_read counter (internal use).",
  'CREATECONSUMER <key> <groupname> <consumer>',
  '    Create a new consumer in the specified group.',
  'DELCONSUMER <key> <groupname> <consumer>',
  '    Remove the specified consumer.',
  'DESTROY <key> <groupname>',
  '    Remove the specified group.',
  'SETID <key> <groupname> <id|$> [ENTRIESREAD entries_read]',
  '    Set the current group ID and entries_read counter.',
] as const;

type Sub = 'create' | 'setid' | 'destroy' | 'createconsumer' | 'delconsumer';

/** What the common preamble found: options, the stream (if any) and the group (if any). */
export interface XgroupPreamble {
  sub: Sub;
  key: string;
  groupName: string;
  MKSTREAM: boolean;
  /** ENTRIESREAD, or -1n (unknown) when not given. */
  ENTRIESREAD: bigint;
  stream: Stream | undefined;
  group: ConsumerGroup | undefined;
}

/**
 * Parse the options from argv[5] (all subcommands share the loop, as in Redis, so SETID rejects
 * MKSTREAM and the fixed-arity subcommands never get here with extra arguments).
 */
export function parseOptions(argv: string[], sub: Sub): { MKSTREAM: boolean; ENTRIESREAD: bigint } {
  let MKSTREAM = false;
  let ENTRIESREAD = ENTRIES_READ_UNKNOWN;
  for (let i = 5; i < argv.length; ) {
    if (sub === 'create' && is(argv[i], 'MKSTREAM')) {
      MKSTREAM = true;
      i++;
    } else if ((sub === 'create' || sub === 'setid') && is(argv[i], 'ENTRIESREAD') && i + 1 < argv.length) {
      ENTRIESREAD = int64OrFail(argv[i + 1]);
      if (ENTRIESREAD < 0n && ENTRIESREAD !== ENTRIES_READ_UNKNOWN) fail(ERR_ENTRIESREAD_RANGE);
      i += 2;
    } else {
      fail(errSubcommandSyntax(argv[1], 'XGROUP'));
    }
  }
  return { MKSTREAM, ENTRIESREAD };
}

/** The preamble of `xgroupCommand`: options, key type, key existence, group existence. */
function preamble(ctx: CommandContext, argv: string[], sub: Sub): XgroupPreamble {
  const { MKSTREAM, ENTRIESREAD } = parseOptions(argv, sub);
  const key = argv[2];
  const groupName = argv[3];
  const stream = ctx.db.getStream(key);
  let group: ConsumerGroup | undefined;
  if (!MKSTREAM) {
    if (!stream) fail(ERR_XGROUP_KEY_NOT_FOUND);
    group = stream.groups.get(groupName);
    if (!group && sub !== 'create' && sub !== 'destroy') fail(errNoGroupForKey(errorArg(key), errorArg(groupName)));
  }
  return { sub, key, groupName, MKSTREAM, ENTRIESREAD, stream, group };
}

/** ENTRIESREAD as stored: newer releases cap it at entries-added (issue #14257). */
function storedEntriesRead(ctx: CommandContext, entriesRead: bigint, stream: Stream): bigint {
  if (supports(ctx.version, 'entriesReadClamp') && entriesRead !== ENTRIES_READ_UNKNOWN && entriesRead > stream.entriesAdded) {
    return stream.entriesAdded;
  }
  return entriesRead;
}

function create(ctx: CommandContext, argv: string[]): Reply {
  const p = preamble(ctx, argv, 'create');
  if (argv.length > 8) fail(errSubcommandSyntax(argv[1], 'XGROUP'));
  let id: StreamId;
  if (argv[4] === '$') id = p.stream ? p.stream.lastId : MIN_ID;
  else id = strictIdOrFail(argv[4]);
  let stream = p.stream;
  if (!stream) {
    // MKSTREAM, now that the command can no longer fail.
    stream = ctx.db.createStream(p.key);
    ctx.db.notifyEvent('n', 'new', p.key); // dbAdd
    ctx.db.signalReady(p.key);
  }
  if (stream.groups.has(p.groupName)) fail(ERR_BUSYGROUP);
  stream.groups.set(p.groupName, new ConsumerGroup(p.groupName, id, storedEntriesRead(ctx, p.ENTRIESREAD, stream)));
  ctx.db.notify('xgroup-create', p.key);
  ctx.db.dirty?.(1); // the group (MKSTREAM's new key adds nothing: t_stream.c xgroupCommand)
  return OK;
}

function setid(ctx: CommandContext, argv: string[]): Reply {
  const p = preamble(ctx, argv, 'setid');
  if (argv.length !== 5 && argv.length !== 7) fail(errSubcommandSyntax(argv[1], 'XGROUP'));
  const stream = p.stream as Stream;
  const group = p.group as ConsumerGroup;
  const id = argv[4] === '$' ? stream.lastId : nonStrictIdOrFail(argv[4]);
  group.lastId = id;
  group.entriesRead = storedEntriesRead(ctx, p.ENTRIESREAD, stream);
  ctx.db.notify('xgroup-setid', p.key);
  ctx.db.dirty?.(1);
  return OK;
}

function destroy(ctx: CommandContext, argv: string[]): Reply {
  const p = preamble(ctx, argv, 'destroy');
  if (!p.group) return 0;
  (p.stream as Stream).groups.delete(p.groupName);
  ctx.db.notify('xgroup-destroy', p.key);
  ctx.db.dirty?.(1);
  // Blocked XREADGROUP readers of this group re-run and answer NOGROUP.
  ctx.db.signalReady(p.key);
  return 1;
}

function createconsumer(ctx: CommandContext, argv: string[]): Reply {
  const p = preamble(ctx, argv, 'createconsumer');
  const { created } = (p.group as ConsumerGroup).ensureConsumer(argv[4], ctx.now);
  if (!created) return 0;
  ctx.db.notify('xgroup-createconsumer', p.key);
  ctx.db.dirty?.(1);
  return 1;
}

function delconsumer(ctx: CommandContext, argv: string[]): Reply {
  const p = preamble(ctx, argv, 'delconsumer');
  const group = p.group as ConsumerGroup;
  if (!group.getConsumer(argv[4])) return 0;
  const pending = group.deleteConsumer(argv[4]);
  ctx.db.notify('xgroup-delconsumer', p.key);
  ctx.db.dirty?.(1);
  return pending;
}

const help: CommandHandler = (ctx) => helpReply('XGROUP', XGROUP_HELP, ctx.version);

export const specs: CommandSpec[] = [
  {
    name: 'xgroup',
    arity: -2,
    write: true,
    subcommands: {
      create: { arity: -5, run: create },
      setid: { arity: -5, run: setid },
      destroy: { arity: 4, run: destroy },
      createconsumer: { arity: 5, run: createconsumer },
      delconsumer: { arity: 5, run: delconsumer },
      help: { arity: 2, run: help },
    },
  },
];
