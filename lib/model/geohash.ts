/**
 * Redis's geohash (geohash.c, geohash_helper.c): 26 steps per axis interleaved into a 52-bit
 * integer, latitude on the even bits and longitude on the odd bits, over longitude −180…180 and
 * latitude −85.05112878…85.05112878 (the Web Mercator limits). The bits are a sorted set's score.
 * Pure arithmetic in doubles and BigInt, done as the C code does it so the printed digits match
 * (sin, cos and asin as glibc rounds them: lib/model/libm.ts).
 */

export const GEO_STEP_MAX = 26;
export const GEO_LAT_MIN = -85.05112878;
export const GEO_LAT_MAX = 85.05112878;
export const GEO_LONG_MIN = -180;
export const GEO_LONG_MAX = 180;
/** geohash_helper.c EARTH_RADIUS_IN_METERS. */
export const EARTH_RADIUS_IN_METERS = 6372797.560856;

import { asin, cos, sin } from './libm';

const D_R = Math.PI / 180.0;
const degRad = (ang: number) => ang * D_R;

/** interleave64: x (32 bits) on the even bits, y on the odd bits. */
function interleave(x: number, y: number): bigint {
  let r = 0n;
  for (let i = 0; i < 32; i++) {
    if ((x >>> i) & 1) r |= 1n << BigInt(2 * i);
    if ((y >>> i) & 1) r |= 1n << BigInt(2 * i + 1);
  }
  return r;
}

/** deinterleave64: [even bits, odd bits]. */
function deinterleave(bits: bigint): [number, number] {
  let x = 0;
  let y = 0;
  for (let i = 0; i < 32; i++) {
    if ((bits >> BigInt(2 * i)) & 1n) x += 2 ** i;
    if ((bits >> BigInt(2 * i + 1)) & 1n) y += 2 ** i;
  }
  return [x, y];
}

/** A double converted to uint32_t as C does (truncation, modulo 2^32 for the in-range values here). */
function toUint32(v: number): number {
  return Math.trunc(v) >>> 0;
}

/**
 * geohashEncode over the given ranges at `step` bits per axis; null when the point is outside
 * Redis's limits or the ranges.
 */
export function geohashEncode(longitude: number, latitude: number, step = GEO_STEP_MAX, latMin = GEO_LAT_MIN, latMax = GEO_LAT_MAX, longMin = GEO_LONG_MIN, longMax = GEO_LONG_MAX): bigint | null {
  if (longitude > GEO_LONG_MAX || longitude < GEO_LONG_MIN || latitude > GEO_LAT_MAX || latitude < GEO_LAT_MIN) return null;
  if (latitude < latMin || latitude > latMax || longitude < longMin || longitude > longMax) return null;
  let latOffset = (latitude - latMin) / (latMax - latMin);
  let longOffset = (longitude - longMin) / (longMax - longMin);
  latOffset *= 2 ** step;
  longOffset *= 2 ** step;
  return interleave(toUint32(latOffset), toUint32(longOffset));
}

/** The 52-bit score of a point (geohashEncodeWGS84 + geohashAlign52Bits), as a double. */
export function geoScore(longitude: number, latitude: number): number | null {
  const bits = geohashEncode(longitude, latitude);
  return bits === null ? null : Number(bits);
}

const TWO_63 = 2 ** 63;

/**
 * `(uint64_t)score` as gcc compiles it on x86-64: below 2^63 cvttsd2si (truncation, two's
 * complement; below -2^63 and -inf its "indefinite" 2^63), from 2^63 on cvttsd2si(score - 2^63)
 * with the top bit flipped (so 2^64 and above, +inf included, give 0). Checked on redis-server
 * 7.0.15: `ZADD b inf x` then `GEOPOS b x` is the cell of 0 (-179.99999731779098511 …), and
 * GEORADIUSBYMEMBER around it finds the members near it (found by the core fuzzer).
 */
