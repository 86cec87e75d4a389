/**
 * Redis's geohash (geohash.c, geohash_helper.c): 26 steps per axis interleaved into a 52-bit
 * integer, latitude on the even bits and longitude on the odd bits, over longitude −180…180 and
 * latitude −85.05112878…85.05112878 (the Web Mercator limits). The bits are a sorted set's score.
 * Pure arithmetic in doubles and BigInt, done as the C code does it so the printed digits match.
 */

export const GEO_STEP_MAX = 26;
export const GEO_LAT_MIN = -85.05112878;
export const GEO_LAT_MAX = 85.05112878;
export const GEO_LONG_MIN = -180;
export const GEO_LONG_MAX = 180;
/** geohash_helper.c EARTH_RADIUS_IN_METERS. */
export const EARTH_RADIUS_IN_METERS = 6372797.560856;

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

/**
 * decodeGeohash: the centre of the cell a score names, clamped to Redis's limits, as
 * [longitude, latitude] (any score decodes: geo.c's decodeGeohash never fails at step 26).
 */
export function geoDecode(score: number): [number, number] {
  // (uint64_t)bits, as x86-64 converts: truncation, modulo 2^64; inf and nan give 2^63. The
  // hash's step is 26, so HASHISZERO never holds: the score 0 is a cell too.
  const bits = Number.isFinite(score) ? BigInt(Math.trunc(score)) & ((1n << 64n) - 1n) : 1n << 63n;
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
  const v = Math.sin((lon2r - lon1r) / 2);
  if (v === 0.0) return EARTH_RADIUS_IN_METERS * Math.abs(degRad(lat2d) - degRad(lat1d));
  const lat1r = degRad(lat1d);
  const lat2r = degRad(lat2d);
  const u = Math.sin((lat2r - lat1r) / 2);
  const a = u * u + Math.cos(lat1r) * Math.cos(lat2r) * v * v;
  return 2.0 * EARTH_RADIUS_IN_METERS * Math.asin(Math.sqrt(a));
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
