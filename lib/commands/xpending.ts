/**
 * XPENDING key group [[IDLE min-idle-time] start end count [consumer]]
 *
 * Inspects a group's PEL (t_stream.c `xpendingCommand`, Redis 5.0; IDLE and `(` exclusive
 * bounds 6.2). No state changes. Summary form (`XPENDING key group`):
 * `[total, smallestId, greatestId, [[consumer, "count"], …]]` — counts are bulk strings,
 * consumers with nothing pending are left out, names in byte order; an empty PEL gives
 * `[0, nil, nil, nil]`. Extended form: `[[id, consumer, idleMs, deliveryCount], …]` for entries
 * with start <= id <= end in ID order (the named consumer's PEL only, when given; an unknown
 * consumer gives `[]`), at most `count` (negative → 0 → `[]`), keeping only entries idle at least
 * IDLE ms (IDLE 0: no filter). Idle is `now − delivery time`, at least 0. Redis 8.8: a released
 * (XNACK'd) entry shows consumer `""` and idle -1, and counts in the summary total but for no
 * consumer; the IDLE filter sees its delivery time 0, i.e. an idle time of `now` (unconfirmed).
 * Errors, in order (checked on redis-server 7.0.15): argument count not 3 and not 6–9 →
 * `ERR syntax error`; IDLE value → `ERR value is not an integer or out of range`; IDLE with
 * fewer than 8 arguments → `ERR syntax error`; count → integer error; start, then end →
 * `ERR Invalid stream ID specified as stream command argument` / `ERR invalid start ID for the
 * interval` / `ERR invalid end ID for the interval`; WRONGTYPE; a missing key or group →
 * `NOGROUP No such key '<key>' or consumer group '<group>'`. Arguments after the consumer
 * are ignored (Redis quirk).
 */
import { ERR_SYNTAX, errNoKeyOrGroup, errorArg, fail } from '../errors';
import type { ConsumerGroup } from '../model/consumer-group';
import { deliveryCountReply } from '../model/pel';
import { MAX_ID, StreamId, compareIds, formatId } from '../model/stream-id';
import { int64OrFail, is, rangeBoundOrFail } from './args';
import type { CommandContext, CommandSpec, Reply } from './types';
import { NIL_ARRAY } from '../reply/reply';

/** Parsed XPENDING arguments; `range` is null for the summary form. */
export interface XpendingArgs {
  range: {
    /** IDLE in ms (0 = no filter). */
    IDLE: bigint;
    start: StreamId;
    end: StreamId;
    /** At most this many entries (negative given → 0). */
    count: bigint;
    consumer: string | undefined;
  } | null;
}

/** Parse everything after `key group` (Redis does this before the key lookup). */
export function parse(argv: string[]): XpendingArgs {
  const argc = argv.length;
  if (argc !== 3 && (argc < 6 || argc > 9)) fail(ERR_SYNTAX);
  if (argc === 3) return { range: null };
  let at = 3;
  let IDLE = 0n;
  if (is(argv[3], 'IDLE')) {
    IDLE = int64OrFail(argv[4]);
    if (argc < 8) fail(ERR_SYNTAX);
    at += 2;
  }
  let count = int64OrFail(argv[at + 2]);
  if (count < 0n) count = 0n;
  const start = rangeBoundOrFail(argv[at], 'start');
  const end = rangeBoundOrFail(argv[at + 1], 'end');
  const consumer = at + 3 < argc ? argv[at + 3] : undefined;
  return { range: { IDLE, start, end, count, consumer } };
}

/** The summary reply. */
export function summary(group: ConsumerGroup): Reply {
  const pel = group.pel;
  const first = pel.minKey();
  const last = pel.maxKey();
  if (!first || !last) return [0, null, null, NIL_ARRAY];
  const consumers: Reply[] = [];
  for (const c of group.sortedConsumers()) {
    if (c.pel.size > 0) consumers.push([c.name, String(c.pel.size)]);
  }
  return [pel.size, formatId(first), formatId(last), consumers];
}

/** The extended reply for `range`, at command time `now` (ms). */
const MAX_SAFE_COUNT = BigInt(Number.MAX_SAFE_INTEGER);

export function extended(group: ConsumerGroup, range: NonNullable<XpendingArgs['range']>, now: number): Reply {
  const out: Reply[] = [];
  // the count as a number (a bigint decrement per entry is an allocation); past 2^53 − 1 no PEL
  // is that long
  let count = range.count > MAX_SAFE_COUNT ? Infinity : Number(range.count);
  if (count === 0) return out;
  let pel = group.pel;
  if (range.consumer !== undefined) {
    const consumer = group.getConsumer(range.consumer);
    if (!consumer) return out;
    pel = consumer.pel;
  }
  // IDLE as a number: an idle time (ms since a delivery) is far below 2^53, so it is below any
  // IDLE too large to be exact as a number, as it is below the bigint
  const minIdle = Number(range.IDLE);
  const end = range.end;
  const toEnd = end === MAX_ID;
  pel.forEachFrom(range.start, (id, pe) => {
    if (!toEnd && compareIds(id, end) > 0) return false;
    const idle = Math.floor(now - pe.deliveryTime);
    if (minIdle !== 0 && idle < minIdle) return true;
    if (pe.consumer) out.push([formatId(id), pe.consumer.name, idle > 0 ? idle : 0, deliveryCountReply(pe.deliveryCount)]);
    else out.push([formatId(id), '', -1, deliveryCountReply(pe.deliveryCount)]); // Redis 8.8: released by XNACK
    return --count !== 0;
  });
  return out;
}

function run(ctx: CommandContext, argv: string[]): Reply {
  const [, key, groupName] = argv;
  const args = parse(argv);
  const stream = ctx.db.readStream(key); // lookupKeyRead
  const group = stream?.groups.get(groupName);
  if (!group) fail(errNoKeyOrGroup(errorArg(key), errorArg(groupName)));
  return args.range ? extended(group, args.range, ctx.now) : summary(group);
}

export const specs: CommandSpec[] = [{ name: 'xpending', arity: -3, write: false, run }];
