/**
 * Streams in the RDB encoding: round trips through every stream type the fake writes (19, 21,
 * 26, 27), exact bytes against payloads recorded on real servers, legacy payloads of Redis's own
 * test suite (6.2 type 15, 7.0 type 19), and the payloads the loader must refuse.
 */
import { ConsumerGroup } from '../../lib/model/consumer-group';
import { Stream } from '../../lib/model/stream';
import { createDumpPayload, loadDumpPayload, verifyDumpPayload } from '../../lib/rdb/payload';
import { RdbFormatError, RdbReader, RdbWriter } from '../../lib/rdb/rdb-io';
import { nodeListpack, rawId, readStream, writeStream } from '../../lib/rdb/stream-codec';
import { ListpackWriter } from '../../lib/rdb/listpack';
import { RDB_FORMAT } from '../../lib/version';
import { mulberry32 } from '../differential/differential';

const toHex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const id = (ms: number, seq = 0) => ({ ms: BigInt(ms), seq: BigInt(seq) });

/** A stream with everything the encoding carries: tombstones, several nodes, groups, PELs, consumers. */
function richStream(seed: number): Stream {
  const rnd = mulberry32(seed);
  const s = new Stream();
  const n = 20 + Math.floor(rnd() * 300);
  for (let i = 1; i <= n; i++) {
    const fields = rnd() < 0.6 ? ['f', String(i), 'g', 'x'.repeat(Math.floor(rnd() * 40))] : ['h', String(rnd())];
    s.append(id(1000 + i, i % 3), fields);
  }
  for (let k = 0; k < n / 5; k++) s.deleteEntry(id(1000 + 1 + Math.floor(rnd() * n), 0));
  for (const name of ['beta', 'alpha']) {
    const g = new ConsumerGroup(name, id(1000 + Math.floor(n / 2), 0), BigInt(Math.floor(n / 3)));
    s.groups.set(name, g);
    const c1 = g.ensureConsumer('c1', 1_700_000_000_000).consumer;
    const c2 = g.ensureConsumer('c0', 1_700_000_000_500).consumer;
    c1.activeTime = 1_700_000_000_100;
    for (let k = 0; k < 10; k++) {
      const e = s.entries.first();
      const pid = id(1000 + 1 + Math.floor(rnd() * n), 0);
      if (!g.pel.has(pid) && e) g.addPending(pid, rnd() < 0.5 ? c1 : c2, 1_700_000_000_000 + k, BigInt(1 + k));
    }
  }
  return s;
}

function encode(s: Stream, type: number): Uint8Array {
  const w = new RdbWriter({ compression: true });
  writeStream(w, s, type);
  return w.bytes().slice();
}

function decode(bytes: Uint8Array, type: number): Stream {
  return readStream(new RdbReader(bytes), type).stream;
}

/** Everything observable of a stream, for comparisons. */
function snapshot(s: Stream) {
  return {
    entries: [...s.entries.range(id(0), { ms: (1n << 64n) - 1n, seq: (1n << 64n) - 1n })],
    nodes: s.entries.storedNodes(),
    lastId: s.lastId,
    firstId: s.firstId,
    maxDeleted: s.maxDeletedEntryId,
    entriesAdded: s.entriesAdded,
    groups: s.sortedGroups().map((g) => ({
      name: g.name,
      lastId: g.lastId,
      entriesRead: g.entriesRead,
      pel: g.pel.valuesArray().map((pe) => [pe.id, pe.deliveryTime, pe.deliveryCount, pe.consumer?.name ?? null, pe.nackSeq > 0]),
      consumers: g.sortedConsumers().map((c) => [c.name, c.seenTime, c.activeTime, c.pel.keysArray()]),
    })),
  };
}

