/**
 * The option loop shared by XADD and XTRIM (t_stream.c `streamParseAddOrTrimArgsOrReply`):
 * `[NOMKSTREAM] [KEEPREF|DELREF|ACKED] [MAXLEN|MINID [=|~] threshold [LIMIT count]]`, any order,
 * case-insensitive. Errors come in the order the tokens are met, then the post-loop checks
 * (LIMIT without a strategy, XTRIM without a strategy, LIMIT without `~`). Nothing is looked up.
 */
import {
  ERR_INVALID_STREAM_ID,
  ERR_LIMIT_NEGATIVE,
  ERR_LIMIT_NO_APPROX,
  ERR_LIMIT_NO_STRATEGY,
  ERR_IDMP_EMPTY_IID,
  ERR_IDMP_EMPTY_PID,
  ERR_IDMP_EXPLICIT_ID,
  ERR_IDMP_TWICE,
  ERR_IDMPAUTO_EMPTY_PID,
  ERR_MAXLEN_MINID_TOGETHER,
  ERR_MAXLEN_NEGATIVE,
  ERR_SYNTAX,
  ERR_XTRIM_NO_STRATEGY,
  fail,
} from '../errors';
import type { RefPolicy, Stream, TrimStrategy } from '../model/stream';
import { DEFAULT_NODE_MAX_ENTRIES, defaultApproxTrimLimit } from '../model/stream-entries';
import { ParsedId, parseStreamId } from '../model/stream-id';
import { RedisVersion, supports } from '../version';
import { int64OrFail, is, strictIdOrFail } from './args';

/**
 * Default work limit of an approximate (`~`) trim without LIMIT: 100 × `stream-node-max-entries`
 * (10000 with the default 100), clamped by Redis to [10000 if ≤ 0, 1000000]. Unit: entries.
 * It follows CONFIG SET stream-node-max-entries: see `trimLimit`.
 */
export const DEFAULT_APPROX_TRIM_LIMIT = defaultApproxTrimLimit(BigInt(DEFAULT_NODE_MAX_ENTRIES));

/**
 * The work limit a trim of `stream` uses: LIMIT when given, else for `~` the default Redis
 * derives from the keyspace's `stream-node-max-entries` at command time, else 0 (unlimited).
 */
export function trimLimit(args: AddOrTrimArgs, stream: Stream): number {
  return args.defaultLimit ? stream.entries.limits.approxTrimLimit : args.limit;
}

/**
 * The parsed options. `limit` is the effective work limit in entries (0 = unlimited) with the
 * default configuration; `defaultLimit` tells that it is the `~` default (see `trimLimit`).
 */
export interface AddOrTrimArgs {
  strategy: TrimStrategy | null;
  /** `~` given: remove whole nodes only (ignored by DELREF/ACKED trims, as in Redis). */
  approx: boolean;
  limit: number;
  /** `~` without LIMIT: the limit comes from `stream-node-max-entries` (see `trimLimit`). */
  defaultLimit: boolean;
  /** KEEPREF (default), DELREF or ACKED (Redis 8.2). */
  policy: RefPolicy;
  /** XADD NOMKSTREAM. */
  noMkStream: boolean;
  /** XADD: index in argv of the ID argument (argv.length when the loop consumed everything). */
  idPos: number;
  /** XADD: the ID; null for `*`. */
  id: ParsedId | null;
  /**
   * XADD: the field/value arguments, set by its parse (null until then, and for XTRIM): a field of
   * the object from the start, so that setting it adds no property.
   */
  fields: string[] | null;
  /** XADD IDMP pid iid / IDMPAUTO pid (Redis 8.6); null without them. `iid` null: IDMPAUTO; `at`: argv index of the word. */
  idmp: { pid: string; iid: string | null; at: number } | null;
}

function limitToNumber(v: bigint): number {
  return v > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(v);
}

/**
 * The parsed options as a class instance, not an object literal: V8 kept migrating each new
 * literal from a deprecated boilerplate map (a field generalization per XADD, ~160 in 1,000 calls:
 * `--trace-generalization`); a constructor's initial map is updated in place.
 */
class ParsedAddOrTrimArgs implements AddOrTrimArgs {
  strategy: TrimStrategy | null = null;
  approx = false;
  limit = 0;
  defaultLimit = false;
  policy: RefPolicy = 'keepref';
  noMkStream = false;
  idPos: number;
  id: ParsedId | null = null;
  fields: string[] | null = null;
  idmp: { pid: string; iid: string | null; at: number } | null = null;
  constructor(idPos: number) {
    this.idPos = idPos;
  }
}

