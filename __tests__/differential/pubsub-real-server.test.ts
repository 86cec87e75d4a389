/**
 * Pub/sub against real servers, byte for byte: the same steps on engine connections (replies
 * and pushes encoded as the RESP server writes them) and on raw sockets to a real server give
 * the same bytes on every connection — receiver counts, PUBSUB answers, message and
 * confirmation shapes in RESP2 and RESP3, sharded pub/sub, CLIENT REPLY OFF/SKIP, confirmations
 * inside EXEC. Channels and payloads include non-UTF-8 bytes.
 * `REDIS_URL`: redis-server 7.0.15 (emulated 7.0); `REDIS_UNSTABLE_URL`: the post-7.4 build
 * (emulated 8.0). Skips with a message when a URL is unset.
 */
import * as net from 'net';
import { createConnection, type Connection } from '../../lib/engine';
import { CommandError } from '../../lib/errors';
import { PushReply, type Reply } from '../../lib/reply/reply';
import { encodeToString, errorLine } from '../../lib/server/resp-encoder';
import { describeOnRealServers } from '../helpers/real-server';

const BIN = '\xff\xfe\x00\x80'; // not UTF-8

/** A step: connection index, then the command (byte strings). */
type Step = [number, ...string[]];

const SCENARIOS: [title: string, connections: number, steps: Step[]][] = [
  [
    'PUBLISH counts channel and pattern subscribers of every connection; binary channels and payloads arrive intact',
    4,
    [
      [0, 'SUBSCRIBE', 'news', BIN],
      // each PUBLISH matches at most one pattern per connection: Redis's delivery order among a
      // connection's patterns is its dict's order
      [1, 'PSUBSCRIBE', 'n*', '\xff*'],
      [3, 'PSUBSCRIBE', 'ne?s'],
      [2, 'PUBLISH', 'news', `x${BIN}`],
      [2, 'PUBLISH', BIN, BIN],
      [2, 'PUBLISH', 'nothing', 'y'],
      [2, 'PUBLISH', 'other', 'z'],
      [2, 'PUBSUB', 'NUMSUB', 'news', BIN, 'none'],
      [2, 'PUBSUB', 'NUMPAT'],
      [2, 'PUBSUB', 'CHANNELS', 'n*'],
      [2, 'PUBSUB', 'CHANNELS', 'a', 'b'],
      [2, 'PUBSUB', 'NUMPAT', 'x'],
      [2, 'PUBSUB', 'FOO'],
      [2, 'PUBLISH', 'a'],
      [0, 'PUBLISH', 'a', 'b'],
      [0, 'PING', 'x'],
      [0, 'UNSUBSCRIBE', BIN],
      [0, 'UNSUBSCRIBE'],
      [1, 'PUNSUBSCRIBE', 'n*'],
      [1, 'PUNSUBSCRIBE'],
      [1, 'PUNSUBSCRIBE'],
      [2, 'PUBSUB', 'NUMPAT'],
    ],
  ],
  [
    'RESP3 subscribers get push frames and may run any command',
    2,
    [
      [0, 'HELLO', '3'],
      [0, 'SUBSCRIBE', 'c1'],
      [0, 'PSUBSCRIBE', 'c*'],
      [1, 'PUBLISH', 'c1', 'hello'],
      [0, 'GET', 'nokey'],
      [0, 'UNSUBSCRIBE', 'c1', 'c2'],
    ],
  ],
  [
    'sharded pub/sub: SSUBSCRIBE counts shard channels only, smessage, SHARDCHANNELS/SHARDNUMSUB',
    3,
    [
      [0, 'SSUBSCRIBE', 's1', BIN],
      [1, 'HELLO', '3'],
      [1, 'SUBSCRIBE', 's1'],
      [1, 'SSUBSCRIBE', 's1'],
      [2, 'SPUBLISH', 's1', 'm'],
      [2, 'SPUBLISH', BIN, BIN],
      [2, 'PUBLISH', 's1', 'p'],
      [2, 'PUBSUB', 'SHARDNUMSUB', 's1', BIN, 'none'],
      [2, 'PUBSUB', 'SHARDCHANNELS', 's*'],
      [2, 'PUBSUB', 'SHARDCHANNELS', 'a', 'b'],
      [0, 'GET', 'k'],
      [0, 'SUNSUBSCRIBE', 's1'],
      [0, 'SUNSUBSCRIBE'],
      [0, 'SUNSUBSCRIBE'],
      [0, 'GET', 'k'],
      [2, 'SPUBLISH', 's1', 'again'],
    ],
  ],
  [
    'PING of a RESP2 connection subscribed to shard channels only: the subscriber array (CLIENT_PUBSUB)',
    2,
    [
      [0, 'SSUBSCRIBE', 's2'],
      [0, 'PING'],
      [0, 'PING', 'x'],
      [1, 'SUBSCRIBE', 'c2'],
      [1, 'SSUBSCRIBE', 's3'],
      [1, 'UNSUBSCRIBE'],
      [1, 'PING'],
      [1, 'SUNSUBSCRIBE'],
      [1, 'PING'],
      [0, 'SUNSUBSCRIBE'],
      [0, 'PING', 'y'],
    ],
  ],
  [
    'CLIENT REPLY OFF/SKIP silence replies, not pushes; confirmations inside EXEC are its elements',
    2,
    [
      [0, 'CLIENT', 'REPLY', 'SKIP'],
      [0, 'PING', 'a'],
      [0, 'PING', 'b'],
      [0, 'CLIENT', 'REPLY', 'OFF'],
      [0, 'PING', 'c'],
      [0, 'CLIENT', 'REPLY', 'SKIP'],
      [0, 'CLIENT', 'REPLY', 'ON'],
      [0, 'CLIENT', 'REPLY', 'FOO'],
      [0, 'CLIENT', 'REPLY', 'SKIP'],
      [0, 'NOSUCHCMD'],
      [0, 'PING', 'e'],
      [1, 'HELLO', '3'],
      [1, 'SUBSCRIBE', 'r'],
      [1, 'MULTI'],
      [1, 'PING', 'abc'],
      [1, 'UNSUBSCRIBE', 'r'],
      [1, 'EXEC'],
    ],
  ],
  [
    'LATENCY and SLOWLOG answer as an idle server: nothing recorded, errors and HELP texts',
    1,
    [
      ['LATENCY LATEST'], ['LATENCY HISTORY command'], ['LATENCY RESET'], ['LATENCY RESET a b'], ['LATENCY DOCTOR'], ['LATENCY GRAPH command'], ['LATENCY HELP'],
      ['LATENCY FOO'], ['LATENCY HISTORY'], ['LATENCY LATEST x'], ['LATENCY'],
      // other test files make real commands slow: empty the real slowlog right before reading it
      ['SLOWLOG RESET'], ['SLOWLOG GET'], ['SLOWLOG RESET'], ['SLOWLOG GET -1'], ['SLOWLOG GET x'], ['SLOWLOG GET -2'],
      ['SLOWLOG GET 99999999999999999999'], ['SLOWLOG GET 1 2'], ['SLOWLOG RESET'], ['SLOWLOG LEN'], ['SLOWLOG LEN x'], ['SLOWLOG RESET'], ['SLOWLOG HELP'], ['SLOWLOG FOO'],
      ['HELLO 3'], ['LATENCY DOCTOR'], ['SLOWLOG RESET'], ['SLOWLOG GET'],
    ].map(([line]) => [0, ...line.split(' ')] as Step),
  ],
  [
    'CLIENT tracking and pause subcommands answer as a server without tracking clients',
    1,
    [
      ['CLIENT GETREDIR'], ['CLIENT TRACKINGINFO'], ['CLIENT CACHING yes'], ['CLIENT CACHING foo'], ['CLIENT TRACKING off'], ['CLIENT TRACKING foo'],
      ['CLIENT UNPAUSE'], ['CLIENT PAUSE x'], ['CLIENT PAUSE 0 foo'], ['CLIENT PAUSE -1'], ['CLIENT PAUSE 0 write'], ['HELLO 3'], ['CLIENT TRACKINGINFO'],
    ].map(([line]) => [0, ...line.split(' ')] as Step),
  ],
];

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const quote = (argv: string[]) => `*${argv.length}\r\n${argv.map((a) => `$${a.length}\r\n${a}\r\n`).join('')}`;

