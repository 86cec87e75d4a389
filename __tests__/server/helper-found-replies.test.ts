/**
 * Replies fakeredis-py's suite and a command sweep found different from both real servers
 * (session 16), byte for byte against each real server (serve of its version):
 * - a command named `POST` or `Host:` (an HTTP request sent to Redis's port) closes the
 *   connection with no reply — not even the replies of the commands before it in the same read —
 *   and counts nothing (server.c processCommand, securityWarningCommand);
 * - CLUSTER MYSHARDID (7.2) on a server without cluster mode: "cluster support disabled", after
 *   the arity check (7.0: an unknown subcommand);
 * - CLIENT UNBLOCK with more than one reason: the subcommand syntax error, not "syntax error";
 * - HELLO inside MULTI (session 23, an independent fuzzer): EXEC's elements after it are in the
 *   protocol it switched to, and the connection keeps that protocol (the fake wrote the whole EXEC
 *   and every later reply in the old one, while CLIENT INFO said resp=3).
 */
import { type RedisServer, serve } from 'ioredis-mock-streams/server';
import { describeServeOnRealServers } from './serve-on-real-servers';
import { RawClient, transcript } from './raw-client';

/** A transcript with HELLO's maps as `<hello>`: their fields (server version, client id) differ by server. */
const shapeOfHello = (raw: string) => raw.replace(/(%7|\*14)\r\n\$6\r\nserver\r\n[\s\S]*?\$7\r\nmodules\r\n\*0\r\n/g, '$1<hello>');

/** Everything the server wrote after `payload`, and whether it closed the connection within 1 s. */
async function afterPayload(port: number, host: string, payload: string): Promise<{ text: string; closed: boolean }> {
  const client = await RawClient.connect(port, host);
  try {
    client.write(payload);
    const closed = await Promise.race([client.whenClosed().then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 1000))]);
    return { text: client.pending, closed };
  } finally {
    client.close();
  }
}

describe('a command named POST on serve (no real server needed)', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await serve();
  });
  afterAll(() => server.close());

  it('closes the connection without a reply, the +PONG of the same read unwritten; other clients are served', async () => {
    expect(await afterPayload(server.port, '127.0.0.1', 'PING\r\nPOST / HTTP/1.1\r\n')).toEqual({ text: '', closed: true });
    expect(await transcript(server.port, '127.0.0.1', [[['PING']]])).toBe('+PONG\r\n');
  });
});