function toUint64(score: number): bigint {
  if (score < TWO_63) return score >= -TWO_63 ? BigInt(Math.trunc(score)) & ((1n << 64n) - 1n) : 1n << 63n;
  return score - TWO_63 < TWO_63 ? BigInt(Math.trunc(score)) : 0n;
}

/**
 * decodeGeohash: the centre of the cell a score names, clamped to Redis's limits, as
 * [longitude, latitude] (any score decodes: geo.c's decodeGeohash never fails at step 26).
 */
export function geoDecode(score: number): [number, number] {
  // The hash's step is 26, so HASHISZERO never holds: the score 0 is a cell too.
  const bits = toUint64(score);
  const step = GEO_STEP_MAX;
  const [ilato, ilono] = deinterleave(bits);
  const latScale = GEO_LAT_MAX - GEO_LAT_MIN;
  const longScale = GEO_LONG_MAX - GEO_LONG_MIN;
  const latMin = GEO_LAT_MIN + ((ilato * 1.0) / 2 ** step) * latScale;
  const latMax = GEO_LAT_MIN + (((ilato + 1) * 1.0) / 2 ** step) * latScale;
  const lonMin = GEO_LONG_MIN + ((ilono * 1.0) / 2 ** step) * longScale;
  const lonMax = GEO_LONG_MIN + (((ilono + 1) * 1.0) / 2 ** step) * longScale;
  let x = (lonMin + lonMax) / 2;
  if (x > GEO_LONG_MAX) x = GEO_LONG_MAX;
  if (x < GEO_LONG_MIN) x = GEO_LONG_MIN;
  let y = (latMin + latMax) / 2;
  if (y > GEO_LAT_MAX) y = GEO_LAT_MAX;
  if (y < GEO_LAT_MIN) y = GEO_LAT_MIN;
  return [x, y];
}

/** geohashGetDistance: Redis's haversine, in meters. */
export function geoDistance(lon1d: number, lat1d: number, lon2d: number, lat2d: number): number {
  const lon1r = degRad(lon1d);
  const lon2r = degRad(lon2d);
  const v = sin((lon2r - lon1r) / 2);
  if (v === 0.0) return EARTH_RADIUS_IN_METERS * Math.abs(degRad(lat2d) - degRad(lat1d));
  const lat1r = degRad(lat1d);
  const lat2r = degRad(lat2d);
  const u = sin((lat2r - lat1r) / 2);
  const a = u * u + cos(lat1r) * cos(lat2r) * v * v;
  return 2.0 * EARTH_RADIUS_IN_METERS * asin(Math.sqrt(a));
}

const GEO_ALPHABET = '0123456789bcdefghjkmnpqrstuvwxyz';

/**
 * GEOHASH's 11-character text of a score: the cell centre re-encoded over the standard ranges
 * (latitude −90…90), ten 5-bit groups and a final '0'.
 */
