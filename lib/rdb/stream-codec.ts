/**
 * Streams in the RDB encoding (src/rdb.c `rdbSaveObject` / `rdbLoadObject`, OBJ_STREAM):
 *
 *   nodes: len, then per macro node its rax key (the master ID, 16 bytes big-endian) and its
 *          listpack, both through rdbSaveRawString (LZF when it helps);
 *   length, last-id (ms, seq);
 *   since RDB_TYPE_STREAM_LISTPACKS_2 (7.0): first-id, max-deleted-entry-id, entries-added;
 *   groups: len, then per group (name order): name, last-id, entries-read (_2+), the group PEL
 *          (len; per entry the raw ID, delivery time as 8-byte LE ms, delivery count), the
 *          consumers (len; per consumer name, seen-time, active-time (_3+, 7.2), its PEL as raw
 *          IDs), and since _5 (8.8) the NACK zone (len; raw IDs, zone order);
 *   since _4 (8.6): the IDMP section (duration, max size, producers with their IID → ID maps,
 *          iids-added, iids-duplicates).
 *
 * A macro node's listpack: [count, deleted, num-fields, field…, 0] then per entry [flags,
 * ms-diff, seq-diff, (num-fields, field, value …) or (value …) when SAMEFIELDS, lp-count].
 */
import { Consumer } from '../model/consumer';
import { ConsumerGroup } from '../model/consumer-group';
import { IDMP_DURATION_DEFAULT, IDMP_DURATION_MAX, IDMP_MAXSIZE_DEFAULT, IDMP_MAXSIZE_MAX, IdmpMap } from '../model/idmp';
import { ENTRIES_READ_UNKNOWN, Stream } from '../model/stream';
import { StoredNode, StreamEntries } from '../model/stream-entries';
import { MIN_ID, StreamId, compareIds, idEquals } from '../model/stream-id';
import { LpValue, ListpackWriter, lpString, readListpack } from './listpack';
import { RdbFormatError, RdbReader, RdbWriter } from './rdb-io';

export const RDB_TYPE_STREAM_LISTPACKS = 15;
export const RDB_TYPE_STREAM_LISTPACKS_2 = 19;
export const RDB_TYPE_STREAM_LISTPACKS_3 = 21;
export const RDB_TYPE_STREAM_LISTPACKS_4 = 26;
export const RDB_TYPE_STREAM_LISTPACKS_5 = 27;

const FLAG_DELETED = 1;
const FLAG_SAMEFIELDS = 2;


const RAW_ID = new Uint8Array(16);
const RAW_ID_VIEW = new DataView(RAW_ID.buffer);

/** The 16-byte big-endian form of an ID (a rax key; `streamEncodeID`). A fresh array. */
export function rawId(id: StreamId): Uint8Array {
  return writeRawId(id).slice();
}

/** The same in a shared scratch buffer (valid until the next call). */
function writeRawId(id: StreamId): Uint8Array {
  RAW_ID_VIEW.setBigUint64(0, id.ms, false);
  RAW_ID_VIEW.setBigUint64(8, id.seq, false);
  return RAW_ID;
}

function readRawId(r: RdbReader): StreamId {
  const b = r.raw(16);
  const v = new DataView(b.buffer, b.byteOffset, 16);
  return { ms: v.getBigUint64(0, false), seq: v.getBigUint64(8, false) };
}

function sameFields(master: readonly string[], fields: readonly string[]): boolean {
  if (fields.length !== master.length * 2) return false;
  for (let i = 0; i < master.length; i++) if (fields[2 * i] !== master[i]) return false;
  return true;
}

/**
 * The listpack of one macro node, as Redis's appends and in-place deletions leave it.
 * `expectedBytes`: its size when known (the model's byte-exact node size), to allocate once.
 */
export function nodeListpack(node: StoredNode, expectedBytes?: number): Uint8Array {
  const lp = new ListpackWriter(expectedBytes);
  let deleted = 0;
  for (const e of node.entries) if (e.deleted) deleted++;
  lp.int(node.entries.length - deleted);
  lp.int(deleted);
  lp.int(node.masterFields.length);
  for (const f of node.masterFields) lp.string(f);
  lp.int(0);
  const master = node.entries[0].id;
  for (const e of node.entries) {
    const same = sameFields(node.masterFields, e.fields);
    lp.int((e.deleted ? FLAG_DELETED : 0) | (same ? FLAG_SAMEFIELDS : 0));
    lp.int(e.id.ms === master.ms ? 0 : BigInt.asIntN(64, e.id.ms - master.ms));
    lp.int(e.id.seq === master.seq ? 0 : BigInt.asIntN(64, e.id.seq - master.seq));
    const numFields = e.fields.length >> 1;
    if (same) {
      for (let i = 1; i < e.fields.length; i += 2) lp.string(e.fields[i]);
      lp.int(numFields + 3);
    } else {
      lp.int(numFields);
      for (const f of e.fields) lp.string(f);
      lp.int(numFields * 2 + 4);
    }
  }
  return lp.finish();
}

