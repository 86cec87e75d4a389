/**
 * XACKDEL key group [KEEPREF | DELREF | ACKED] IDS numids id [id ...]
 *
 * Redis 8.2 (redis.io XACKDEL, PR #14130, cg.tcl@8.8): acknowledges each ID in `group` (removes
 * it from the group PEL and its owner's PEL) and then tries to delete the stream entry: KEEPREF
 * (default) deletes it and leaves other groups' PEL references dangling; DELREF deletes it and
 * removes it from every group's PEL; ACKED deletes it only when no group still needs it (none
 * has it pending and every group's last-delivered-id is at or past it). Deletion updates length,
 * recorded-first-entry-id and max-deleted-entry-id like XDEL. IDs are processed in order, a
 * repeated ID each time. Reply: one integer per ID — `1` deleted, or acknowledged here when the
 * entry was already gone; `2` kept because still referenced (ACKED); `-1` neither in the stream
 * nor pending in this group. A missing key or group answers `-1` for every ID.
 * Errors (cg.tcl@8.8): numids not an integer or < 1 → `ERR Number of IDs must be a positive
 * integer`; fewer IDs than numids → ``ERR The `numids` parameter must match the number of
 * arguments``; extra arguments, a second mode word or an unknown token → `ERR syntax error`;
 * a bad ID → `ERR Invalid stream ID specified as stream command argument`; then WRONGTYPE.
 * Assumed (unconfirmed): all arguments are parsed before the key lookup, like XDELEX; the mode
 * word may also follow the IDS block; a DELREF on an ID absent from the stream answers `1` only
 * when it was pending in this group. When it deletes entries it dirties WATCH and emits `xdel`
 * (as XDEL does; unconfirmed for XACKDEL).
 */
import { ERR_NUMIDS_MISMATCH, ERR_NUMIDS_POSITIVE, ERR_SYNTAX, fail } from '../errors';
import type { ConsumerGroup } from '../model/consumer-group';
import type { RefPolicy, Stream } from '../model/stream';
import type { StreamId } from '../model/stream-id';
import { is, parseInt64, strictIdOrFail } from './args';
import type { CommandContext, CommandSpec, Reply } from './types';

export interface XackdelArgs {
  policy: RefPolicy;
  ids: StreamId[];
}

const POLICIES: readonly RefPolicy[] = ['keepref', 'delref', 'acked'];

/** Parse argv[3…]: one optional policy word and one `IDS numids id…` block, then the IDs. */
export function parse(argv: string[]): XackdelArgs {
  let policy: RefPolicy | undefined;
  let idArgs: string[] | undefined;
  for (let i = 3; i < argv.length; ) {
    const token = argv[i];
    const word = POLICIES.find((p) => is(token, p.toUpperCase()));
    if (word) {
      if (policy) fail(ERR_SYNTAX);
      policy = word;
      i++;
    } else if (is(token, 'IDS') && i + 1 < argv.length && !idArgs) {
      const numids = parseInt64(argv[i + 1]);
      if (numids === null || numids < 1n) fail(ERR_NUMIDS_POSITIVE);
      const first = i + 2;
      if (numids > BigInt(argv.length - first)) fail(ERR_NUMIDS_MISMATCH);
      idArgs = argv.slice(first, first + Number(numids));
      i = first + idArgs.length;
    } else {
      fail(ERR_SYNTAX);
    }
  }
  if (!idArgs) fail(ERR_SYNTAX);
  return { policy: policy ?? 'keepref', ids: idArgs.map((s) => strictIdOrFail(s)) };
}

/** Acknowledge and delete one ID; returns its reply code. */
function ackdelOne(stream: Stream, group: ConsumerGroup, id: StreamId, policy: RefPolicy): { code: number; deleted: boolean } {
  const pe = group.pel.get(id);
  if (pe) group.removePending(pe);
  const acked = pe !== undefined;
  if (policy === 'delref') stream.removeReferences(id);
  if (stream.entries.has(id)) {
    if (policy === 'acked' && !stream.isAckedByAllGroups(id)) return { code: 2, deleted: false };
    stream.deleteEntry(id);
    return { code: 1, deleted: true };
  }
  return { code: acked ? 1 : -1, deleted: false };
}

export function execute(stream: Stream, group: ConsumerGroup, args: XackdelArgs): { reply: number[]; deleted: number; changed: number } {
  let deleted = 0;
  let changed = 0;
  const reply = args.ids.map((id) => {
    const r = ackdelOne(stream, group, id, args.policy);
    if (r.deleted) deleted++;
    if (r.code !== -1) changed++;
    return r.code;
  });
  return { reply, deleted, changed };
}

function run(ctx: CommandContext, argv: string[]): Reply {
  const [, key, groupName] = argv;
  const args = parse(argv);
  const stream = ctx.db.getStream(key);
  const group = stream?.groups.get(groupName);
  if (!stream || !group) return args.ids.map(() => -1);
  const { reply, deleted, changed } = execute(stream, group, args);
  if (deleted > 0) {
    ctx.db.touch(key);
    ctx.db.notify('xdel', key);
  }
  // One change per ID acknowledged or deleted (assumed: the 8.2 source was not available).
  ctx.db.dirty?.(changed);
  return reply;
}

export const specs: CommandSpec[] = [{ name: 'xackdel', arity: -6, write: true, run }];
