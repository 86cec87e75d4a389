/**
 * The set commands against real servers: the same sequences on a fresh engine connection and
 * on real ioredis (RESP2, bytes in and out) must answer the same values and error texts, OBJECT
 * ENCODING and DUMP payloads included. `REDIS_URL`: redis-server 7.0.15 (emulated 7.0);
 * `REDIS_UNSTABLE_URL`: the post-7.4 build 4f8cdc2a (emulated 8.0). Skips with a message
 * otherwise. A step marked `sorted` compares its members in any order (a hash table's order is
 * the dict's, seeded per process in Redis); `count` compares only how many members came back
 * (random choices).
 */
import { createConnection } from '../../lib/engine';
import { bytesNumbersReply, connectReal, describeOnRealServers, expectSameOutcomes, sequenceRows } from '../helpers/real-server';

type Step = { argv: string[]; compare?: 'sorted' | 'count' };

const s = (...argv: string[]): Step => ({ argv });
const sorted = (...argv: string[]): Step => ({ argv, compare: 'sorted' });
const count = (...argv: string[]): Step => ({ argv, compare: 'count' });
const range = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => String(from + i));

const BIN = '\xff\x00\x80bin';

const SEQUENCES: Step[][] = [
  // intset growth, width kept after removal, conversion to listpack (hash table on 7.0)
  [s('SADD', 'i', '1', '2', '3', '100000'), s('SREM', 'i', '100000'), s('DUMP', 'i'), s('OBJECT', 'ENCODING', 'i'), s('SADD', 'i', '-5'), s('SMEMBERS', 'i'), s('DUMP', 'i'),
    s('SADD', 'i', 'x'), s('OBJECT', 'ENCODING', 'i'), sorted('SMEMBERS', 'i')],
  // binary members, listpack order, RESTORE of the payload
  [s('SADD', 'b', BIN, 'a', '7'), sorted('SMEMBERS', 'b'), s('SISMEMBER', 'b', BIN), s('SMISMEMBER', 'b', 'a', 'zz', BIN), s('OBJECT', 'ENCODING', 'b'), s('SCARD', 'b'),
    s('SREM', 'b', BIN, 'nope'), sorted('SSCAN', 'b', '0', 'MATCH', '*')],
  // size hints and limits
  [s('SADD', 'd', 'x', ...Array(200).fill('x')), s('OBJECT', 'ENCODING', 'd'), s('SADD', 'n', '1'), s('SADD', 'n', ...Array(600).fill('1')), s('OBJECT', 'ENCODING', 'n'),
    s('SADD', 'm', ...range(1, 512)), s('OBJECT', 'ENCODING', 'm'), s('SADD', 'm', '513'), s('OBJECT', 'ENCODING', 'm'), s('SADD', 'v', 'a'), s('SADD', 'v', 'y'.repeat(65)), s('OBJECT', 'ENCODING', 'v'),
    s('SADD', 'w', '1', '2'), s('SADD', 'w', '99999999999999999999'), s('OBJECT', 'ENCODING', 'w')],
  // algebra: result encodings and sizes
  [s('SADD', 'h', ...range(1, 130), 'foo'), s('SADD', 'i', '3', '1', '2', '-5'), s('SADD', 'l', 'a', 'b', '1', 'c'), s('SINTERSTORE', 'd1', 'h', 'i'), s('OBJECT', 'ENCODING', 'd1'),
    s('SMEMBERS', 'd1'), s('DUMP', 'd1'), s('SUNIONSTORE', 'd2', 'i', 'l'), s('OBJECT', 'ENCODING', 'd2'), sorted('SMEMBERS', 'd2'), s('SDIFFSTORE', 'd3', 'l', 'i'), sorted('SMEMBERS', 'd3'),
    s('SDIFFSTORE', 'd3', 'nokey', 'i'), s('EXISTS', 'd3'), sorted('SINTER', 'i', 'l'), sorted('SUNION', 'i', 'l'), sorted('SDIFF', 'l', 'i'), s('SINTERCARD', '2', 'i', 'l'),
    s('SINTERCARD', '3', 'h', 'i', 'l', 'LIMIT', '1'), s('SUNIONSTORE', 'u', 'h', 'l'), s('OBJECT', 'ENCODING', 'u'), s('SCARD', 'u'), s('SDIFF', 'i', 'i', 'l')],
  // errors and their order
  [s('SET', 'str', 'x'), s('SADD', 'str', 'a'), s('SINTER', 'nokey', 'str'), s('SUNIONSTORE', 'dst', 'nokey', 'str'), s('SMOVE', 'nokey', 'str', 'a'), s('SADD', 'k', 'a'),
    s('SMOVE', 'k', 'str', 'a'), s('SMOVE', 'str', 'k', 'a'), s('SPOP', 'str', 'x'), s('SPOP', 'k', '-1'), s('SPOP', 'k', '1', '2'), s('SRANDMEMBER', 'k', '1', '2'),
    s('SRANDMEMBER', 'str', 'x'), s('SRANDMEMBER', 'k', '-9223372036854775808'), s('SRANDMEMBER', 'k', '9223372036854775808'), s('SPOP', 'str', '0'),
    s('SINTERCARD', '0', 'k'), s('SINTERCARD', 'a', 'k'), s('SINTERCARD', '3', 'k', 'k'), s('SINTERCARD', '1', 'k', 'x'), s('SINTERCARD', '1', 'k', 'LIMIT'),
    s('SINTERCARD', '1', 'k', 'LIMIT', '-1'), s('SINTERCARD', '1', 'str'), s('SSCAN', 'k', 'x'), s('SSCAN', 'str', '0'), s('SSCAN', 'k', '0', 'COUNT', '0'),
    s('SSCAN', 'k', '0', 'COUNT', 'x'), s('SSCAN', 'k', '0', 'TYPE', 'set'), s('SSCAN', 'k', '0', 'NOVALUES'), s('SSCAN', 'nokey', '0', 'bad'), s('SSCAN', 'k', ''),
    // (no `SSCAN k -1`: on 7.0 a one-member hashtable set answers its member or nothing depending on
    // the server's random hash seed — the cursor 2^64-1 visits one bucket)
    s('SMISMEMBER', 'k'), s('SADD', 'k')],
  // SPOP / SRANDMEMBER shapes and counts
  [s('SADD', 'p', 'a'), s('SPOP', 'p', '1'), s('EXISTS', 'p'), s('SPOP', 'p', '5'), s('SPOP', 'p'), s('SRANDMEMBER', 'p'), s('SRANDMEMBER', 'p', '5'), s('SADD', 'p', ...range(1, 20)),
    count('SPOP', 'p', '2'), s('SCARD', 'p'), count('SPOP', 'p', '16'), s('SCARD', 'p'), s('OBJECT', 'ENCODING', 'p'), count('SRANDMEMBER', 'p', '-7'), count('SRANDMEMBER', 'p', '1'),
    count('SRANDMEMBER', 'p', '10'), count('SPOP', 'p', '0'), s('SRANDMEMBER', 'p', '0'), s('SADD', 'q', ...range(1, 300), 'foo'), count('SPOP', 'q', '280'), s('SCARD', 'q'),
    s('SADD', 'r', ...range(1, 300)), count('SPOP', 'r', '280'), s('OBJECT', 'ENCODING', 'r'), s('SCARD', 'r')],
  // SMOVE conversions and COPY keeping encodings
  [s('SADD', 'a', '1', 'x', 'y'), s('SADD', 'b', '2', '3'), s('SMOVE', 'a', 'b', 'x'), s('OBJECT', 'ENCODING', 'b'), s('SMOVE', 'a', 'c', '1'), s('OBJECT', 'ENCODING', 'c'),
    s('SMOVE', 'a', 'a', 'y'), s('SMOVE', 'a', 'b', 'y'), s('EXISTS', 'a'), sorted('SMEMBERS', 'b'), s('SADD', 'h', ...range(1, 600)), s('COPY', 'h', 'h2'), s('OBJECT', 'ENCODING', 'h2'),
    s('SCARD', 'h2'), s('COPY', 'c', 'c2'), s('DUMP', 'c2')],
];

