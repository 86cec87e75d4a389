/**
 * RESTORE of the encodings Redis stopped writing but still loads — the plain list (type 1),
 * zipmaps (9), ziplists (10, 12, 13), quicklists of ziplists (14) — and the 7.4 release
 * candidates' hashes with field TTLs (22, 23): well-formed payloads load, every malformed one
 * answers `ERR Bad data format` (rdb.c validates the old encodings deeply whatever
 * `sanitize-dump-payload` says: ziplistValidateIntegrity, zipmapValidateIntegrity, the
 * duplicate and pair checks of the conversions), never a library error. The answers below
 * were measured on redis-server 7.0.15 and on the post-7.4 build (payloads as RDB 9, which both
 * load; 7.0.15 knows neither type 22 nor 23), and the same payloads are compared with both
 * servers when REDIS_URL / REDIS_UNSTABLE_URL are set.
 */
import { crc64 } from '../../lib/rdb/crc64';
import { type Exec, fakeExec as sharedFakeExec } from '../helpers/fake-exec';
import { connectReal, describeOnRealServers } from '../helpers/real-server';
import { OLD_ENCODING_CASES } from './old-encodings-cases';

/** The body with RDB version 9 and its CRC-64, as a byte string. */
function seal(bytes: number[]): string {
  const b = Buffer.from([...bytes, 9, 0]);
  const crc = Buffer.alloc(8);
  crc.writeBigUInt64LE(crc64(b));
  return Buffer.concat([b, crc]).toString('latin1');
}

const BAD = 'ERR Bad data format';
const TTL_BAD_ON_70 = new Set(['hash with field TTLs, 7.4 RC (type 22)', 'hash listpack with field TTLs, 7.4 RC (type 23)']);

/** The measured answer of RESTORE, then of the read-back command (RESP2 as text). */
const EXPECTED: Record<string, string> = {
  'list (type 1)': 'OK | ["a","bc","7"]',
  'list (type 1), empty': BAD,
  'list ziplist (type 10), every integer width': 'OK | ["a","bc","0","12","13","-128","300","-70000","2147483648","-4611686018427387904","xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"]',
  'list ziplist (type 10), zllen 65535 (unknown)': 'OK | ["a","b"]',
  'list ziplist (type 10), empty': BAD,
  'list ziplist (type 10), zllen wrong': BAD,
  'list ziplist (type 10), zlbytes wrong': BAD,
  'list ziplist (type 10), zltail not on the last entry': BAD,
  'list ziplist (type 10), prevlen wrong': BAD,
  'list ziplist (type 10), invalid integer encoding 0xc1': BAD,
  'list ziplist (type 10), a string running past the end': BAD,
  'list ziplist (type 10), no end byte': BAD,
  'list ziplist (type 10), too short': BAD,
  'quicklist of ziplists (type 14), an empty node skipped': 'OK | ["a","1","b"]',
  'quicklist of ziplists (type 14), only empty nodes': BAD,
  'quicklist of ziplists (type 14), a corrupt node': BAD,
  'hash ziplist (type 13)': 'OK | ["f","v","g","7","5","x"]',
  'hash ziplist (type 13), odd count': BAD,
  'hash ziplist (type 13), duplicate field': BAD,
  'hash ziplist (type 13), empty': BAD,
  'hash ziplist (type 13), empty string (6.x hash ziplist stub)': BAD,
  'zset ziplist (type 12)': 'OK | ["c","-inf","a","1.5","b","2"]',
  'zset ziplist (type 12), duplicate member': BAD,
  'zipmap (type 9)': 'OK | ["f","v","gg","ww"]',
  'zipmap (type 9), count 254 (unknown)': 'OK | ["f","v"]',
  'zipmap (type 9), count wrong': BAD,
  'zipmap (type 9), duplicate field': BAD,
  'zipmap (type 9), empty': BAD,
  'zipmap (type 9), a value running past the end': BAD,
  'hash with field TTLs, 7.4 RC (type 22)': 'OK | [-1,4102444800000]',
  'hash listpack with field TTLs, 7.4 RC (type 23)': 'OK | [-1,4102444800000,-1]',
};


async function restoreAndRead(exec: Exec, payload: string, read: string[]): Promise<string> {
  await exec(['DEL', 'k']);
  const r = await exec(['RESTORE', 'k', '0', payload]);
  return r === '"OK"' ? `OK | ${await exec(read)}` : r;
}

let port = 49_510;
function fakeExec(version: '7.0' | '8.0'): { exec: Exec; close: () => void } {
  return sharedFakeExec(port++, version, JSON.stringify);
}

describe('RESTORE of the pre-7.0 encodings and the 7.4 RC hash types', () => {
  for (const version of ['7.0', '8.0'] as const) {
    it.each(OLD_ENCODING_CASES)(`emulated ${version}: %s`, async (name, bytes, read) => {
      const { exec, close } = fakeExec(version);
      try {
        const got = await restoreAndRead(exec, seal(bytes), read);
        expect(got).toBe(version === '7.0' && TTL_BAD_ON_70.has(name) ? BAD : EXPECTED[name]);
      } finally {
        close();
      }
    });
  }
});

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers('RESTORE of the pre-7.0 encodings and the 7.4 RC hash types', ({ url, version }) => {
  it.each(OLD_ENCODING_CASES)('%s', async (name, bytes, read) => {
    const real = await connectReal(url, 1);
    const exec: Exec = async (argv) => {
      try {
        const v = await real.call(argv[0], ...argv.slice(1).map((a) => Buffer.from(a, 'latin1')));
        return JSON.stringify(v);
      } catch (e) {
        return (e as Error).message;
      }
    };
    try {
      const got = await restoreAndRead(exec, seal(bytes), read);
      expect(got).toBe(version === '7.0' && TTL_BAD_ON_70.has(name) ? BAD : EXPECTED[name]);
    } finally {
      await real.call('FLUSHDB');
      real.disconnect();
    }
  });
}, 'load');
