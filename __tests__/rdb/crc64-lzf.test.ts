/**
 * CRC-64/Jones and LZF as Redis uses them for DUMP payloads. Expected bytes are DUMP payloads
 * recorded on redis-server 7.0.15 (the LZF output and the CRC of the whole payload).
 */
import { crc64, crc64Bytes } from '../../lib/rdb/crc64';
import { lzfCompress, lzfDecompress } from '../../lib/rdb/lzf';
import { mulberry32 } from '../differential/differential';

const hex = (s: string) => new Uint8Array(Buffer.from(s, 'hex'));

describe('crc64 (Jones, reflected)', () => {
  it('gives the check value of "123456789"', () => {
    expect(crc64(Buffer.from('123456789')).toString(16)).toBe('e9c6d914c4b8d9ca');
  });

  it('gives 0 for no input and continues from a previous crc', () => {
    expect(crc64(new Uint8Array(0))).toBe(0n);
    const data = Buffer.from('hello world, a stream payload');
    expect(crc64(data.subarray(10), crc64(data.subarray(0, 10)))).toBe(crc64(data));
  });

  it('matches the footer of DUMP payloads recorded on redis-server 7.0.15', () => {
    for (const payload of [
      '000568656c6c6f0a006372df766534200a',
      '00c314230c68656c6c6f20776f726c642068e00b0b016c640a00778390696934acb7',
      '130110000000000000000100000000000000011d1d0000000a0001010001010181660200010201000100018176020401ff0101010101000001000a00ff55ab626ac035db',
    ]) {
      const b = hex(payload);
      expect(Buffer.from(crc64Bytes(b, 0, b.length - 8)).toString('hex')).toBe(payload.slice(-16));
    }
  });
});

describe('LZF (port of lzf_c.c)', () => {
  it('compresses like Redis: a repeated phrase and a run of one byte', () => {
    const phrase = Buffer.from('hello world hello world hello world');
    expect(Buffer.from(lzfCompress(phrase, phrase.length - 4) as Uint8Array).toString('hex')).toBe(
      '0c68656c6c6f20776f726c642068e00b0b016c64',
    );
    const run = Buffer.from('a'.repeat(100));
    expect(Buffer.from(lzfCompress(run, run.length - 4) as Uint8Array).toString('hex')).toBe('016161e057000161 61'.replace(' ', ''));
  });

  it('gives up (null) when the output would not fit, as for incompressible text', () => {
    const abc = Buffer.from('abcdefghijklmnopqrstuvwxyz');
    expect(lzfCompress(abc, abc.length - 4)).toBeNull();
    expect(lzfCompress(new Uint8Array(0), 10)).toBeNull();
  });

  it('never starts a match at the first input byte (Redis `ref > in_data`)', () => {
    // "abcabc…": the only earlier occurrence of "abc" at position 3 is position 0
    const s = Buffer.from('abcabcxyzxyzxyzxyzxyzxyzxyz');
    const out = lzfCompress(s, 100) as Uint8Array;
    expect(Buffer.from(lzfDecompress(out, s.length) as Uint8Array).equals(s)).toBe(true);
    // "abcabcxyz" stay literals (control byte 8 = 9 literals); the first match is "xyz…" at 9
    expect(Buffer.from(out.subarray(0, 10)).toString('latin1')).toBe('\x08abcabcxyz');
  });

  it('round-trips random data of every compressibility', () => {
    const rnd = mulberry32(7);
    for (let n = 0; n < 300; n++) {
      const len = Math.floor(rnd() * 5000) + 1;
      const alphabet = 1 + Math.floor(rnd() * 255);
      const data = new Uint8Array(len);
      for (let i = 0; i < len; i++) data[i] = rnd() < 0.3 && i > 10 ? data[i - 1 - Math.floor(rnd() * 10)] : Math.floor(rnd() * alphabet);
      const c = lzfCompress(data, len + Math.ceil(len / 32) + 16); // worst case: a control byte per 32 literals
      expect(c).not.toBeNull();
      expect(Buffer.from(lzfDecompress(c as Uint8Array, len) as Uint8Array).equals(Buffer.from(data))).toBe(true);
    }
  });

  it('rejects corrupt input: a back reference before the start, a wrong length, truncation', () => {
    expect(lzfDecompress(hex('20ff'), 3)).toBeNull(); // reference before the output start
    expect(lzfDecompress(hex('0161'), 1)).toBeNull(); // 2 literal bytes announced, 1 present
    const phrase = Buffer.from('hello world hello world hello world');
    const c = lzfCompress(phrase, phrase.length - 4) as Uint8Array;
    expect(lzfDecompress(c, phrase.length + 1)).toBeNull();
    expect(lzfDecompress(c, phrase.length - 1)).toBeNull();
    expect(lzfDecompress(c.subarray(0, c.length - 1), phrase.length)).toBeNull();
  });
});
