/**
 * Listpacks as Redis lays them out (listpack.c): element encodings, backlens, the header, and
 * the stream macro-node listpacks, whose sizes must equal the model's byte-exact node sizes.
 */
import { ListpackWriter, readListpack } from '../../lib/rdb/listpack';
import { RdbFormatError } from '../../lib/rdb/rdb-io';
import { nodeListpack } from '../../lib/rdb/stream-codec';
import { StreamEntries } from '../../lib/model/stream-entries';
import { mulberry32 } from '../differential/differential';

function lp(build: (w: ListpackWriter) => void): string {
  const w = new ListpackWriter();
  build(w);
  return Buffer.from(w.finish()).toString('hex');
}

/** The hex of one element (header and end byte removed). */
function element(build: (w: ListpackWriter) => void): string {
  return lp(build).slice(12, -2);
}

describe('listpack element encodings', () => {
  it('encodes integers in the smallest of 7-bit, 13, 16, 24, 32 and 64 bits, each with its backlen', () => {
    expect(element((w) => w.int(0))).toBe('0001');
    expect(element((w) => w.int(127))).toBe('7f01');
    expect(element((w) => w.int(128))).toBe('c08002');
    expect(element((w) => w.int(-1))).toBe('dfff02');
    expect(element((w) => w.int(-4096))).toBe('d00002');
    expect(element((w) => w.int(4095))).toBe('cfff02');
    expect(element((w) => w.int(4096))).toBe('f1001003');
    expect(element((w) => w.int(-32768))).toBe('f1008003');
    expect(element((w) => w.int(32768))).toBe('f200800004');
    expect(element((w) => w.int(-8388608))).toBe('f200008004');
    expect(element((w) => w.int(8388608))).toBe('f30000800005');
    expect(element((w) => w.int(-2147483648))).toBe('f30000008005');
    expect(element((w) => w.int(2147483648))).toBe('f4000000800000000009');
    expect(element((w) => w.int(-9223372036854775808n))).toBe('f4000000000000008009');
  });

  it('stores a canonical int64 decimal string as an integer, anything else as a string', () => {
    expect(element((w) => w.string('12'))).toBe('0c01');
    expect(element((w) => w.string('-1'))).toBe('dfff02');
    expect(element((w) => w.string('9223372036854775807'))).toBe('f4ffffffffffffff7f09');
    for (const s of ['012', '-0', '+1', '1 ', '', '9223372036854775808', '1e3', '-']) {
      const hex = element((w) => w.string(s));
      expect(parseInt(hex.slice(0, 2), 16) & 0xc0).toBe(0x80); // 6-bit string encoding
    }
  });

  it('switches string encodings at 64 and 4096 bytes and grows the backlen with the element', () => {
    expect(element((w) => w.string('a'.repeat(63)))).toBe(`bf${'61'.repeat(63)}40`);
    expect(element((w) => w.string('a'.repeat(64)))).toBe(`e040${'61'.repeat(64)}42`);
    expect(element((w) => w.string('a'.repeat(125))).slice(-2)).toBe('7f'); // 127-byte element: 1-byte backlen
    expect(element((w) => w.string('a'.repeat(126))).slice(-4)).toBe('0180'); // 128: 2 bytes
    expect(element((w) => w.string('a'.repeat(4096))).slice(0, 10)).toBe('f000100000');
    const big = element((w) => w.string('a'.repeat(20000)));
    expect(big.slice(-6)).toBe('019ca5'); // 20005 = 1·2^14 + 28·2^7 + 37 → 01, 80|1c, 80|25
  });

  it('writes the header (total bytes, element count) and the end byte', () => {
    const hex = lp((w) => {
      w.int(1);
      w.string('f');
    });
    expect(hex).toBe('0c000000020001018166 02ff'.replace(/ /g, ''));
  });

  it('caps the header count at 65535 ("unknown") and still reads every element', () => {
    const w = new ListpackWriter();
    for (let i = 0; i < 70000; i++) w.int(i % 100);
    const bytes = w.finish();
    expect(Buffer.from(bytes.subarray(4, 6)).toString('hex')).toBe('ffff');
    expect(readListpack(bytes)).toHaveLength(70000);
  });
});

describe('readListpack', () => {
  it('reads back every encoding', () => {
    const values = [0n, 127n, 128n, -1n, 4095n, -4096n, 4096n, 40000n, -40000n, 9000000n, 3000000000n, -9223372036854775808n];
    const w = new ListpackWriter();
    for (const v of values) w.int(v);
    w.string('x'.repeat(70));
    w.string('y'.repeat(5000));
    w.string('');
    // numbers within ±2^53, bigints beyond
    expect(readListpack(w.finish())).toEqual([...values.slice(0, -1).map(Number), values[values.length - 1], 'x'.repeat(70), 'y'.repeat(5000), '']);
  });

  it('rejects a wrong total size, a missing end byte, a bad backlen and a wrong count', () => {
    const good = new ListpackWriter();
    good.int(5);
    good.string('abc');
    const bytes = good.finish();
    const bad = (mutate: (b: Uint8Array) => Uint8Array) => () => readListpack(mutate(Uint8Array.from(bytes)));
    expect(bad((b) => b.subarray(0, b.length - 1))).toThrow(RdbFormatError);
    expect(
      bad((b) => {
        b[b.length - 1] = 0;
        return b;
      }),
    ).toThrow(RdbFormatError);
    expect(
      bad((b) => {
        b[7] = 5; // backlen of the first element
        return b;
      }),
    ).toThrow(RdbFormatError);
    expect(
      bad((b) => {
        b[4] = 3; // element count
        return b;
      }),
    ).toThrow(RdbFormatError);
  });
});

describe('stream macro-node listpacks', () => {
  it('have exactly the size the model computes for each node (random entries, deletions, limits)', () => {
    const rnd = mulberry32(3);
    for (let run = 0; run < 40; run++) {
      const e = new StreamEntries(1 + Math.floor(rnd() * 120), 200 + Math.floor(rnd() * 4000));
      const ids: { ms: bigint; seq: bigint }[] = [];
      let ms = BigInt(Math.floor(rnd() * 1e12));
      for (let i = 0; i < 400; i++) {
        ms += BigInt(Math.floor(rnd() * 3));
        const id = { ms, seq: BigInt(i) };
        const fields: string[] = [];
        const nf = 1 + Math.floor(rnd() * 3);
        for (let f = 0; f < nf; f++) {
          fields.push(rnd() < 0.7 ? `f${f}` : `x${Math.floor(rnd() * 5)}`);
          const k = rnd();
          fields.push(k < 0.3 ? String(Math.floor(rnd() * 1e6) - 5e5) : k < 0.6 ? 'v'.repeat(Math.floor(rnd() * 100)) : String(Math.floor(rnd() * 2 ** 40)));
        }
        e.append(id, fields);
        ids.push(id);
        if (rnd() < 0.2) e.delete(ids[Math.floor(rnd() * ids.length)]);
      }
      e.storedNodes().forEach((node, n) => expect(nodeListpack(node).length).toBe(e.nodeBytes(n)));
    }
  });
});
