/**
 * The HyperLogLog commands (lib/commands/hyperloglog.ts, lib/model/hyperloglog.ts) on the
 * in-memory harness: the key's exact bytes (captured from redis-server 7.0.15 and the post-7.4
 * build, which agree), keyspace events, dirty counts, TTLs, promotion and errors. Replies and
 * bytes of longer sequences are compared with real servers in
 * __tests__/differential/hyperloglog-real-server.test.ts.
 */
import { Harness } from '../helpers/harness';
import { createConnection } from '../../lib/engine';
import { ServerConfig } from '../../lib/config/server-config';
import { HllBuffer, createHll, hllAdd, lastPatIndex, patLen } from '../../lib/model/hyperloglog';

function harness(): Harness & { dirtyCount: number; config: ServerConfig } {
  const h = new Harness() as Harness & { dirtyCount: number; config: ServerConfig };
  h.dirtyCount = 0;
  // the harness's Db reads the harness's own ServerConfig (h.config)
  const db = h.db as { dirty?: (n: number) => void };
  db.dirty = (n) => (h.dirtyCount += n);
  return h;
}

const hex = (s: unknown) => Buffer.from(String(s), 'latin1').toString('hex');

/** GET of `PFADD h a b c` on both real servers (redis-cli … GET h | xxd). */
const ABC_SPARSE = '48594c4c01000000000000000000008060f38050b1844bfb80425a';
/** The same after PFCOUNT h: cardinality 3 cached, valid. */
const ABC_COUNTED = '48594c4c01000000030000000000000060f38050b1844bfb80425a';

describe('the HyperLogLog bytes', () => {
  it('are the sparse string Redis writes for PFADD h a b c, with the cache invalid then written by PFCOUNT', () => {
    const h = harness();
    expect(h.run('PFADD', 'h', 'a', 'b', 'c')).toBe(1);
    expect(hex(h.keys.get('h'))).toBe(ABC_SPARSE);
    expect(h.run('PFCOUNT', 'h')).toBe(3);
    expect(hex(h.keys.get('h'))).toBe(ABC_COUNTED);
    expect(h.run('PFDEBUG', 'DECODE', 'h')).toBe('Z:8436 v:1,1 Z:4274 v:2,1 Z:3068 v:1,1 Z:603');
  });

  it('hash elements with MurmurHash64A and Redis seed: register and pattern length of a, b, c and binary input', () => {
    // PFDEBUG DECODE after PFADD of one element: a → Z:12711 v:2,1; b → Z:15780 v:1,1; c → Z:8436 v:1,1
    expect([patLen('a'), lastPatIndex()]).toEqual([2, 12711]);
    expect([patLen('b'), lastPatIndex()]).toEqual([1, 15780]);
    expect([patLen('c'), lastPatIndex()]).toEqual([1, 8436]);
    // every length modulo 8 (the C switch over the tail bytes) and bytes above 0x7f
    const seen = new Set<number>();
    for (let n = 0; n < 17; n++) {
      const count = patLen('\xff\x80'.repeat(9).slice(0, n));
      expect(count).toBeGreaterThanOrEqual(1);
      expect(count).toBeLessThanOrEqual(51);
      seen.add(lastPatIndex());
    }
    expect(seen.size).toBe(17);
  });

  it('start as one XZERO opcode covering 16384 registers (cache marked invalid), and the empty element is an element', () => {
    const h = harness();
    expect(h.run('PFADD', 'h')).toBe(1);
    expect(hex(h.keys.get('h'))).toBe('48594c4c010000000000000000000080' + '7fff');
    expect(h.run('PFADD', 'h', '')).toBe(1);
    expect(h.run('PFADD', 'h', '')).toBe(0);
    expect(h.run('PFCOUNT', 'h')).toBe(1);
  });

  it('go dense (12304 bytes) when the sparse string would pass hll-sparse-max-bytes', () => {
    const h = harness();
    h.config.set([['hll-sparse-max-bytes', '40']], '8.10');
    h.run('PFADD', 'h', 'a', 'b', 'c', 'd');
    expect(h.run('PFDEBUG', 'ENCODING', 'h')).toBe('sparse');
    for (let i = 0; h.run('PFDEBUG', 'ENCODING', 'h') === 'sparse'; i++) {
      expect(String(h.keys.get('h')).length).toBeLessThanOrEqual(40);
      h.run('PFADD', 'h', `x${i}`);
    }
    expect(String(h.keys.get('h')).length).toBe(12304);
    expect(h.run('PFCOUNT', 'h')).toBeGreaterThan(4);
  });

  it('sparse and dense count alike (PFDEBUG TODENSE), as Redis suite\'s stress test requires', () => {
    const h = harness();
    for (let round = 0; round < 20; round++) {
      h.keys.delete('a');
      h.keys.delete('b');
      const items = Array.from({ length: round * 37 }, (_, i) => `r${round}:${i}`);
      h.run('PFADD', 'b');
      expect(h.run('PFDEBUG', 'TODENSE', 'b')).toBe(1);
      h.run('PFADD', 'a', ...items);
      h.run('PFADD', 'b', ...items);
      expect(h.run('PFCOUNT', 'a')).toBe(h.run('PFCOUNT', 'b'));
      expect(h.run('PFCOUNT', 'a', 'nokey')).toBe(h.run('PFCOUNT', 'b'));
    }
  });

  it('of a model buffer grow through reserve and convert back to the same byte string', () => {
    const b = createHll();
    for (let i = 0; i < 500; i++) hllAdd(b, `e${i}`, 3000);
    const s = b.toByteString();
    expect(HllBuffer.of(s).toByteString()).toBe(s);
  });
});

