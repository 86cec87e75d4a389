/**
 * GEOADD, GEOPOS, GEODIST, GEOHASH, GEOSEARCH, GEOSEARCHSTORE, GEORADIUS[BYMEMBER][_RO] (lib/commands/geo.ts) and Redis's geohash arithmetic
 * (lib/model/geohash.ts) on the command harness. Expected digits were printed by redis-server
 * 7.0.15 and the post-7.4 4f8cdc2a build; __tests__/engine/geo-real-server.test.ts replays
 * sequences on both.
 */
import { distanceText } from '../../lib/commands/geo';
import { geoDecode, geoDistance, geohashCalculateAreasByShape, geohashEstimateStepsByRadius, geohashNeighbors, geoScore, geohashText } from '../../lib/model/geohash';
import { asin, cos, sin } from '../../lib/model/libm';
import { pqsort } from '../../lib/model/pqsort';
import { Harness } from '../helpers/harness';

const BIN = '\xff\x00\xfe';

describe('geohash (geohash.c)', () => {
  it('encodes to the 52-bit score Redis stores and decodes to the cell centre', () => {
    expect(geoScore(13.361389, 38.115556)).toBe(3479099956230698);
    expect(geoScore(180, 85.05112878)).toBe(13510798882111488); // both offsets 2^26: bits 52 and 53 set, as uint32 casts give
    expect(geoScore(180.0000001, 0)).toBeNull();
    expect(geoDecode(3479099956230698)).toEqual([13.361389338970184, 38.1155563954963]);
    expect(geohashText(3479099956230698)).toBe('sqc8b49rny0');
  });

  it('measures with its haversine and earth radius 6372797.560856 m', () => {
    const [a, b] = [geoDecode(geoScore(13.361389, 38.115556)!), geoDecode(geoScore(15.087269, 37.502669)!)];
    expect(geoDistance(a[0], a[1], b[0], b[1]).toFixed(4)).toBe('166274.1516');
    expect(geoDistance(1, 10, 1, 11)).toBeCloseTo(111226.3, 0); // same longitude: the latitude difference alone
  });
});

