/**
 * Values given in ioredis-mock's shapes (its `data` constructor option, `redis.data.set`) as a
 * real server could hold them. ioredis-mock keeps a stream as an array of `[id, [field, value,
 * …]]` entries next to bookkeeping keys `stream:<key>:<id>` = `{ polled: false }`, and stores
 * an empty array, Set, Map or object as a key; Redis has no empty list, set, sorted set or hash
 * (the last element removed deletes the key) and no such bookkeeping.
 */
import { bytesOf } from '../bytes/index';
import { StreamsMockError } from '../clock/clock';
import { Stream } from '../model/stream';
import { compareIds, formatId, isZeroId, parseStrictId } from '../model/stream-id';

/** What `seedValue` makes of a value: store it, store this stream instead, or store nothing. */
export type Seeded = { kind: 'value'; value: unknown } | { kind: 'stream'; value: Stream } | { kind: 'none' };

const isIdText = (v: unknown): v is string | Buffer => typeof v === 'string' || Buffer.isBuffer(v);

/** An array of `[id, [field, value, …]]` entries: ioredis-mock's stream (a list holds no arrays). */
function isStreamSeed(val: unknown): val is [string | Buffer, unknown[]][] {
  if (!Array.isArray(val) || val.length === 0) return false;
  for (const e of val) {
    if (!Array.isArray(e) || e.length !== 2 || !isIdText(e[0]) || !Array.isArray(e[1])) return false;
  }
  return true;
}

/** True for ioredis-mock's XREAD bookkeeping: `stream:<key>:<ms>-<seq>` = `{ polled: <boolean> }`. */
function isPolledMark(key: string, val: unknown): boolean {
  if (!/^stream:.+:\d+-\d+$/.test(key) || typeof val !== 'object' || val === null || Array.isArray(val)) return false;
  const names = Object.keys(val);
  return names.length === 1 && names[0] === 'polled' && typeof (val as { polled: unknown }).polled === 'boolean';
}

function isEmptyContainer(val: unknown): boolean {
  if (Array.isArray(val)) return val.length === 0;
  if (val instanceof Set || val instanceof Map) return val.size === 0;
  return typeof val === 'object' && val !== null && !Buffer.isBuffer(val) && !(val instanceof Uint8Array) && !('redisType' in val) && Object.keys(val).length === 0;
}

/**
 * The stream of ioredis-mock's entries: IDs `ms-seq` (or `ms`), strictly increasing and above
 * 0-0, each with field/value pairs; fields and values as the client sends them (strings as
 * UTF-8, Buffers as their bytes).
 * @throws StreamsMockError naming the key and the first entry that is not a valid next entry
 */
function streamOfSeed(key: string, entries: [string | Buffer, unknown[]][]): Stream {
  const s = new Stream();
  for (const [rawId, fields] of entries) {
    const text = bytesOf(rawId);
    const id = parseStrictId(text);
    const where = `data for key ${JSON.stringify(key)}: stream entry ${JSON.stringify(text)}`;
    if (id === null) throw new StreamsMockError(`${where}: not a stream ID; give each entry as ['<ms>-<seq>', [field, value, …]]`);
    if (isZeroId(id)) throw new StreamsMockError(`${where}: IDs must be above 0-0 (as XADD requires); start at 0-1 or 1-0`);
    if (s.length > 0 && compareIds(id, s.lastId) <= 0) {
      throw new StreamsMockError(`${where}: IDs must be increasing (the entry before is ${formatId(s.lastId)}); order the entries by ID`);
    }
    if (fields.length === 0 || fields.length % 2 !== 0) {
      throw new StreamsMockError(`${where}: give its fields as a flat [field, value, …] list with at least one pair`);
    }
    s.append(id, fields.map((f) => bytesOf(f)));
  }
  return s;
}

/**
 * A sorted set in ioredis-mock's shape: a Map of member → `{ score, value }` (`value` the member).
 * @throws StreamsMockError for another Map (e.g. member → score), which would store members
 *   named "undefined" with NaN scores
 */
function checkZsetSeed(key: string, val: Map<unknown, unknown>): void {
  for (const [member, entry] of val) {
    const e = entry as { score?: unknown; value?: unknown } | null;
    if (typeof e !== 'object' || e === null || e.score === undefined || e.value === undefined || Number.isNaN(Number(e.score))) {
      throw new StreamsMockError(
        `data for key ${JSON.stringify(key)}: a sorted set is a Map of member → { score, value } (ioredis-mock's shape), ` +
          `e.g. new Map([['m1', { score: 1, value: 'm1' }]]); member ${JSON.stringify(String(member))} has ${JSON.stringify(entry) ?? String(entry)}`,
      );
    }
  }
}

/**
 * A value that is none of the shapes a key can hold (null, a function, a symbol, an instance of
 * a class such as a Date) — stored, it made a key that TYPE called none and GET refused.
 * @throws StreamsMockError naming the key and the shapes taken
 */
function checkSeedShape(key: string, val: unknown): void {
  let what: string | null = null;
  if (val === null) what = 'null';
  else if (typeof val === 'function' || typeof val === 'symbol') what = `a ${typeof val}`;
  else if (typeof val === 'object' && !Array.isArray(val) && !(val instanceof Map) && !(val instanceof Set) && !(val instanceof Uint8Array) && !('redisType' in val)) {
    const proto: unknown = Object.getPrototypeOf(val);
    if (proto !== Object.prototype && proto !== null) what = `a ${(val as { constructor?: { name?: string } }).constructor?.name || 'class instance'}`;
  }
  if (what === null) return;
  throw new StreamsMockError(
    `data for key ${JSON.stringify(key)}: ${what} is no value a key holds; give a string, number or Buffer (a string), ` +
      'an array (a list), a Set, a Map of member → { score, value } (a sorted set), a plain object (a hash) or stream entries, or leave the key out',
  );
}

/**
 * What to store for `val` at `key` (a key as given, for messages) when a value comes in one of
 * ioredis-mock's shapes.
 * @throws StreamsMockError for a stream seed whose entries are not valid (see `streamOfSeed`), a
 *   Map that is not member → `{ score, value }`, or a value of no shape a key holds (null, a
 *   function, a symbol, a class instance such as a Date: `checkSeedShape`)
 */
export function seedValue(key: string, val: unknown): Seeded {
  // as ioredis sends them (String(v)): a boolean or bigint is its text
  if (typeof val === 'boolean' || typeof val === 'bigint') return { kind: 'value', value: String(val) };
  // a Uint8Array that is no Buffer: its bytes, as a Buffer's (it would be stored as a hash of its indexes)
  if (val instanceof Uint8Array && !Buffer.isBuffer(val)) return { kind: 'value', value: Buffer.from(val.buffer, val.byteOffset, val.byteLength) };
  checkSeedShape(key, val);
  if (isEmptyContainer(val) || isPolledMark(key, val)) return { kind: 'none' };
  if (val instanceof Map) checkZsetSeed(key, val);
  if (isStreamSeed(val)) return { kind: 'stream', value: streamOfSeed(key, val) };
  return { kind: 'value', value: val };
}
