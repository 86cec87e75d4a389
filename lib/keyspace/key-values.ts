/**
 * Whole-key access for DUMP, RESTORE, COPY and CONFIG (the optional part of `Db`): ioredis-mock's
 * value representation (string or Buffer, array = list, Set = set, Map member → {score, value}
 * = sorted set, plain object = hash) converted to and from the typed `KeyValue` the command
 * modules use; the engine supplies the other databases of the same server for COPY … DB.
 */
import type { Db, KeyValue } from '../commands/types';
import type { Keyspace } from './keyspace';
import { Stream } from '../model/stream';

/* eslint-disable @typescript-eslint/no-explicit-any */

/** One stored element as a byte string (JS strings are UTF-8 on the wire, Buffers their bytes). */
function bytesOfElement(v: unknown): string {
  if (Buffer.isBuffer(v)) return v.toString('latin1');
  if (v instanceof Uint8Array) return Buffer.from(v).toString('latin1');
  const s = v === null || v === undefined ? '' : String(v);
  return /^[\x00-\x7f]*$/.test(s) ? s : Buffer.from(s, 'utf8').toString('latin1');
}

/** A byte string as ioredis-mock stores a value: a JS string when it is valid UTF-8, else a Buffer. */
function elementOfBytes(b: string): string | Buffer {
  if (/^[\x00-\x7f]*$/.test(b)) return b;
  const buf = Buffer.from(b, 'latin1');
  const text = buf.toString('utf8');
  return Buffer.from(text, 'utf8').equals(buf) ? text : buf;
}

/** The typed value of a stored ioredis-mock value; undefined for a missing key. */
export function toKeyValue(raw: unknown): KeyValue | undefined {
  if (raw === undefined) return undefined;
  if (raw instanceof Stream) return { type: 'stream', value: raw };
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

/** The ioredis-mock representation of a typed value (streams by reference). */
export function fromKeyValue(v: KeyValue): unknown {
  switch (v.type) {
    case 'stream':
      return v.value;
    case 'string':
      return v.value; // the engine's strings are byte strings
    case 'list':
      return v.value.map(elementOfBytes);
    case 'set':
      return new Set(v.value.map(elementOfBytes));
    case 'zset': {
      const m = new Map<unknown, { score: number; value: unknown }>();
      for (const [member, score] of v.value) {
        const key = elementOfBytes(member);
        m.set(key, { score, value: key });
      }
      return m;
    }
    case 'hash': {
      const o: Record<string, unknown> = {};
      for (const [f, val] of v.value) o[String(elementOfBytes(f))] = elementOfBytes(val);
      return o;
    }
  }
}

/**
 * The whole-key members of a `Db` over `ks`, where `full` maps a key argument to its store key
 * and `selectDb` reaches another database of the server.
 */
export function wholeKeyAccess(
  ks: Keyspace,
  full: (key: string) => string,
  dbIndex: number,
  selectDb: (index: number) => Db | undefined,
): Pick<Db, 'getValue' | 'setValue' | 'deleteKey' | 'expireAt' | 'selectDb' | 'dbIndex' | 'config'> {
  return {
    dbIndex,
    getValue: (key) => toKeyValue(ks.store.getRaw(full(key))),
    setValue: (key, value, expireAt) => {
      const k = full(key);
      ks.store.setRaw(k, fromKeyValue(value));
      if (expireAt === undefined) ks.store.removeExpiry(k);
      else ks.store.setExpiry(k, expireAt);
    },
    deleteKey: (key) => {
      const k = full(key);
      if (!ks.store.hasKey(k)) return false;
      ks.store.deleteKey(k);
      return true;
    },
    expireAt: (key) => (ks.store.hasKey(full(key)) ? ks.store.expiryOf(full(key)) : undefined),
    selectDb,
    config: ks.config,
  };
}
