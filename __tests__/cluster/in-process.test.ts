/**
 * The package's `Cluster` (and `Redis.Cluster`): ioredis's own Cluster class on in-process fake
 * nodes of a 3-master cluster (no TCP port): slots discovered with CLUSTER SLOTS, commands routed
 * per slot, CROSSSLOT for keys of two slots, pipelines and MULTI as ioredis's Cluster runs them,
 * scripts, blocking reads on a duplicate, pub/sub.
 */
import Redis, { Cluster, createFakeClock, streamsKeyspace } from 'ioredis-mock-streams';

const CROSSSLOT = "CROSSSLOT Keys in request don't hash to the same slot";

describe('Cluster (in-process fake nodes, ioredis Cluster class)', () => {
  let cluster: import('ioredis').Cluster;

  beforeEach(async () => {
    cluster = new Cluster([{ host: '127.0.0.1', port: 7300 }], { lazyConnect: true });
    await cluster.connect();
    await Promise.all(cluster.nodes('master').map((n) => n.flushall()));
  });
  afterEach(async () => {
    await cluster.quit();
  });

  it('is Redis.Cluster and discovers 3 masters with the slots redis-cli --cluster create assigns', async () => {
    expect(Redis.Cluster).toBe(Cluster);
    expect(cluster.nodes('master').map((n) => n.options.port).sort()).toEqual([7300, 7301, 7302]);
    const slots = (await cluster.call('CLUSTER', 'SLOTS')) as unknown[][];
    expect(slots.map((s) => [s[0], s[1], (s[2] as unknown[])[1]])).toEqual([
      [0, 5460, 7300],
      [5461, 10922, 7301],
      [10923, 16383, 7302],
    ]);
  });

  it('runs a stream worker on hash-tagged keys: one XREADGROUP over two streams of one slot, XACK, XPENDING', async () => {
    await cluster.xgroup('CREATE', '{orders}:in', 'workers', '0', 'MKSTREAM');
    await cluster.xgroup('CREATE', '{orders}:retry', 'workers', '0', 'MKSTREAM');
    await cluster.xadd('{orders}:in', '1-1', 'job', 'a');
    await cluster.xadd('{orders}:retry', '1-2', 'job', 'b');
    expect(await cluster.xreadgroup('GROUP', 'workers', 'w1', 'STREAMS', '{orders}:in', '{orders}:retry', '>', '>')).toEqual([
      ['{orders}:in', [['1-1', ['job', 'a']]]],
      ['{orders}:retry', [['1-2', ['job', 'b']]]],
    ]);
    expect(await cluster.xack('{orders}:in', 'workers', '1-1')).toBe(1);
    expect(await cluster.xpending('{orders}:retry', 'workers')).toEqual([1, '1-2', '1-2', [['w1', '1']]]);
  });

  it('fails cross-slot MGET, XREAD, XREADGROUP and EVAL with CROSSSLOT, as a real cluster does', async () => {
    await expect(cluster.mget('orders:a', 'orders:b')).rejects.toThrow(CROSSSLOT);
    await expect(cluster.xread('STREAMS', 'orders:a', 'orders:b', '0', '0')).rejects.toThrow(CROSSSLOT);
    await cluster.xgroup('CREATE', 'orders:a', 'g', '0', 'MKSTREAM');
    await expect(cluster.xreadgroup('GROUP', 'g', 'c', 'STREAMS', 'orders:a', 'orders:b', '>', '>')).rejects.toThrow(CROSSSLOT);
    await expect(cluster.eval('return 1', 2, 'orders:a', 'orders:b')).rejects.toThrow(CROSSSLOT);
    // ioredis's Cluster refuses a pipeline over two slots itself
    await expect(cluster.pipeline().get('a').get('b').exec()).rejects.toThrow('All keys in the pipeline should belong to the same slots allocation group');
  });

  it('runs pipelines and MULTI on one slot, and scripts on their declared keys', async () => {
    expect(await cluster.multi().set('{u}:1', 'x').incr('{u}:n').get('{u}:1').exec()).toEqual([[null, 'OK'], [null, 1], [null, 'x']]);
    expect(await cluster.pipeline().incr('{u}:n').get('{u}:n').exec()).toEqual([[null, 2], [null, '2']]);
    expect(await cluster.eval("return redis.call('incr', KEYS[1])", 1, '{u}:n')).toBe(3);
    await expect(cluster.eval("return redis.call('get', 'a')", 1, 'b')).rejects.toThrow(/^ERR Script attempted to access a non local key in a cluster node script/);
  });

  it('serves a blocking XREADGROUP on a duplicate, woken by an XADD through the cluster', async () => {
    await cluster.xgroup('CREATE', '{q}', 'g', '$', 'MKSTREAM');
    const reader = cluster.duplicate();
    const read = reader.xreadgroup('GROUP', 'g', 'c', 'BLOCK', 0, 'STREAMS', '{q}', '>');
    await new Promise((r) => setTimeout(r, 50));
    await cluster.xadd('{q}', '5-1', 'k', 'v');
    expect(await read).toEqual([['{q}', [['5-1', ['k', 'v']]]]]);
    await reader.quit();
  });

  it('delivers pub/sub messages to a subscriber on the cluster', async () => {
    const sub = cluster.duplicate();
    const got = new Promise((resolve) => sub.on('message', (channel: string, message: string) => resolve([channel, message])));
    await sub.subscribe('news');
    await cluster.publish('news', 'hello');
    expect(await got).toEqual(['news', 'hello']);
    await sub.quit();
  });

  it('counts a subscriber on its own node only: PUBSUB NUMSUB and PUBLISH summed over the masters give 1 (as a library counting its listeners does)', async () => {
    const sub = cluster.duplicate();
    await sub.subscribe('news');
    const masters = cluster.nodes('master');
    const numsub = await Promise.all(masters.map((n) => n.pubsub('NUMSUB', 'news') as Promise<[string, number]>));
    expect(numsub.map(([, n]) => n).sort()).toEqual([0, 0, 1]);
    const published = await Promise.all(masters.map((n) => n.publish('news', 'x')));
    expect(published.reduce((a, b) => a + b, 0)).toBe(1);
    await sub.quit();
  });

  it('answers a node connection after write() returns, as over TCP (ioredis 5.3 queues a command after writing it: a reply inside write() was lost and the command never settled)', async () => {
    type Stream = NodeJS.EventEmitter & { write: (...a: unknown[]) => boolean };
    const node = cluster.nodes('master')[0] as unknown as { stream: Stream; ping(): Promise<string> };
    expect(await node.ping()).toBe('PONG'); // connected
    const stream = node.stream;
    const write = stream.write;
    let writing = false;
    let repliedInsideWrite = false;
    const onData = () => {
      if (writing) repliedInsideWrite = true;
    };
    stream.write = (...a: unknown[]) => {
      writing = true;
      try {
        return write.apply(stream, a);
      } finally {
        writing = false;
      }
    };
    stream.on('data', onData);
    try {
      expect(await node.ping()).toBe('PONG');
      expect(repliedInsideWrite).toBe(false);
    } finally {
      stream.write = write;
      stream.removeListener('data', onData);
    }
  });

  it('delivers sharded pub/sub (SSUBSCRIBE/SPUBLISH) with ioredis shardedSubscribers', async () => {
    const c = new Cluster([{ host: '127.0.0.1', port: 7300 }], { shardedSubscribers: true } as never);
    const sub = c.duplicate();
    const got = new Promise((resolve) => sub.on('smessage', (channel: string, message: string) => resolve([channel, message])));
    expect(await sub.ssubscribe('{ch}a')).toBe(1);
    expect(await c.spublish('{ch}a', 'hi')).toBe(1);
    expect(await got).toEqual(['{ch}a', 'hi']);
    await sub.quit();
    await c.quit();
  });

  it('shares db 0 with a fake client of the first node, and takes the keyspace clock and version', async () => {
    const clock = createFakeClock({ now: Date.UTC(2024, 0, 1) });
    const c = new Cluster([{ host: '127.0.0.1', port: 7400 }], { lazyConnect: true, streams: { clock, redisVersion: '7.0' } });
    await c.connect();
    await c.xadd('{s}', '*', 'k', 'v');
    const plain = new Redis({ port: 7400 });
    expect(streamsKeyspace(plain).redisVersion).toBe('7.0');
    expect(await c.call('INFO', 'server')).toContain('redis_version:7.0.15');
    const [[id]] = (await c.xrange('{s}', '-', '+')) as [string, string[]][];
    expect(id).toBe(`${Date.UTC(2024, 0, 1)}-0`);
    plain.disconnect();
    await c.quit();
  });

  it('warns once per script and key when a script touches a key it did not declare (warnUndeclaredKeys)', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const c = new Cluster([{ host: '127.0.0.1', port: 7600 }], { lazyConnect: true, warnUndeclaredKeys: true });
    try {
      await c.connect();
      const script = "redis.call('set', KEYS[1], '1'); return redis.call('get', '{w}:undeclared')";
      expect(await c.eval(script, 1, '{w}:k')).toBeNull();
      expect(await c.eval(script, 1, '{w}:k')).toBeNull();
      const texts = warn.mock.calls.map((args) => String(args[0])).filter((t) => t.includes('did not declare'));
      expect(texts).toHaveLength(1);
      expect(texts[0]).toMatch(/runs GET on key "\{w\}:undeclared", which it did not declare in KEYS/);
    } finally {
      warn.mockRestore();
      await c.quit();
    }
  });
});

describe('warning mode on a single fake server (IOREDIS_MOCK_STREAMS_WARN_UNDECLARED_KEYS=1)', () => {
  it('reports a script reading a key it did not declare; off by default', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const redis = new Redis({ port: 7700 });
    try {
      await redis.eval("return redis.call('get', 'quiet')", 0);
      process.env.IOREDIS_MOCK_STREAMS_WARN_UNDECLARED_KEYS = '1';
      await redis.eval("return redis.call('get', 'loud')", 0);
      const texts = warn.mock.calls.map((args) => String(args[0])).filter((t) => t.includes('did not declare'));
      expect(texts).toHaveLength(1);
      expect(texts[0]).toContain('"loud"');
    } finally {
      delete process.env.IOREDIS_MOCK_STREAMS_WARN_UNDECLARED_KEYS;
      warn.mockRestore();
      redis.disconnect();
    }
  });
});
