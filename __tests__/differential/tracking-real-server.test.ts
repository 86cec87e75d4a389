/**
 * Client-side caching (CLIENT TRACKING) against real servers, byte for byte: the same steps on
 * engine connections (replies and pushes encoded as the RESP server writes them) and on raw
 * sockets to a real server give the same bytes on every connection — RESP3 `invalidate` pushes
 * (after the reply when a connection invalidates its own key), `__redis__:invalidate` messages
 * to a subscribed RESP2 redirection, BCAST prefixes, NOLOOP, OPTIN/OPTOUT with CLIENT CACHING,
 * expiry, TRACKINGINFO / GETREDIR and every error text.
 * `REDIS_URL`: redis-server 7.0.15 (emulated 7.0); `REDIS_UNSTABLE_URL`: the post-7.4 build
 * (emulated 8.0). Skips with a message when a URL is unset.
 *
 * Tracking is server-wide on a real server: a FLUSHDB anywhere (other test files) sends every
 * tracking connection a null invalidation, so null invalidations are left out of both sides
 * here (the flush message is checked on the fake in __tests__/engine/tracking.test.ts). Keys
 * are named `trk:*` in db 9.
 */
import * as net from 'net';
import { createConnection, type Connection } from '../../lib/engine';
import { CommandError } from '../../lib/errors';
import { PushReply, type Reply } from '../../lib/reply/reply';
import { encodeToString, errorLine } from '../../lib/server/resp-encoder';
import { describeOnRealServers } from '../helpers/real-server';

/** A step: connection index, then the command (byte strings); `{id:N}` is connection N's CLIENT ID; `WAIT ms` pauses. */
type Step = [number, ...string[]];

const lines = (n: number, text: string): Step[] => text.trim().split('\n').map((l) => {
  const [i, ...argv] = l.trim().split(/\s+/);
  if (Number(i) >= n) throw new Error(`step for connection ${i}`);
  return [Number(i), ...argv] as Step;
});

