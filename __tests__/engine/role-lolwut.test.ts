/**
 * ROLE and LOLWUT as redis-server 7.0.15 and the post-7.4 build answer them (recorded with a raw
 * socket on both; compared live when REDIS_URL / REDIS_UNSTABLE_URL are set): a master without
 * replicas answers `['master', <master_repl_offset>, []]` (the fake keeps no offset: 0, as its
 * INFO says); 7.0's LOLWUT is "Redis ver. 7.0.15\n", VERSION 5 / 6 draw lolwut5.c / lolwut6.c's
 * pieces (random below the second row of squares / in the skyline), ending with the server's
 * version.
 */
import { createConnection } from '../../lib/engine';
import { VerbatimReply } from '../../lib/reply/reply';
import { connectReal, describeOnRealServers } from '../helpers/real-server';
import { engineConnections, errorOf } from '../helpers/engine-connections';

const engine = engineConnections(36_400);
const v70 = { streams: { redisVersion: '7.0' } } as const;
const text = (r: unknown): string => (r as VerbatimReply).text;
/** A verbatim reply's bytes as UTF-8 lines. */
const lines = (r: unknown): string[] => Buffer.from(text(r), 'latin1').toString('utf8').split('\n');

/** lolwut5.c with the defaults (66 columns, 8 x 12 squares): the first row of braille, recorded on both servers. */
const SCHOTTER_FIRST_ROW = `⠀${'⡤⠤⠤⠤⠤⠤⠤⠤'.repeat(8)}⡄`;
/** LOLWUT VERSION 5 10 2 2: two rows of squares, nothing random (recorded on 7.0.15). */
const SCHOTTER_10_2_2 = ['⠀⡤⠤⠤⠤⡤⠤⠤⠤⡄', '⠀⡇⠀⠀⠀⡇⠀⠀⠀⡇', '⠀⡧⠤⠤⠤⡧⠤⠤⠤⡇', '⠀⡇⠀⠀⠀⡇⠀⠀⠀⡇', '⠀⠧⠤⠤⠤⠧⠤⠤⠤⠇', '', 'Georg Nees - schotter, plotter on paper, 1968. Redis ver. 7.0.15', ''];

describe('ROLE', () => {
  it('a master without replicas answers master, its replication offset (0) and no replicas', async () => {
    expect(await engine.conn().execute(['ROLE'])).toEqual(['master', 0, []]);
    expect(await engine.conn(v70).execute(['ROLE'])).toEqual(['master', 0, []]);
  });

  it('lists a replica attached with SYNC (ip, listening port 0, ack offset 0), not a MONITOR client', async () => {
    const replica = engine.conn();
    await replica.execute(['SYNC']);
    const monitor = engine.conn();
    await monitor.execute(['MONITOR']);
    const ip = replica.addr.slice(0, replica.addr.lastIndexOf(':'));
    expect(await engine.conn().execute(['ROLE'])).toEqual(['master', 0, [[ip, '0', '0']]]);
  });

  it('after REPLICAOF host port answers slave, the master, state connect and offset -1 (a master not reached)', async () => {
    const c = engine.conn();
    await c.execute(['REPLICAOF', '127.0.0.1', '1']);
    expect(await c.execute(['ROLE'])).toEqual(['slave', '127.0.0.1', 1, 'connect', -1]);
    await c.execute(['REPLICAOF', 'NO', 'ONE']);
    expect(await c.execute(['ROLE'])).toEqual(['master', 0, []]);
  });

  it('is refused in a script and checks its arity', async () => {
    const c = engine.conn();
    expect(await errorOf(c.execute(['ROLE', 'x']))).toBe("ERR wrong number of arguments for 'role' command");
    expect(await errorOf(c.execute(['EVAL', "return redis.call('role')", '0']))).toMatch(/This Redis command is not allowed from script/);
  });
});

