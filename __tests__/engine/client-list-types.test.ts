/**
 * CLIENT LIST / CLIENT KILL by client type and the flags of subscribers and MONITOR clients
 * (networking.c catClientInfoString, getClientType). Checked on redis-server 7.0.15 and the
 * post-7.4 build: a client subscribed to 2 channels, a pattern and a shard channel shows
 * `flags=P sub=2 psub=1 ssub=1`, in RESP2 and RESP3 alike, and `flags=N sub=0 psub=0 ssub=0`
 * once it unsubscribed from all; it is of type `pubsub` (not `normal`); a MONITOR client shows
 * `flags=O` and is of type `normal`.
 */
import { Connection, createConnection } from '../../lib/engine';
import { OK, VerbatimReply } from '../../lib/reply/reply';

let port = 54_400;
beforeEach(() => {
  port++;
});
const open: Connection[] = [];
function conn(): Connection {
  const c = createConnection({ port });
  open.push(c);
  return c;
}
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});
async function list(c: Connection, ...args: string[]): Promise<string[]> {
  const r = await c.execute(['CLIENT', 'LIST', ...args]);
  const text = r instanceof VerbatimReply ? r.text : String(r);
  return text.split('\n').filter((l) => l !== '');
}
async function info(c: Connection, section: string): Promise<string> {
  const r = await c.execute(['INFO', section]);
  return r instanceof VerbatimReply ? r.text : String(r);
}
const field = (line: string, name: string): string | undefined => new RegExp(`(?:^| )${name}=(\\S*)`).exec(line)?.[1];

describe('CLIENT LIST and CLIENT KILL by type', () => {
  it('shows a subscriber with flags P and its channel, pattern and shard channel counts, and N with zeros after unsubscribing', async () => {
    const sub = conn();
    const other = conn();
    await sub.execute(['SUBSCRIBE', 'c1', 'c2']);
    await sub.execute(['PSUBSCRIBE', 'p*']);
    await sub.execute(['SSUBSCRIBE', 's1']);
    const line = (await list(other, 'ID', String(sub.id)))[0];
    expect([field(line, 'flags'), field(line, 'sub'), field(line, 'psub'), field(line, 'ssub')]).toEqual(['P', '2', '1', '1']);
    await sub.execute(['UNSUBSCRIBE']);
    await sub.execute(['PUNSUBSCRIBE']);
    await sub.execute(['SUNSUBSCRIBE']);
    const after = (await list(other, 'ID', String(sub.id)))[0];
    expect([field(after, 'flags'), field(after, 'sub'), field(after, 'psub'), field(after, 'ssub')]).toEqual(['N', '0', '0', '0']);
  });

  it('lists a subscriber under TYPE pubsub only, and CLIENT KILL TYPE pubsub closes it', async () => {
    const sub = conn();
    const other = conn();
    await sub.execute(['SSUBSCRIBE', 's1']); // a shard channel alone makes it a pubsub client too
    expect((await list(other, 'TYPE', 'pubsub')).map((l) => field(l, 'id'))).toEqual([String(sub.id)]);
    expect((await list(other, 'TYPE', 'normal')).map((l) => field(l, 'id'))).toEqual([String(other.id)]);
    expect(await other.execute(['CLIENT', 'KILL', 'TYPE', 'pubsub'])).toBe(1);
    expect(sub.isClosed).toBe(true);
  });

  it('shows a MONITOR client with flags O, as a normal client', async () => {
    const m = conn();
    const other = conn();
    expect(await m.execute(['MONITOR'])).toBe(OK);
    const line = (await list(other, 'ID', String(m.id)))[0];
    expect(field(line, 'flags')).toBe('O');
    expect((await list(other, 'TYPE', 'normal')).map((l) => field(l, 'id')).sort()).toEqual([String(m.id), String(other.id)].sort());
    expect(await list(other, 'TYPE', 'replica')).toEqual([]);
  });
});

describe('CLIENT LIST, CLIENT KILL, CLIENT UNBLOCK and INFO see the clients of their own server only', () => {
  it('leaves out, cannot kill and cannot unblock a client of another port (another server), as each redis-server sees only its own', async () => {
    const here = conn();
    const alsoHere = conn();
    const elsewhere = createConnection({ port: port + 1000 });
    open.push(elsewhere);
    expect((await list(here)).map((l) => Number(field(l, 'id')))).toEqual([here.id, alsoHere.id]);
    expect(await list(here, 'ID', String(elsewhere.id))).toEqual([]);
    expect(await here.execute(['CLIENT', 'KILL', 'ID', String(elsewhere.id)])).toBe(0);
    const blocked = elsewhere.execute(['BLPOP', 'q', '0']);
    expect(await here.execute(['CLIENT', 'UNBLOCK', String(elsewhere.id)])).toBe(0);
    expect(elsewhere.closed).toBe(false);
    const clients = await info(here, 'clients');
    expect(clients).toContain('connected_clients:2\r\n');
    expect(clients).toContain('blocked_clients:0\r\n');
    await createConnection({ port: port + 1000 }).execute(['RPUSH', 'q', 'x']).then(() => undefined);
    expect(await blocked).toEqual(['q', 'x']);
  });

  it('counts the shard channels in INFO pubsubshard_channels (it said 0), as redis-server 7.0.15 and the post-7.4 build do', async () => {
    const sub = conn();
    const other = conn();
    const asker = conn();
    await sub.execute(['SSUBSCRIBE', '{s}a', '{s}b']);
    await other.execute(['SSUBSCRIBE', '{s}a']);
    const stats = await info(asker, 'stats');
    expect(stats).toContain('pubsub_channels:0\r\npubsub_patterns:0\r\npubsubshard_channels:2\r\n');
    await sub.execute(['SUNSUBSCRIBE']);
    expect(await info(asker, 'stats')).toContain('pubsubshard_channels:1\r\n');
  });
});