function shaped(step: Step, value: unknown): unknown {
  if (step.compare === 'count') return Array.isArray(value) ? { members: value.length } : { member: typeof value };
  if (step.compare === 'sorted') {
    if (!Array.isArray(value)) return value;
    if (step.argv[0] === 'SSCAN') return [value[0], [...(value[1] as string[])].sort()];
    return [...value].sort();
  }
  return value;
}

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers('set commands', ({ url, version }) => {
  let port = 48_100 + (version === '7.0' ? 0 : 500);
  it.each(sequenceRows(SEQUENCES, (st) => st.argv.slice(0, 3).join(' ')))('sequence %i: %s', async (_i, _text, seq) => {
    const real = await connectReal(url, 7);
    const fake = createConnection({ port: port++, streams: { redisVersion: version } });
    try {
      for (const step of seq) {
        const plain = (v: unknown) => shaped(step, bytesNumbersReply(v));
        await expectSameOutcomes(real, fake, [step.argv], { plainReal: plain, plainFake: plain, label: (argv) => argv.slice(0, 4) });
      }
    } finally {
      await real.call('FLUSHDB');
      real.disconnect();
      fake.close();
    }
  });
});

describe('set commands through the ioredis front end', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { itOnFakeAndServer } = require('../helpers/real-server') as typeof import('../helpers/real-server');
  itOnFakeAndServer(
    'ioredis methods and their Buffer twins answer sets as a server does (binary members, SPOP 1 as a one-element array)',
    'set commands through ioredis',
    { port: 48_900, key: 'sets:ioredis' },
    async (client, key) => {
      const bin = Buffer.from([0xff, 0x00, 0x80]);
      const added = await client.sadd(key, bin, 'a', '3');
      const members = ((await client.smembersBuffer(key)) as Buffer[]).map((b) => b.toString('hex')).sort();
      const isMember = await client.sismember(key, bin);
      const multi = await client.smismember(key, 'a', 'nope');
      const one = await client.spop(`${key}:one`, 1);
      await client.sadd(`${key}:one`, 'only');
      const popped = await client.spop(`${key}:one`, 1);
      const random = ((await client.srandmember(key, -5)) as string[]).length;
      const stored = await client.sinterstore(`${key}:dst`, key, key);
      await client.del(key, `${key}:dst`);
      return { added, members, isMember, multi, one, popped, random, stored };
    },
    { added: 3, members: ['33', '61', 'ff0080'], isMember: 1, multi: [1, 0], one: [], popped: ['only'], random: 5, stored: 3 },
  );
});