describe('GEO commands', () => {
  it('decodes any score as (uint64_t) does on x86-64: +inf and 2^64 up are cell 0, -inf cell 2^63 (redis-server 7.0.15)', () => {
    // found by the core fuzzer: GEORADIUSBYMEMBER around a member of score inf
    const h = new Harness();
    h.version = '7.0'; // GEOPOS prints %.17Lg there
    h.run('ZADD', 'b', '10', 'c', 'inf', 'x', '-inf', 'z', '1e20', 'w', '9223372036854775808', 'y');
    expect(h.run('GEOPOS', 'b', 'x', 'z', 'w', 'y')).toEqual([
      ['-179.99999731779098511', '-85.05112751263942528'],
      ['180', '-85.05112751263942528'],
      ['-179.99999731779098511', '-85.05112751263942528'],
      ['180', '-85.05112751263942528'],
    ]);
    expect(h.run('GEOHASH', 'b', 'x', 'z')).toEqual(['00bh0hbj200', '00bh0hbj200']);
    expect(h.run('GEORADIUSBYMEMBER', 'b', 'x', '20000000', 'km')).toEqual(['c']);
  });

  it('GEOADD adds through ZADD (NX/XX/CH) and checks options, then each pair, in order', () => {
    const h = new Harness();
    expect(h.run('GEOADD', 'g', '13.361389', '38.115556', 'Palermo', '15.087269', '37.502669', BIN)).toBe(2);
    expect(h.run('ZSCORE', 'g', 'Palermo')).toBe('3479099956230698');
    expect(h.notifications.filter(([, e]) => e === 'zadd')).toEqual([['z', 'zadd', 'g']]);
    expect(h.run('GEOADD', 'g', 'ch', 'xx', '13', '38', 'Palermo', '1', '1', 'new')).toBe(1);
    expect(h.run('GEOADD', 'g', 'CH', 'NX', '13', '38', 'Palermo', '1', '1', 'new')).toBe(1);
    expect(h.error('GEOADD', 'g', 'nx', 'xx', '1', '2', 'x')).toBe('ERR syntax error');
    expect(h.error('GEOADD', 'g', 'gt', '1', '2', 'x')).toBe('ERR syntax error');
    expect(h.error('GEOADD', 'g', '1', 'abc', 'x', '200', '1', 'y')).toBe('ERR value is not a valid float');
    expect(h.error('GEOADD', 'g', '200', '10', 'x')).toBe('ERR invalid longitude,latitude pair 200.000000,10.000000');
    h.run('SET', 's', 'v');
    expect(h.error('GEOADD', 's', '1', '1', 'a')).toMatch(/^WRONGTYPE/);
  });

  it("GEOADD's out-of-range error prints each coordinate as C's %f: every digit of a huge double, ties rounded to even", () => {
    // texts printed by redis-server 7.0.15 and the post-7.4 build
    const h = new Harness();
    expect(h.error('GEOADD', 'g', '1e21', '1', 'x')).toBe('ERR invalid longitude,latitude pair 1000000000000000000000.000000,1.000000');
    expect(h.error('GEOADD', 'g', '1e25', '100', 'x')).toBe('ERR invalid longitude,latitude pair 10000000000000000905969664.000000,100.000000');
    expect(h.error('GEOADD', 'g', '-1.5e300', '1', 'x')).toBe(
      'ERR invalid longitude,latitude pair -1500000000000000078757140382806630373056702871662238732373781173267703686983362293679557062620671796065556665749325817265413784853040645863467188277180060474272580801389863705606745350692182135089053429852456199917621678558451461320111979114170213741868888183230085264257173504208294580298189100810240.000000,1.000000',
    );
    expect(h.error('GEOADD', 'g', '0.0078125', '100', 'x')).toBe('ERR invalid longitude,latitude pair 0.007812,100.000000');
    expect(h.error('GEOADD', 'g', '-0.0078125', '100', 'x')).toBe('ERR invalid longitude,latitude pair -0.007812,100.000000');
    expect(h.error('GEOADD', 'g', '0.0234375', '100', 'x')).toBe('ERR invalid longitude,latitude pair 0.023438,100.000000');
    expect(h.error('GEOADD', 'g', '-0', '100', 'x')).toBe('ERR invalid longitude,latitude pair -0.000000,100.000000');
    expect(h.error('GEOSEARCH', 'g', 'FROMLONLAT', '5.8625', '1e308', 'BYRADIUS', '1', 'M')).toBe(
      'ERR invalid longitude,latitude pair 5.862500,100000000000000001097906362944045541740492309677311846336810682903157585404911491537163328978494688899061249669721172515611590283743140088328307009198146046031271664502933027185697489699588559043338384466165001178426897626212945177628091195786707458122783970171784415105291802893207873272974885715430223118336.000000',
    );
  });

  it('GEOPOS prints coordinates as the version does; nil arrays for missing members', () => {
    const h = new Harness();
    h.run('GEOADD', 'g', '13.361389', '38.115556', 'Palermo');
    expect(h.run('GEOPOS', 'g', 'Palermo', 'nope')).toEqual([['13.361389338970184', '38.1155563954963'], null]);
    h.version = '7.0';
    expect(h.run('GEOPOS', 'g', 'Palermo')).toEqual([['13.36138933897018433', '38.11555639549629859']]);
    expect(h.run('GEOPOS', 'nokey', 'a')).toEqual([null]);
  });

  it('GEODIST checks the unit before the key; GEOHASH gives 11 characters', () => {
    const h = new Harness();
    h.run('GEOADD', 'g', '13.361389', '38.115556', 'Palermo', '15.087269', '37.502669', 'Catania');
    expect(h.run('GEODIST', 'g', 'Palermo', 'Catania')).toBe('166274.1516');
    expect(h.run('GEODIST', 'g', 'Palermo', 'Catania', 'km')).toBe('166.2742');
    expect(h.run('GEODIST', 'g', 'Palermo', 'Catania', 'MI')).toBe('103.3182');
    expect(h.run('GEODIST', 'g', 'Palermo', 'nope')).toBeNull();
    expect(h.error('GEODIST', 'nokey', 'a', 'b', 'yd')).toBe('ERR unsupported unit provided. please use M, KM, FT, MI');
    expect(h.error('GEODIST', 'g', 'a', 'b', 'km', 'x')).toBe('ERR syntax error');
    expect(h.run('GEOHASH', 'g', 'Palermo', 'Catania', 'nope')).toEqual(['sqc8b49rny0', 'sqdtr74hyu0', null]);
  });
});

