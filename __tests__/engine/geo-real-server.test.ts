/**
 * GEOADD, GEOPOS, GEODIST, GEOHASH and the searches (GEOSEARCH, GEOSEARCHSTORE, GEORADIUS[BYMEMBER][_RO]) against real servers: the same command sequences on a fresh engine connection
 * and on a real connection must answer the same RESP2 values and error texts, byte for byte
 * (binary elements included), coordinates and distances printed digit for digit. `REDIS_URL`: redis-server
 * 7.0.15 (emulated 7.0); `REDIS_UNSTABLE_URL`: the post-7.4 4f8cdc2a build (emulated 8.0).
 * Skips with a message when a URL is unset.
 */
import { createConnection } from '../../lib/engine';
import { bytesNumbersReply, connectReal, cutArgs, describeOnRealServers, expectSameOutcomes, sequenceRows } from '../helpers/real-server';

const BIN = '\xff\x00\xfe\r\n';

const SEQUENCES: string[][][] = [
  // GEOADD: options, errors in order, ZADD's replies; coordinates and distances printed per version
  [['GEOADD', 'g', '13.361389', '38.115556', 'Palermo', '15.087269', '37.502669', 'Catania'], ['GEOADD', 'g', '200', '10', 'x'], ['GEOADD', 'g', '10', 'abc', 'x'], ['GEOADD', 'g', 'nx', 'xx', '1', '2', 'x'], ['GEOADD', 'g', 'gt', '1', '2', 'x'], ['GEOADD', 'g', '1', '2', 'x', '3'], ['GEOADD', 'g', 'ch', 'xx', '13', '38', 'Palermo', '1', '1', 'newone'], ['GEOADD', 'g', 'CH', 'NX', '13', '38', 'Palermo', '1', '1', 'newone'], ['GEOADD', 'g', '180.0000001', '0', 'x'], ['GEOADD', 'g', '1e400', '0', 'x'], ['GEOADD', 'g', '0x10', '0', 'x'], ['GEOADD', 'g', '-180', '-85.05112878', 'sw', '180', '85.05112878', 'ne', '0', '0', 'zero', '-0', '-0', BIN], ['ZRANGE', 'g', '0', '-1', 'WITHSCORES'], ['OBJECT', 'ENCODING', 'g']],
  [['GEOADD', 'g', '13.361389', '38.115556', 'Palermo', '15.087269', '37.502669', 'Catania', '-180', '-85.05112878', 'sw', '180', '85.05112878', 'ne', '-0', '-0', BIN], ['GEOPOS', 'g', 'Palermo', 'nope', 'Catania', 'sw', 'ne', BIN], ['GEOPOS', 'nokey', 'a', 'b'], ['GEODIST', 'g', 'Palermo', 'Catania'], ['GEODIST', 'g', 'Palermo', 'Catania', 'km'], ['GEODIST', 'g', 'Palermo', 'Catania', 'MI'], ['GEODIST', 'g', 'Palermo', 'Catania', 'Ft'], ['GEODIST', 'g', 'Palermo', 'Catania', 'yd'], ['GEODIST', 'g', 'Palermo', 'Catania', 'km', 'x'], ['GEODIST', 'nokey', 'a', 'b', 'yd'], ['GEODIST', 'nokey', 'a', 'b'], ['GEODIST', 'g', 'Palermo', 'nope'], ['GEODIST', 'g', 'sw', 'ne'], ['GEODIST', 'g', BIN, 'Palermo', 'mi'], ['GEOHASH', 'g', 'Palermo', 'Catania', 'nope', 'sw', 'ne', BIN], ['GEOHASH', 'nokey', 'a']],
  // scores ZADD wrote decode too (the score 0, fractions, past 52 bits)
  [['ZADD', 'g', '0', 'zero', '0.5', 'half', '4503599627370496', 'big', '-3', 'neg', '1e300', 'huge'], ['GEOPOS', 'g', 'zero', 'half', 'big', 'neg'], ['GEOHASH', 'g', 'zero', 'half', 'big'], ['GEODIST', 'g', 'zero', 'big']],
  // WRONGTYPE after the unit check
  [['SET', 's', 'v'], ['GEOPOS', 's', 'a'], ['GEOHASH', 's', 'a'], ['GEODIST', 's', 'a', 'b'], ['GEODIST', 's', 'a', 'b', 'yd'], ['GEOADD', 's', '1', '1', 'a'], ['GEOADD', 's', '1', '1']],
  // searches: errors in geo.c's order (type, positional centre and radius, options left to right, then the cross checks)
  [['GEOADD', 'g', '13.361389', '38.115556', 'Palermo', '15.087269', '37.502669', 'Catania'], ['SET', 's', 'v'],
    ['GEOSEARCH', 's', 'FROMLONLAT', '200', '0', 'BYRADIUS', '1', 'km'], ['GEOSEARCH', 'g', 'FROMLONLAT', '200', '0', 'BYRADIUS', '1', 'km'], ['GEOSEARCH', 'g', 'FROMMEMBER', 'nope', 'BYRADIUS', '1', 'km'],
    ['GEOSEARCH', 'nokey', 'FROMMEMBER', 'nope', 'BYRADIUS', 'x', 'km'], ['GEOSEARCH', 'nokey', 'FROMMEMBER', 'nope', 'BYRADIUS', '1', 'km', 'ANY'], ['GEOSEARCH', 'g', 'BYRADIUS', '1', 'km', 'ASC'], ['geosearch', 'g', 'withdist', 'withhash', 'asc', 'desc', 'any'],
    ['GEOSEARCH', 'g', 'FROMLONLAT', '15', '37', 'WITHDIST'], ['GEOSEARCH', 'g', 'FROMLONLAT', '15', '37', 'FROMMEMBER', 'Palermo', 'BYRADIUS', '1', 'km'], ['GEOSEARCH', 'g', 'FROMLONLAT', '15', '37', 'BYRADIUS', '1', 'km', 'BYBOX', '1', '1', 'km'],
    ['GEOSEARCH', 'g', 'FROMLONLAT', '15', '37', 'BYRADIUS', '-1', 'km'], ['GEOSEARCH', 'g', 'FROMLONLAT', '15', '37', 'BYRADIUS', 'abc', 'km'], ['GEOSEARCH', 'g', 'FROMLONLAT', '15', '37', 'BYRADIUS', '1', 'yd'],
    ['GEOSEARCH', 'g', 'FROMLONLAT', '15', '37', 'BYBOX', 'abc', '1', 'km'], ['GEOSEARCH', 'g', 'FROMLONLAT', '15', '37', 'BYBOX', '1', 'abc', 'km'], ['GEOSEARCH', 'g', 'FROMLONLAT', '15', '37', 'BYBOX', '-1', '1', 'yd'], ['GEOSEARCH', 'g', 'FROMLONLAT', '15', '37', 'BYBOX', '1', '1', 'yd'],
    ['GEOSEARCH', 'g', 'FROMLONLAT', '15', '37', 'BYRADIUS', '1', 'km', 'ANY'], ['GEOSEARCH', 'g', 'FROMLONLAT', '15', '37', 'BYRADIUS', '1', 'km', 'COUNT', '0'], ['GEOSEARCH', 'g', 'FROMLONLAT', '15', '37', 'BYRADIUS', '1', 'km', 'COUNT', 'x'], ['GEOSEARCH', 'g', 'FROMLONLAT', '15', '37', 'BYRADIUS', '1', 'km', 'COUNT'],
    ['GEOSEARCH', 'g', 'FROMLONLAT', '15', '37', 'BYRADIUS', '1', 'km', 'STORE', 'x'], ['GEOSEARCH', 'g', 'FROMLONLAT', '15', '37', 'BYRADIUS', '1', 'km', 'STOREDIST'], ['GEOSEARCHSTORE', 'd', 'g', 'FROMLONLAT', '15', '37', 'BYRADIUS', '1', 'km', 'WITHDIST'],
    ['GEOSEARCHSTORE', 'd', 'g', 'FROMLONLAT', '15', '37', 'BYRADIUS', '1', 'km', 'STORE', 'x'], ['GEORADIUS', 'g', '15', '37', '1', 'km', 'WITHDIST', 'STORE', 'x'], ['GEORADIUS', 'g', '15', '37', '1', 'km', 'STORE', 'x', 'WITHHASH', 'STORE'],
    ['GEORADIUS_RO', 'g', '15', '37', '1', 'km', 'STORE', 'x'], ['GEORADIUSBYMEMBER_RO', 'g', 'Palermo', '1', 'km', 'STOREDIST', 'x'], ['GEORADIUSBYMEMBER', 'nokey', 'x', 'abc', 'yd', 'WITHDIST'], ['GEORADIUSBYMEMBER', 'g', 'nope', '1', 'km'],
    ['GEORADIUSBYMEMBER', 'g', 'Palermo', 'abc', 'km'], ['GEORADIUS', 'g', '15', 'abc', '1', 'km'], ['GEORADIUS', 'g', '15', '37', '1', 'km', 'FROMMEMBER', 'Palermo'], ['GEORADIUS', 'nokey', '15', '37', '1', 'km', 'COUNT', '1', 'ANY', 'STORE', 's'], ['TYPE', 's'],
    ['GEORADIUS', 'g', '15', '37', '-1', 'km'], ['GEORADIUS', 'g', '15', '37', '1'], ['GEOSEARCH', 'g', 'FROMLONLAT', '15', '37', 'BYBOX', '1', '1']],
  // searches: replies (members, WITHDIST/WITHHASH/WITHCOORD in that order, COUNT [ANY], ASC/DESC, units), stores
  [['GEOADD', 'Sicily', '13.361389', '38.115556', 'Palermo', '15.087269', '37.502669', 'Catania', '12.758489', '38.788135', 'edge1', '17.241510', '38.788135', 'edge2', '13.583333', '37.316667', 'Agrigento', '15.2', '37.1', BIN],
    ['GEOSEARCH', 'Sicily', 'FROMLONLAT', '15', '37', 'BYRADIUS', '200', 'km'], ['GEOSEARCH', 'Sicily', 'FROMLONLAT', '15', '37', 'BYRADIUS', '200', 'km', 'ASC', 'WITHCOORD', 'WITHDIST', 'WITHHASH'],
    ['GEOSEARCH', 'Sicily', 'FROMLONLAT', '15', '37', 'BYBOX', '400', '400', 'km', 'DESC', 'WITHDIST'], ['GEOSEARCH', 'Sicily', 'FROMMEMBER', 'Palermo', 'BYBOX', '200', '100', 'mi', 'WITHDIST', 'COUNT', '2'],
    ['GEOSEARCH', 'Sicily', 'FROMLONLAT', '15', '37', 'BYRADIUS', '200', 'km', 'COUNT', '2', 'ANY'], ['GEOSEARCH', 'Sicily', 'FROMLONLAT', '15', '37', 'BYRADIUS', '200', 'km', 'COUNT', '2', 'ANY', 'DESC'], ['GEOSEARCH', 'Sicily', 'FROMLONLAT', '15', '37', 'BYRADIUS', '656168', 'ft', 'COUNT', '9223372036854775807', 'WITHDIST'],
    ['GEORADIUS', 'Sicily', '15', '37', '200', 'km', 'WITHDIST', 'WITHCOORD'], ['GEORADIUS_RO', 'Sicily', '15', '37', '100', 'mi', 'DESC'], ['GEORADIUSBYMEMBER', 'Sicily', 'Agrigento', '100', 'km', 'WITHHASH', 'ASC'], ['GEORADIUSBYMEMBER_RO', 'Sicily', BIN, '0', 'm', 'WITHDIST'],
    ['GEOSEARCH', 'Sicily', 'FROMLONLAT', '0', '0', 'BYRADIUS', '1', 'km'], ['GEOSEARCH', 'Sicily', 'FROMMEMBER', 'Palermo', 'BYBOX', '0', '0', 'km', 'WITHDIST'],
    ['SET', 'dst', 'v', 'EX', '100'], ['GEOSEARCHSTORE', 'dst', 'Sicily', 'FROMLONLAT', '15', '37', 'BYRADIUS', '200', 'km', 'ASC', 'COUNT', '3'], ['TTL', 'dst'], ['ZRANGE', 'dst', '0', '-1', 'WITHSCORES'], ['OBJECT', 'ENCODING', 'dst'],
    ['GEOSEARCHSTORE', 'dst', 'Sicily', 'FROMLONLAT', '15', '37', 'BYBOX', '400', '400', 'km', 'STOREDIST'], ['ZRANGE', 'dst', '0', '-1', 'WITHSCORES'],
    ['GEORADIUS', 'Sicily', '15', '37', '200', 'km', 'STOREDIST', 'd2'], ['ZRANGE', 'd2', '0', '-1', 'WITHSCORES'], ['GEORADIUSBYMEMBER', 'Sicily', 'Palermo', '300', 'km', 'STORE', 'd2', 'COUNT', '2', 'DESC'], ['ZRANGE', 'd2', '0', '-1', 'WITHSCORES'],
    ['GEORADIUS', 'Sicily', '0', '0', '1', 'km', 'STORE', 'd2'], ['EXISTS', 'd2'], ['GEOSEARCHSTORE', 'dst', 'nokey', 'FROMMEMBER', 'x', 'BYRADIUS', '1', 'm'], ['EXISTS', 'dst'], ['GEOSEARCHSTORE', 'Sicily', 'Sicily', 'FROMMEMBER', 'Palermo', 'BYRADIUS', '100', 'km'], ['ZRANGE', 'Sicily', '0', '-1', 'WITHSCORES']],
  // searches: equal points (COUNT's partial sort of ties) in a skiplist (130 members, no CONFIG SET: other files share the server), the poles and the antimeridian
  [...Array.from({ length: 130 }, (_, i) => ['GEOADD', 'dup', String(10 + (i % 3) * 0.001), '10', `p${i}`]), ['OBJECT', 'ENCODING', 'dup'],
    ['GEOSEARCH', 'dup', 'FROMLONLAT', '10', '10', 'BYRADIUS', '1', 'km', 'COUNT', '7'], ['GEOSEARCH', 'dup', 'FROMLONLAT', '10', '10', 'BYRADIUS', '1', 'km', 'COUNT', '25', 'DESC'], ['GEOSEARCH', 'dup', 'FROMLONLAT', '10', '10', 'BYRADIUS', '1', 'km', 'ASC'],
    ['GEOSEARCH', 'dup', 'FROMLONLAT', '10', '10', 'BYRADIUS', '1', 'km', 'COUNT', '5', 'ANY'], ['GEOSEARCHSTORE', 'out', 'dup', 'FROMLONLAT', '10', '10', 'BYRADIUS', '1', 'km', 'COUNT', '3'], ['OBJECT', 'ENCODING', 'out'], ['ZRANGE', 'out', '0', '-1', 'WITHSCORES'],
    ['GEOADD', 'edge', '179.99', '0', 'e1', '-179.99', '0', 'w1', '0', '85', 'n1', '180', '85', 'n2', '-180', '-85', 's1', '90', '-85.05112878', 's2'],
    ['GEOSEARCH', 'edge', 'FROMLONLAT', '180', '0', 'BYRADIUS', '5', 'km', 'WITHDIST'], ['GEOSEARCH', 'edge', 'FROMLONLAT', '0', '85', 'BYRADIUS', '2000', 'km', 'WITHDIST'], ['GEOSEARCH', 'edge', 'FROMLONLAT', '0', '0', 'BYRADIUS', '20000', 'km'],
    ['GEOSEARCH', 'edge', 'FROMLONLAT', '0', '-85', 'BYBOX', '40000', '1000', 'km', 'WITHCOORD'], ['GEOSEARCH', 'edge', 'FROMLONLAT', '0', '0', 'BYRADIUS', 'inf', 'km'], ['GEORADIUS', 'edge', '-180', '0', '3', 'km', 'WITHDIST']],
];

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers('geo commands', ({ url, version }) => {
  let port = 48_600 + (version === '7.0' ? 0 : 50);
  it.each(sequenceRows(SEQUENCES, (a) => a.join(' ').slice(0, 40), 200))('sequence %i: %s', async (_i, _text, seq) => {
    const real = await connectReal(url, 4); // a database of its own: other test files use the server too
    await real.call('CONFIG', 'SET', 'list-max-listpack-size', '-2');
    const fake = createConnection({ port: port++, streams: { redisVersion: version } });
    try {
      await expectSameOutcomes(real, fake, seq, { plainReal: bytesNumbersReply, plainFake: bytesNumbersReply, label: cutArgs });
    } finally {
      await real.call('CONFIG', 'SET', 'list-max-listpack-size', '-2');
      await real.call('FLUSHDB');
      real.disconnect();
      fake.close();
    }
  });
});