describe('PFDEBUG', () => {
  it('leaves an embstr HLL raw whatever the subcommand, an unknown one included (dbUnshareStringValue comes first)', async () => {
    // recorded on redis-server 7.0.15 and the post-7.4 build: SET of a small HLL's bytes is embstr
    const conn = createConnection({ port: 47_911 });
    try {
      for (const sub of ['ENCODING', 'DECODE', 'GETREG', 'NOSUCH']) {
        await conn.execute(['DEL', 'src', 'h']);
        await conn.execute(['PFADD', 'src', 'a']);
        await conn.execute(['SET', 'h', (await conn.execute(['GET', 'src'])) as string]);
        expect(await conn.execute(['OBJECT', 'ENCODING', 'h'])).toBe('embstr');
        if (sub === 'NOSUCH') await expect(conn.execute(['PFDEBUG', sub, 'h'])).rejects.toThrow("ERR Unknown PFDEBUG subcommand 'NOSUCH'");
        else await conn.execute(['PFDEBUG', sub, 'h']);
        expect(await conn.execute(['OBJECT', 'ENCODING', 'h'])).toBe('raw');
      }
      await conn.execute(['SET', 's', 'not an hll']);
      await expect(conn.execute(['PFDEBUG', 'ENCODING', 's'])).rejects.toThrow(/^WRONGTYPE Key is not a valid HyperLogLog string value/);
      expect(await conn.execute(['OBJECT', 'ENCODING', 's'])).toBe('embstr'); // refused before the unshare
    } finally {
      conn.close();
    }
  });
});

describe('keyspace events, dirty counter, TTL', () => {
  it('PFADD sends new then pfadd, and counts one per changed register plus the creation', () => {
    const h = harness();
    h.run('PFADD', 'h', 'a', 'b', 'c');
    expect(h.notifications).toEqual([['n', 'new', 'h'], ['$', 'pfadd', 'h']]);
    expect(h.dirtyCount).toBe(4);
    h.notifications.length = 0;
    expect(h.run('PFADD', 'h', 'a')).toBe(0);
    expect(h.notifications).toEqual([]);
    expect(h.dirtyCount).toBe(4);
  });

  it('PFCOUNT sends keymiss for missing keys, no event for the cache, and counts one write when it caches', () => {
    const h = harness();
    h.run('PFADD', 'h', 'a');
    h.notifications.length = 0;
    h.dirtyCount = 0;
    expect(h.run('PFCOUNT', 'h')).toBe(1);
    expect(h.run('PFCOUNT', 'h')).toBe(1);
    expect(h.dirtyCount).toBe(1);
    expect(h.run('PFCOUNT', 'h', 'nokey')).toBe(1);
    expect(h.notifications).toEqual([['m', 'keymiss', 'nokey']]);
  });

  it('PFMERGE reads the destination as a source (keymiss), creates it (new) and sends pfadd, not pfmerge', () => {
    const h = harness();
    h.run('PFADD', 'a', 'x');
    h.notifications.length = 0;
    h.dirtyCount = 0;
    expect(h.run('PFMERGE', 'd', 'a', 'nokey')).toBe('OK');
    expect(h.notifications).toEqual([['m', 'keymiss', 'd'], ['m', 'keymiss', 'nokey'], ['n', 'new', 'd'], ['$', 'pfadd', 'd']]);
    expect(h.dirtyCount).toBe(1);
    expect(h.run('PFCOUNT', 'd')).toBe(1);
  });

  it('keep the TTL of a key changed in place', () => {
    const h = harness();
    h.run('PFADD', 'h', 'a');
    h.ttls.set('h', h.now + 5000);
    h.run('PFADD', 'h', 'b', 'c');
    h.run('PFCOUNT', 'h');
    h.run('PFMERGE', 'h', 'nokey');
    h.run('PFDEBUG', 'TODENSE', 'h');
    expect(h.ttls.get('h')).toBe(h.now + 5000);
  });
});

