/**
 * A fresh-user trial: the replication stream of `serve` carried `XADD s IDMP p i <ID> f v`, which
 * the fake itself (and Redis's stream.tcl) refuses ("IDMP/IDMPAUTO can be used only with
 * auto-generated IDs"), so a replica could not apply it. The entry now propagates as a plain XADD
 * of its ID; a duplicate propagates nothing. (What Redis 8.6 sends its replicas is unconfirmed.)
 */
import type * as net from 'net';
import { type RedisServer, serve } from 'ioredis-mock-streams/server';
import { connectSocket, requestBytes } from '../server/raw-client';

let server: RedisServer;
const sockets: net.Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await server?.close();
});

async function until(get: () => string, test: (s: string) => boolean): Promise<string> {
  for (let i = 0; i < 200 && !test(get()); i++) await new Promise((r) => setTimeout(r, 10));
  return get();
}

describe('XADD IDMP / IDMPAUTO on the replication stream', () => {
  it('is the XADD of the generated ID without IDMP, and a duplicate sends nothing', async () => {
    server = await serve({ port: 47_420 });
    const replica = await connectSocket(47_420);
    const client = await connectSocket(47_420);
    sockets.push(replica, client);
    let seen = '';
    replica.on('data', (d: Buffer) => (seen += d.toString('latin1')));
    let replies = '';
    client.on('data', (d: Buffer) => (replies += d.toString('latin1')));
    replica.write(requestBytes(['SYNC']), 'latin1');
    client.write(requestBytes(['XADD', 's', 'IDMP', 'p', 'i', '*', 'f', 'v']), 'latin1');
    client.write(requestBytes(['XADD', 's', 'IDMP', 'p', 'i', '*', 'f', 'w']), 'latin1');
    client.write(requestBytes(['XADD', 's', 'MAXLEN', '5', 'IDMPAUTO', 'q', '*', 'g', 'x']), 'latin1');
    replies = await until(() => replies, (r) => r.split('$').length >= 4);
    const [first, , third] = [...replies.matchAll(/\$\d+\r\n(\d+-\d+)\r\n/g)].map((m) => m[1]);
    seen = await until(() => seen, (s) => s.includes(third));
    const frames = [...seen.matchAll(/\*\d+\r\n\$4\r\nXADD\r\n((?:\$\d+\r\n[^\r]*\r\n)*)/gi)].map((m) => [...m[1].matchAll(/\$\d+\r\n([^\r]*)\r\n/g)].map((x) => x[1]));
    expect(frames).toEqual([
      ['s', first, 'f', 'v'],
      ['s', 'MAXLEN', '5', third, 'g', 'x'],
    ]);
  });
});
