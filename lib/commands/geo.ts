/**
 * GEOADD, GEOPOS, GEODIST, GEOHASH and the searches (geo.c) on the sorted-set model: a member's score is its 52-bit
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
 * - GEOSEARCH, GEOSEARCHSTORE, GEORADIUS, GEORADIUSBYMEMBER and their _RO forms
 *   (georadiusGeneric): the search scans the centre's geohash cell and its eight neighbours
 *   (geohash_helper.c's step estimate, useless cells zeroed) in geo.c's order, each cell a score
 *   range walked in sorted-set order, so results without ASC/DESC come in Redis's order; ASC/DESC
 *   sort stably (glibc's merge sort), COUNT below the number found uses pqsort.c (its order of
 *   ties). Distances use glibc's sin/cos/asin rounding (lib/model/libm.ts; the rare argument where
 *   glibc itself is not correctly rounded can still differ in the last bit of a STOREDIST score).
 *   WITHDIST prints four decimals (7.0 printf, later fixedpoint_d2string), WITHCOORD as GEOPOS,
 *   WITHHASH the integer score. Stores build a skiplist then fit the listpack limits (events
 *   `georadiusstore` / `geosearchstore`; an empty result deletes the destination). Checked on
 *   redis-server 7.0.15 and the post-7.4 build with random sets and queries (Redis's unit/geo: 64
 *   of 64 in both emulated versions).
 */
import { ERR_SYNTAX, fail } from '../errors';
import {
  geoDecode,
  geoDistance,
  geoDistanceIfWithin,
  geohashAlign52Bits,
  geohashCalculateAreasByShape,
  geoScore,
  geohashText,
  GEO_LAT_MAX,
  GEO_LAT_MIN,
  GEO_LONG_MAX,
  GEO_LONG_MIN,
  type GeoHashBits,
  type GeoShape,
} from '../model/geohash';
import { pqsort } from '../model/pqsort';
import { RedisZset } from '../model/zset';
import { DoubleReply, NIL_ARRAY, type Reply } from '../reply/reply';
import { predates, type RedisVersion } from '../version';
import { int64OrFail, is } from './args';
import { ERR_NOT_VALID_FLOAT, fitEncoding, limitsOf, parseScoreArg, readZset, scoreOrFail, scoreText } from './zset-common';
import type { CommandContext, CommandSpec } from './types';

export const ERR_UNIT = 'ERR unsupported unit provided. please use M, KM, FT, MI';

/**
 * C printf `%f` (six decimals) of a double, as glibc prints it: the exact decimal value of the
 * double, every integer digit however large (`1e308` is 309 digits, where toFixed answers
 * `1e+308` from 1e21 up), rounded half to even at the sixth decimal (`0.0078125` → `0.007812`,
 * where toFixed rounds half up). Checked on redis-server 7.0.15 and the post-7.4 build (GEOADD's
 * "invalid longitude,latitude pair" error).
 */
