/**
 * The JSON form of ioredis reply values used by __tests__/ioredis-replies/recorded.json
 * (written by scripts/record-ioredis-replies.js), and a mask for the values that depend on the
 * wall clock of the recording (idle times, seen/active times, delivery times, HELLO's client id).
 */
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** A reply value in the recorded JSON form (Buffers base64, objects as ordered entries). */
export function toJson(v: unknown): Json {
  if (v === undefined) return { $undefined: true };
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : { $number: String(v) };
  if (typeof v === 'bigint') return { $bigint: v.toString() };
  if (Buffer.isBuffer(v)) return { $buffer: v.toString('base64') };
  if (v instanceof Error) return { $error: v.message };
  if (Array.isArray(v)) return v.map(toJson);
  if (typeof v === 'object') return { $object: Object.entries(v as object).map(([k, x]) => [k, toJson(x)]) };
  return { $unknown: String(v) };
}

const TIME_FIELDS = new Set(['idle', 'seen-time', 'active-time', 'inactive', 'id']);
const textOf = (k: Json): string | undefined =>
  typeof k === 'string' ? k : k && typeof k === 'object' && !Array.isArray(k) && typeof k.$buffer === 'string' ? Buffer.from(k.$buffer, 'base64').toString() : undefined;
const isNum = (x: Json) => typeof x === 'number' || (typeof x === 'string' && /^-?\d+$/.test(x));

/**
 * Replace wall-clock values by '<t>': the value after a field named idle / seen-time /
 * active-time / inactive / id (flat arrays and objects), epoch-ms numbers, and the idle time of
 * XPENDING's extended rows `[id, consumer, idle, count]`.
 */
export function maskTimes(v: Json): Json {
  if (Array.isArray(v)) {
    const out = v.map(maskTimes);
    for (let i = 0; i + 1 < v.length; i++) {
      const k = textOf(v[i]);
      if (k !== undefined && TIME_FIELDS.has(k)) out[i + 1] = '<t>';
    }
    if (v.length === 4 && isNum(v[2]) && isNum(v[3]) && textOf(v[0])?.includes('-')) out[2] = '<t>';
    return out;
  }
  if (v && typeof v === 'object') {
    if (Array.isArray(v.$object)) {
      return { $object: (v.$object as [string, Json][]).map(([k, x]) => [k, TIME_FIELDS.has(k) ? '<t>' : maskTimes(x)]) };
    }
    return v;
  }
  if (typeof v === 'number' && v > 1e12) return '<t>';
  if (typeof v === 'string' && /^\d{13}$/.test(v)) return '<t>';
  return v;
}