/**
 * Parse from argv[2]. For XADD the loop stops at the first token that is not an option (the ID;
 * a bare `*` stops it at once); for XTRIM any such token is `ERR syntax error`. `MAXLEN`, `MINID`
 * and `LIMIT` are options only when at least one argument follows them; `~`/`=` is an operator
 * only when at least two follow the strategy word. A second KEEPREF/DELREF/ACKED word is not an
 * option (XADD then parses it as the ID, XTRIM answers syntax error).
 */
export function parseAddOrTrimArgs(argv: string[], xadd: boolean, version: RedisVersion): AddOrTrimArgs {
  const out: AddOrTrimArgs = new ParsedAddOrTrimArgs(argv.length);
  // XADD key * …: no option, the usual call (same object, without the loop and version lookups)
  if (xadd && argv[2] === '*') {
    out.idPos = 2;
    return out;
  }
  const refPolicies = supports(version, 'refPolicies');
  let policyGiven = false;
  let limitGiven = false;
  let limit = 0n;
  let i = 2;
  for (; i < argv.length; i++) {
    const moreargs = argv.length - 1 - i;
    const opt = argv[i];
    if (xadd && opt === '*') {
      break;
    } else if ((is(opt, 'MAXLEN') || is(opt, 'MINID')) && moreargs) {
      if (out.strategy) fail(ERR_MAXLEN_MINID_TOGETHER);
      out.approx = false;
      const next = argv[i + 1];
      if (moreargs >= 2 && next === '~') {
        out.approx = true;
        i++;
      } else if (moreargs >= 2 && next === '=') {
        i++;
      }
      if (is(opt, 'MAXLEN')) {
        const maxLen = int64OrFail(argv[i + 1]);
        if (maxLen < 0n) fail(ERR_MAXLEN_NEGATIVE);
        out.strategy = { kind: 'maxlen', maxLen };
      } else {
        out.strategy = { kind: 'minid', minId: strictIdOrFail(argv[i + 1]) };
      }
      i++;
    } else if (is(opt, 'LIMIT') && moreargs) {
      limit = int64OrFail(argv[i + 1]);
      if (limit < 0n) fail(ERR_LIMIT_NEGATIVE);
      limitGiven = true;
      i++;
    } else if (refPolicies && !policyGiven && (is(opt, 'KEEPREF') || is(opt, 'DELREF') || is(opt, 'ACKED'))) {
      out.policy = opt.toLowerCase() as RefPolicy;
      policyGiven = true;
    } else if (xadd && is(opt, 'NOMKSTREAM')) {
      out.noMkStream = true;
    } else if (
      xadd &&
      supports(version, 'xaddIdmp') &&
      ((is(opt, 'IDMPAUTO') && moreargs) || (is(opt, 'IDMP') && moreargs >= 2))
    ) {
      // Redis's stream.tcl (8.6): a second IDMP/IDMPAUTO, then an empty pid or iid, refused here
      if (out.idmp !== null) fail(ERR_IDMP_TWICE);
      const auto = is(opt, 'IDMPAUTO');
      const pid = argv[i + 1];
      if (pid.length === 0) fail(auto ? ERR_IDMPAUTO_EMPTY_PID : ERR_IDMP_EMPTY_PID);
      const iid = auto ? null : argv[i + 2];
      if (iid !== null && iid.length === 0) fail(ERR_IDMP_EMPTY_IID);
      out.idmp = { pid, iid, at: i };
      i += auto ? 1 : 2;
    } else if (xadd) {
      const parsed = parseStreamId(opt, { strict: true, allowAutoSeq: true });
      if (!parsed) fail(ERR_INVALID_STREAM_ID);
      out.id = parsed;
      break;
    } else {
      fail(ERR_SYNTAX);
    }
  }
  out.idPos = i;
  // after the options, as Redis's stream.tcl shows (`IDMP p iid 1-1 f v`): only with `*`
  if (out.idmp !== null && out.id !== null) fail(ERR_IDMP_EXPLICIT_ID);

  if (limit !== 0n && !out.strategy) fail(ERR_LIMIT_NO_STRATEGY);
  if (!xadd && !out.strategy) fail(ERR_XTRIM_NO_STRATEGY);
  if (limitGiven) {
    if (!out.approx) fail(ERR_LIMIT_NO_APPROX);
    out.limit = limitToNumber(limit);
  } else {
    out.limit = out.approx ? DEFAULT_APPROX_TRIM_LIMIT : 0;
    out.defaultLimit = out.approx;
  }
  return out;
}
