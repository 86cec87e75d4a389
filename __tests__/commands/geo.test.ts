/**
 * GEOADD, GEOPOS, GEODIST, GEOHASH (lib/commands/geo.ts) and Redis's geohash arithmetic
 * (lib/model/geohash.ts) on the command harness. Expected digits were printed by redis-server
 * 7.0.15 and the post-7.4 4f8cdc2a build; __tests__/engine/geo-real-server.test.ts replays
 * sequences on both.
 */
import { geoDecode, geoDistance, geoScore, geohashText } from '../../lib/model/geohash';
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