const SCENARIOS: [title: string, connections: number, steps: Step[]][] = [
  [
    'RESP3 tracking: a key read is invalidated once, by another connection and by the reader itself (after its reply)',
    2,
    lines(2, `
      0 HELLO 3
      0 CLIENT TRACKING on
      1 SET trk:a 1
      0 GET trk:a
      0 GET trk:b
      1 SET trk:a 2
      1 SET trk:a 3
      1 SET trk:b x
      0 MGET trk:a trk:c
      0 INCR trk:a
      0 GET trk:a
      0 HSET trk:c f 1
      0 HGET trk:c f
      0 HDEL trk:c f
      0 CLIENT TRACKINGINFO
      0 CLIENT GETREDIR
      0 CLIENT TRACKING off
      0 CLIENT TRACKINGINFO
      0 CLIENT GETREDIR
      1 DEL trk:a trk:b trk:c
    `),
  ],
  [
    'REDIRECT to a subscribed RESP2 connection: __redis__:invalidate messages; a RESP2 tracker without redirection gets nothing',
    3,
    lines(3, `
      2 SUBSCRIBE __redis__:invalidate
      0 CLIENT TRACKING on REDIRECT {id:2}
      0 CLIENT GETREDIR
      1 MSET trk:r1 1 trk:r2 2
      0 GET trk:r1
      1 INCR trk:r2
      1 INCR trk:r1
      1 INCR trk:r1
      0 MGET trk:r1 trk:r2
      0 DEL trk:r1 trk:r2
      0 CLIENT TRACKING off
      1 CLIENT TRACKING on
      1 GET trk:r1
      0 SET trk:r1 x
      1 PING
    `),
  ],
  [
    'BCAST: one message per prefix after the commands, NOLOOP leaves out the connection’s own writes, prefix errors',
    3,
    lines(3, `
      2 SUBSCRIBE __redis__:invalidate
      0 CLIENT TRACKING on BCAST REDIRECT {id:2} PREFIX trk:a: PREFIX trk:b:
      0 CLIENT TRACKINGINFO
      0 MULTI
      0 INCR trk:a:1
      0 INCR trk:a:2
      0 INCR trk:b:1
      0 INCR trk:c:1
      0 EXEC
      0 CLIENT TRACKING on BCAST REDIRECT {id:2} PREFIX trk:c:
      1 SET trk:c:9 1
      0 CLIENT TRACKING on BCAST PREFIX trk:a
      0 CLIENT TRACKING on BCAST PREFIX trk:b:x
      0 CLIENT TRACKING on BCAST PREFIX trk:x PREFIX trk:xy
      0 CLIENT TRACKING on
      0 CLIENT TRACKING off
      0 HELLO 3
      0 CLIENT TRACKING on BCAST NOLOOP PREFIX trk:n
      1 SET trk:n1 1
      0 SET trk:n2 1
      1 SET trk:n3 1
      0 PING
      0 CLIENT TRACKINGINFO
      0 DEL trk:a:1 trk:a:2 trk:b:1 trk:c:1 trk:c:9 trk:n1 trk:n2 trk:n3
    `),
  ],
  [
    'OPTIN / OPTOUT with CLIENT CACHING, NOLOOP in default mode, and the option errors',
    2,
    lines(2, `
      0 HELLO 3
      0 CLIENT CACHING yes
      0 CLIENT TRACKING on OPTIN
      0 CLIENT CACHING no
      0 CLIENT CACHING maybe
      1 MSET trk:o1 1 trk:o2 2
      0 GET trk:o1
      0 CLIENT CACHING yes
      0 CLIENT TRACKINGINFO
      0 GET trk:o2
      0 CLIENT TRACKINGINFO
      1 MSET trk:o1 3 trk:o2 4
      0 PING
      0 CLIENT TRACKING on OPTOUT
      0 CLIENT TRACKING off
      0 CLIENT TRACKING on OPTOUT NOLOOP
      0 CLIENT CACHING no
      0 GET trk:o1
      0 GET trk:o2
      0 SET trk:o2 own
      1 MSET trk:o1 5 trk:o2 6
      0 PING
      0 CLIENT TRACKINGINFO
      0 CLIENT TRACKING on OPTIN OPTOUT
      0 CLIENT TRACKING on BCAST OPTIN
      0 CLIENT TRACKING on PREFIX trk:
      0 CLIENT TRACKING on REDIRECT 999999999
      0 CLIENT TRACKING on REDIRECT x
      0 CLIENT TRACKING on REDIRECT {id:1} REDIRECT {id:1}
      0 CLIENT TRACKING on FOO
      0 CLIENT TRACKING maybe
      0 CLIENT TRACKING on PREFIX
      0 DEL trk:o1 trk:o2
    `),
  ],
  [
    'scripts: a read inside a script remembers the script’s declared keys on 7.0, the keys it reads on later versions; EVAL_RO alone remembers nothing',
    2,
    lines(2, `
      0 HELLO 3
      0 CLIENT TRACKING on
      1 MSET trk:s1 1 trk:s2 1
      0 EVAL redis.call('set','trk:s3','x') 2 trk:s1 trk:s2
      1 MSET trk:s1 2 trk:s2 2
      0 PING
      0 EVAL redis.call('get','trk:s2') 2 trk:s1 trk:s2
      1 MSET trk:s1 3 trk:s2 3
      0 PING
      0 EVAL_RO redis.call('ping') 2 trk:s1 trk:s2
      1 MSET trk:s1 4 trk:s2 4
      0 PING
      0 EVAL_RO redis.call('get','trk:s1') 1 trk:s1
      1 MSET trk:s1 5 trk:s2 5 trk:s3 5
      0 PING
      1 DEL trk:s1 trk:s2 trk:s3
    `),
  ],
  [
    // PX 1000: on a loaded CI machine the GET came more than 100 ms after the SET, and the real
    // server's key had expired already (its GET answered nil)
    'a key read and then expired is invalidated without any command (active expiry)',
    2,
    lines(2, `
      0 HELLO 3
      0 CLIENT TRACKING on
      1 SET trk:e 1 PX 1000
      0 GET trk:e
      0 WAIT 1300
      0 PING
    `),
  ],
];

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const quote = (argv: string[]) => `*${argv.length}\r\n${argv.map((a) => `$${a.length}\r\n${a}\r\n`).join('')}`;
const withIds = (argv: string[], ids: number[]) => argv.map((a) => a.replace(/^\{id:(\d)\}$/, (_m, i: string) => String(ids[Number(i)])));
/** CLIENT GETREDIR / TRACKINGINFO answers name connection ids: written back as `{id:N}`. */
const namesIds = (argv: string[]) => argv[0] === 'CLIENT' && /^(getredir|trackinginfo)$/i.test(argv[1]);
const idNamed = (text: string, ids: number[]) => ids.reduce((t, id, i) => t.split(`:${id}\r\n`).join(`:{id:${i}}\r\n`), text);

const NULL_INVALIDATION = /(>2\r\n\$10\r\ninvalidate\r\n_\r\n)|(\*3\r\n\$7\r\nmessage\r\n\$20\r\n__redis__:invalidate\r\n(\$-1|\*-1)\r\n)/g;

/** Null invalidations (any connection's flush) left out, HELLO's map (ids, versions) shortened. */
function normalized(t: string): string {
  return t
    .replace(NULL_INVALIDATION, '')
    .replace(/%7\r\n\$6\r\nserver[\s\S]*?\$7\r\nmodules\r\n\*0\r\n/g, '%HELLO');
}