describe('errors', () => {
  it('WRONGTYPE for other types and for strings that are not HyperLogLogs', () => {
    const h = harness();
    h.keys.set('l', ['x']); // a list as older writers store it
    expect(h.error('PFADD', 'l', 'x')).toBe('WRONGTYPE Operation against a key holding the wrong kind of value');
    for (const v of ['bar', 'HYLL', 'HYLL\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x80\x7f\xff', 'HYLL\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x80\x7f\xff']) {
      h.keys.set('s', v);
      expect(h.error('PFCOUNT', 's')).toBe('WRONGTYPE Key is not a valid HyperLogLog string value.');
      expect(h.error('PFMERGE', 'x', 's')).toBe('WRONGTYPE Key is not a valid HyperLogLog string value.');
    }
    expect(h.keys.has('x')).toBe(false);
  });

  it('INVALIDOBJ for sparse registers that do not add up to 16384, the changes made before it kept', () => {
    const h = harness();
    h.run('PFADD', 'h', 'a', 'b', 'c');
    h.keys.set('h', String(h.keys.get('h')) + 'hello');
    expect(h.error('PFCOUNT', 'h')).toBe('INVALIDOBJ Corrupted HLL object detected');
    expect(h.error('PFCOUNT', 'h', 'nokey')).toBe('INVALIDOBJ Corrupted HLL object detected');
    expect(h.error('PFMERGE', 'm', 'h')).toBe('INVALIDOBJ Corrupted HLL object detected');
    expect(h.error('PFDEBUG', 'GETREG', 'h')).toBe('INVALIDOBJ Corrupted HLL object detected');
    // a short sparse string: registers past its end cannot be set
    h.keys.set('s', 'HYLL\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x80' + '\x40\x63'); // XZERO:100
    expect(h.error('PFADD', 's', ...Array.from({ length: 50 }, (_, i) => `z${i}`))).toBe('INVALIDOBJ Corrupted HLL object detected');
  });

  it('PFDEBUG: missing key first, then the subcommand', () => {
    const h = harness();
    expect(h.error('PFDEBUG', 'NOPE', 'nokey')).toBe('ERR The specified key does not exist');
    h.run('PFADD', 'h', 'a');
    expect(h.error('PFDEBUG', 'NOPE', 'h')).toBe("ERR Unknown PFDEBUG subcommand 'NOPE'");
    expect(h.run('PFDEBUG', 'todense', 'h')).toBe(1);
    expect(h.error('PFDEBUG', 'decode', 'h')).toBe('ERR HLL encoding is not sparse');
    expect((h.run('PFDEBUG', 'GETREG', 'h') as number[]).length).toBe(16384);
    expect(h.run('PFSELFTEST')).toBe('OK');
  });

  it('reads a HyperLogLog stored as a Buffer by an older writer', () => {
    const h = harness();
    h.run('PFADD', 'h', 'a', 'b', 'c');
    h.keys.set('h', Buffer.from(String(h.keys.get('h')), 'latin1'));
    expect(h.run('PFCOUNT', 'h')).toBe(3);
    expect(hex(h.keys.get('h'))).toBe(ABC_COUNTED);
  });
});