describe('stream RDB encoding round trips', () => {
  it.each([19, 21, 26, 27])('type %i: decode(encode(s)) has the same state and encodes to the same bytes', (type) => {
    for (let seed = 1; seed <= 8; seed++) {
      const s = richStream(seed);
      const bytes = encode(s, type);
      const back = decode(bytes, type);
      const expected = snapshot(s);
      if (type < 21) expected.groups.forEach((g) => g.consumers.forEach((c) => (c[2] = c[1]))); // active-time = seen-time
      expect(snapshot(back)).toEqual(expected);
      expect(toHex(encode(back, type))).toBe(toHex(bytes));
    }
  });

  it('keeps deleted entries (flag 1, fields kept) in their node, as XDEL leaves them', () => {
    const s = new Stream();
    s.append(id(1), ['f', 'a']);
    s.append(id(2), ['f', 'b']);
    s.deleteEntry(id(1));
    const node = s.entries.storedNodes()[0];
    expect(node.entries.map((e) => [e.deleted, e.fields])).toEqual([
      [true, ['f', 'a']],
      [false, ['f', 'b']],
    ]);
    // master [1 live, 1 deleted, 1 field, "f", 0], entry 1: flags 3 (deleted|samefields)
    expect(toHex(nodeListpack(node))).toBe('28000000' + '0f00' + '0101' + '0101' + '0101' + '816602' + '0001' + '0301' + '0001' + '0001' + '816102' + '0401' + '0201' + '0101' + '0001' + '816202' + '0401' + 'ff');
  });

  it('writes the NACK zone of each group (type 27) and restores it in zone order', () => {
    const s = richStream(3);
    const g = s.groups.get('alpha') as ConsumerGroup;
    const pending = g.pel.valuesArray();
    g.nack(pending[2]);
    g.nack(pending[0]);
    const back = decode(encode(s, 27), 27);
    const bg = back.groups.get('alpha') as ConsumerGroup;
    const zone = [...bg.pendingByDeliveryTime()].filter((pe) => pe.nackSeq > 0).map((pe) => pe.id);
    expect(zone).toEqual([pending[2].id, pending[0].id]);
    expect(bg.nackedCount).toBe(2);
  });
});

describe('stream payloads recorded on real servers', () => {
  it('DUMP of XADD s 1-1 f v: byte-identical to redis-server 7.0.15 (type 19) and the 7.4+ build (type 21)', () => {
    const s = new Stream();
    s.append(id(1, 1), ['f', 'v']);
    expect(toHex(createDumpPayload({ type: 'stream', value: s }, RDB_FORMAT['7.0'], { compression: true }))).toBe(
      '130110000000000000000100000000000000011d1d0000000a0001010001010181660200010201000100018176020401ff0101010101000001000a00ff55ab626ac035db',
    );
    expect(toHex(createDumpPayload({ type: 'stream', value: s }, RDB_FORMAT['8.0'], { compression: true }))).toBe(
      '150110000000000000000100000000000000011d1d0000000a0001010001010181660200010201000100018176020401ff0101010101000001000c0047f32561afb1fbb3',
    );
  });

  it('loads the 6.2 (type 15) payload of stream-cgroups.tcl: entries-added = length, entries-read estimated', () => {
    // Redis test suite, "Loading from legacy (Redis <= v6.2.x, rdb_ver < 10) persistence"
    const payload = Buffer.from(
      '\x0F\x01\x10\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\xC3\x40\x4A\x40\x57\x16\x57\x00\x00\x00\x23\x00\x02\x01\x04\x01\x01\x01\x84\x64\x61\x74\x61\x05\x00\x01\x03\x01\x00\x20\x01\x03\x81\x61\x02\x04\x20\x0A\x00\x01\x40\x0A\x00\x62\x60\x0A\x00\x02\x40\x0A\x00\x63\x60\x0A\x40\x22\x01\x81\x64\x20\x0A\x40\x39\x20\x0A\x00\x65\x60\x0A\x00\x05\x40\x0A\x00\x66\x20\x0A\x00\xFF\x02\x06\x00\x02\x02\x67\x31\x05\x00\x04\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x3E\xF7\x83\x43\x7A\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x3E\xF7\x83\x43\x7A\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x04\x00\x00\x00\x00\x00\x00\x00\x00\x3E\xF7\x83\x43\x7A\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x05\x00\x00\x00\x00\x00\x00\x00\x00\x3E\xF7\x83\x43\x7A\x01\x00\x00\x01\x01\x03\x63\x31\x31\x3E\xF7\x83\x43\x7A\x01\x00\x00\x04\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x04\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x05\x00\x00\x00\x00\x00\x00\x00\x00\x02\x67\x32\x00\x00\x00\x00\x09\x00\x3D\x52\xEF\x68\x67\x52\x1D\xFA',
      'latin1',
    );
    const bytes = new Uint8Array(payload);
    expect(verifyDumpPayload(bytes, RDB_FORMAT['7.0'])).toBe(true);
    const loaded = loadDumpPayload(bytes, RDB_FORMAT['7.0']).value;
    if (loaded.type !== 'stream') throw new Error('not a stream');
    const s = loaded.value;
    expect(s.length).toBe(2);
    expect(s.entriesAdded).toBe(2n);
    expect(s.maxDeletedEntryId).toEqual(id(0));
    expect(s.firstId).toEqual(id(5));
    const [g1, g2] = s.sortedGroups();
    expect([g1.name, g1.entriesRead, s.lag(g1)]).toEqual(['g1', 1n, 1n]);
    expect([g2.name, g2.entriesRead, s.lag(g2)]).toEqual(['g2', 0n, 2n]);
    expect(g1.pel.size).toBe(4);
    expect(g1.getConsumer('c11')?.pel.size).toBe(4);
  });
});

