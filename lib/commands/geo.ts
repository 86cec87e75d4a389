/**
 * GEOADD, GEOPOS, GEODIST, GEOHASH (geo.c) on the sorted-set model: a member's score is its 52-bit
 * geohash (lib/model/geohash.ts), so coordinates read back are the centre of the member's cell.
 *
 * - GEOADD key [NX|XX] [CH] longitude latitude member [… …]: the options (any order, any case) are
 *   read, then the count of the rest must be a multiple of 3 and NX with XX is refused (`ERR
 *   syntax error`); each pair is read as a double (`ERR value is not a valid float`) and checked
 *   against the limits (`ERR invalid longitude,latitude pair %f,%f`); then ZADD runs with the
 *   scores (its reply, events `zadd`, dirty count and encodings).
 * - GEOPOS key member …: per member [longitude, latitude] or a nil array. 7.0 prints them as
 *   addReplyHumanLongDouble (`%.17Lf`, trailing zeros dropped: 13.36138933897018433), later
 *   versions as addReplyDouble (shortest round trip: 13.361389338970184) — checked on
 *   redis-server 7.0.15 and the post-7.4 build.
 * - GEODIST key member1 member2 [M|KM|FT|MI]: the unit first (`ERR unsupported unit provided.
 *   please use M, KM, FT, MI`; more arguments: `ERR syntax error`), then the key (missing: nil),
 *   WRONGTYPE; nil when a member is missing; else the distance with four decimals (bulk string).
 * - GEOHASH key member …: the standard 11-character geohash, nil for a missing member.
 */
import { ERR_SYNTAX, fail } from '../errors';
import { geoDecode, geoDistance, geoScore, geohashText, GEO_LAT_MAX, GEO_LAT_MIN, GEO_LONG_MAX, GEO_LONG_MIN } from '../model/geohash';
import { DoubleReply, NIL_ARRAY, type Reply } from '../reply/reply';
import { predates, type RedisVersion } from '../version';
import { is } from './args';
import { getZset, parseScoreArg, scoreText, ERR_NOT_VALID_FLOAT } from './zset-common';
import type { CommandContext, CommandSpec } from './types';

export const ERR_UNIT = 'ERR unsupported unit provided. please use M, KM, FT, MI';

/** C printf `%f` (six decimals). */
function cFixed6(v: number): string {
  if (v === Infinity) return 'inf';
  if (v === -Infinity) return '-inf';
  return v.toFixed(6);
}

/** geo.c extractLongLatOrReply: [longitude, latitude] of argv[i], argv[i+1]. */
export function longLatOrFail(argv: readonly string[], i: number, version: RedisVersion): [number, number] {
  const xy: number[] = [];
  for (let k = 0; k < 2; k++) {
    const v = parseScoreArg(argv[i + k], version);
    if (v === null) fail(ERR_NOT_VALID_FLOAT);
    xy.push(v);
  }
  const [x, y] = xy;
  if (x < GEO_LONG_MIN || x > GEO_LONG_MAX || y < GEO_LAT_MIN || y > GEO_LAT_MAX) {
    fail(`ERR invalid longitude,latitude pair ${cFixed6(x)},${cFixed6(y)}`);
  }
  return [x, y];
}

/** geo.c extractUnitOrReply: meters per unit. */
export function unitOrFail(u: string): number {
  if (is(u, 'M')) return 1;
  if (is(u, 'KM')) return 1000;
  if (is(u, 'FT')) return 0.3048;
  if (is(u, 'MI')) return 1609.34;
  return fail(ERR_UNIT);
}

/** A coordinate as GEOPOS prints it in `version` (see the module comment). */
export function coordText(v: number, version: RedisVersion): string {
  if (predates(version, '7.2')) {
    // ld2string LD_STR_HUMAN: %.17Lf, then trailing zeros (and a bare point) removed
    let s = v.toFixed(17);
    if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
    return s === '-0' ? '0' : s;
  }
  return scoreText(v, version);
}

/** addReplyDoubleDistance: four decimals. */
export function distanceText(d: number): string {
  return d.toFixed(4);
}

function geoadd(ctx: CommandContext, argv: string[]): Reply {
  let nx = false;
  let xx = false;
  let longIdx = 2;
  for (; longIdx < argv.length; longIdx++) {
    const opt = argv[longIdx];
    if (is(opt, 'NX')) nx = true;
    else if (is(opt, 'XX')) xx = true;
    else if (!is(opt, 'CH')) break;
  }
  if ((argv.length - longIdx) % 3 !== 0 || (xx && nx)) fail(ERR_SYNTAX);
  const zaddArgv = ['zadd', ...argv.slice(1, longIdx)];
  for (let i = longIdx; i < argv.length; i += 3) {
    const [x, y] = longLatOrFail(argv, i, ctx.version);
    zaddArgv.push(String(geoScore(x, y)), argv[i + 2]);
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- ZADD does the work, as geo.c calls zaddCommand
  const zadd = (require('./zadd') as { specs: CommandSpec[] }).specs.find((s) => s.name === 'zadd')!;
  return zadd.run!(ctx, zaddArgv) as Reply;
}

function geopos(ctx: CommandContext, argv: string[]): Reply {
  const z = getZset(ctx.db, argv[1]);
  const out: Reply[] = [];
  for (let j = 2; j < argv.length; j++) {
    const score = z?.score(argv[j]);
    if (score === undefined) out.push(NIL_ARRAY);
    else out.push(geoDecode(score).map((v) => new DoubleReply(v, coordText(v, ctx.version))));
  }
  return out;
}

function geodist(ctx: CommandContext, argv: string[]): Reply {
  let toMeter = 1;
  if (argv.length === 5) toMeter = unitOrFail(argv[4]);
  else if (argv.length > 5) fail(ERR_SYNTAX);
  const z = getZset(ctx.db, argv[1]);
  if (z === undefined) return null;
  const s1 = z.score(argv[2]);
  const s2 = z.score(argv[3]);
  if (s1 === undefined || s2 === undefined) return null;
  const a = geoDecode(s1);
  const b = geoDecode(s2);
  return distanceText(geoDistance(a[0], a[1], b[0], b[1]) / toMeter);
}

function geohash(ctx: CommandContext, argv: string[]): Reply {
  const z = getZset(ctx.db, argv[1]);
  const out: Reply[] = [];
  for (let j = 2; j < argv.length; j++) {
    const score = z?.score(argv[j]);
    out.push(score === undefined ? null : geohashText(score));
  }
  return out;
}

export const specs: CommandSpec[] = [
  { name: 'geoadd', arity: -5, write: true, run: geoadd },
  { name: 'geopos', arity: -2, write: false, run: geopos },
  { name: 'geodist', arity: -4, write: false, run: geodist },
  { name: 'geohash', arity: -2, write: false, run: geohash },
];
