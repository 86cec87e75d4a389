/**
 * SETBIT and BITFIELD change a bitmap in place (lib/commands/bitops.ts: a write costs O(1) however
 * long the string, as Redis's sds): what Redis tells apart must still be told apart — a write that
 * changes a bit touches the key (WATCH, keyspace event, dirty), one that changes nothing does not;
 * a copy, a renamed key, a value read before and a Buffer handed in through ioredis-mock's data
 * API never see a later write; a bitmap grown past its room keeps its bytes. The replies
 * themselves are compared with real servers in __tests__/differential/strings-real-server.test.ts.
 */
import Redis from 'ioredis-mock-streams';
import { engineConnections } from '../helpers/engine-connections';
import { toResp2Plain } from '../../lib/reply/reply';

const { conn } = engineConnections(38_400);
const plain = async (p: Promise<unknown> | unknown) => toResp2Plain((await p) as never);

describe('bitmaps changed in place', () => {
  it('a SETBIT that changes a watched bitmap fails the EXEC; one that changes no bit does not', async () => {
    const a = conn();
    const b = conn();
    await a.execute(['SETBIT', 'bm', '9', '1']);
    await a.execute(['WATCH', 'bm']);
    expect(await b.execute(['SETBIT', 'bm', '9', '1'])).toBe(1); // same bit: no write
    await a.execute(['MULTI']);
    await a.execute(['GET', 'bm']);
    expect(await plain(a.execute(['EXEC']))).toEqual(['\x00\x40']);
    await a.execute(['WATCH', 'bm']);
    expect(await b.execute(['SETBIT', 'bm', '8', '1'])).toBe(0);
    await a.execute(['MULTI']);
    await a.execute(['GET', 'bm']);
    expect(await plain(a.execute(['EXEC']))).toBeNull();
    expect(await a.execute(['GET', 'bm'])).toBe('\x00\xc0');
  });

  it('a BITFIELD write that changes nothing leaves a watched bitmap untouched; one that changes a byte touches it', async () => {
    const a = conn();
    const b = conn();
    await a.execute(['BITFIELD', 'bf', 'SET', 'u8', '8', '5']);
    await a.execute(['WATCH', 'bf']);
    expect(await b.execute(['BITFIELD', 'bf', 'SET', 'u8', '8', '5'])).toEqual([5]);
    expect(await b.execute(['BITFIELD', 'bf', 'OVERFLOW', 'FAIL', 'INCRBY', 'u2', '0', '9'])).toEqual([null]);
    await a.execute(['MULTI']);
    await a.execute(['PING']);
    expect(await plain(a.execute(['EXEC']))).toEqual(['PONG']);
    await a.execute(['WATCH', 'bf']);
    expect(await b.execute(['BITFIELD', 'bf', 'INCRBY', 'u8', '8', '1'])).toEqual([6]);
    await a.execute(['MULTI']);
    await a.execute(['PING']);
    expect(await plain(a.execute(['EXEC']))).toBeNull();
  });

  it('a copy, a value read before, a renamed key and a dump keep the bytes they had', async () => {
    const c = conn();
    await c.execute(['SETBIT', 'bm', '0', '1']);
    const before = await c.execute(['GET', 'bm']);
    const dump = await c.execute(['DUMP', 'bm']);
    await c.execute(['COPY', 'bm', 'copy']);
    await c.execute(['SETBIT', 'bm', '1', '1']);
    await c.execute(['RENAME', 'bm', 'renamed']);
    await c.execute(['SETBIT', 'renamed', '2', '1']);
    await c.execute(['RESTORE', 'restored', '0', dump as string]);
    await c.execute(['SETBIT', 'copy', '7', '1']);
    expect(before).toBe('\x80');
    expect(await c.execute(['MGET', 'copy', 'renamed', 'restored', 'bm'])).toEqual(['\x81', '\xe0', '\x80', null]);
  });

  it('a bitmap grown one byte at a time past its room keeps every bit (20,000 SETBIT, each byte its own bit)', async () => {
    const c = conn();
    for (let i = 0; i < 20_000; i++) await c.execute(['SETBIT', 'grow', String(i * 8 + (i % 8)), '1']);
    const value = (await c.execute(['GET', 'grow'])) as string;
    expect(value.length).toBe(20_000);
    let wrong = 0;
    for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) !== 0x80 >> i % 8) wrong++;
    expect(wrong).toBe(0);
    expect(await c.execute(['BITCOUNT', 'grow'])).toBe(20_000);
    expect(await c.execute(['STRLEN', 'grow'])).toBe(20_000);
  });

  it("a Buffer given to ioredis-mock's data API is not changed by SETBIT on its key", async () => {
    const r = new Redis({ port: 38_399 }) as any;
    try {
      const given = Buffer.from([0, 0]);
      r.data.set('k', given);
      expect(await r.setbit('k', 1, 1)).toBe(0);
      expect(given).toEqual(Buffer.from([0, 0]));
      expect(await r.getBuffer('k')).toEqual(Buffer.from([0x40, 0]));
    } finally {
      r.disconnect();
    }
  });
});