/** Write a stream's value (after the type byte) in the given stream RDB type. */
export function writeStream(w: RdbWriter, s: Stream, type: number): void {
  const nodes = s.entries.storedNodes();
  w.len(nodes.length);
  nodes.forEach((node, n) => {
    w.bytesString(rawId(node.entries[0].id));
    w.bytesString(nodeListpack(node, s.entries.nodeBytes(n)));
  });
  w.len(s.length);
  w.len(s.lastId.ms);
  w.len(s.lastId.seq);
  if (type >= RDB_TYPE_STREAM_LISTPACKS_2) {
    w.len(s.firstId.ms);
    w.len(s.firstId.seq);
    w.len(s.maxDeletedEntryId.ms);
    w.len(s.maxDeletedEntryId.seq);
    w.len(s.entriesAdded);
  }
  const groups = s.sortedGroups();
  w.len(groups.length);
  for (const g of groups) {
    w.string(g.name);
    w.len(g.lastId.ms);
    w.len(g.lastId.seq);
    if (type >= RDB_TYPE_STREAM_LISTPACKS_2) w.len(g.entriesRead);
    const pel = g.pel.valuesArray();
    w.len(pel.length);
    for (const pe of pel) {
      w.raw(writeRawId(pe.id));
      w.millisecondTime(pe.deliveryTime);
      w.len(pe.deliveryCount);
    }
    const consumers = g.sortedConsumers();
    w.len(consumers.length);
    for (const c of consumers) {
      w.string(c.name);
      w.millisecondTime(c.seenTime);
      if (type >= RDB_TYPE_STREAM_LISTPACKS_3) w.millisecondTime(c.activeTime);
      const ids = c.pel.keysArray();
      w.len(ids.length);
      for (const id of ids) w.raw(writeRawId(id));
    }
    if (type >= RDB_TYPE_STREAM_LISTPACKS_5) {
      const nacked: StreamId[] = [];
      for (const pe of g.pendingByDeliveryTime()) {
        if (pe.nackSeq === 0) break;
        nacked.push(pe.id);
      }
      w.len(nacked.length);
      for (const id of nacked) w.raw(writeRawId(id));
    }
  }
  if (type >= RDB_TYPE_STREAM_LISTPACKS_4) {
    // the IDMP section; a stream never given an iid nor configured saves Redis 8.6's defaults
    // (seen in an 8.6 RDB). Producers in byte order of their pid, each pid's iids oldest first,
    // an iid as its bytes and its entry's ID: assumed, read back by readStream below
    const idmp = s.idmp;
    w.len(idmp?.duration ?? IDMP_DURATION_DEFAULT);
    w.len(idmp?.maxSize ?? IDMP_MAXSIZE_DEFAULT);
    const pids = idmp ? [...idmp.producers.keys()].sort() : [];
    w.len(pids.length);
    for (const pid of pids) {
      const iids = (idmp as IdmpMap).producers.get(pid) as Map<string, StreamId>;
      w.string(pid);
      w.len(iids.size);
      for (const [iid, id] of iids) {
        w.string(iid);
        w.len(id.ms);
        w.len(id.seq);
      }
    }
    w.len(idmp?.iidsAdded ?? 0n);
    w.len(idmp?.iidsDuplicates ?? 0n);
  }
}

export interface DecodedStream {
  /** The stream, with its IDMP map for RDB_TYPE_STREAM_LISTPACKS_4 and later. */
  stream: Stream;
}

function asInt(v: LpValue | undefined, what: string): bigint {
  if (typeof v === 'number') return BigInt(v);
  if (typeof v === 'bigint') return v;
  // Redis reads listpack integers with lpGetInteger, which accepts string-encoded decimals.
  if (typeof v === 'string' && /^-?\d{1,19}$/.test(v)) return BigInt.asIntN(64, BigInt(v));
  throw new RdbFormatError(`stream listpack: ${what} is not an integer`);
}

/** A small listpack integer (flags, counts) as a number. */
function asSmall(v: LpValue | undefined, what: string): number {
  if (typeof v === 'number') return v;
  return Number(asInt(v, what));
}