function cFixed6(v: number): string {
  if (v === Infinity) return 'inf';
  if (v === -Infinity) return '-inf';
  if (Number.isNaN(v)) return v < 0 ? '-nan' : 'nan';
  const sign = v < 0 || Object.is(v, -0) ? '-' : ''; // C's %f keeps the sign of -0 (toFixed drops it)
  const a = Math.abs(v);
  if (a >= 1e21) return `${sign}${BigInt(a)}.000000`; // an integer: its exact digits
  const exact = a.toFixed(100); // a double's decimal expansion ends within 100 decimals only if short: enough to see a tie
  const dot = exact.indexOf('.');
  // a tie at the 7th decimal (exactly ...5 followed by zeros): C rounds to the even sixth decimal
  if (exact[dot + 7] === '5' && /^0*$/.test(exact.slice(dot + 8)) && Number(exact[dot + 6]) % 2 === 0) return sign + exact.slice(0, dot + 7);
  return sign + a.toFixed(6);
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

/**
 * addReplyDoubleDistance: four decimals. 7.0: printf `%.4f` (the exact value rounded, a tie to
 * even); 7.2+: fixedpoint_d2string (llrint of d × 10000: the product rounded to even).
 */
export function distanceText(d: number, version: RedisVersion = '8.0'): string {
  if (!Number.isFinite(d)) return d > 0 ? 'inf' : d < 0 ? '-inf' : 'nan';
  if (predates(version, '7.2')) {
    const s = d.toFixed(4);
    if (Math.abs(d) < 1e21) {
      // toFixed breaks an exact tie upwards; printf to even
      const exact = Math.abs(d).toFixed(100);
      const dot = exact.indexOf('.');
      if (/^50*$/.test(exact.slice(dot + 5))) {
        const down = exact.slice(0, dot + 5);
        if (Number(down[down.length - 1]) % 2 === 0) return (d < 0 ? '-' : '') + down;
      }
    }
    return s;
  }
  if (d === 0) return '0.0000';
  const t = d * 10000;
  let n = Math.round(t);
  if (n - t === 0.5 && n % 2 !== 0) n -= 1; // llrint: ties to even
  const neg = n < 0;
  const digits = String(Math.abs(n)).padStart(5, '0');
  return `${neg ? '-' : ''}${digits.slice(0, -4)}.${digits.slice(-4)}`;
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
  const z = readZset(ctx.db, argv[1]);
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
  const z = readZset(ctx.db, argv[1]);
  if (z === undefined) return null;
  const s1 = z.score(argv[2]);
  const s2 = z.score(argv[3]);
  if (s1 === undefined || s2 === undefined) return null;
  const a = geoDecode(s1);
  const b = geoDecode(s2);
  return distanceText(geoDistance(a[0], a[1], b[0], b[1]) / toMeter, ctx.version);
}

function geohash(ctx: CommandContext, argv: string[]): Reply {
  const z = readZset(ctx.db, argv[1]);
  const out: Reply[] = [];
  for (let j = 2; j < argv.length; j++) {
    const score = z?.score(argv[j]);
    out.push(score === undefined ? null : geohashText(score));
  }
  return out;
}

/** georadiusGeneric's flags (geo.c). */
const RADIUS_COORDS = 1;
const RADIUS_MEMBER = 2;
const RADIUS_NOSTORE = 4;
const GEOSEARCH = 8;
const GEOSEARCHSTORE = 16;

/** A point found (geoPoint): its decoded coordinates, distance in meters, score and member. */
interface GeoPoint {
  readonly x: number;
  readonly y: number;
  dist: number;
  readonly score: number;
  readonly member: string;
}

/** extractDistanceOrReply: [radius, meters per unit]. */
function distanceOrFail(argv: readonly string[], i: number, version: RedisVersion): [number, number] {
  const distance = scoreOrFail(argv[i], version, 'ERR need numeric radius');
  if (distance < 0) fail('ERR radius cannot be negative');
  return [distance, unitOrFail(argv[i + 1])];
}

/** extractBoxOrReply: [width, height, meters per unit]. */
function boxOrFail(argv: readonly string[], i: number, version: RedisVersion): [number, number, number] {
  const w = scoreOrFail(argv[i], version, 'ERR need numeric width');
  const h = scoreOrFail(argv[i + 1], version, 'ERR need numeric height');
  if (h < 0 || w < 0) fail('ERR height or width cannot be negative');
  return [w, h, unitOrFail(argv[i + 2])];
}

/** longLatFromMember: the decoded position of `member`, or the geo.c error. */
function memberPosOrFail(z: RedisZset, member: string): [number, number] {
  const score = z.score(member);
  if (score === undefined) fail('ERR could not decode requested zset member');
  return geoDecode(score);
}

/**
 * geoGetPointsInRange: the members whose scores are in [min, max) (ascending, as the sorted set
 * orders them) and within the shape, appended to `ga`; stops once `limit` (ANY) points are found.
 */
function pointsInRange(z: RedisZset, min: number, max: number, shape: GeoShape, ga: GeoPoint[], limit: number): void {
  const start = z.countBefore((s) => s < min);
  if (start >= z.size) return;
  for (const [member, score] of z.range(start, z.size - 1)) {
    if (!(score < max)) break;
    const [x, y] = geoDecode(score);
    const dist = geoDistanceIfWithin(shape, x, y);
    if (dist !== null) ga.push({ x, y, dist, score, member });
    if (ga.length && limit && ga.length >= limit) break;
  }
}

/** membersOfAllNeighbors: the nine cells in order, a cell equal to the one scanned last skipped (geo.c's test, as written). */
function membersOfAllNeighbors(z: RedisZset, cells: readonly GeoHashBits[], shape: GeoShape, ga: GeoPoint[], limit: number): void {
  let lastProcessed = 0;
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i];
    if (cell.bits === 0n && cell.step === 0) continue; // HASHISZERO
    if (lastProcessed && cell.bits === cells[lastProcessed].bits && cell.step === cells[lastProcessed].step) continue;
    if (ga.length && limit && ga.length >= limit) break;
    const min = geohashAlign52Bits(cell);
    const max = geohashAlign52Bits({ bits: cell.bits + 1n, step: cell.step });
    pointsInRange(z, min, max, shape, ga, limit);
    lastProcessed = i;
  }
}

/** sort_gp_asc. */
function sortAsc(a: GeoPoint, b: GeoPoint): number {
  return a.dist > b.dist ? 1 : a.dist === b.dist ? 0 : -1;
}

