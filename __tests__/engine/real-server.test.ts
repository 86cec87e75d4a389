/**
 * The engine's connection commands against real servers: the same command sequences on a
 * fresh engine connection and on a real connection (ioredis) must answer the same RESP2
 * values and error texts. `REDIS_URL`: redis-server 7.0.15 (emulated version 7.0);
 * `REDIS_UNSTABLE_URL`: the post-7.4 build (emulated 7.4 here: the stream commands treat that
 * tree as '8.0', but its connection commands are 7.4's — CLIENT LIST's `io-thread=` came with
 * the async I/O threads merged later in 8.0, redis #13695). Skips with a message otherwise.
 * Values that name the connection itself (ids, addresses, ages, server version) are
 * normalised; CLIENT INFO is compared field by field for the names and fixed values.
 */
import IORedis from 'ioredis';
import { createConnection } from '../../lib/engine';
import { CommandError } from '../../lib/errors';
import { ErrorReply, toResp2Plain } from '../../lib/reply/reply';

type Outcome = { ok: unknown } | { err: string };

const SEQUENCES: string[][][] = [
  [['PING'], ['PING', 'hi'], ['PING', 'a', 'b'], ['ECHO', 'x'], ['ECHO']],
  [['SELECT', '16'], ['SELECT', 'x'], ['SELECT', '-1'], ['SELECT', '1'], ['SELECT', '0']],
  [['AUTH', 'x'], ['AUTH', 'u', 'x'], ['AUTH', 'default', 'x'], ['AUTH', 'a', 'b', 'c']],
  [['HELLO', '4'], ['HELLO', 'x'], ['HELLO', '2', 'FOO'], ['HELLO', '2', 'SETNAME', 'a b'], ['HELLO', '2', 'SETNAME', 'n1'], ['CLIENT', 'GETNAME'], ['HELLO', '2', 'AUTH', 'x']],
  [['HELLO'], ['HELLO', '2']],
  // an option's error after another: 7.0.15 has applied the earlier SETNAME / AUTH, 7.2+ none
  [['HELLO', '2', 'SETNAME', 'q1', 'BOGUS'], ['CLIENT', 'GETNAME'], ['HELLO', '2', 'SETNAME', 'q2', 'SETNAME', 'a b'], ['CLIENT', 'GETNAME'],
    ['HELLO', '2', 'SETNAME', 'q3', 'AUTH', 'nouser', 'x'], ['CLIENT', 'GETNAME'], ['HELLO', '2', 'AUTH', 'nouser', 'x', 'SETNAME', 'q4'], ['CLIENT', 'GETNAME'],
    ['HELLO', '2', 'SETNAME', 'q5', 'SETNAME', 'q6'], ['CLIENT', 'GETNAME'], ['HELLO', '2', 'AUTH', 'default', 'x', 'AUTH', 'nouser', 'x'], ['ACL', 'WHOAMI']],
  [['CLIENT', 'GETNAME'], ['CLIENT', 'SETNAME', 'a b'], ['CLIENT', 'SETNAME', 'ok'], ['CLIENT', 'GETNAME'], ['CLIENT', 'SETNAME', ''], ['CLIENT', 'GETNAME']],
  [['CLIENT', 'NOPE'], ['CLIENT', 'ID', 'x'], ['CLIENT'], ['CLIENT', 'HELP'], ['CLIENT', 'NO-EVICT', 'maybe'], ['CLIENT', 'NO-EVICT', 'on'], ['CLIENT', 'NO-EVICT', 'off']],
  [['CLIENT', 'KILL', '1.2.3.4:5'], ['CLIENT', 'KILL', 'ID', '0'], ['CLIENT', 'KILL', 'ID', '99999999'], ['CLIENT', 'KILL', 'FOO', 'x'], ['CLIENT', 'KILL', 'USER', 'nobody'], ['CLIENT', 'KILL', 'TYPE', 'x'], ['CLIENT', 'KILL', 'SKIPME', 'x']],
  [['CLIENT', 'UNBLOCK', '99999999'], ['CLIENT', 'UNBLOCK', '1', 'x'], ['CLIENT', 'UNBLOCK', 'x'], ['CLIENT', 'LIST', 'TYPE', 'x'], ['CLIENT', 'LIST', 'x'], ['CLIENT', 'LIST', 'ID', 'x']],
  [['CLIENT', 'SETINFO', 'lib-name', 'a b'], ['CLIENT', 'SETINFO', 'lib-nam', 'x'], ['CLIENT', 'SETINFO', 'LIB-VER', '1.0'], ['CLIENT', 'NO-TOUCH', 'x'], ['CLIENT', 'NO-TOUCH', 'on']],
  [['EXEC'], ['DISCARD'], ['MULTI'], ['MULTI'], ['WATCH', 'k'], ['EXEC']],
  [['MULTI'], ['SET', 'k', 'v'], ['NOSUCH'], ['GET', 'k'], ['EXEC'], ['GET', 'k']],
  [['MULTI'], ['GET'], ['EXEC']],
  [['MULTI'], ['SET', 'k', 'v'], ['XADD', 's', '0-0', 'f', 'v'], ['GET', 'k'], ['EXEC'], ['DEL', 'k']],
  [['MULTI'], ['SET', 'k', 'v'], ['DISCARD'], ['EXISTS', 'k'], ['UNWATCH'], ['WATCH']],
  [['MULTI'], ['PING'], ['RESET'], ['EXEC'], ['SELECT', '2'], ['RESET'], ['CLIENT', 'INFO']],
  [['SCRIPT', 'HELP'], ['SCRIPT', 'FLUSH', 'x'], ['SCRIPT', 'EXISTS', 'abc'], ['SCRIPT', 'KILL'], ['SCRIPT', 'NOPE'], ['EVALSHA', 'abc', '0'], ['EVAL', 'return 1', '2', 'a'], ['EVAL', 'return 1', '-1']],
  [['SCRIPT', 'LOAD', "return redis.call('PING')"], ['EVALSHA', 'CE9C9E1B6F6A0D7BC7E3E3B0A5E1D3B57B8B2C8B', '0'], ['EVAL', "return redis.call('PING')", '0'], ['EVAL', "return redis.call('ECHO', 'e')", '0'], ['EVAL', "return redis.call('CLIENT', 'ID')", '0']],
  [['CLIENT', 'INFO']],
  [['QUIT']],
];