async function onReal(url: string, n: number, steps: Step[]): Promise<string[]> {
  const { hostname, port } = new URL(url);
  const socks = await Promise.all(
    Array.from({ length: n }, () => new Promise<net.Socket>((resolve, reject) => {
      const s = net.connect(Number(port), hostname, () => resolve(s));
      s.on('error', reject);
    })),
  );
  const out = socks.map(() => '');
  socks.forEach((s, i) => s.on('data', (d) => (out[i] += d.toString('latin1'))));
  for (const [i, ...argv] of steps) {
    socks[i].write(Buffer.from(quote(argv), 'latin1'));
    await pause(20);
  }
  await pause(50);
  for (const s of socks) s.destroy();
  // HELLO's map (ids, versions) differs: keep only its first bytes
  return out.map((t) => t.replace(/%7\r\n\$6\r\nserver[\s\S]*?\$7\r\nmodules\r\n\*0\r\n/g, '%HELLO'));
}

async function onFake(version: '7.0' | '8.0', port: number, n: number, steps: Step[]): Promise<string[]> {
  const conns: Connection[] = Array.from({ length: n }, () => createConnection({ port, streams: { redisVersion: version } }));
  const proto = conns.map(() => 2 as 2 | 3);
  const out = conns.map(() => '');
  conns.forEach((c, i) => c.onPush((m) => (out[i] += encodeToString(m, proto[i]))));
  for (const [i, ...argv] of steps) {
    let reply: Reply | undefined;
    try {
      reply = await conns[i].execute(argv);
    } catch (e) {
      out[i] += errorLine(e instanceof CommandError ? e.message : `ERR (library) ${(e as Error).message}`);
    }
    if (argv[0] === 'HELLO') {
      proto[i] = 3;
      out[i] += '%HELLO';
    } else if (reply !== undefined && !(reply instanceof PushReply && reply.items.length === 0)) out[i] += encodeToString(reply, proto[i]);
    await pause(1);
  }
  await pause(10);
  for (const c of conns) c.close();
  return out;
}

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers(
  'pub/sub',
  ({ url, version }) => {
    let port = 47_700 + (version === '7.0' ? 0 : 100);
    it.each(SCENARIOS)('%s, byte for byte', async (_title, n, steps) => {
      const expected = await onReal(url, n, steps);
      const got = await onFake(version, port++, n, steps);
      expect(got).toEqual(expected);
    });
  },
  'answers',
);
