/**
 * COMMAND GETKEYS and GETKEYSANDFLAGS against real servers: the key arguments (and their flags)
 * of command lines, found by key specs, keywords and numkeys, or by the commands' own procedures
 * (SORT's STORE, MIGRATE's KEYS, SET … GET, BITFIELD GET), and the errors in Redis's order, on a
 * fresh engine connection and on the server; COMMAND COUNT and LIST as the server's table. `REDIS_URL`: redis-server 7.0.15 (emulated 7.0);
 * `REDIS_UNSTABLE_URL`: the post-7.4 build (emulated 8.0). No key is written (db 2, not flushed).
 */
import { createConnection } from '../../lib/engine';
import { toResp2Plain } from '../../lib/reply/reply';
import { connectReal, describeOnRealServers, expectSameOutcomes, sequenceRows } from '../helpers/real-server';

const g = (...argv: string[]) => ['COMMAND', 'GETKEYS', ...argv];
const gf = (...argv: string[]) => ['COMMAND', 'GETKEYSANDFLAGS', ...argv];

const SEQUENCES: string[][][] = [
  // fixed positions, steps, containers
  [g('set', 'a', 'b'), g('get', 'k'), g('mset', 'a', '1', 'b', '2'), g('msetnx', 'a', '1', 'b', '2'), g('del', 'a', 'b', 'c'), g('rename', 'a', 'b'), g('lmove', 'a', 'b', 'left', 'right'),
    g('object', 'encoding', 'k'), g('memory', 'usage', 'k'), g('xinfo', 'stream', 's'), g('blpop', 'a', 'b', '0'), g('bitop', 'and', 'd', 'a', 'b'), g('GET', 'K')],
  // keywords and numkeys
  [g('xread', 'streams', 's1', 's2', '0', '0'), g('xread', 'count', '1', 'streams', 's1', '0'), g('xreadgroup', 'group', 'g', 'c', 'streams', 's', '>'), g('zunionstore', 'd', '2', 'a', 'b', 'weights', '1', '2'),
    g('zunion', '2', 'a', 'b'), g('lmpop', '2', 'a', 'b', 'left'), g('eval', 'x', '2', 'k1', 'k2', 'a'), g('eval', 'x', '0'), g('fcall', 'f', '1', 'k'), g('zunionstore', 'd', 'x', 'a'),
    g('eval', 'x', 'x'), g('georadius', 'k', '1', '2', '3', 'm', 'store', 'd'), g('geosearchstore', 'd', 's', 'frommember', 'm', 'byradius', '1', 'm'), g('sintercard', '2', 'a', 'b')],
  // the commands' own procedures
  [g('sort', 'abc', 'store', 'def'), g('sort', 'abc', 'by', 'w*', 'get', 'h*->f'), g('sort', 'a', 'store', 'x', 'store', 'y'), g('sort', 'a', 'limit', '0', '1', 'store'), g('sort_ro', 'a', 'by', 'x'),
    g('migrate', 'h', '1', 'k', '0', '5'), g('migrate', 'h', '1', '', '0', '5', 'keys', 'a', 'b'), g('migrate', 'h', '1', 'k', '0', '5', 'keys', 'a'), g('set', 'a', 'b', 'get'), g('bitfield', 'k', 'get', 'u8', '0')],
  // errors
  [g('nosuch', 'a'), g('object', 'nosuch', 'k'), g('ping', 'x'), g('get', 'a', 'b'), g('set', 'a'), g('xread', 'count', '1'), ['COMMAND', 'GETKEYS'], g('object', 'help'), g('zunionstore', 'd', '5', 'a')],
  // with flags
  [gf('sort', 'abc', 'store', 'def'), gf('set', 'a', 'b'), gf('set', 'a', 'b', 'GET'), gf('lmove', 'a', 'b', 'left', 'right'), gf('bitfield', 'k', 'get', 'u8', '0'), gf('bitfield', 'k', 'set', 'u8', '0', '1'),
    gf('migrate', 'h', '1', 'k', '0', '5'), gf('xreadgroup', 'group', 'g', 'c', 'streams', 's', '>'), gf('getdel', 'k'), gf('eval', 'x', '1', 'k'), gf('nosuch'), gf('getex', 'k', 'persist')],
];

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers('COMMAND GETKEYS and GETKEYSANDFLAGS', ({ url, version }) => {
  let port = 47_300 + (version === '7.0' ? 0 : 100);
  it.each(sequenceRows(SEQUENCES, (a) => a.slice(2).join(' ')))('sequence %i: %s', async (_i, _text, seq) => {
    const real = await connectReal(url, 2, {}, false);
    const fake = createConnection({ port: port++, streams: { redisVersion: version } });
    try {
      await expectSameOutcomes(real, fake, seq);
    } finally {
      real.disconnect();
      fake.close();
    }
  });

  it('COMMAND answers every command with the server’s entry: arity, flags, key positions, ACL categories, tips, key specs, subcommands (no nil entry)', async () => {
    const real = await connectReal(url, 2, {}, false);
    const fake = createConnection({ port: port++, streams: { redisVersion: version } });
    try {
      // the whole entry (recorded: lib/commands/server/command-table-*.ts), its subcommands in name
      // order: a server keeps them in a dict whose order changes with every server process
      const bySubName = (a: unknown, b: unknown) => (String((a as unknown[])[0]) < String((b as unknown[])[0]) ? -1 : 1);
      const head = (e: unknown[]) => JSON.stringify(Array.isArray(e[9]) ? [...e.slice(0, 9), [...e[9]].sort(bySubName), ...e.slice(10)] : e);
      const realByName = new Map(((await real.call('COMMAND')) as unknown[][]).map((e) => [e[0] as string, head(e)]));
      const fakeAll = toResp2Plain(await fake.execute(['COMMAND'])) as (unknown[] | null)[];
      expect(fakeAll.filter((e) => e === null)).toEqual([]);
      const differing = (fakeAll as unknown[][]).filter((e) => realByName.has(e[0] as string) && realByName.get(e[0] as string) !== head(e)).map((e) => `${head(e)} real ${realByName.get(e[0] as string)}`);
      expect(differing).toEqual([]);
    } finally {
      real.disconnect();
      fake.close();
    }
  });

  it('COMMAND COUNT and LIST name the commands of the server, subcommands included', async () => {
    const real = await connectReal(url, 2, {}, false);
    const fake = createConnection({ port: port++, streams: { redisVersion: version } });
    try {
      // 8.0 mode also has the hash commands of 8.0 (HGETDEL, HGETEX, HSETEX) the post-7.4 build predates
      const newer = version === '7.0' ? [] : ['hgetdel', 'hgetex', 'hsetex'];
      const realList = ((await real.call('COMMAND', 'LIST')) as string[]).sort();
      const fakeList = (toResp2Plain(await fake.execute(['COMMAND', 'LIST'])) as string[]).filter((n) => !newer.includes(n));
      expect(fakeList).toEqual(realList);
      expect(Number(toResp2Plain(await fake.execute(['COMMAND', 'COUNT']))) - newer.length).toBe(await real.call('COMMAND', 'COUNT'));
    } finally {
      real.disconnect();
      fake.close();
    }
  });

  it('COMMAND LIST FILTERBY ACLCAT / PATTERN / MODULE filter the list as the server does; other arguments are a syntax error', async () => {
    const real = await connectReal(url, 2, {}, false);
    const fake = createConnection({ port: port++, streams: { redisVersion: version } });
    const newer = version === '7.0' ? [] : ['hgetdel', 'hgetex', 'hsetex'];
    const list = async (args: string[]) => {
      const r = ((await real.call('COMMAND', 'LIST', ...args)) as string[]).sort();
      const f = (toResp2Plain(await fake.execute(['COMMAND', 'LIST', ...args])) as string[]).filter((n) => !newer.includes(n)).sort();
      return [f, r];
    };
    try {
      for (const args of [['FILTERBY', 'ACLCAT', 'scripting'], ['filterby', 'aclcat', 'STRING'], ['FILTERBY', 'ACLCAT', 'nosuch'], ['FILTERBY', 'PATTERN', 'config*'],
        ['FILTERBY', 'PATTERN', 'CL*HELP'], ['FILTERBY', 'PATTERN', 'set'], ['FILTERBY', 'PATTERN', 'non_exists*'], ['FILTERBY', 'MODULE', 'm']]) {
        const [f, r] = await list(args);
        expect([args, f]).toEqual([args, r]);
      }
      for (const args of [['bad_arg'], ['FILTERBY', 'bad_arg'], ['FILTERBY', 'bad_arg', 'x'], ['FILTERBY', 'PATTERN', 'x', 'FILTERBY', 'MODULE', 'y']]) {
        await expect(real.call('COMMAND', 'LIST', ...args)).rejects.toThrow('ERR syntax error');
        await expect(fake.execute(['COMMAND', 'LIST', ...args])).rejects.toThrow('ERR syntax error');
      }
    } finally {
      real.disconnect();
      fake.close();
    }
  });
}, 'answer');