/**
 * The steps on a real server; run again (up to 5 times) when a flush by another client (a null
 * invalidation) emptied the tracking table meanwhile.
 */
async function onReal(url: string, n: number, steps: Step[]): Promise<string[]> {
  for (let attempt = 1; ; attempt++) {
    const out = await onRealOnce(url, n, steps);
    if (attempt === 5 || !out.some((t) => new RegExp(NULL_INVALIDATION.source).test(t))) return out.map(normalized);
  }
}

async function onRealOnce(url: string, n: number, steps: Step[]): Promise<string[]> {
  const { hostname, port } = new URL(url);
  const socks = await Promise.all(
    Array.from({ length: n }, () => new Promise<net.Socket>((resolve, reject) => {
      const s = net.connect(Number(port), hostname, () => resolve(s));
      s.on('error', reject);
    })),
  );
  const out = socks.map(() => '');
  socks.forEach((s, i) => s.on('data', (d) => (out[i] += d.toString('latin1'))));
  const keys = [...new Set(steps.flatMap(([, ...argv]) => argv.filter((a) => a.startsWith('trk:'))))];
  socks[0].write(quote(['SELECT', '9']) + quote(['DEL', ...keys]));
  for (let waited = 0; waited < 2000 && !/^\+OK\r\n:\d+\r\n$/.test(out[0]); waited += 10) await pause(10);
  out.fill('');
  socks.forEach((s, i) => s.write((i === 0 ? '' : quote(['SELECT', '9'])) + quote(['CLIENT', 'ID'])));
  for (let waited = 0; waited < 2000 && !out.every((t) => /^(\+OK\r\n)?:\d+\r\n$/.test(t)); waited += 10) await pause(10);
  const ids = out.map((t) => Number(/:(\d+)\r\n$/.exec(t)?.[1]));
  out.fill('');
  for (const [i, ...argv] of steps) {
    const before = out[i].length;
    if (argv[0] === 'WAIT') await pause(Number(argv[1]));
    else {
      socks[i].write(Buffer.from(quote(withIds(argv, ids)), 'latin1'));
      // its reply (every step has one), then a moment for what it sends the other connections
      for (let waited = 0; waited < 2000 && out[i].length === before; waited += 5) await pause(5);
      await pause(15);
    }
    if (namesIds(argv)) out[i] = out[i].slice(0, before) + idNamed(out[i].slice(before), ids);
  }
  // until nothing more arrives for 100 ms
  for (let total = out.join('').length, quiet = 0; quiet < 100; ) {
    await pause(20);
    const now = out.join('').length;
    quiet = now === total ? quiet + 20 : 0;
    total = now;
  }
  for (const s of socks) s.destroy();
  return out;
}

/**
 * The steps on engine connections; each connection's bytes in the order the RESP server writes
 * them (lib/server/session.ts): a reply takes its place when the command is submitted, a push
 * goes after the replies already due.
 */
async function onFake(version: '7.0' | '8.0', port: number, n: number, steps: Step[]): Promise<string[]> {
  const conns: Connection[] = Array.from({ length: n }, () => createConnection({ port, db: 9, streams: { redisVersion: version } }));
  const ids = conns.map((c) => c.id);
  const proto = conns.map(() => 2 as 2 | 3);
  const out: { text: string }[][] = conns.map(() => []);
  conns.forEach((c, i) => c.onPush((m) => out[i].push({ text: encodeToString(m, proto[i]) })));
  for (const [i, ...argv] of steps) {
    if (argv[0] === 'WAIT') {
      await pause(Number(argv[1]));
      continue;
    }
    const slot = { text: '' };
    out[i].push(slot);
    let reply: Reply | undefined;
    try {
      reply = await conns[i].execute(withIds(argv, ids));
    } catch (e) {
      slot.text = errorLine(e instanceof CommandError ? e.message : `ERR (library) ${(e as Error).message}`);
    }
    if (argv[0] === 'HELLO') {
      proto[i] = 3;
      slot.text = '%HELLO';
    } else if (reply !== undefined && !(reply instanceof PushReply && reply.items.length === 0)) slot.text = encodeToString(reply, proto[i]);
    if (namesIds(argv)) slot.text = idNamed(slot.text, ids);
    await pause(1);
  }
  await pause(10);
  for (const c of conns) c.close();
  return out.map((segments) => normalized(segments.map((x) => x.text).join('')));
}

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers(
  'client-side caching',
  ({ url, version }) => {
    let port = 47_900 + (version === '7.0' ? 0 : 50);
    it.each(SCENARIOS)('%s, byte for byte', async (_title, n, steps) => {
      const expected = await onReal(url, n, steps);
      const got = await onFake(version, port++, n, steps);
      expect(got).toEqual(expected);
    });
  },
  'answers',
);
