import Redis, { createFakeClock, realClock } from 'ioredis-mock-streams';
import { type RedisServer, serve } from 'ioredis-mock-streams/server';
import { RawClient, request } from './raw-client';

const T0 = Date.UTC(2024, 0, 1);

describe('RESP server', () => {
  let server: RedisServer;
  const clients: RawClient[] = [];
  const connect = async () => {
    const c = await RawClient.connect(server.port);
    clients.push(c);
    return c;
  };

  beforeEach(async () => {
    server = await serve({ clock: createFakeClock({ now: T0 }) });
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) c.close();
    await server.close();
  });

  it('listens on a free loopback port and answers stream commands in RESP2', async () => {
    expect(server.host).toBe('127.0.0.1');
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`redis://127.0.0.1:${server.port}`);
    const c = await connect();
    expect(await c.call('PING')).toBe('+PONG\r\n');
    expect(await c.call('XADD', 's', '*', 'f', 'v')).toBe('$15\r\n1704067200000-0\r\n');
    expect(await c.call('XRANGE', 's', '-', '+')).toBe('*1\r\n*2\r\n$15\r\n1704067200000-0\r\n*2\r\n$1\r\nf\r\n$1\r\nv\r\n');
    expect(await c.call('XGROUP', 'CREATE', 's', 'g', '$')).toBe('+OK\r\n');
    expect(await c.call('XGROUP', 'CREATE', 's', 'g', '$')).toBe('-BUSYGROUP Consumer Group name already exists\r\n');
    expect(await c.call('XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', 's', '>')).toBe('*-1\r\n');
  });

  it('answers pipelined requests in order, inline requests too', async () => {
    const c = await connect();
    c.write(Buffer.concat([request('SET', 'a', '1'), Buffer.from('GET a\r\nPING "hello world"\n'), request('INCR', 'a'), request('GET', 'a')]));
    expect(await c.read(5)).toEqual(['+OK\r\n', '$1\r\n1\r\n', '$11\r\nhello world\r\n', ':2\r\n', '$1\r\n2\r\n']);
  });

  it('waits for half-sent requests', async () => {
    const c = await connect();
    const bytes = request('ECHO', 'abcdef');
    c.write(bytes.subarray(0, 7));
    await new Promise((r) => setTimeout(r, 20));
    expect(c.pending).toBe('');
    c.write(bytes.subarray(7));
    expect(await c.read()).toEqual(['$6\r\nabcdef\r\n']);
  });

  it.each([
    ['*abc\r\n', '-ERR Protocol error: invalid multibulk length\r\n'],
    ['*1\r\n$-5\r\n', '-ERR Protocol error: invalid bulk length\r\n'],
    ['*1\r\n$999999999999\r\n', '-ERR Protocol error: invalid bulk length\r\n'],
    ['*2\r\n$4\r\nECHO\r\nxx\r\n', "-ERR Protocol error: expected '$', got 'x'\r\n"],
    ['ECHO "abc\r\n', '-ERR Protocol error: unbalanced quotes in request\r\n'],
  ])('answers %j with Redis\'s protocol error and closes the connection; the server keeps serving', async (input, error) => {
    const bad = await connect();
    const good = await connect();
    bad.write(Buffer.concat([request('PING'), Buffer.from(input, 'latin1')]));
    expect(await bad.read(2)).toEqual(['+PONG\r\n', error]);
    await bad.whenClosed();
    expect(await good.call('PING')).toBe('+PONG\r\n');
  });

  it('survives binary garbage and clients that vanish mid-request', async () => {
    const g = await connect();
    g.write(Buffer.from([0x2a, 0xff, 0x0d, 0x0a, 0x13, 0x37]));
    expect(await g.read()).toEqual(['-ERR Protocol error: invalid multibulk length\r\n']);
    await g.whenClosed();
    // A NUL byte before the count line's CR hides the line from Redis's strchr: it waits for more.
    const nul = await connect();
    nul.write(Buffer.from([0x2a, 0x31, 0x00, 0x0d, 0x0a]));
    const half = await connect();
    half.write('*3\r\n$4\r\nXADD\r\n$1\r\ns');
    half.close();
    const random = await connect();
    const bytes = Buffer.alloc(4096);
    let x = 12345;
    for (let i = 0; i < bytes.length; i++) bytes[i] = (x = (x * 1103515245 + 12345) & 0x7fffffff) & 0xff;
    random.write(bytes);
    random.close();
    const c = await connect();
    expect(await c.call('PING')).toBe('+PONG\r\n');
    expect(await c.call('EXISTS', 's')).toBe(':0\r\n');
    expect(nul.closed).toBe(false);
    expect(nul.pending).toBe('');
  });

  it('releases a blocked call when its client vanishes, and keeps serving others', async () => {
    const reader = await connect();
    const other = await connect();
    reader.write(request('XREAD', 'BLOCK', 0, 'STREAMS', 's', '$'));
    await waitFor(async () => /blocked_clients:1/.test(await other.call('INFO', 'clients')));
    reader.close();
    await waitFor(async () => /blocked_clients:0/.test(await other.call('INFO', 'clients')));
    expect(await other.call('XADD', 's', '1-1', 'f', 'v')).toBe('$3\r\n1-1\r\n');
    const info = await other.call('INFO', 'clients');
    expect(info).toMatch(/connected_clients:1\r\n/);
  });

  it('QUIT answers +OK, closes, and runs nothing sent after it', async () => {
    const c = await connect();
    c.write(Buffer.concat([request('SET', 'k', '1'), request('QUIT'), request('SET', 'k', '2')]));
    expect(await c.read(2)).toEqual(['+OK\r\n', '+OK\r\n']);
    await c.whenClosed();
    const d = await connect();
    expect(await d.call('GET', 'k')).toBe('$1\r\n1\r\n');
  });

  it('a request after a blocked one waits behind it on the same connection', async () => {
    const c = await connect();
    const w = await connect();
    c.write(Buffer.concat([request('XREAD', 'BLOCK', 0, 'STREAMS', 's', '$'), request('PING')]));
    await waitFor(async () => /blocked_clients:1/.test(await w.call('INFO', 'clients')));
    expect(c.pending).toBe('');
    await w.call('XADD', 's', '5-0', 'f', 'v');
    expect(await c.read(2)).toEqual(['*1\r\n*2\r\n$1\r\ns\r\n*1\r\n*2\r\n$3\r\n5-0\r\n*2\r\n$1\r\nf\r\n$1\r\nv\r\n', '+PONG\r\n']);
  });

  it('switches to RESP3 with HELLO 3: maps, nulls, verbatim INFO', async () => {
    const c = await connect();
    const hello = await c.call('HELLO', '3');
    expect(hello).toMatch(/^%7\r\n\$6\r\nserver\r\n\$5\r\nredis\r\n\$7\r\nversion\r\n\$6\r\n8\.10\.0\r\n\$5\r\nproto\r\n:3\r\n\$2\r\nid\r\n:\d+\r\n\$4\r\nmode\r\n\$10\r\nstandalone\r\n\$4\r\nrole\r\n\$6\r\nmaster\r\n\$7\r\nmodules\r\n\*0\r\n$/);
    expect(await c.call('XADD', 's', '1-1', 'f', 'v')).toBe('$3\r\n1-1\r\n');
    expect(await c.call('XREAD', 'STREAMS', 's', '0')).toBe('%1\r\n$1\r\ns\r\n*1\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\nf\r\n$1\r\nv\r\n');
    expect(await c.call('XREAD', 'STREAMS', 's', '$')).toBe('_\r\n');
    expect(await c.call('GET', 'missing')).toBe('_\r\n');
    expect(await c.call('INFO', 'cluster')).toBe('=34\r\ntxt:# Cluster\r\ncluster_enabled:0\r\n\r\n');
    expect(await c.call('HELLO', '2')).toMatch(/^\*14\r\n/);
    expect(await c.call('GET', 'missing')).toBe('$-1\r\n');
    expect(await c.call('HELLO', '4')).toBe('-NOPROTO unsupported protocol version\r\n');
  });

  it('SELECT switches databases; out-of-range and non-integer indexes are errors', async () => {
    const c = await connect();
    await c.call('XADD', 's', '1-1', 'f', 'v');
    expect(await c.call('SELECT', '9')).toBe('+OK\r\n');
    expect(await c.call('EXISTS', 's')).toBe(':0\r\n');
    await c.call('XADD', 's', '2-1', 'f', 'v');
    expect(await c.call('SELECT', '0')).toBe('+OK\r\n');
    expect(await c.call('XLEN', 's')).toBe(':1\r\n');
    expect(await c.call('SELECT', '16')).toBe('-ERR DB index is out of range\r\n');
    expect(await c.call('SELECT', 'x')).toBe('-ERR value is not an integer or out of range\r\n');
    expect(await c.call('INFO', 'keyspace')).toBe('$100\r\n# Keyspace\r\ndb0:keys=1,expires=0,avg_ttl=0,subexpiry=0\r\ndb9:keys=1,expires=0,avg_ttl=0,subexpiry=0\r\n\r\n');
  });

  it('CLIENT SETNAME / GETNAME / ID / INFO / LIST', async () => {
    const c = await connect();
    const id = Number((await c.call('CLIENT', 'ID')).slice(1, -2));
    expect(id).toBeGreaterThan(0);
    expect(await c.call('CLIENT', 'GETNAME')).toBe('$-1\r\n');
    expect(await c.call('CLIENT', 'SETNAME', 'worker-1')).toBe('+OK\r\n');
    expect(await c.call('CLIENT', 'GETNAME')).toBe('$8\r\nworker-1\r\n');
    expect(await c.call('CLIENT', 'SETNAME', 'a b')).toBe('-ERR Client names cannot contain spaces, newlines or special characters.\r\n');
    const info = await c.call('CLIENT', 'INFO');
    expect(info).toMatch(new RegExp(`^\\$\\d+\\r\\nid=${id} addr=127\\.0\\.0\\.1:\\d+ laddr=127\\.0\\.0\\.1:${server.port} fd=\\d+ name=worker-1 age=\\d+ idle=\\d+ flags=N db=0 sub=0 psub=0 ssub=0 multi=-1 watch=0 .* cmd=client\\|info user=default redir=-1 resp=2 lib-name= lib-ver= io-thread=0\\n\\r\\n$`));
    const d = await connect();
    const list = await d.call('CLIENT', 'LIST');
    expect(list.match(/^id=/gm)?.length).toBe(2);
    expect(list).toContain('name=worker-1');
  });

  it('QUEUEs between MULTI and EXEC, aborts EXEC on a queue-time error and on a touched WATCHed key', async () => {
    const c = await connect();
    const other = await connect();
    c.write(Buffer.concat([request('MULTI'), request('XADD', 's', '*', 'a', '1'), request('XADD', 's', '*', 'b', '2'), request('EXEC')]));
    expect(await c.read(4)).toEqual(['+OK\r\n', '+QUEUED\r\n', '+QUEUED\r\n', '*2\r\n$15\r\n1704067200000-0\r\n$15\r\n1704067200000-1\r\n']);
    c.write(Buffer.concat([request('MULTI'), request('XADD', 's'), request('EXEC')]));
    expect(await c.read(3)).toEqual(['+OK\r\n', "-ERR wrong number of arguments for 'xadd' command\r\n", '-EXECABORT Transaction discarded because of previous errors.\r\n']);
    expect(await c.call('WATCH', 's')).toBe('+OK\r\n');
    await other.call('XADD', 's', '*', 'c', '3');
    c.write(Buffer.concat([request('MULTI'), request('XLEN', 's'), request('EXEC')]));
    expect(await c.read(3)).toEqual(['+OK\r\n', '+QUEUED\r\n', '*-1\r\n']);
  });

  it('times a BLOCK out when the test moves the clock (server.tick), not before', async () => {
    const c = await connect();
    c.write(request('XREAD', 'BLOCK', 5000, 'STREAMS', 's', '$'));
    const other = await connect();
    await waitFor(async () => /blocked_clients:1/.test(await other.call('INFO', 'clients')));
    expect(await server.tick(4999)).toBe(T0 + 4999);
    await new Promise((r) => setTimeout(r, 10));
    expect(c.pending).toBe('');
    await server.tick(1);
    expect(await c.read()).toEqual(['*-1\r\n']);
    expect(await server.setTime(T0 + 60_000)).toBe(T0 + 60_000);
    expect(server.now()).toBe(T0 + 60_000);
  });

  it('MOCKCLOCK GET / TICK / SET move the clock over the wire', async () => {
    const c = await connect();
    expect(await c.call('MOCKCLOCK', 'GET')).toBe(`:${T0}\r\n`);
    const reader = await connect();
    reader.write(request('XREAD', 'BLOCK', 1000, 'STREAMS', 's', '$'));
    await waitFor(async () => /blocked_clients:1/.test(await c.call('INFO', 'clients')));
    expect(await c.call('MOCKCLOCK', 'TICK', '1000')).toBe(`:${T0 + 1000}\r\n`);
    expect(await reader.read()).toEqual(['*-1\r\n']);
    expect(await c.call('MOCKCLOCK', 'SET', String(T0 + 86_400_000))).toBe(`:${T0 + 86_400_000}\r\n`);
    expect(await c.call('XADD', 's', '*', 'f', 'v')).toBe(`$15\r\n${T0 + 86_400_000}-0\r\n`);
    expect(await c.call('MOCKCLOCK', 'TICK', '-1')).toBe('-ERR value is out of range, must be positive\r\n');
    expect(await c.call('MOCKCLOCK', 'TICK', 'x')).toBe('-ERR value is not an integer or out of range\r\n');
    expect(await c.call('MOCKCLOCK', 'TICK')).toBe("-ERR wrong number of arguments for 'mockclock|tick' command\r\n");
    expect(await c.call('MOCKCLOCK', 'NOPE')).toBe("-ERR unknown subcommand 'NOPE'. Try MOCKCLOCK HELP.\r\n");
  });

  it('delivers pub/sub messages across connections (RESP2 arrays, RESP3 pushes)', async () => {
    const sub2 = await connect();
    const sub3 = await connect();
    const pub = await connect();
    sub2.write(request('SUBSCRIBE', 'a', 'b'));
    expect(await sub2.read(2)).toEqual(['*3\r\n$9\r\nsubscribe\r\n$1\r\na\r\n:1\r\n', '*3\r\n$9\r\nsubscribe\r\n$1\r\nb\r\n:2\r\n']);
    expect(await sub2.call('GET', 'x')).toBe(
      "-ERR Can't execute 'get': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context\r\n",
    );
    expect(await sub2.call('PING')).toBe('*2\r\n$4\r\npong\r\n$0\r\n\r\n');
    await sub3.call('HELLO', '3');
    expect(await sub3.call('PSUBSCRIBE', 'a*')).toBe('>3\r\n$10\r\npsubscribe\r\n$2\r\na*\r\n:1\r\n');
    expect(await pub.call('PUBLISH', 'a', 'hi')).toBe(':2\r\n');
    expect(await sub2.read()).toEqual(['*3\r\n$7\r\nmessage\r\n$1\r\na\r\n$2\r\nhi\r\n']);
    expect(await sub3.read()).toEqual(['>4\r\n$8\r\npmessage\r\n$2\r\na*\r\n$1\r\na\r\n$2\r\nhi\r\n']);
    expect(await sub3.call('GET', 'x')).toBe('_\r\n'); // RESP3 clients may run commands while subscribed
  });

  it('shares its data with in-process ioredis fake clients of the same port', async () => {
    const c = await connect();
    await c.call('XADD', 'jobs', '1-1', 'job', 'a');
    const redis = new Redis({ port: server.port }) as unknown as import('ioredis').default;
    expect(await redis.xlen('jobs')).toBe(1);
    await redis.xadd('jobs', '2-1', 'job', 'b');
    expect(await c.call('XLEN', 'jobs')).toBe(':2\r\n');
    redis.disconnect();
  });

  it('CLIENT KILL closes the killed client\'s socket; waitForBlocked() resolves once clients wait', async () => {
    const victim = await connect();
    const admin = await connect();
    const id = (await victim.call('CLIENT', 'ID')).slice(1, -2);
    victim.write(request('BLPOP', 'q', '0'));
    await server.waitForBlocked(1);
    expect(server.blockedCount).toBe(1);
    expect(await admin.call('CLIENT', 'KILL', 'ID', id)).toBe(':1\r\n');
    await victim.whenClosed();
    expect(victim.pending).toBe('');
    expect(server.blockedCount).toBe(0);
    await server.waitForBlocked(0);
  });

  // replies of the post-7.4 build and 7.0.15 (Redis's unit/limits 'Check if maxclients works refusing connections')
  it('refuses a connection past maxclients with -ERR max number of clients reached (rejected_connections, INFO maxclients)', async () => {
    const a = await connect();
    expect(await a.call('CONFIG', 'SET', 'maxclients', '2')).toBe('+OK\r\n');
    const b = await connect();
    expect(await b.call('PING')).toBe('+PONG\r\n');
    const c = await connect();
    await c.whenClosed();
    expect(c.pending).toBe('-ERR max number of clients reached\r\n');
    const info = await a.call('INFO');
    expect(info).toMatch(/\r\nmaxclients:2\r\n/);
    expect(info).toMatch(/\r\nrejected_connections:1\r\n/);
    expect(info).toMatch(/\r\ntotal_connections_received:2\r\n/);
    expect(info).toMatch(/\r\nconnected_clients:2\r\n/);
    b.close();
    await b.whenClosed();
    await waitFor(async () => server.connectionCount === 1);
    const d = await connect(); // room again
    expect(await d.call('PING')).toBe('+PONG\r\n');
  });

  it('close() disconnects clients and releases blocked calls', async () => {
    const c = await connect();
    c.write(request('XREAD', 'BLOCK', 0, 'STREAMS', 's', '$'));
    const other = await connect();
    await waitFor(async () => /blocked_clients:1/.test(await other.call('INFO', 'clients')));
    expect(server.connectionCount).toBe(2);
    await server.close();
    await c.whenClosed();
    await other.whenClosed();
    await server.close(); // idempotent
  });
});