describe('payload verification and the loader refusing bad data', () => {
  const s = new Stream();
  s.append(id(5), ['f', 'v']);
  const good = createDumpPayload({ type: 'stream', value: s }, RDB_FORMAT['8.10'], { compression: true });

  it('refuses a payload shorter than 10 bytes, a newer RDB version and a CRC mismatch', () => {
    expect(verifyDumpPayload(good, RDB_FORMAT['8.10'])).toBe(true);
    expect(verifyDumpPayload(good.subarray(0, 9), RDB_FORMAT['8.10'])).toBe(false);
    expect(verifyDumpPayload(good, RDB_FORMAT['8.8'])).toBe(false); // RDB 15 > 14
    const flipped = good.slice();
    flipped[3] ^= 1;
    expect(verifyDumpPayload(flipped, RDB_FORMAT['8.10'])).toBe(false);
  });

  it('refuses a stream type newer than the version writes (type 27 in 8.6) even with a valid footer', () => {
    const forged = createDumpPayload({ type: 'stream', value: s }, { ...RDB_FORMAT['8.6'], streamType: 27 }, { compression: true });
    expect(verifyDumpPayload(forged, RDB_FORMAT['8.6'])).toBe(true);
    expect(() => loadDumpPayload(forged, RDB_FORMAT['8.6'])).toThrow(RdbFormatError);
  });

  /** A type-21 payload body built by hand from parts. */
  function body(parts: (w: RdbWriter) => void): Uint8Array {
    const w = new RdbWriter({ compression: false });
    w.byte(21);
    parts(w);
    w.byte(12);
    w.byte(0);
    return w.bytes().slice();
  }
  const oneEntryListpack = (msDiff = 0) => {
    const lp = new ListpackWriter();
    for (const v of [1, 0, 1]) lp.int(v);
    lp.string('f');
    lp.int(0);
    lp.int(2);
    lp.int(msDiff);
    lp.int(0);
    lp.string('v');
    lp.int(4);
    return lp.finish();
  };
  const meta = (w: RdbWriter, length = 1) => {
    w.len(length);
    w.len(5);
    w.len(0); // last id
    w.len(5);
    w.len(0); // first id
    w.len(0);
    w.len(0); // max deleted
    w.len(1); // entries added
  };

  it.each<[string, (w: RdbWriter) => void]>([
    ['a node key that is not 16 bytes', (w) => (w.len(1), w.string('short'), w.bytesString(oneEntryListpack()))],
    ['an empty listpack', (w) => (w.len(1), w.bytesString(rawId(id(5))), w.bytesString(new ListpackWriter().finish()))],
    [
      'a node whose first entry is not at the node key',
      (w) => (w.len(1), w.bytesString(rawId(id(4))), w.bytesString(oneEntryListpack(1)), meta(w), w.len(0)),
    ],
    ['a length that disagrees with the entries', (w) => (w.len(1), w.bytesString(rawId(id(5))), w.bytesString(oneEntryListpack()), meta(w, 2), w.len(0))],
    [
      'a consumer PEL entry missing from the group PEL',
      (w) => {
        w.len(1);
        w.bytesString(rawId(id(5)));
        w.bytesString(oneEntryListpack());
        meta(w);
        w.len(1); // one group
        w.string('g');
        w.len(5);
        w.len(0);
        w.len(1);
        w.len(0); // empty group PEL
        w.len(1); // one consumer
        w.string('c');
        w.millisecondTime(1);
        w.millisecondTime(1);
        w.len(1);
        w.raw(rawId(id(5)));
      },
    ],
    [
      'a group PEL entry no consumer owns',
      (w) => {
        w.len(1);
        w.bytesString(rawId(id(5)));
        w.bytesString(oneEntryListpack());
        meta(w);
        w.len(1);
        w.string('g');
        w.len(5);
        w.len(0);
        w.len(1);
        w.len(1);
        w.raw(rawId(id(5)));
        w.millisecondTime(1);
        w.len(1);
        w.len(0); // no consumers
      },
    ],
    ['a truncated value', (w) => (w.len(1), w.bytesString(rawId(id(5))))],
  ])('refuses %s', (_what, parts) => {
    const b = body(parts);
    expect(() => readStream(new RdbReader(b.subarray(1, b.length - 2)), 21)).toThrow(RdbFormatError);
  });
});
