/**
 * HRANDFIELD and HSCAN (t_hash.c hrandfieldCommand, db.c scanGenericCommand).
 */
import { CommandError, ERR_NOT_INTEGER, ERR_SYNTAX, fail } from '../errors';
import { globMatch } from '../bytes/glob';
import { is, parseInt64 } from './args';
import { PairsReply, type Reply } from '../reply/reply';
import { LONG_MAX, readHash } from './hash-common';
import type { HashEntry } from '../model/hash';
import type { CommandContext, CommandSpec } from './types';
import { parseScanCursor, parseScanOptions } from './scan-args';

/**
 * The most elements a negative HRANDFIELD count may ask for here. Redis streams such a reply
 * (up to LONG_MAX elements) until the client's output buffer limit closes the connection; the
 * fake builds replies whole, so beyond this it answers "ERR value is out of range" instead.
 */
export const HRANDFIELD_MAX_REPEATED = 10_000_000;

/**
 * HRANDFIELD key [count [WITHVALUES]]
 *
 * Without a count: one random field (bulk string) or nil. With a count ≥ 0: up to `count`
 * distinct fields; with a negative count: exactly |count| fields, repeats allowed. WITHVALUES:
 * RESP2 a flat field, value … array; RESP3 `[field, value]` pairs (PairsReply).
 * Errors in order: the count not an integer ("value is not an integer or out of range"),
 * -2^63 ("value is out of range, value must between -9223372036854775807 and
 * 9223372036854775807": getRangeLongFromObjectOrReply(-LONG_MAX, LONG_MAX)), extra arguments
 * or a word other than WITHVALUES (syntax error), with WITHVALUES a count beyond ±LONG_MAX/2
 * ("value is out of range"), then WRONGTYPE. A missing key: nil / empty array.
 */
function hrandfield(ctx: CommandContext, argv: string[]): Reply {
  const key = argv[1];
  if (argv.length >= 3) {
    const l = parseInt64(argv[2]);
    if (l === null) fail(ERR_NOT_INTEGER);
    if (l < -LONG_MAX) fail(`ERR value is out of range, value must between ${-LONG_MAX} and ${LONG_MAX}`);
    if (argv.length > 4 || (argv.length === 4 && !is(argv[3], 'WITHVALUES'))) fail(ERR_SYNTAX);
    const withValues = argv.length === 4;
    if (withValues && (l < -(LONG_MAX / 2n) || l > LONG_MAX / 2n)) fail('ERR value is out of range');
    const h = readHash(ctx, key);
    if (h === undefined || l === 0n) return [];
    const reply = (picked: HashEntry[]): Reply =>
      withValues ? new PairsReply(picked.map((e) => [e.field, e.value])) : picked.map((e) => e.field);
    if (l < 0n || l === 1n) {
      // CASE 1: |count| random fields, repeats allowed
      const count = l < 0n ? -l : l;
      if (count > BigInt(HRANDFIELD_MAX_REPEATED)) throw new CommandError('ERR value is out of range');
      const picked: HashEntry[] = new Array(Number(count));
      for (let i = 0; i < picked.length; i++) picked[i] = h.randomEntry();
      return reply(picked);
    }
    const all = [...h.entries()];
    if (l >= BigInt(all.length)) return reply(all); // CASE 2: the whole hash, in order
    // CASE 2.5 / 3 / 4: `count` distinct fields (a partial Fisher–Yates shuffle)
    const count = Number(l);
    for (let i = 0; i < count; i++) {
      const j = i + Math.floor(Math.random() * (all.length - i));
      const t = all[i];
      all[i] = all[j];
      all[j] = t;
    }
    all.length = count;
    return reply(all);
  }
  const h = readHash(ctx, key);
  return h === undefined ? null : h.randomEntry().field;
}

/**
 * HSCAN key cursor [MATCH pattern] [COUNT count] [NOVALUES]
 *
 * Reply: [next cursor, [field, value, …]] (NOVALUES, 7.4+: fields only). A listpack hash is
 * answered whole with cursor 0 (COUNT ignored), as Redis does; a hash table `count` fields at a
 * time (Redis: about COUNT, by dict buckets), the cursor being the position after the last one
 * (fields present during the whole scan are returned once; insertion order). Errors in order:
 * "invalid cursor" (not an unsigned 64-bit decimal; 7.0 also accepts a negative one, read by
 * strtoul), then on an existing hash only: WRONGTYPE, COUNT not an integer or < 1, a MATCH/COUNT
 * without value or an unknown word ("syntax error"); NOVALUES before 7.4 is unknown (syntax
 * error). MATCH patterns are Redis globs over the field's bytes.
 */
function hscan(ctx: CommandContext, argv: string[]): Reply {
  const key = argv[1];
  const cursor = parseScanCursor(argv[2], ctx.version);
  const h = readHash(ctx, key);
  if (h === undefined) return ['0', []];
  const { count, pattern, noValues } = parseScanOptions(argv, 3, ctx.version, 'hash');
  const out: Reply[] = [];
  const add = (e: HashEntry) => {
    if (pattern !== undefined && !globMatch(pattern, e.field)) return;
    out.push(e.field);
    if (!noValues) out.push(e.value);
  };
  if (!h.isHashtable) {
    for (const e of h.entries()) add(e);
    return ['0', out];
  }
  const page = h.scan(cursor > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(cursor), count);
  for (const e of page.entries) add(e);
  return [String(page.next), out];
}

export const specs: CommandSpec[] = [
  { name: 'hrandfield', arity: -2, write: false, run: hrandfield },
  { name: 'hscan', arity: -3, write: false, run: hscan },
];