/**
 * georadiusGeneric (geo.c): GEORADIUS[_RO], GEORADIUSBYMEMBER[_RO], GEOSEARCH, GEOSEARCHSTORE.
 * The key's type first, then the positional centre and radius (GEORADIUS*), then the options
 * left to right (each value checked as it is read), then STORE against WITH*, the missing FROM/BY
 * and ANY without COUNT; a missing key answers an empty array (or deletes the destination and
 * answers 0). The search scans the nine geohash cells around the centre in geo.c's order, so
 * the unsorted order is Redis's; ASC/DESC sort stably (glibc qsort is a merge sort), or with
 * pqsort when COUNT keeps fewer points than were found.
 */
function georadiusGeneric(ctx: CommandContext, argv: string[], srcKeyIndex: number, flags: number): Reply {
  const db = ctx.db;
  const version = ctx.version;
  let storekey: string | null = null;
  let storedist = false;
  const z = readZset(db, argv[srcKeyIndex]);

  let baseArgs: number;
  let x = 0;
  let y = 0;
  let conversion = 0;
  let radius = 0;
  let width = 0;
  let height = 0;
  let shapeType: 'circle' | 'box' = 'circle';
  if (flags & RADIUS_COORDS) {
    baseArgs = 6;
    [x, y] = longLatOrFail(argv, 2, version);
    [radius, conversion] = distanceOrFail(argv, baseArgs - 2, version);
  } else if (flags & RADIUS_MEMBER && z === undefined) {
    baseArgs = 5;
  } else if (flags & RADIUS_MEMBER) {
    baseArgs = 5;
    [x, y] = memberPosOrFail(z!, argv[2]);
    [radius, conversion] = distanceOrFail(argv, baseArgs - 2, version);
  } else {
    baseArgs = 2;
    if (flags & GEOSEARCHSTORE) {
      baseArgs = 3;
      storekey = argv[1];
    }
  }

  let withdist = false;
  let withhash = false;
  let withcoords = false;
  let frommember = false;
  let fromloc = false;
  let byradius = false;
  let bybox = false;
  let sort: 'none' | 'asc' | 'desc' = 'none';
  let any = false;
  let count = 0n;
  const remaining = argv.length - baseArgs;
  for (let i = 0; i < remaining; i++) {
    const arg = argv[baseArgs + i];
    if (is(arg, 'WITHDIST')) withdist = true;
    else if (is(arg, 'WITHHASH')) withhash = true;
    else if (is(arg, 'WITHCOORD')) withcoords = true;
    else if (is(arg, 'ANY')) any = true;
    else if (is(arg, 'ASC')) sort = 'asc';
    else if (is(arg, 'DESC')) sort = 'desc';
    else if (is(arg, 'COUNT') && i + 1 < remaining) {
      count = int64OrFail(argv[baseArgs + i + 1]);
      if (count <= 0n) fail('ERR COUNT must be > 0');
      i++;
    } else if (is(arg, 'STORE') && i + 1 < remaining && !(flags & RADIUS_NOSTORE) && !(flags & GEOSEARCH)) {
      storekey = argv[baseArgs + i + 1];
      storedist = false;
      i++;
    } else if (is(arg, 'STOREDIST') && i + 1 < remaining && !(flags & RADIUS_NOSTORE) && !(flags & GEOSEARCH)) {
      storekey = argv[baseArgs + i + 1];
      storedist = true;
      i++;
    } else if (is(arg, 'STOREDIST') && flags & GEOSEARCH && flags & GEOSEARCHSTORE) {
      storedist = true;
    } else if (is(arg, 'FROMMEMBER') && i + 1 < remaining && flags & GEOSEARCH && !fromloc) {
      if (z !== undefined) [x, y] = memberPosOrFail(z, argv[baseArgs + i + 1]);
      frommember = true;
      i++;
    } else if (is(arg, 'FROMLONLAT') && i + 2 < remaining && flags & GEOSEARCH && !frommember) {
      [x, y] = longLatOrFail(argv, baseArgs + i + 1, version);
      fromloc = true;
      i += 2;
    } else if (is(arg, 'BYRADIUS') && i + 2 < remaining && flags & GEOSEARCH && !bybox) {
      [radius, conversion] = distanceOrFail(argv, baseArgs + i + 1, version);
      shapeType = 'circle';
      byradius = true;
      i += 2;
    } else if (is(arg, 'BYBOX') && i + 3 < remaining && flags & GEOSEARCH && !byradius) {
      [width, height, conversion] = boxOrFail(argv, baseArgs + i + 1, version);
      shapeType = 'box';
      bybox = true;
      i += 3;
    } else {
      fail(ERR_SYNTAX);
    }
  }

  if (storekey !== null && (withdist || withhash || withcoords)) {
    fail(`ERR ${flags & GEOSEARCHSTORE ? 'GEOSEARCHSTORE' : 'STORE option in GEORADIUS'} is not compatible with WITHDIST, WITHHASH and WITHCOORD options`);
  }
  if (flags & GEOSEARCH && !(frommember || fromloc)) fail(`ERR exactly one of FROMMEMBER or FROMLONLAT can be specified for ${argv[0]}`);
  if (flags & GEOSEARCH && !(byradius || bybox)) fail(`ERR exactly one of BYRADIUS and BYBOX can be specified for ${argv[0]}`);
  if (any && !count) fail('ERR the ANY argument requires COUNT argument');

  if (z === undefined) {
    if (storekey === null) return [];
    if (db.remove(storekey)) {
      db.notifyEvent('g', 'del', storekey);
      db.dirty?.(1);
    }
    return 0;
  }

  if (count !== 0n && sort === 'none' && !any) sort = 'asc';

  const shape: GeoShape = shapeType === 'circle' ? { type: 'circle', x, y, conversion, radius } : { type: 'box', x, y, conversion, width, height };
  const georadius = geohashCalculateAreasByShape(shape);
  const ga: GeoPoint[] = [];
  // COUNT is at most 2^63-1: past the array lengths possible, a limit of 2^53 keeps every comparison
  const countN = count > 1n << 53n ? 2 ** 53 : Number(count);
  membersOfAllNeighbors(z, georadius.cells, shape, ga, any ? countN : 0);

  if (ga.length === 0 && storekey === null) return [];

  const resultLength = ga.length;
  const returnedItems = countN === 0 || resultLength < countN ? resultLength : countN;
  if (sort !== 'none') {
    const cmp = sort === 'asc' ? sortAsc : (a: GeoPoint, b: GeoPoint) => -sortAsc(a, b);
    if (returnedItems === resultLength) ga.sort(cmp);
    else pqsort(ga, cmp, 0, returnedItems - 1);
  }

  if (storekey === null) {
    const out: Reply[] = [];
    const options = withdist || withcoords || withhash;
    for (let i = 0; i < returnedItems; i++) {
      const gp = ga[i];
      gp.dist /= conversion;
      if (!options) {
        out.push(gp.member);
        continue;
      }
      const item: Reply[] = [gp.member];
      if (withdist) item.push(distanceText(gp.dist, version));
      if (withhash) item.push(Math.trunc(gp.score));
      if (withcoords) item.push([gp.x, gp.y].map((v) => new DoubleReply(v, coordText(v, version))));
      out.push(item);
    }
    return out;
  }

  if (returnedItems > 0) {
    const dst = new RedisZset();
    dst.listpack = false;
    for (let i = 0; i < returnedItems; i++) {
      const gp = ga[i];
      gp.dist /= conversion;
      dst.set(gp.member, storedist ? gp.dist : gp.score);
    }
    fitEncoding(dst, limitsOf(db));
    const isNew = db.lookup(storekey, true) === undefined;
    db.store(storekey, dst);
    if (isNew) db.notifyEvent('n', 'new', storekey); // setKey → dbAdd
    db.notifyEvent('z', flags & GEOSEARCH ? 'geosearchstore' : 'georadiusstore', storekey);
    db.dirty?.(returnedItems);
  } else if (db.remove(storekey)) {
    db.notifyEvent('g', 'del', storekey);
    db.dirty?.(1);
  }
  return returnedItems;
}

