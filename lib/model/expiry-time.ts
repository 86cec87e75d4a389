/**
 * When a deadline has passed, in one place. Redis keeps a key through the millisecond of its
 * deadline: db.c keyIsExpired answers `now > when` (a key whose TTL is `when` still exists at
 * `when` and is gone from `when + 1`), and a hash field does the same (t_hash.c
 * hashTypeIsExpired: `expireTime < commandTimeSnapshot()`; listpackExExpire and the active
 * field expiry stop at the first field whose time is not below now). Pure: numbers in, a
 * boolean or a time out.
 *
 * (Setting a time that is already reached is another rule: EXPIREAT/PXAT/RESTORE/HPEXPIREAT
 * delete at once when `when <= now`, db.c checkAlreadyExpired; those callers compare directly.)
 */

/** True once a key or hash field whose deadline is `at` (ms) is expired at `now` (ms): `now > at`. */
export function isPast(at: number, now: number): boolean {
  return at < now;
}

/** The first millisecond at which `isPast(at, ·)` holds: `at + 1` (when an expiry timer fires). */
export function firstPastMs(at: number): number {
  return at + 1;
}