// skip: without REDIS_URL / REDIS_UNSTABLE_URL there is no real server to compare with (a warning names
// the comparison not made); CI sets both, and the fake-only describe above runs everywhere
describeServeOnRealServers(
  'helper-found replies',
  ({ url, version, fake }) => {
    // parsed in the tests: without the server's URL the describe is skipped but still read
    const realAt = () => new URL(url);

    // skip: runs only against a real server (REDIS_URL / REDIS_UNSTABLE_URL; CI sets both)
    it.each([
      ['an inline HTTP request line', 'POST / HTTP/1.1\r\nHost: localhost\r\n\r\n'],
      ['a PING before it in the same read (its +PONG is never written)', 'PING\r\nPOST /\r\nPING\r\n'],
      ['a multibulk host: in any case', '*1\r\n$4\r\nPING\r\n*2\r\n$5\r\nHoSt:\r\n$1\r\nx\r\n'],
      ['inside MULTI', 'MULTI\r\nECHO queued\r\npost\r\n'],
    ])('POST/Host: closes the connection with no reply: %s', async (_name, payload) => {
      const real = realAt();
      const onReal = await afterPayload(Number(real.port || 6379), real.hostname, payload);
      const onFake = await afterPayload(fake().port, '127.0.0.1', payload);
      expect(onReal).toEqual({ text: '', closed: true });
      expect(onFake).toEqual(onReal);
    });

    // skip: runs only against a real server (REDIS_URL / REDIS_UNSTABLE_URL; CI sets both)
    it('POST runs no command after it (the commands before it ran) and counts nothing', async () => {
      const key = `helper-found-post:${process.pid}`;
      const run = async (port: number, host: string) => {
        const c = await RawClient.connect(port, host);
        try {
          await c.call('DEL', key);
          await afterPayload(port, host, `SET ${key} 1\r\nPOST /\r\nSET ${key} 2\r\n`);
          const got = await c.call('GET', key);
          await c.call('DEL', key);
          return got;
        } finally {
          c.close();
        }
      };
      const real = realAt();
      const onReal = await run(Number(real.port || 6379), real.hostname);
      expect(onReal).toBe('$1\r\n1\r\n');
      // the fake's own server: nothing but this test's commands in its statistics
      const admin = await RawClient.connect(fake().port);
      try {
        await admin.call('CONFIG', 'RESETSTAT');
        expect(await run(fake().port, '127.0.0.1')).toBe(onReal);
        const info = await admin.call('INFO', 'commandstats');
        const calls = [...info.matchAll(/cmdstat_([\w|-]+):calls=(\d+)/g)].map((m) => `${m[1]}=${m[2]}`).sort();
        expect(calls).toEqual(['config|resetstat=1', 'del=2', 'get=1', 'set=1']);
      } finally {
        admin.close();
      }
    });

    // skip: runs only against a real server (REDIS_URL / REDIS_UNSTABLE_URL; CI sets both)
    it('CLUSTER MYSHARDID without cluster mode, and CLIENT UNBLOCK with too many arguments', async () => {
      const writes = [
        [['CLUSTER', 'MYSHARDID']],
        [['CLUSTER', 'MYSHARDID', 'x']],
        [['cluster', 'myshardid']],
        [['CLIENT', 'UNBLOCK', '1', '2', '3']],
        [['client', 'Unblock', '1', 'TIMEOUT', 'x']],
        [['CLIENT', 'UNBLOCK', '1', 'x']],
      ];
      const real = realAt();
      const expected = await transcript(Number(real.port || 6379), real.hostname, writes);
      expect(await transcript(fake().port, '127.0.0.1', writes)).toBe(expected);
      const myshardid =
        version === '7.0'
          ? "-ERR unknown subcommand 'MYSHARDID'. Try CLUSTER HELP.\r\n-ERR unknown subcommand 'MYSHARDID'. Try CLUSTER HELP.\r\n-ERR unknown subcommand 'myshardid'. Try CLUSTER HELP.\r\n"
          : "-ERR This instance has cluster support disabled\r\n-ERR wrong number of arguments for 'cluster|myshardid' command\r\n-ERR This instance has cluster support disabled\r\n";
      expect(expected).toBe(
        `${myshardid}-ERR unknown subcommand or wrong number of arguments for 'UNBLOCK'. Try CLIENT HELP.\r\n` +
          "-ERR unknown subcommand or wrong number of arguments for 'Unblock'. Try CLIENT HELP.\r\n" +
          '-ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR\r\n',
      );
    });

    // skip: runs only against a real server (REDIS_URL / REDIS_UNSTABLE_URL; CI sets both)
    it('HELLO inside MULTI: EXEC writes the elements before it in the old protocol, its map and the rest in the new one, which the connection keeps', async () => {
      const key = `helper-found-hello:${process.pid}:none`;
      const writes = (to: string, back: string) => [[['HELLO', back]], [['MULTI']], [['GET', key]], [['HELLO', to]], [['GET', key]], [['EXEC']], [['GET', key]]];
      const real = realAt();
      for (const [to, back] of [
        ['3', '2'],
        ['2', '3'],
      ]) {
        const expected = shapeOfHello(await transcript(Number(real.port || 6379), real.hostname, writes(to, back)));
        expect(shapeOfHello(await transcript(fake().port, '127.0.0.1', writes(to, back)))).toBe(expected);
        expect(expected).toBe(
          to === '3'
            ? '*14<hello>+OK\r\n+QUEUED\r\n+QUEUED\r\n+QUEUED\r\n*3\r\n$-1\r\n%7<hello>_\r\n_\r\n'
            : '%7<hello>+OK\r\n+QUEUED\r\n+QUEUED\r\n+QUEUED\r\n*3\r\n_\r\n*14<hello>$-1\r\n$-1\r\n',
        );
      }
    });

    // skip: runs only against a real server (REDIS_URL / REDIS_UNSTABLE_URL; CI sets both)
    it('a HELLO is known by its command, not its reply: a script map like it switches nothing; a HELLO after SUBSCRIBE in MULTI does', async () => {
      const key = `helper-found-hello2:${process.pid}`;
      const lookalike = "local t={} for i=1,6 do t['k'..i]=1 end t['server']='x' t['proto']=3 return {map=t}";
      const real = realAt();
      for (const writes of [
        [[['MULTI']], [['EVAL', lookalike, '0']], [['EXEC']], [['GET', `${key}:none`]]],
        [[['MULTI']], [['SUBSCRIBE', `${key}:c`]], [['HELLO', '3']], [['PUBLISH', `${key}:c`, 'm']], [['EXEC']], [['GET', `${key}:none`]]],
      ]) {
        const expected = shapeOfHello(await transcript(Number(real.port || 6379), real.hostname, writes));
        expect(shapeOfHello(await transcript(fake().port, '127.0.0.1', writes))).toBe(expected);
      }
    });
  },
  'answer as Redis does',
);
