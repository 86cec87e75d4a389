/**
 * GEOADD, GEOPOS, GEODIST and GEOHASH against real servers: the same command sequences on a fresh engine connection
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
];

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