describe('RESP server options', () => {
  it('requires AUTH when started with a password (NOAUTH, WRONGPASS, HELLO … AUTH)', async () => {
    const server = await serve({ password: 's3cret' });
    const c = await RawClient.connect(server.port);
    try {
      expect(await c.call('PING')).toBe('-NOAUTH Authentication required.\r\n');
      expect(await c.call('AUTH', 'nope')).toBe('-WRONGPASS invalid username-password pair or user is disabled.\r\n');
      expect(await c.call('AUTH', 's3cret')).toBe('+OK\r\n');
      expect(await c.call('PING')).toBe('+PONG\r\n');
      const d = await RawClient.connect(server.port);
      expect(await d.call('HELLO', '3', 'AUTH', 'default', 's3cret')).toMatch(/^%7\r\n/);
      d.close();
      const e = await RawClient.connect(server.port);
      e.write('*11\r\n');
      expect(await e.read()).toEqual(['-ERR Protocol error: unauthenticated multibulk length\r\n']);
      e.close();
    } finally {
      c.close();
      await server.close();
    }
  });

  it('answers AUTH without a configured password like Redis', async () => {
    const server = await serve();
    const c = await RawClient.connect(server.port);
    expect(await c.call('AUTH', 'x')).toBe(
      '-ERR AUTH <password> called without any password configured for the default user. Are you sure your configuration is correct?\r\n',
    );
    c.close();
    await server.close();
  });

  it('answers MOCKCLOCK as an unknown command when the clock command is disabled', async () => {
    const server = await serve({ clockCommand: false });
    const c = await RawClient.connect(server.port);
    expect(await c.call('MOCKCLOCK', 'GET')).toBe("-ERR unknown command 'MOCKCLOCK', with args beginning with: 'GET' \r\n");
    // unknown before the arity check, and refused at queue time inside MULTI, as any unknown command
    expect(await c.call('MOCKCLOCK')).toBe("-ERR unknown command 'MOCKCLOCK', with args beginning with: \r\n");
    expect(await c.call('MULTI')).toBe('+OK\r\n');
    expect(await c.call('mockclock', 'tick', '1')).toBe("-ERR unknown command 'mockclock', with args beginning with: 'tick' '1' \r\n");
    expect(await c.call('EXEC')).toBe('-EXECABORT Transaction discarded because of previous errors.\r\n');
    expect(await c.call('EVAL', "return redis.pcall('mockclock', 'get')", '0')).toBe('-ERR Unknown Redis command called from script\r\n'); // as an unknown name answers on both real servers
    c.close();
    await server.close();
  });

  it('emulates the requested version (INFO, HELLO, 7.0 replies)', async () => {
    const server = await serve({ redisVersion: '7.0' });
    const c = await RawClient.connect(server.port);
    expect(await c.call('INFO', 'server')).toContain('redis_version:7.0.15\r\n');
    expect(await c.call('XREAD', 'STREAMS', 'a', 'b', 'c')).toBe("-ERR Unbalanced XREAD list of streams: for each stream key an ID or '$' must be specified.\r\n");
    const clients = await c.call('INFO', 'clients');
    expect(clients).not.toContain('total_blocking_keys');
    expect(await c.call('CLIENT', 'SETINFO', 'lib-name', 'x')).toBe("-ERR unknown subcommand 'SETINFO'. Try CLIENT HELP.\r\n");
    c.close();
    await server.close();
  });

  it('runs on wall time by default and moves it with tick()', async () => {
    const server = await serve();
    const before = Date.now();
    expect(server.now()).toBeGreaterThanOrEqual(before - 5);
    const moved = await server.tick(3_600_000);
    expect(moved).toBeGreaterThanOrEqual(before + 3_600_000);
    await server.close();
  });

  it('refuses to move a clock that cannot move (realClock): tick() rejects, MOCKCLOCK TICK is an error', async () => {
    const server = await serve({ clock: realClock });
    const c = await RawClient.connect(server.port);
    await expect(server.tick(1)).rejects.toThrow('[ioredis-mock-streams] tick()/setTime() need a clock that can move');
    expect(await c.call('MOCKCLOCK', 'TICK', '1')).toMatch(/^-ERR this server's clock \(real\) cannot be moved/);
    expect(await c.call('MOCKCLOCK', 'GET')).toMatch(/^:\d{13}\r\n$/);
    c.close();
    await server.close();
  });

  it('moves the clock even while jest fake timers are installed', async () => {
    const server = await serve({ clock: createFakeClock({ now: T0 }) });
    jest.useFakeTimers();
    try {
      expect(await server.tick(1000)).toBe(T0 + 1000);
    } finally {
      jest.useRealTimers();
      await server.close();
    }
  });

  it('rejects bad options with a StreamsMockError', async () => {
    await expect(serve({ redisVersion: '6.2' })).rejects.toThrow('[ioredis-mock-streams] unsupported redisVersion');
    await expect(serve({ port: 70000 })).rejects.toThrow('[ioredis-mock-streams] serve: port must be an integer 0-65535');
  });
});

async function waitFor(check: () => Promise<boolean>, tries = 200): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('condition not reached');
}

