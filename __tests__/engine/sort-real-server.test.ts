/**
 * SORT and SORT_RO against real servers: the same command sequences on a fresh engine connection
 * and on a real connection must answer the same RESP2 values and error texts, byte for byte
 * (binary elements included), and leave the same STORE destinations. `REDIS_URL`: redis-server
 * 7.0.15 (emulated 7.0); `REDIS_UNSTABLE_URL`: the post-7.4 4f8cdc2a build (emulated 8.0).
 * Skips with a message when a URL is unset.
 */
import { createConnection } from '../../lib/engine';
import { bytesNumbersReply, connectReal, cutArgs, describeOnRealServers, expectSameOutcomes, sequenceRows } from '../helpers/real-server';

const BIN = '\xff\x00\xfe\r\n';

const SEQUENCES: string[][][] = [
  // numeric and ALPHA sorts, DESC, LIMIT clamping, the constant BY (native order)
  [['RPUSH', 'l', '3', '1', '2', '10', '-5', '1.5', ''], ['SORT', 'l'], ['SORT', 'l', 'DESC'], ['SORT', 'l', 'ALPHA'], ['SORT', 'l', 'alpha', 'desc'], ['SORT', 'l', 'LIMIT', '1', '2'], ['SORT', 'l', 'LIMIT', '-5', '100', 'DESC'], ['SORT', 'l', 'LIMIT', '1', '2', 'BY', 'nosort'], ['SORT', 'l', 'LIMIT', '1', '2', 'BY', 'nosort', 'DESC'], ['SORT', 'l', 'LIMIT', '10', '2'], ['SORT', 'l', 'LIMIT', '0', '0'], ['SORT', 'l', 'LIMIT', '0', '-3'], ['SORT', 'l', 'LIMIT', '9223372036854775807', '9223372036854775807'], ['SORT', 'l', 'LIMIT', '-9223372036854775808', '-9223372036854775808'], ['SORT_RO', 'l', 'ALPHA', 'DESC', 'LIMIT', '0', '3'], ['SORT', 'nokey'], ['SORT', 'nokey', 'BY', 'x', 'DESC', 'LIMIT', '0', '1']],
  // errors and their order
  [['RPUSH', 'l', '1', 'a', '2'], ['SORT', 'l', 'LIMIT', 'x', '2'], ['SORT', 'l', 'LIMIT', '1'], ['SORT', 'l', 'LIMIT', '1', '9223372036854775808'], ['SORT', 'l', 'STORE'], ['SORT_RO', 'l', 'STORE', 'd'], ['SORT', 'l', 'foo'], ['SORT', 'l', 'GET'], ['SORT', 'l', 'BY'], ['SORT', 'l'], ['SORT', 'l', 'STORE', 'd'], ['EXISTS', 'd'], ['SORT', 'l', 'ALPHA'], ['SET', 's', 'v'], ['SORT', 's'], ['SORT', 's', 'foo'], ['HSET', 'h', 'f', 'v'], ['SORT', 'h', 'LIMIT', '0', '1']],
  // number texts (strtod on 7.x, fast_float on 8.0). The overflowing texts come last: 7.0's
  // sort.c does not reset errno before strtod, so once a SORT met ERANGE, later SORTs on the same
  // connection refuse every non-integer element until some system call overwrites errno (a 7.0
  // bug the fake does not reproduce; seen on redis-server 7.0.15).
  [['RPUSH', 'f', 'inf', '-inf', '+5', '.5', '5.'], ['SORT', 'f'], ['RPUSH', 'g', 'nan'], ['SORT', 'g'], ['RPUSH', 'i', '2 ', '1'], ['SORT', 'i'], ['RPUSH', 'j', '7\x00x', '3'], ['SORT', 'j'], ['RPUSH', 'a', ' 1', '3'], ['SORT', 'a'], ['RPUSH', 'b', '0x10', '3'], ['SORT', 'b'], ['RPUSH', 'c', '1e400', '3'], ['SORT', 'c'], ['RPUSH', 'e', '1e-400', '3'], ['SORT', 'e']],
  // BY and GET patterns: strings, hash fields, #, missing keys, no `*`
  [['RPUSH', 'l', '3', '1', '2', BIN], ['MSET', 'w_3', '30', 'w_1', '10', 'w_2', '-2', `w_${BIN}`, '5'], ['SORT', 'l', 'BY', 'w_*'], ['SORT', 'l', 'BY', 'w_*', 'GET', '#', 'GET', 'w_*', 'GET', 'nokey', 'GET', 'x_*'], ['HSET', 'h_1', 'f', '9'], ['HSET', 'h_3', 'f', '1'], ['SORT', 'l', 'BY', 'h_*->f', 'GET', 'h_*->f', 'GET', '#', 'GET', 'h_*->'], ['SORT', 'l', 'BY', 'h_*->f', 'ALPHA'], ['SORT', 'l', 'BY', 'h_*->f', 'ALPHA', 'DESC'], ['SORT', 'l', 'BY', 'w_*', 'ALPHA'], ['SORT', 'l', 'BY', 'nosort', 'GET', '#', 'GET', 'w_*'], ['SORT', 'l', 'BY', 'w_*', 'GET', 'h_*->f', 'STORE', 'd'], ['LRANGE', 'd', '0', '-1'], ['SORT', 'l', 'BY', 'w_*', 'ALPHA', 'STORE', 'd'], ['LRANGE', 'd', '0', '-1'], ['TYPE', 'd'], ['SORT', 'l', 'BY', 'w_*', 'LIMIT', '1', '2', 'ALPHA'], ['SET', 'w_x', 'notanumber'], ['RPUSH', 'm', 'x', '1'], ['SORT', 'm', 'BY', 'w_*']],
  // STORE: a list replacing any type; an empty result deletes the destination
  [['RPUSH', 'l', 'b', 'a', BIN], ['SET', 'd', 'v'], ['SORT', 'l', 'ALPHA', 'STORE', 'd'], ['LRANGE', 'd', '0', '-1'], ['OBJECT', 'ENCODING', 'd'], ['SORT', 'nokey', 'STORE', 'd'], ['EXISTS', 'd'], ['SORT', 'nokey', 'STORE', 'd'], ['SORT', 'l', 'ALPHA', 'LIMIT', '5', '1', 'STORE', 'd'], ['SORT', 'l', 'ALPHA', 'GET', '#', 'GET', 'nokey', 'STORE', 'd'], ['LRANGE', 'd', '0', '-1']],
  // sets (a constant BY with STORE forces ALPHA) and sorted sets (score order without a sort)
  [['SADD', 's', '5', '3', '9', '1'], ['SORT', 's'], ['SORT', 's', 'BY', 'nosort'], ['SORT', 's', 'BY', 'nosort', 'STORE', 'd'], ['LRANGE', 'd', '0', '-1'], ['SADD', 't', 'b', 'a', 'c', BIN], ['SORT', 't', 'ALPHA'], ['SORT', 't', 'BY', 'nosort', 'STORE', 'd'], ['LRANGE', 'd', '0', '-1']],
  [['ZADD', 'z', '3', 'a', '1', 'b', '2', 'c', '1', 'd', '0', BIN], ['SORT', 'z', 'BY', 'nosort'], ['SORT', 'z', 'BY', 'nosort', 'DESC'], ['SORT', 'z', 'BY', 'nosort', 'LIMIT', '1', '2', 'DESC'], ['SORT', 'z', 'BY', 'nosort', 'LIMIT', '1', '2'], ['SORT', 'z', 'ALPHA'], ['SORT', 'z', 'ALPHA', 'LIMIT', '1', '2'], ['SORT', 'z'], ['ZADD', 'y', '1', '10', '2', '9'], ['OBJECT', 'ENCODING', 'y'], ['SORT', 'y'], ['OBJECT', 'ENCODING', 'y']],
];

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers('SORT', ({ url, version }) => {
  let port = 48_700 + (version === '7.0' ? 0 : 50);
  it.each(sequenceRows(SEQUENCES, (a) => a.join(' ').slice(0, 40), 200))('sequence %i: %s', async (_i, _text, seq) => {
    const real = await connectReal(url, 8); // a database of its own: other test files use the server too
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
}, 'answers');
