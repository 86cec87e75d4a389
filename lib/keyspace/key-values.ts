/**
 * Whole-key access for DUMP, RESTORE, COPY and CONFIG (the optional part of `Db`): ioredis-mock's
 * value representation (string or Buffer, array = list, Set = set, Map member → {score, value}
 * = sorted set, plain object = hash) converted to and from the typed `KeyValue` the command
 * modules use; the engine supplies the other databases of the same server for COPY … DB.
 */
import type { Db, KeyValue } from '../commands/types';
import type { Keyspace } from './keyspace';
import { RedisList } from '../model/list';
import { Stream } from '../model/stream';
import { RedisSet, type SetLimits } from '../model/set';
import { ServerConfig } from '../config/server-config';
import { DEFAULT_REDIS_VERSION, supports, type RedisVersion } from '../version';
import { RedisZset } from '../model/zset';
import { DEFAULT_COLLECTION_LIMITS, type CollectionLimits } from '../rdb/collection-limits';
import { RedisHash, hashOfPairs } from '../model/hash';

/* eslint-disable @typescript-eslint/no-explicit-any */

/** One stored element as a byte string (JS strings are UTF-8 on the wire, Buffers their bytes). */
function bytesOfElement(v: unknown): string {
  if (Buffer.isBuffer(v)) return v.toString('latin1');
  if (v instanceof Uint8Array) return Buffer.from(v).toString('latin1');
  const s = v === null || v === undefined ? '' : String(v);
  return /^[\x00-\x7f]*$/.test(s) ? s : Buffer.from(s, 'utf8').toString('latin1');
}

/** The typed value of a stored ioredis-mock value; undefined for a missing key. */
export function toKeyValue(raw: unknown): KeyValue | undefined {
  if (raw === undefined) return undefined;
  if (raw instanceof Stream) return { type: 'stream', value: raw };
  if (raw instanceof RedisSet) return { type: 'set', value: raw.members(), encoding: raw.encoding(), intsetWidth: raw.intsetWidth };
  if (raw instanceof RedisZset) return { type: 'zset', value: [...raw.entries()], listpack: raw.listpack };
  if (raw instanceof RedisList) return { type: 'list', value: raw.toArray() };
  if (raw instanceof RedisHash) {
    const value: (readonly [string, string])[] = [];
    let fieldExpiries: Map<string, number> | undefined;
    for (const e of raw.entries()) {
      value.push([e.field, e.value]);
      if (e.expireAt !== 0) (fieldExpiries ??= new Map()).set(e.field, e.expireAt);
    }
    const encoding = raw.encoding();
    const listpack = encoding !== 'hashtable';
    const kv = fieldExpiries ? { type: 'hash' as const, value, fieldExpiries, listpack } : { type: 'hash' as const, value, listpack };
    return encoding === 'listpackex' ? { ...kv, listpackEx: true } : kv;
  }
  if (Array.isArray(raw)) return { type: 'list', value: raw.map(bytesOfElement) };
  if (raw instanceof Set) return { type: 'set', value: [...raw].map(bytesOfElement) };
  if (raw instanceof Map) {
    return {
      type: 'zset',
      value: [...raw.values()].map((e: any) => [bytesOfElement(e.value), Number(e.score)] as const),
    };
  }
  // a string is the engine's byte string (lib/commands/strings.ts); a Buffer or number an old emulator's
  if (typeof raw === 'string') return { type: 'string', value: raw };
  if (typeof raw === 'number' || Buffer.isBuffer(raw)) return { type: 'string', value: bytesOfElement(raw) };
  if (typeof raw === 'object' && raw !== null) {
    return {
      type: 'hash',
      value: Object.entries(raw as Record<string, unknown>).map(([f, v]) => [bytesOfElement(f), bytesOfElement(v)] as const),
    };
  }
  return { type: 'string', value: bytesOfElement(raw) };
}

/** The set limits of CONFIG and the release (RESTORE/COPY build sets as Redis loads them). */
export function setLimitsFrom(config: ServerConfig, version: RedisVersion): SetLimits {
  const l = config.collectionLimits;
  return {
    maxIntsetEntries: l.setMaxIntsetEntries,
    maxListpackEntries: l.setMaxListpackEntries,
    maxListpackValue: l.setMaxListpackValue,
    listpack: supports(version, 'listpackSets'),
  };
}

/**
 * The stored representation of a typed value: streams by reference, sets and sorted sets as the
 * engine's RedisSet / RedisZset, encoded as Redis loads them under the limits of CONFIG
 * (`config`, defaults when absent) and the release (`version`); the other types in
 * ioredis-mock's shapes until their family is the engine's.
 */
export function fromKeyValue(v: KeyValue, config?: ServerConfig, version: RedisVersion = DEFAULT_REDIS_VERSION): unknown {
  const limits: CollectionLimits = config?.collectionLimits ?? DEFAULT_COLLECTION_LIMITS;
  const setLimits = config ? setLimitsFrom(config, version) : undefined;
  const listFill = config?.listMaxListpackSize ?? -2;
  switch (v.type) {
    case 'stream':
      return v.value;
    case 'string':
      return v.value; // the engine's strings are byte strings
    case 'list':
      return RedisList.of(v.value, listFill);
    case 'set':
      return RedisSet.fromRdb(v.value, v.encoding, setLimits ?? setLimitsFrom(new ServerConfig(), version), v.intsetWidth);
    case 'zset': {
      const z = new RedisZset();
      let longest = 0;
      for (const [member] of v.value) if (member.length > longest) longest = member.length;
      z.listpack = v.listpack ?? (v.value.length <= limits.zsetMaxListpackEntries && longest <= limits.zsetMaxListpackValue);
      for (const [member, score] of v.value) z.set(member, score);
      return z;
    }
    case 'hash': {
      // an engine hash's own encoding (COPY: hashTypeDup keeps a hashtable one however small);
      // without one (a RESTORE payload) derived from the size and the limits
      const h = hashOfPairs(v.value, v.listpack === undefined ? limits : undefined);
      if (v.listpack === false) h.convertToHashtable();
      if (v.fieldExpiries) for (const [f, at] of v.fieldExpiries) h.setExpireAt(f, at);
      if (v.listpackEx) h.prepareTtls(); // listpackex without TTLs (a listpack only: a hash table stays one)
      return h;
    }
  }
}

/**
 * The whole-key members of a `Db` over `ks` (keys are the store's keys: their bytes), where
 * `selectDb` reaches another database of the server.
 */
export function wholeKeyAccess(
  ks: Keyspace,
  dbIndex: number,
  selectDb: (index: number) => Db | undefined,
): Pick<Db, 'getValue' | 'setValue' | 'deleteKey' | 'expireAt' | 'selectDb' | 'dbIndex' | 'config'> {
  return {
    dbIndex,
    getValue: (key) => toKeyValue(ks.store.getRaw(key)),
    setValue: (key, value, expireAt) => {
      ks.store.setRaw(key, fromKeyValue(value, ks.config, ks.redisVersion));
      if (expireAt === undefined) ks.store.removeExpiry(key);
      else ks.store.setExpiry(key, expireAt);
    },
    deleteKey: (key) => {
      if (!ks.store.hasKey(key)) return false;
      ks.store.deleteKey(key);
      return true;
    },
    expireAt: (key) => (ks.store.hasKey(key) ? ks.store.expiryOf(key) : undefined),
    selectDb,
    config: ks.config,
  };
}