describe('geo search arithmetic (geohash_helper.c, pqsort.c, glibc libm)', () => {
  it('estimates the cell step from the radius, coarser towards the poles', () => {
    expect(geohashEstimateStepsByRadius(0, 0)).toBe(26);
    expect(geohashEstimateStepsByRadius(200_000, 37)).toBe(6);
    expect(geohashEstimateStepsByRadius(200_000, 70)).toBe(5);
    expect(geohashEstimateStepsByRadius(200_000, -85)).toBe(4);
    expect(geohashEstimateStepsByRadius(Infinity, 0)).toBe(1);
  });

  it('finds the eight neighbours by moving along each axis, wrapping around', () => {
    const n = geohashNeighbors({ bits: 0n, step: 1 }); // the south-west quarter
    expect(n.map((c) => Number(c.bits))).toEqual([1, 1, 2, 2, 3, 3, 3, 3]);
  });

  it('zeroes the neighbour cells the search box cannot reach (as geohash_helper.c compiled from the build prints them)', () => {
    const { cells } = geohashCalculateAreasByShape({ type: 'circle', x: 15, y: 37, conversion: 1000, radius: 200 });
    // self, N, S, E, W, NE, NW, SE, SW as step:bits
    expect(cells.map((c) => `${c.step}:${c.bits}`)).toEqual(['6:3161', '6:3164', '0:0', '6:3163', '0:0', '6:3166', '0:0', '0:0', '0:0']);
  });

  it('sorts only the partitions that reach the kept range, ties in pqsort order (as pqsort.c compiled from the build leaves them)', () => {
    const cmp = (x: { d: number }, y: { d: number }) => (x.d > y.d ? 1 : x.d === y.d ? 0 : -1);
    const a = [5, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9].map((d, i) => ({ d, i }));
    pqsort(a, cmp, 0, 2);
    expect(a.map((p) => `${p.d}/${p.i}`).join(' ')).toBe('1/3 1/1 2/6 3/9 4/2 5/8 5/4 5/10 5/0 6/7 9/5 8/11 9/12 7/13 9/14');
    const ties = Array.from({ length: 12 }, (_, i) => ({ d: i % 2, i }));
    pqsort(ties, cmp, 0, 11);
    expect(ties.map((p) => p.i)).toEqual([0, 2, 4, 6, 8, 10, 9, 1, 7, 3, 11, 5]);
    const many = Array.from({ length: 50 }, (_, i) => ({ d: (i * 7) % 5, i }));
    pqsort(many, cmp, 0, 9);
    expect(many.map((p) => p.i).join(' ')).toBe('30 45 25 5 0 40 10 35 15 20 3 48 28 23 38 13 33 43 8 18 6 1 11 16 21 26 31 36 41 46 19 49 32 17 34 14 47 37 12 39 9 2 42 7 44 24 4 27 22 29');
  });

  it('rounds sin, cos and asin as glibc does where V8 is one bit off', () => {
    // glibc 2.36 values (printf %.17g); V8's Math.sin/cos/asin differ in the last bit for these arguments
    expect(sin(-1.270940284603713)).toBe(-0.9553790216677457);
    expect(Math.sin(-1.270940284603713)).not.toBe(-0.9553790216677457);
    expect(cos(1.1188914224593396)).toBe(0.4366800094921954);
    expect(asin(0.6279880356173907)).toBe(0.6789651747680417);
  });

  it("answers asin below 2^-3, sin and cos within ±2.426 as glibc's FMA build computes them, not the correctly rounded values", () => {
    // glibc 2.36 (x86-64, FMA build) values: its 0.513-ulp polynomial; 0.10413264323240991 is the
    // asin of a GEORADIUS distance of 1329.64 km whose STOREDIST score showed the last bit
    expect(asin(0.10413264323240991)).toBe(0.10432176311062967); // correctly rounded: …68
    expect(asin(0.060863017423945953)).toBe(0.060900656081540022);
    expect(asin(-0.10849717654450665)).toBe(-0.10871117700718347);
    expect(asin(0.0012783173594057176)).toBe(0.001278317707554699);
    expect(asin(5.9259119424623955e-7)).toBe(5.9259119424627428e-7);
    expect(asin(1e-9)).toBe(1e-9); // below 2^-26: x itself
    // sin below 0.126 likewise (TAYLOR_SIN, glibc 2.36): not the correctly rounded value either
    expect(sin(-0.044454662615645062)).toBe(-0.044440022052158634);
    expect(sin(0.12033564984814063)).toBe(0.12004543660708161);
    expect(sin(0.014475103195046569)).toBe(0.014474597708960896);
    expect(sin(1e-9)).toBe(1e-9);
    // sin and cos through glibc's table of i/128 (do_sin, do_cos), up to ±2.426
    expect(sin(0.15298668702737742)).toBe(0.15239061131867587);
    expect(sin(-0.18401048443466916)).toBe(-0.1829738129122444);
    expect(sin(-0.1292875220669841)).toBe(-0.12892764380822175);
    expect(cos(-1.2529007904058791)).toBe(0.31256823412425605);
    expect(cos(-0.83634424154942133)).toBe(0.67018059498441529);
    expect(cos(-1.3219326071804636)).toBe(0.24630284359560939);
    const h = new Harness();
    h.run('GEOADD', 'g', '0.4563', '3.4227', 'p87');
    expect(h.run('GEORADIUS', 'g', '-1.6678', '-8.3425', '1000000', 'km', 'STOREDIST', 'd')).toBe(1);
    expect(h.run('ZSCORE', 'd', 'p87')).toBe('1329.6429549912364'); // 7.0.15 and the post-7.4 build
  });

  it('prints distances with four decimals: 7.0 printf, later llrint of d × 10000', () => {
    expect(distanceText(0.03125, '7.0')).toBe('0.0312'); // printf: an exact tie goes to even
    expect(distanceText(0.03125, '8.0')).toBe('0.0312');
    expect(distanceText(166274.15156960033, '8.0')).toBe('166274.1516');
    expect(distanceText(0, '8.0')).toBe('0.0000');
  });
});