/**
 * [member, score] pairs over the wire: after HELLO 3 an array of `[member, double]` arrays
 * (ZRANGE … WITHSCORES and kin, ZPOPMIN/ZPOPMAX with a count, HRANDFIELD … WITHVALUES), in EXEC
 * too; flat in RESP2 and inside scripts (Lua sees RESP2). Bytes of redis-server 7.0.15; with
 * REDIS_URL the same script runs on that server.
 */
async function scorePairsScript(c: RawClient, k: string): Promise<string[]> {
  const z = `${k}:z`;
  const h = `${k}:h`;
  const out: string[] = [];
  await c.call('HELLO', '3');
  await c.call('DEL', z, h);
  await c.call('ZADD', z, '-3', 'c', '1', 'a', '2.5', 'b');
  await c.call('HSET', h, 'f', 'v');
  out.push(await c.call('ZRANGE', z, '0', '-1', 'WITHSCORES'));
  out.push(await c.call('ZREVRANGEBYSCORE', z, '+inf', '-inf', 'WITHSCORES', 'LIMIT', '0', '1'));
  out.push(await c.call('HRANDFIELD', h, '1', 'WITHVALUES'));
  out.push(await c.call('EVAL', "return redis.call('ZRANGE', KEYS[1], 0, 1, 'WITHSCORES')", '1', z));
  c.write(Buffer.concat([request('MULTI'), request('ZRANGE', z, '0', '0', 'WITHSCORES'), request('ZPOPMIN', z), request('ZPOPMAX', z, '1'), request('EXEC')]));
  out.push(...(await c.read(5)));
  await c.call('HELLO', '2');
  out.push(await c.call('ZRANGE', z, '0', '-1', 'WITHSCORES'));
  await c.call('DEL', z, h);
  return out;
}