/** Parse one node's listpack into a StoredNode (full validation). */
export function parseNodeListpack(master: StreamId, lp: Uint8Array): StoredNode {
  const el = readListpack(lp);
  if (el.length === 0) throw new RdbFormatError('Empty listpack inside stream');
  let i = 0;
  const next = () => {
    if (i >= el.length) throw new RdbFormatError('stream listpack truncated');
    return el[i++];
  };
  const count = asInt(next(), 'count');
  const deletedCount = asInt(next(), 'deleted count');
  const masterFieldCount = asInt(next(), 'master field count');
  if (count < 0n || deletedCount < 0n || masterFieldCount < 0n || masterFieldCount > BigInt(el.length))
    throw new RdbFormatError('stream listpack: bad master entry');
  const masterFields: string[] = [];
  for (let k = 0n; k < masterFieldCount; k++) masterFields.push(lpString(next()));
  if (asInt(next(), 'master terminator') !== 0n) throw new RdbFormatError('stream listpack: bad master terminator');
  const entries: { id: StreamId; fields: string[]; deleted: boolean }[] = [];
  let live = 0n;
  let dead = 0n;
  while (i < el.length) {
    const start = i;
    const flags = asSmall(next(), 'flags');
    const msDiff = next();
    const seqDiff = next();
    const id = {
      ms: msDiff === 0 ? master.ms : BigInt.asUintN(64, master.ms + asInt(msDiff, 'ms diff')),
      seq: seqDiff === 0 ? master.seq : BigInt.asUintN(64, master.seq + asInt(seqDiff, 'seq diff')),
    };
    const fields: string[] = [];
    if (flags & FLAG_SAMEFIELDS) {
      for (const f of masterFields) fields.push(f, lpString(next()));
    } else {
      const n = asSmall(next(), 'field count');
      if (n < 0 || n * 2 > el.length - i) throw new RdbFormatError('stream listpack: bad field count');
      for (let k = 0; k < n * 2; k++) fields.push(lpString(next()));
    }
    const lpCount = asSmall(next(), 'lp-count');
    if (lpCount !== i - start - 1) throw new RdbFormatError('stream listpack: bad lp-count');
    if (fields.length === 0) throw new RdbFormatError('stream listpack: entry without fields');
    const deleted = (flags & FLAG_DELETED) !== 0;
    if (deleted) dead++;
    else live++;
    entries.push({ id, fields, deleted });
  }
  if (entries.length === 0) throw new RdbFormatError('stream listpack: node without entries');
  if (live !== count || dead !== deletedCount) throw new RdbFormatError('stream listpack: counts mismatch');
  if (!idEquals(entries[0].id, master)) throw new RdbFormatError('stream listpack: first entry is not the master ID');
  return { masterFields, entries };
}

/**
 * Read a stream value of RDB type `type` (15, 19, 21, 26 or 27), as `rdbLoadObject` does, with
 * the checks of a deep sanitisation (`sanitize-dump-payload yes`): anything Redis would reject
 * there, or that would leave the model inconsistent, throws RdbFormatError.
 */
