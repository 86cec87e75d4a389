/**
 * Emulated Redis versions and the behaviour differences between them, in one table.
 * Default: 8.10 (the newest in the seed documents). "7.0" matches redis-server 7.0.15.
 */
import { StreamsMockError } from './clock/clock';

export const REDIS_VERSIONS = ['7.0', '7.2', '7.4', '8.0', '8.2', '8.4', '8.6', '8.8', '8.10'] as const;
export type RedisVersion = (typeof REDIS_VERSIONS)[number];
export const DEFAULT_REDIS_VERSION: RedisVersion = '8.10';

/**
 * Each behaviour and the first version that has it. Lines are grouped by command; the source
 * of each is the shared reference (version history, §0.1) or a redis-server 7.0.15 check.
 */
export const FEATURE_SINCE = {
  /** XINFO CONSUMERS `inactive`, XINFO STREAM FULL `active-time`; seen-time = last attempt (7.2). */
  consumerActiveTime: '7.2',
  /** Blocked XREADGROUP re-runs on key deletion/type change and answers NOGROUP/WRONGTYPE (7.2);
   *  7.0 answers "UNBLOCKED the stream key no longer exists". */
  blockedReadRerun: '7.2',
  /** XREADGROUP creates the consumer even when the read returns nothing (7.2; 7.0 creates it
   *  only when an entry is served or the read blocks). */
  consumerCreatedOnEmptyRead: '7.2',
  /** XCLAIM/XAUTOCLAIM create the consumer and set its seen-time even when nothing is claimed
   *  (7.2; 7.0 looks the consumer up, creating it, only at the first entry it claims —
   *  checked on redis-server 7.0.15). */
  claimTouchesConsumer: '7.2',
  /** XGROUP HELP / XINFO HELP end with `    Print this help.` (7.2, redis #10965); 7.0.15 prints
   *  `    Prints this help.` (checked on the server). */
  helpPrintFooter: '7.2',
  /** XREAD accepts `+` as "the last entry" (7.4). */
  xreadPlusId: '7.4',
  /** Lag rules for empty streams and groups before the first entry (reference §1.7 rules 2–3). */
  lagEmptyStreamRules: '7.4',
  /** ENTRIESREAD larger than entries-added is clamped (issue #14257; release unconfirmed). */
  entriesReadClamp: '8.0',
  /** XADD `ms-*` when the top ID is `ms-18446744073709551615` answers "equal or smaller" (7.2,
   *  redis #11424); 7.0.15 answers "Elements are too large to be stored" (checked on the server). */
  xaddSeqExhaustedEdom: '7.2',
  /** XSETID rejects a last-id below the current max-deleted-entry-id (7.2, redis #11444; 7.0.15
   *  accepts it — checked on the server). */
  xsetidMaxDeletedCheck: '7.2',
  /** XADD/XTRIM KEEPREF|DELREF|ACKED, XDELEX, XACKDEL. */
  refPolicies: '8.2',
  /** XADD IDMP/IDMPAUTO (idempotent XADD): not emulated; the library throws StreamsMockError
   *  from this version on (earlier versions parse the token as an invalid ID, like Redis). */
  xaddIdmp: '8.6',
  /** XREADGROUP CLAIM min-idle-time. */
  xreadgroupClaim: '8.4',
  /** XNACK, NACK zone, XINFO STREAM FULL nacked-count. */
  xnack: '8.8',
  /** XREAD/XREADGROUP MAXCOUNT and MAXSIZE. */
  maxCountMaxSize: '8.10',
} as const satisfies Record<string, RedisVersion>;

export type Feature = keyof typeof FEATURE_SINCE;

/** Commands that do not exist before a version (the server answers "unknown command"). */
export const COMMAND_SINCE: Record<string, RedisVersion> = {
  xackdel: '8.2',
  xdelex: '8.2',
  xnack: '8.8',
};

export function versionIndex(v: RedisVersion): number {
  return REDIS_VERSIONS.indexOf(v);
}

/** True if `version` has `feature`. */
export function supports(version: RedisVersion, feature: Feature): boolean {
  return versionIndex(version) >= versionIndex(FEATURE_SINCE[feature]);
}

/** Normalise a user-given version ("7.0.15", "8.10", 7) to a table entry; throws on unknown. */
export function parseRedisVersion(input: string | number): RedisVersion {
  const m = /^(\d+)(?:\.(\d+))?/.exec(String(input));
  if (m) {
    const mm = `${m[1]}.${m[2] ?? '0'}` as RedisVersion;
    if ((REDIS_VERSIONS as readonly string[]).includes(mm)) return mm;
  }
  throw new StreamsMockError(
    `unsupported redisVersion ${JSON.stringify(input)}; choose one of ${REDIS_VERSIONS.join(', ')}`,
  );
}