const SCORE_PAIRS_BYTES = [
  '*3\r\n*2\r\n$1\r\nc\r\n,-3\r\n*2\r\n$1\r\na\r\n,1\r\n*2\r\n$1\r\nb\r\n,2.5\r\n',
  '*1\r\n*2\r\n$1\r\nb\r\n,2.5\r\n',
  '*1\r\n*2\r\n$1\r\nf\r\n$1\r\nv\r\n',
  '*4\r\n$1\r\nc\r\n$2\r\n-3\r\n$1\r\na\r\n$1\r\n1\r\n',
  '+OK\r\n',
  '+QUEUED\r\n',
  '+QUEUED\r\n',
  '+QUEUED\r\n',
  '*3\r\n*1\r\n*2\r\n$1\r\nc\r\n,-3\r\n*2\r\n$1\r\nc\r\n,-3\r\n*1\r\n*2\r\n$1\r\nb\r\n,2.5\r\n',
  '*2\r\n$1\r\na\r\n$1\r\n1\r\n',
];

describe('RESP server: [member, score] pairs', () => {
  it('sends them as [member, double] arrays in RESP3 (EXEC too), flat in RESP2 and to scripts', async () => {
    const server = await serve({ redisVersion: '7.0' });
    const c = await RawClient.connect(server.port);
    try {
      expect(await scorePairsScript(c, 'pairs')).toEqual(SCORE_PAIRS_BYTES);
    } finally {
      c.close();
      await server.close();
    }
  });

  const url = process.env.REDIS_URL;
  // skip: needs a real server to compare bytes with: skipped without REDIS_URL (CI starts one)
  (url ? it : it.skip)('gives the bytes redis-server gives (REDIS_URL)', async () => {
    const c = await RawClient.connect(Number(new URL(url!).port || 6379), new URL(url!).hostname);
    try {
      expect(await scorePairsScript(c, `pairs:${process.pid}`)).toEqual(SCORE_PAIRS_BYTES);
    } finally {
      c.close();
    }
  });
});