export function readStream(r: RdbReader, type: number): DecodedStream {
  const nodeCount = r.count('stream nodes');
  const stored: StoredNode[] = [];
  let prevMaster: StreamId | null = null;
  for (let n = 0; n < nodeCount; n++) {
    const key = r.stringBytes();
    if (key.length !== 16) throw new RdbFormatError('Stream node key entry is not the size of a stream ID');
    const kv = new DataView(key.buffer, key.byteOffset, 16);
    const master = { ms: kv.getBigUint64(0, false), seq: kv.getBigUint64(8, false) };
    if (prevMaster && compareIds(master, prevMaster) <= 0)
      throw new RdbFormatError('Listpack re-added with existing key');
    prevMaster = master;
    stored.push(parseNodeListpack(master, r.stringBytes()));
  }
  const s = new Stream();
  s.entries = StreamEntries.fromStoredNodes(stored);
  const length = r.len();
  s.lastId = { ms: r.len(), seq: r.len() };
  if (type >= RDB_TYPE_STREAM_LISTPACKS_2) {
    s.firstId = { ms: r.len(), seq: r.len() };
    s.maxDeletedEntryId = { ms: r.len(), seq: r.len() };
    s.entriesAdded = BigInt.asIntN(64, r.len());
  } else {
    s.maxDeletedEntryId = MIN_ID;
    s.entriesAdded = BigInt.asIntN(64, length);
    s.firstId = s.entries.first()?.id ?? MIN_ID;
  }
  if (length !== BigInt(s.length)) throw new RdbFormatError('Stream length inconsistent with its entries');

  const groupCount = r.count('consumer groups');
  for (let gi = 0; gi < groupCount; gi++) {
    const name = r.string();
    const lastId = { ms: r.len(), seq: r.len() };
    const entriesRead =
      type >= RDB_TYPE_STREAM_LISTPACKS_2 ? BigInt.asIntN(64, r.len()) : s.estimateEntriesRead(lastId);
    if (s.groups.has(name)) throw new RdbFormatError(`Duplicated consumer group name ${name}`);
    const g = new ConsumerGroup(name, lastId, entriesRead < 0n ? ENTRIES_READ_UNKNOWN : entriesRead);
    s.groups.set(name, g);
    const pelSize = r.count('group PEL');
    const loaded: { id: StreamId; time: bigint; count: bigint }[] = [];
    for (let k = 0; k < pelSize; k++) {
      const id = readRawId(r);
      const time = r.millisecondTime();
      const count = r.len();
      loaded.push({ id, time, count });
    }
    // Owners come with the consumers, after the group PEL.
    const owner = new Map<string, Consumer | null>();
    const byKey = new Map<string, { id: StreamId; time: bigint; count: bigint }>();
    for (const pe of loaded) {
      const k = `${pe.id.ms}-${pe.id.seq}`;
      if (byKey.has(k)) throw new RdbFormatError('Duplicated global PEL entry loading stream consumer group');
      byKey.set(k, pe);
    }
    const consumerCount = r.count('consumers');
    for (let ci = 0; ci < consumerCount; ci++) {
      const cname = r.string();
      if (g.consumers.has(cname)) throw new RdbFormatError('Duplicate stream consumer detected.');
      const seen = r.millisecondTime();
      const active = type >= RDB_TYPE_STREAM_LISTPACKS_3 ? r.millisecondTime() : seen;
      const c = new Consumer(cname, Number(seen), Number(active));
      g.consumers.set(cname, c);
      const n = r.count('consumer PEL');
      for (let k = 0; k < n; k++) {
        const id = readRawId(r);
        const key = `${id.ms}-${id.seq}`;
        if (!byKey.has(key)) throw new RdbFormatError('Consumer entry not found in group global PEL');
        if (owner.has(key)) throw new RdbFormatError('Duplicated consumer PEL entry loading a stream consumer group');
        owner.set(key, c);
      }
    }
    const nacked: string[] = [];
    if (type >= RDB_TYPE_STREAM_LISTPACKS_5) {
      const n = r.count('NACK zone');
      for (let k = 0; k < n; k++) {
        const id = readRawId(r);
        const key = `${id.ms}-${id.seq}`;
        if (!byKey.has(key)) throw new RdbFormatError('Stream NACK zone entry not found in group PEL');
        if (owner.has(key)) throw new RdbFormatError('Stream NACK zone entry has a consumer assigned');
        owner.set(key, null);
        nacked.push(key);
      }
    }
    for (const pe of loaded) {
      const key = `${pe.id.ms}-${pe.id.seq}`;
      if (!owner.has(key)) throw new RdbFormatError('Stream CG PEL entry without consumer');
      g.addPending(pe.id, owner.get(key) ?? null, Number(pe.time), pe.count);
    }
    for (const key of nacked) {
      const pe = byKey.get(key) as { id: StreamId };
      const entry = g.pel.get(pe.id);
      if (entry) g.nack(entry);
    }
  }

  if (type >= RDB_TYPE_STREAM_LISTPACKS_4) {
    const duration = r.len();
    const maxSize = r.len();
    if (duration < 1n || duration > BigInt(IDMP_DURATION_MAX) || maxSize < 1n || maxSize > BigInt(IDMP_MAXSIZE_MAX)) {
      throw new RdbFormatError('stream IDMP settings out of range');
    }
    const idmp = new IdmpMap(Number(duration), Number(maxSize));
    const producers = r.count('IDMP producers');
    for (let p = 0; p < producers; p++) {
      const pid = r.string();
      const entries = r.count('IDMP entries');
      for (let e = 0; e < entries; e++) {
        const iid = r.string();
        idmp.record(pid, iid, { ms: r.len(), seq: r.len() });
      }
    }
    idmp.iidsAdded = r.len();
    idmp.iidsDuplicates = r.len();
    s.idmp = idmp;
  }
  return { stream: s };
}
