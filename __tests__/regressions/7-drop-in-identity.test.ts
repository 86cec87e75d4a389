/**
 * Issue 7: the fake is a drop-in for ioredis. The class is named `Redis`, its methods are on
 * the prototype, `send_command` exists (ioredis's legacy alias of `call`), `status` and the
 * lifecycle events follow ioredis, constructor arguments are parsed as ioredis parses them
 * (a URL's db selects the database), `Cluster` works, and `installStreams` still installs on
 * a user's own ioredis-mock 8 class.
 */
import Redis, { Cluster, createFakeClock, installStreams, streamsKeyspace } from 'ioredis-mock-streams';

let port = 47_500;
beforeEach(() => {
  port++;
});
const flush = () => new Promise((r) => setImmediate(r));

describe('class identity', () => {
  it('is a class named Redis whose methods live on the prototype', async () => {
    const r = new Redis({ port });
    expect(Redis.name).toBe('Redis');
    expect(r.constructor.name).toBe('Redis');
    expect(r).toBeInstanceOf(Redis);
    for (const m of ['get', 'xadd', 'xreadgroupBuffer', 'defineCommand', 'multi', 'pipeline', 'call', 'send_command', 'scanStream']) {
      expect(typeof (Redis.prototype as unknown as Record<string, unknown>)[m]).toBe('function');
      expect(Object.prototype.hasOwnProperty.call(r, m)).toBe(false);
    }
    expect(r.duplicate()).toBeInstanceOf(Redis);
    r.disconnect();
  });

  it('answers send_command(name, ...args) like call()', async () => {
    const r = new Redis({ port }) as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
    expect(await r.send_command('XADD', 's', '1-0', 'f', 'v')).toBe('1-0');
    expect(await r.send_command('SET', 'k', 'v')).toBe('OK');
    await expect(r.send_command('XADD', 's')).rejects.toThrow("ERR wrong number of arguments for 'xadd' command");
    r.disconnect();
  });
});

describe('scan streams', () => {
  it("streams keys and hash fields through ioredis's own ScanStream", async () => {
    const r = new Redis({ port });
    await r.xadd('s1', '1-0', 'f', 'v');
    await r.set('k1', 'v');
    await r.hset('h', { a: '1', b: '2' });
    const keys: string[] = [];
    for await (const batch of r.scanStream({ match: '*1' })) keys.push(...(batch as string[]));
    expect(keys.sort()).toEqual(['k1', 's1']);
    const fields: string[] = [];
    for await (const batch of r.hscanStream('h')) fields.push(...(batch as string[]));
    expect(fields).toEqual(['a', '1', 'b', '2']);
    r.disconnect();
  });
});

describe('status and events, in ioredis order', () => {
  it('connecting → connect → ready, then close → end on disconnect()', async () => {
    const r = new Redis({ port });
    const seen: string[] = [];
    for (const e of ['connecting', 'connect', 'ready', 'close', 'end']) r.on(e, () => seen.push(`${e}/${r.status}`));
    expect(r.status).toBe('connecting');
    await flush();
    expect(r.status).toBe('ready');
    r.disconnect();
    // ready until the socket closes; then ioredis's close handler sets close and end at once
    expect(r.status).toBe('ready');
    await new Promise((resolve) => r.once('end', resolve));
    expect(seen).toEqual(['connecting/connecting', 'connect/connect', 'ready/ready', 'close/end', 'end/end']);
    expect(r.status).toBe('end');
    await expect(r.get('k')).rejects.toThrow('Connection is closed.');
    await expect(r.xlen('s')).rejects.toThrow('Connection is closed.');
  });

  it('waits with lazyConnect until the first command, and connect() reopens an ended client', async () => {
    const r = new Redis({ port, lazyConnect: true });
    expect(r.status).toBe('wait');
    expect(await r.xadd('s', '1-0', 'f', 'v')).toBe('1-0');
    await flush();
    expect(r.status).toBe('ready');
    await expect(r.connect()).rejects.toThrow('Redis is already connecting/connected');
    const id = await r.client('ID');
    expect(await r.quit()).toBe('OK');
    await new Promise((resolve) => r.once('end', resolve));
    expect(r.status).toBe('end');
    await r.connect();
    expect(r.status).toBe('ready');
    expect(await r.client('ID')).toBeGreaterThan(id as number); // a new connection
    expect(await r.xlen('s')).toBe(1);
    r.disconnect();
  });

  it('does not fire connect/ready twice (ioredis-mock schedules its own)', async () => {
    const r = new Redis({ port });
    let ready = 0;
    r.on('ready', () => ready++);
    await flush();
    await flush();
    expect(ready).toBe(1);
    r.disconnect();
  });
});

describe('constructor arguments as ioredis parses them', () => {
  it('selects the db of a redis:// URL, or of ?db=', async () => {
    const writer = new Redis({ port, db: 2 });
    await writer.set('k', 'in db 2');
    const byPath = new Redis(`redis://:secret@localhost:${port}/2`);
    const byQuery = new Redis(`redis://localhost:${port}?db=2`);
    expect(await byPath.get('k')).toBe('in db 2');
    expect(await byQuery.get('k')).toBe('in db 2');
    expect(await byPath.client('INFO')).toContain(' db=2 ');
    expect(byPath.options).toMatchObject({ port, db: 2, password: 'secret' });
    const tls = new Redis(`rediss://user:pw@localhost:${port}/3`);
    expect(tls.options).toMatchObject({ tls: true, username: 'user', password: 'pw', db: 3 });
    const legacy = new Redis(port, 'localhost', { db: 2 });
    expect(await legacy.get('k')).toBe('in db 2');
    [writer, byPath, byQuery, tls, legacy].forEach((c) => c.disconnect());
  });
});

describe('Cluster and installStreams', () => {
  it('keeps Cluster working with the stream commands', async () => {
    const ClusterClass = Cluster as unknown as new (nodes: object[], options?: object) => InstanceType<typeof Redis>;
    const c = new ClusterClass([{ port }], { redisOptions: { port } });
    expect(await c.xadd('s', '1-0', 'f', 'v')).toBe('1-0');
    expect(await c.xlen('s')).toBe(1);
    c.disconnect();
  });

  it("installs on a user's own ioredis-mock class, sharing keyspaces with the default export", async () => {
    let Own: new (options?: object) => Record<string, any> = undefined as never;
    jest.isolateModules(() => {
      Own = require('@ioredis-mock-streams/mock-runtime'); // ioredis-mock (bundled with the package)
    });
    expect(installStreams(Own)).toBe(Own);
    const own = new Own({ port });
    const ours = new Redis({ port });
    expect(await own.xadd('s', '1-0', 'f', 'v')).toBe('1-0');
    expect(await ours.xlen('s')).toBe(1);
    const clock = createFakeClock({ now: 1 });
    streamsKeyspace(own as never).setClock(clock);
    expect(streamsKeyspace(ours).clock).toBe(clock);
    expect(Object.prototype.hasOwnProperty.call(own, 'get')).toBe(false);
    own.disconnect();
    ours.disconnect();
  });
});