describe('GEOSEARCH, GEOSEARCHSTORE, GEORADIUS*', () => {
  const sicily = (h: Harness) => h.run('GEOADD', 'Sicily', '13.361389', '38.115556', 'Palermo', '15.087269', '37.502669', 'Catania', '13.583333', '37.316667', 'Agrigento');

  it('answers members in scan order without ASC/DESC, and WITHDIST, WITHHASH, WITHCOORD in that order', () => {
    const h = new Harness();
    sicily(h);
    expect(h.run('GEOSEARCH', 'Sicily', 'FROMLONLAT', '15', '37', 'BYRADIUS', '200', 'km')).toEqual(['Agrigento', 'Palermo', 'Catania']);
    expect(h.run('GEOSEARCH', 'Sicily', 'FROMLONLAT', '15', '37', 'BYRADIUS', '200', 'km', 'ASC', 'WITHCOORD', 'WITHDIST', 'WITHHASH', 'COUNT', '2')).toEqual([
      ['Catania', '56.4413', 3479447370796909, ['15.087267458438873', '37.50266842333162']],
      ['Agrigento', '130.4235', 3479030013248308, ['13.583331406116486', '37.316668049938166']],
    ]);
    expect(h.run('GEOSEARCH', 'Sicily', 'FROMMEMBER', 'Palermo', 'BYBOX', '400', '400', 'km', 'DESC', 'WITHDIST')).toEqual([
      ['Catania', '166.2742'],
      ['Agrigento', '90.9778'],
      ['Palermo', '0.0000'],
    ]);
    h.version = '7.0';
    expect(h.run('GEORADIUS_RO', 'Sicily', '15', '37', '200', 'km', 'WITHCOORD', 'COUNT', '1')).toEqual([['Catania', ['15.08726745843887329', '37.50266842333162032']]]);
  });

  it('GEORADIUS … STOREDIST stores distances in the unit; the destination loses its TTL', () => {
    const h = new Harness();
    sicily(h);
    h.run('SET', 'd', 'v', 'EX', '100');
    expect(h.run('GEORADIUS', 'Sicily', '15', '37', '200', 'km', 'STOREDIST', 'd')).toBe(3);
    expect(h.run('ZRANGE', 'd', '0', '-1', 'WITHSCORES')).toEqual(['Catania', '56.4412578701582', 'Agrigento', '130.42348706714702', 'Palermo', '190.44242984775784']);
    expect(h.run('TTL', 'd')).toBe(-1);
    expect(h.notifications.filter(([, e]) => e === 'georadiusstore')).toEqual([['z', 'georadiusstore', 'd']]);
    expect(h.run('GEOSEARCHSTORE', 'd', 'Sicily', 'FROMLONLAT', '0', '0', 'BYRADIUS', '1', 'km')).toBe(0);
    expect(h.run('EXISTS', 'd')).toBe(0);
  });

  it('checks in geo.c order: type, options left to right, then STORE with WITH*, FROM, BY, ANY', () => {
    const h = new Harness();
    sicily(h);
    h.run('SET', 's', 'v');
    expect(h.error('GEOSEARCH', 's', 'FROMLONLAT', '200', '0', 'BYRADIUS', '1', 'km')).toMatch(/^WRONGTYPE/);
    expect(h.error('GEOSEARCH', 'Sicily', 'FROMMEMBER', 'nope', 'BYRADIUS', '1', 'km')).toBe('ERR could not decode requested zset member');
    expect(h.run('GEOSEARCH', 'nokey', 'FROMMEMBER', 'nope', 'BYRADIUS', '1', 'km')).toEqual([]);
    expect(h.error('geosearch', 'Sicily', 'withdist', 'withhash', 'asc', 'desc', 'any')).toBe('ERR exactly one of FROMMEMBER or FROMLONLAT can be specified for geosearch');
    expect(h.error('GEOSEARCH', 'Sicily', 'FROMLONLAT', '15', '37', 'WITHDIST', 'ASC')).toBe('ERR exactly one of BYRADIUS and BYBOX can be specified for GEOSEARCH');
    expect(h.error('GEOSEARCH', 'Sicily', 'FROMLONLAT', '15', '37', 'BYRADIUS', '1', 'km', 'BYBOX', '1', '1', 'km')).toBe('ERR syntax error');
    expect(h.error('GEOSEARCH', 'Sicily', 'FROMLONLAT', '15', '37', 'BYRADIUS', 'abc', 'km')).toBe('ERR need numeric radius');
    expect(h.error('GEOSEARCH', 'Sicily', 'FROMLONLAT', '15', '37', 'BYBOX', '1', 'abc', 'km')).toBe('ERR need numeric height');
    expect(h.error('GEOSEARCH', 'Sicily', 'FROMLONLAT', '15', '37', 'BYBOX', '-1', '1', 'yd')).toBe('ERR height or width cannot be negative');
    expect(h.error('GEOSEARCH', 'Sicily', 'FROMLONLAT', '15', '37', 'BYRADIUS', '1', 'km', 'ANY')).toBe('ERR the ANY argument requires COUNT argument');
    expect(h.error('GEOSEARCH', 'Sicily', 'FROMLONLAT', '15', '37', 'BYRADIUS', '1', 'km', 'COUNT', '0')).toBe('ERR COUNT must be > 0');
    expect(h.error('GEOSEARCHSTORE', 'd', 'Sicily', 'FROMLONLAT', '15', '37', 'BYRADIUS', '1', 'km', 'WITHDIST')).toBe('ERR GEOSEARCHSTORE is not compatible with WITHDIST, WITHHASH and WITHCOORD options');
    expect(h.error('GEORADIUS', 'Sicily', '15', '37', '1', 'km', 'WITHDIST', 'STORE', 'x')).toBe('ERR STORE option in GEORADIUS is not compatible with WITHDIST, WITHHASH and WITHCOORD options');
    expect(h.error('GEORADIUS_RO', 'Sicily', '15', '37', '1', 'km', 'STORE', 'x')).toBe('ERR syntax error');
    expect(h.run('GEORADIUSBYMEMBER', 'nokey', 'x', 'abc', 'yd')).toEqual([]); // no centre to read: the radius is not parsed
    expect(h.error('GEORADIUS', 'Sicily', '15', '37', '-1', 'km')).toBe('ERR radius cannot be negative');
  });
});