export function geohashText(score: number): string {
  const xy = geoDecode(score);
  const bits = geohashEncode(xy[0], xy[1], 26, -90, 90, -180, 180) ?? 0n;
  let out = '';
  for (let i = 0; i < 11; i++) {
    const idx = i === 10 ? 0 : Number((bits >> BigInt(52 - (i + 1) * 5)) & 0x1fn);
    out += GEO_ALPHABET[idx];
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Area searches (geohash.c geohashNeighbors, geohash_helper.c geohashCalculateAreasByShapeWGS84):
// the cell of the search centre at a step chosen from the radius, and its eight neighbours.

/** A geohash of `step` bits per axis (GeoHashBits); `step` 0 with bits 0 is the zeroed cell (GZERO). */
export interface GeoHashBits {
  bits: bigint;
  step: number;
}

/** A cell's extent (GeoHashArea). */
export interface GeoHashArea {
  readonly lonMin: number;
  readonly lonMax: number;
  readonly latMin: number;
  readonly latMax: number;
}

/** A search shape (GeoShape): a circle of `radius`, or a box `width` × `height`, in units of `conversion` meters. */
export type GeoShape =
  | { readonly type: 'circle'; readonly x: number; readonly y: number; readonly conversion: number; readonly radius: number }
  | { readonly type: 'box'; readonly x: number; readonly y: number; readonly conversion: number; readonly width: number; readonly height: number };

/** The nine cells to scan, in geo.c membersOfAllNeighbors's order: self, N, S, E, W, NE, NW, SE, SW. */
export interface GeoHashRadius {
  readonly cells: readonly GeoHashBits[];
  readonly area: GeoHashArea;
}

const MERCATOR_MAX = 20037726.37;
const M64 = (1n << 64n) - 1n;
const ODD_BITS = 0xaaaaaaaaaaaaaaaan;
const EVEN_BITS = 0x5555555555555555n;

/** geohashDecode over Redis's WGS84 ranges: the extent of a cell (no clamping). */
export function geohashArea(hash: GeoHashBits): GeoHashArea {
  const [ilato, ilono] = deinterleave(hash.bits);
  const latScale = GEO_LAT_MAX - GEO_LAT_MIN;
  const longScale = GEO_LONG_MAX - GEO_LONG_MIN;
  const div = 2 ** hash.step;
  return {
    latMin: GEO_LAT_MIN + ((ilato * 1.0) / div) * latScale,
    latMax: GEO_LAT_MIN + (((ilato + 1) * 1.0) / div) * latScale,
    lonMin: GEO_LONG_MIN + ((ilono * 1.0) / div) * longScale,
    lonMax: GEO_LONG_MIN + (((ilono + 1) * 1.0) / div) * longScale,
  };
}

/** geohash_move_x (longitude, the odd bits) and geohash_move_y (latitude, the even bits), with uint64 wrap-around. */
function move(hash: GeoHashBits, d: number, axis: 'x' | 'y'): GeoHashBits {
  if (d === 0) return hash;
  const shift = BigInt(64 - hash.step * 2);
  const own = axis === 'x' ? ODD_BITS : EVEN_BITS;
  const other = axis === 'x' ? EVEN_BITS : ODD_BITS;
  let v = hash.bits & own;
  const keep = hash.bits & other;
  const zz = other >> shift;
  if (d > 0) v = (v + (zz + 1n)) & M64;
  else v = ((v | zz) - (zz + 1n)) & M64;
  v &= own >> shift;
  return { bits: v | keep, step: hash.step };
}

/** geohashNeighbors: [north, south, east, west, north_east, north_west, south_east, south_west]. */
export function geohashNeighbors(hash: GeoHashBits): GeoHashBits[] {
  const at = (dx: number, dy: number) => move(move(hash, dx, 'x'), dy, 'y');
  return [at(0, 1), at(0, -1), at(1, 0), at(-1, 0), at(1, 1), at(-1, 1), at(1, -1), at(-1, -1)];
}

/** geohashEstimateStepsByRadius. */
export function geohashEstimateStepsByRadius(rangeMeters: number, lat: number): number {
  if (rangeMeters === 0) return 26;
  let step = 1;
  while (rangeMeters < MERCATOR_MAX) {
    rangeMeters *= 2;
    step++;
  }
  step -= 2;
  if (lat > 66 || lat < -66) {
    step--;
    if (lat > 80 || lat < -80) step--;
  }
  if (step < 1) step = 1;
  if (step > 26) step = 26;
  return step;
}

/** geohashBoundingBox: [min longitude, min latitude, max longitude, max latitude]. */
export function geohashBoundingBox(shape: GeoShape): [number, number, number, number] {
  const { x: longitude, y: latitude } = shape;
  const height = shape.conversion * (shape.type === 'circle' ? shape.radius : shape.height / 2);
  const width = shape.conversion * (shape.type === 'circle' ? shape.radius : shape.width / 2);
  const radDeg = (ang: number) => ang / D_R;
  const latDelta = radDeg(height / EARTH_RADIUS_IN_METERS);
  const longDeltaTop = radDeg(width / EARTH_RADIUS_IN_METERS / cos(degRad(latitude + latDelta)));
  const longDeltaBottom = radDeg(width / EARTH_RADIUS_IN_METERS / cos(degRad(latitude - latDelta)));
  const southern = latitude < 0;
  return [southern ? longitude - longDeltaBottom : longitude - longDeltaTop, latitude - latDelta, southern ? longitude + longDeltaBottom : longitude + longDeltaTop, latitude + latDelta];
}

const ZERO_CELL = (): GeoHashBits => ({ bits: 0n, step: 0 });

/** geohashCalculateAreasByShapeWGS84: the centre's cell and its neighbours, useless ones zeroed. */
export function geohashCalculateAreasByShape(shape: GeoShape): GeoHashRadius {
  const [minLon, minLat, maxLon, maxLat] = geohashBoundingBox(shape);
  const { x: longitude, y: latitude } = shape;
  let radiusMeters = shape.type === 'circle' ? shape.radius : Math.sqrt((shape.width / 2) * (shape.width / 2) + (shape.height / 2) * (shape.height / 2));
  radiusMeters *= shape.conversion;
  let steps = geohashEstimateStepsByRadius(radiusMeters, latitude);
  const encode = (step: number): GeoHashBits => ({ bits: geohashEncode(longitude, latitude, step) ?? 0n, step });
  let hash = encode(steps);
  let nb = geohashNeighbors(hash);
  let area = geohashArea(hash);
  const [north, south, east, west] = nb.slice(0, 4).map(geohashArea);
  const decrease = north.latMax < maxLat || south.latMin > minLat || east.lonMax < maxLon || west.lonMin > minLon;
  if (steps > 1 && decrease) {
    steps--;
    hash = encode(steps);
    nb = geohashNeighbors(hash);
    area = geohashArea(hash);
  }
  // indexes in nb: 0 N, 1 S, 2 E, 3 W, 4 NE, 5 NW, 6 SE, 7 SW
  if (steps >= 2) {
    const zero = (...idx: number[]) => idx.forEach((i) => (nb[i] = ZERO_CELL()));
    if (area.latMin < minLat) zero(1, 7, 6);
    if (area.latMax > maxLat) zero(0, 4, 5);
    if (area.lonMin < minLon) zero(3, 7, 5);
    if (area.lonMax > maxLon) zero(2, 6, 4);
  }
  return { cells: [hash, ...nb], area };
}

/** geohashAlign52Bits: a cell's bits as the first 52-bit score it covers. */
export function geohashAlign52Bits(hash: GeoHashBits): number {
  return Number((hash.bits << BigInt(52 - hash.step * 2)) & M64);
}

/** geohashGetLatDistance. */
export function geoLatDistance(lat1d: number, lat2d: number): number {
  return EARTH_RADIUS_IN_METERS * Math.abs(degRad(lat2d) - degRad(lat1d));
}

/**
 * geoWithinShape (after decoding): the distance from the shape's centre to (x, y) in meters, or
 * null when the point is outside. A box compares the latitude distance, then the longitude
 * distance along the point's parallel, with half its height and width.
 */
export function geoDistanceIfWithin(shape: GeoShape, x: number, y: number): number | null {
  if (shape.type === 'circle') {
    const d = geoDistance(shape.x, shape.y, x, y);
    return d > shape.radius * shape.conversion ? null : d;
  }
  const widthM = shape.width * shape.conversion;
  const heightM = shape.height * shape.conversion;
  if (geoLatDistance(y, shape.y) > heightM / 2) return null;
  if (geoDistance(x, y, shape.x, y) > widthM / 2) return null;
  return geoDistance(shape.x, shape.y, x, y);
}