describe('RESP server: SHUTDOWN', () => {
  // Texts and behaviour checked on redis-server 7.0.15 and the post-7.4 build (own servers started
  // with --busy-reply-threshold 100: SHUTDOWN and SHUTDOWN SAVE answer BUSY, SHUTDOWN NOSAVE ends
  // the server and every connection closes without a reply)
  it('SHUTDOWN NOSAVE ends a script that wrote (UNKILLABLE) and the server; SHUTDOWN without NOSAVE answers BUSY', async () => {
    const server = await serve();
    const opts = { port: server.port, retryStrategy: () => null, maxRetriesPerRequest: 0 };
    const IORedis = jest.requireActual('ioredis') as typeof import('ioredis').default;
    const a = new IORedis(opts);
    const b = new IORedis(opts);
    try {
      await b.config('SET', 'busy-reply-threshold', '100');
      const running = a.eval("redis.call('SET', 'x', '1') while true do end", 0);
      running.catch(() => undefined);
      await new Promise((r) => setTimeout(r, 200));
      await expect(b.script('KILL')).rejects.toThrow(/^UNKILLABLE /);
      await expect(b.shutdown()).rejects.toThrow('BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.');
      await expect(b.shutdown('ABORT')).rejects.toThrow('ERR No shutdown in progress.');
      await expect(b.shutdown('NOSAVE')).rejects.toThrow('Connection is closed.');
      await expect(running).rejects.toThrow('Connection is closed.');
      await server.whenClosed;
      // nothing listens any more
      await expect(new Promise((resolve, reject) => {
        const probe = (jest.requireActual('net') as typeof import('net')).connect(server.port, '127.0.0.1');
        probe.on('connect', () => {
          probe.destroy();
          resolve('connected');
        });
        probe.on('error', reject);
      })).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      // (ioredis's disconnect() on a socket the server already closed waits 2 s for a 'close' that came)
      for (const c of [a, b]) if (c.status !== 'end') c.disconnect();
      await server.close();
    }
  });
});