/** Replace what names this very connection or server so both sides compare. */
function normalise(v: unknown): unknown {
  if (v instanceof Error) return { error: v.message };
  if (v instanceof ErrorReply) return { error: Buffer.from(v.message, 'latin1').toString('utf8') };
  if (typeof v === 'string' && /^id=\d+ /.test(v)) return clientInfoShape(v);
  if (Array.isArray(v)) {
    const out = v.map(normalise);
    for (let i = 0; i + 1 < out.length; i += 2) {
      if (out[i] === 'id' && typeof out[i + 1] === 'number') out[i + 1] = '<id>';
      if (out[i] === 'version' && typeof out[i + 1] === 'string') out[i + 1] = '<version>';
    }
    return out;
  }
  return v;
}

/** CLIENT INFO as field names with the values that do not depend on the socket or time. */
function clientInfoShape(line: string): string {
  const varying = new Set(['id', 'addr', 'laddr', 'fd', 'age', 'idle', 'qbuf', 'qbuf-free', 'argv-mem', 'rbs', 'rbp', 'obl', 'oll', 'omem', 'tot-mem', 'multi-mem']);
  return line
    .trim()
    .split(' ')
    .map((f) => {
      const [k, v] = f.split('=');
      return varying.has(k) ? k : `${k}=${v}`;
    })
    .join(' ');
}

async function onReal(client: IORedis, argv: string[]): Promise<Outcome> {
  try {
    return { ok: normalise(await client.call(argv[0], ...argv.slice(1))) };
  } catch (e) {
    return { err: (e as Error).message };
  }
}

function plain(v: unknown): unknown {
  if (typeof v === 'string') return Buffer.from(v, 'latin1').toString('utf8');
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(plain);
  return v;
}

for (const [envName, version] of [
  ['REDIS_URL', '7.0'],
  ['REDIS_UNSTABLE_URL', '7.4'],
] as const) {
  const url = process.env[envName];
  if (!url) {
    // eslint-disable-next-line no-console
    console.warn(`${envName} not set: engine connection commands not checked against a real server`);
  }
  // skip: no real server URL (REDIS_URL / REDIS_UNSTABLE_URL): nothing to compare with; CI sets both
  (url ? describe : describe.skip)(`connection commands answer as ${envName} does (emulated ${version})`, () => {
    let port = 48_000 + (version === '7.0' ? 0 : 500);
    it.each(SEQUENCES.map((seq, i) => [i, seq.map((a) => a.join(' ')).join(' | '), seq] as const))('sequence %i: %s', async (_i, _text, seq) => {
      const real = new IORedis(url!, { lazyConnect: true, enableReadyCheck: false, maxRetriesPerRequest: 0, disableClientInfo: true, ...({ protocol: 2 } as object) }); // RESP2 as the engine connection (ioredis 6 defaults to 3)
      await real.connect();
      await real.call('FLUSHALL');
      await real.call('SCRIPT', 'FLUSH');
      const fake = createConnection({ port: port++, streams: { redisVersion: version } });
      try {
        for (const argv of seq) {
          const expected = await onReal(real, argv);
          let got: Outcome;
          try {
            got = { ok: normalise(plain(toResp2Plain(await fake.execute(argv)))) };
          } catch (e) {
            got = { err: e instanceof CommandError ? Buffer.from(e.message, 'latin1').toString('utf8') : `(library) ${(e as Error).message}` };
          }
          expect({ argv, ...got }).toEqual({ argv, ...expected });
        }
      } finally {
        real.disconnect();
        fake.close();
      }
    });
  });
}