describe('LOLWUT', () => {
  it("7.0 answers Redis ver. 7.0.15 (lolwutUnstableCommand), also for VERSION 7 or 50", async () => {
    const c = engine.conn(v70);
    for (const argv of [['LOLWUT'], ['LOLWUT', 'VERSION', '7'], ['LOLWUT', 'VERSION', '50'], ['LOLWUT', 'VERSION']]) {
      const r = await c.execute(argv);
      expect(r).toBeInstanceOf(VerbatimReply);
      expect(text(r)).toBe('Redis ver. 7.0.15\n');
    }
  });

  it('8.x answers its own piece (lolwut8.c), ending with the note and, from 8.2, the server version (redis#14195)', async () => {
    const poem = text(await engine.conn().execute(['LOLWUT']));
    expect(poem.split('\n').slice(0, 2)).toEqual([' TRYING   TO GRASP ', ' THE BLINDING   GLOBE   OF FIRE ']);
    expect(poem.split('\n')[10]).toBe('');
    expect(poem.endsWith('Use: LOLWUT IT for the original Italian output. Redis ver. 8.10.0\n\n')).toBe(true);
    const v80 = text(await engine.conn({ streams: { redisVersion: '8.0' } }).execute(['LOLWUT']));
    expect(v80.endsWith('Use: LOLWUT IT for the original Italian output.\n\n')).toBe(true);
  });

  it('LOLWUT IT (any casing, also after VERSION 8) answers the stanza in the original Italian', async () => {
    for (const argv of [['LOLWUT', 'it'], ['LOLWUT', 'VERSION', '8', 'IT']]) {
      const poem = text(await engine.conn().execute(argv));
      expect(poem.split('\n').slice(0, 2)).toEqual([' CERCANDO   DI AFFERRARE  ', ' L ACCECANTE      GLOBO     DI FUOCO  ']);
      expect(poem.endsWith(' Redis ver. 8.10.0\n\n')).toBe(true);
    }
  });

  it('a VERSION other than 5, 6 or 8 (or 4.9/5.9/7.9 forms) answers the server version line, on 8.x too', async () => {
    for (const v of ['7', '9', '0', '80']) expect(text(await engine.conn().execute(['LOLWUT', 'VERSION', v]))).toBe('Redis ver. 8.10.0\n');
    // 7.0 has no piece 8 (lolwut8.c came with 8.0)
    expect(text(await engine.conn(v70).execute(['LOLWUT', 'VERSION', '8']))).toBe('Redis ver. 7.0.15\n');
  });

  it('VERSION 5 draws schotter with lolwut5.c geometry, ending with the server version', async () => {
    const r = lines(await engine.conn(v70).execute(['LOLWUT', 'VERSION', '5']));
    expect(r[0]).toBe(SCHOTTER_FIRST_ROW);
    expect(r).toHaveLength(52); // 49 rows of 66 characters (a 132 x 199 canvas), as both servers draw it
    expect(r.slice(0, 49).every((l) => [...l].length === 66)).toBe(true);
    expect(r.slice(49)).toEqual(['', 'Georg Nees - schotter, plotter on paper, 1968. Redis ver. 7.0.15', '']);
    expect(lines(await engine.conn(v70).execute(['LOLWUT', 'VERSION', '5', '10', '2', '2']))).toEqual(SCHOTTER_10_2_2);
  });

  it('ends with the version of the server, not the VERSION asked for (8.10: 8.10.0)', async () => {
    expect(lines(await engine.conn().execute(['LOLWUT', 'VERSION', '5'])).at(-2)).toBe('Georg Nees - schotter, plotter on paper, 1968. Redis ver. 8.10.0');
  });

  it('VERSION 6 draws the skyline (cols x rows coloured cells), ending with the server version', async () => {
    const r = lines(await engine.conn(v70).execute(['LOLWUT', 'VERSION', '6', '5', '3']));
    expect(r).toHaveLength(6);
    for (const row of r.slice(0, 3)) expect(row).toMatch(/^(\x1b\[0;(30;40|90;100|37;47|97;107)m \x1b\[0m){5}$/);
    expect(r.slice(3)).toEqual(['Dedicated to the 8 bit game developers of past and present.', 'Original 8 bit image from Plaguemon by hikikomori. Redis ver. 7.0.15', '']);
  });

  it('a VERSION or size that is not an integer is an error', async () => {
    const c = engine.conn(v70);
    expect(await errorOf(c.execute(['LOLWUT', 'VERSION', 'x']))).toBe('ERR value is not an integer or out of range');
    expect(await errorOf(c.execute(['LOLWUT', 'VERSION', '5', 'x']))).toBe('ERR value is not an integer or out of range');
  });
});

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers('ROLE and LOLWUT', (server) => {
  it('ROLE of a master without replicas has three elements: master, an offset, an empty list', async () => {
    const real = await connectReal(server.url, 13, {}, false);
    try {
      const r = (await real.call('ROLE')) as unknown[];
      expect(r).toHaveLength(3);
      expect(r[0]).toBe('master');
      expect(typeof r[1]).toBe('number');
      const fake = createConnection({ port: 36_499, streams: { redisVersion: server.version } });
      const f = (await fake.execute(['ROLE'])) as unknown[];
      fake.close();
      expect([f[0], typeof f[1], f.length]).toEqual([r[0], typeof r[1], r.length]);
    } finally {
      real.disconnect();
    }
  });

  it('LOLWUT VERSION 5 10 2 2 draws the same squares', async () => {
    const real = await connectReal(server.url, 13, {}, false);
    try {
      const r = ((await real.call('LOLWUT', 'VERSION', '5', '10', '2', '2')) as string).split('\n');
      const fake = createConnection({ port: 36_498, streams: { redisVersion: server.version } });
      const f = lines(await fake.execute(['LOLWUT', 'VERSION', '5', '10', '2', '2']));
      fake.close();
      expect(f.slice(0, -2)).toEqual(r.slice(0, -2));
    } finally {
      real.disconnect();
    }
  });

  if (server.version === '7.0') {
    it('LOLWUT answers the same text', async () => {
      const real = await connectReal(server.url, 13, {}, false);
      try {
        const fake = createConnection({ port: 36_497, streams: { redisVersion: '7.0' } });
        expect(text(await fake.execute(['LOLWUT']))).toBe(await real.call('LOLWUT'));
        fake.close();
      } finally {
        real.disconnect();
      }
    });
  }
});