export const specs: CommandSpec[] = [
  { name: 'geoadd', arity: -5, write: true, run: geoadd },
  { name: 'geopos', arity: -2, write: false, run: geopos },
  { name: 'geodist', arity: -4, write: false, run: geodist },
  { name: 'geohash', arity: -2, write: false, run: geohash },
  { name: 'georadius', arity: -6, write: true, run: (ctx, argv) => georadiusGeneric(ctx, argv, 1, RADIUS_COORDS) },
  { name: 'georadiusbymember', arity: -5, write: true, run: (ctx, argv) => georadiusGeneric(ctx, argv, 1, RADIUS_MEMBER) },
  { name: 'georadius_ro', arity: -6, write: false, run: (ctx, argv) => georadiusGeneric(ctx, argv, 1, RADIUS_COORDS | RADIUS_NOSTORE) },
  { name: 'georadiusbymember_ro', arity: -5, write: false, run: (ctx, argv) => georadiusGeneric(ctx, argv, 1, RADIUS_MEMBER | RADIUS_NOSTORE) },
  { name: 'geosearch', arity: -7, write: false, run: (ctx, argv) => georadiusGeneric(ctx, argv, 1, GEOSEARCH) },
  { name: 'geosearchstore', arity: -8, write: true, run: (ctx, argv) => georadiusGeneric(ctx, argv, 2, GEOSEARCH | GEOSEARCHSTORE) },
];
