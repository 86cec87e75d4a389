/**
 * The Upstash REST protocol of `createUpstashHandler`, request by request (raw HTTP, no client
 * library): endpoints, base64 encoding, statuses and error bodies, malformed bodies, auth,
 * the sync token, path commands, what REST refuses, and the keyspace it serves.
 */
import Redis, { createFakeClock, StreamsMockError } from 'ioredis-mock-streams';
import { createUpstashHandler, type UpstashHandler } from 'ioredis-mock-streams/upstash';

const URL_ = 'https://fake.upstash.io';
const TOKEN = 'test-token';
const T0 = Date.UTC(2024, 0, 1);

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

interface Sent {
  status: number;
  body: unknown;
  text: string;
  headers: Headers;
}

async function send(h: UpstashHandler, path: string, body: unknown, init: { base64?: boolean; token?: string | null; method?: string } = {}): Promise<Sent> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const token = init.token === undefined ? TOKEN : init.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (init.base64) headers['upstash-encoding'] = 'base64';
  const method = init.method ?? 'POST';
  const res = await h(
    new Request(URL_ + path, {
      method,
      headers,
      body: method === 'GET' || method === 'HEAD' ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}

let clock: ReturnType<typeof createFakeClock>;
let h: UpstashHandler;
beforeEach(() => {
  clock = createFakeClock({ now: T0 });
  h = createUpstashHandler({ url: URL_, token: TOKEN, streams: { clock } });
});
afterEach(() => h.close());

describe('POST / (one command)', () => {
  it('answers {"result": …} with 200 and the reply as JSON (strings as text without base64)', async () => {
    const r = await send(h, '', ['XADD', 's', '*', 'f', 'v']);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ result: `${T0}-0` });
    expect(r.headers.get('content-type')).toBe('application/json');
  });

  it('answers Redis errors as {"error": text} with 400, the text never base64-encoded', async () => {
    const r = await send(h, '', ['XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', 's', '>'], { base64: true });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: "NOGROUP No such key 's' or consumer group 'g' in XREADGROUP with GROUP option" });
  });

  it("answers a command it does not know with Redis's unknown-command error", async () => {
    const r = await send(h, '', ['NOPE', 'a', 'b']);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: "ERR unknown command 'NOPE', with args beginning with: 'a' 'b' " });
  });

  it('answers a command named POST or Host: as unknown and keeps serving (the RESP port closes its connection; REST has none to close)', async () => {
    expect((await send(h, '', ['POST', '/'])).body).toEqual({ error: "ERR unknown command 'POST', with args beginning with: '/' " });
    expect((await send(h, '', ['host:', 'x'])).body).toEqual({ error: "ERR unknown command 'host:', with args beginning with: 'x' " });
    expect((await send(h, '', ['PING'])).body).toEqual({ result: 'PONG' });
  });

  it('reaches the built-in commands next to the stream commands', async () => {
    expect((await send(h, '', ['SET', 'k', 'v'])).body).toEqual({ result: 'OK' });
    expect((await send(h, '', ['GET', 'k'])).body).toEqual({ result: 'v' });
    expect((await send(h, '', ['XLEN', 'k'])).body).toEqual({ error: 'WRONGTYPE Operation against a key holding the wrong kind of value' });
    expect((await send(h, '', ['TYPE', 'k'])).body).toEqual({ result: 'string' });
  });

  it('answers ZRANGE … WITHSCORES, ZPOPMIN with a count and HRANDFIELD … WITHVALUES flat, as RESP2 (member, score, …), in /multi-exec too', async () => {
    await send(h, '', ['ZADD', 'z', '1', 'a', '2.5', 'b']);
    await send(h, '', ['HSET', 'h', 'f', 'v']);
    expect((await send(h, '', ['ZRANGE', 'z', '0', '-1', 'WITHSCORES'])).body).toEqual({ result: ['a', '1', 'b', '2.5'] });
    expect((await send(h, '', ['HRANDFIELD', 'h', '1', 'WITHVALUES'])).body).toEqual({ result: ['f', 'v'] });
    const r = await send(h, '/multi-exec', [['ZREVRANGE', 'z', '0', '-1', 'WITHSCORES'], ['ZPOPMIN', 'z', '2']]);
    expect(r.body).toEqual([{ result: ['b', '2.5', 'a', '1'] }, { result: ['a', '1', 'b', '2.5'] }]);
  });

  it('takes JSON numbers and booleans as their text, as the client sends them', async () => {
    await send(h, '', ['XADD', 's', 5, 'n', 1.5, 'b', true]);
    expect((await send(h, '', ['XRANGE', 's', '-', '+'])).body).toEqual({ result: [['5-0', ['n', '1.5', 'b', 'true']]] });
  });

  it('stores a JSON string as its UTF-8 bytes', async () => {
    await send(h, '', ['XADD', 's', '1-0', 'f', 'é✓']);
    expect((await send(h, '', ['XRANGE', 's', '-', '+'])).body).toEqual({ result: [['1-0', ['f', 'é✓']]] });
    expect((await send(h, '', ['XRANGE', 's', '-', '+'], { base64: true })).body).toEqual({ result: [[b64('1-0'), [b64('f'), b64('é✓')]]] });
  });
});

describe('Upstash-Encoding: base64', () => {
  it('base64-encodes every string at every depth; integers stay numbers, nil stays null', async () => {
    await send(h, '', ['XADD', 's', '1-0', 'f', 'v']);
    await send(h, '', ['XGROUP', 'CREATE', 's', 'g', '0']);
    expect((await send(h, '', ['XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', 's', '>'], { base64: true })).body).toEqual({
      result: [[b64('s'), [[b64('1-0'), [b64('f'), b64('v')]]]]],
    });
    expect((await send(h, '', ['XLEN', 's'], { base64: true })).body).toEqual({ result: 1 });
    expect((await send(h, '', ['XPENDING', 's', 'g'], { base64: true })).body).toEqual({
      result: [1, b64('1-0'), b64('1-0'), [[b64('c'), b64('1')]]],
    });
    expect((await send(h, '', ['XADD', 's', 'NOMKSTREAM', '*', 'f', 'v'].map((a) => (a === 's' ? 'missing' : a)), { base64: true })).body).toEqual({ result: null });
  });

  it('sends a top-level OK status as "OK", and other status replies base64-encoded', async () => {
    expect((await send(h, '', ['XGROUP', 'CREATE', 's', 'g', '$', 'MKSTREAM'], { base64: true })).body).toEqual({ result: 'OK' });
    expect((await send(h, '', ['TYPE', 's'], { base64: true })).body).toEqual({ result: b64('stream') });
    expect((await send(h, '', ['PING'], { base64: true })).body).toEqual({ result: b64('PONG') });
  });

  it('gives the exact bytes of a value that is not UTF-8 (and U+FFFD without base64)', async () => {
    const ioredis = new Redis({ port: 41_001 });
    const shared = createUpstashHandler({ url: URL_, redis: ioredis });
    await ioredis.xadd('bin', '1-0', 'f', Buffer.from([0xff, 0x00, 0x41]));
    expect((await send(shared, '', ['XRANGE', 'bin', '-', '+'], { base64: true })).body).toEqual({ result: [['MS0w', ['Zg==', '/wBB']]] });
    expect((await send(shared, '', ['XRANGE', 'bin', '-', '+'])).body).toEqual({ result: [['1-0', ['f', '\ufffd\u0000A']]] });
    shared.close();
    ioredis.disconnect();
  });
});

describe('POST /pipeline', () => {
  it('runs the commands in order and answers one {result} or {error} per command, with 200', async () => {
    const r = await send(h, '/pipeline', [
      ['XADD', 's', '1-0', 'f', 'v'],
      ['XADD', 's', '1-0', 'f', 'v'],
      ['XLEN', 's'],
      ['XREAD', 'BLOCK', '10', 'STREAMS', 's', '0'],
      ['NOPE'],
    ]);
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      { result: '1-0' },
      { error: 'ERR The ID specified in XADD is equal or smaller than the target stream top item' },
      { result: 1 },
      { error: "ERR Command is not available over the REST API: 'XREAD' with BLOCK (only the non-blocking XREAD and XREADGROUP are supported)" },
      { error: "ERR unknown command 'NOPE', with args beginning with: " },
    ]);
  });

  it('encodes each result with base64 when asked, leaving the top-level OK', async () => {
    const r = await send(h, '/pipeline', [['XGROUP', 'CREATE', 's', 'g', '$', 'MKSTREAM'], ['XINFO', 'GROUPS', 's']], { base64: true });
    expect(r.body).toEqual([
      { result: 'OK' },
      { result: [[b64('name'), b64('g'), b64('consumers'), 0, b64('pending'), 0, b64('last-delivered-id'), b64('0-0'), b64('entries-read'), null, b64('lag'), 0]] },
    ]);
  });
});

describe('POST /multi-exec', () => {
  it('runs the commands atomically on one time snapshot: two XADD * share the millisecond', async () => {
    const r = await send(h, '/multi-exec', [
      ['XADD', 's', '*', 'a', '1'],
      ['XADD', 's', '*', 'b', '2'],
      ['XLEN', 's'],
    ]);
    expect(r.status).toBe(200);
    expect(r.body).toEqual([{ result: `${T0}-0` }, { result: `${T0}-1` }, { result: 2 }]);
  });

  it('executes every command when one fails at run time, as Redis does inside EXEC', async () => {
    await send(h, '', ['SET', 'str', 'x']);
    const r = await send(h, '/multi-exec', [
      ['XADD', 'str', '1-0', 'f', 'v'],
      ['XADD', 's', '1-0', 'f', 'v'],
    ]);
    expect(r.status).toBe(200);
    expect(r.body).toEqual([{ error: 'WRONGTYPE Operation against a key holding the wrong kind of value' }, { result: '1-0' }]);
  });

  it('discards the whole transaction with one {error} (400) on a queue-time error, running nothing', async () => {
    const r = await send(h, '/multi-exec', [['XADD', 's', '1-0', 'f', 'v'], ['NOPE']]);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'EXECABORT Transaction discarded because of previous errors.' });
    const arity = await send(h, '/multi-exec', [['XADD', 's', '1-0', 'f', 'v'], ['XLEN']]);
    expect(arity.body).toEqual({ error: 'EXECABORT Transaction discarded because of previous errors.' });
    expect((await send(h, '', ['EXISTS', 's'])).body).toEqual({ result: 0 });
  });

  it('discards the transaction when a command is one the REST API refuses', async () => {
    const r = await send(h, '/multi-exec', [['XADD', 's', '1-0', 'f', 'v'], ['XREADGROUP', 'GROUP', 'g', 'c', 'BLOCK', '0', 'STREAMS', 's', '>']]);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: "ERR Command is not available over the REST API: 'XREADGROUP' with BLOCK (only the non-blocking XREAD and XREADGROUP are supported)" });
    expect((await send(h, '', ['EXISTS', 's'])).body).toEqual({ result: 0 });
  });
});

describe('malformed requests', () => {
  const cases: [string, string, string][] = [
    ['/', 'not json', 'ERR failed to parse the request body as JSON'],
    ['/', '', 'ERR failed to parse the request body as JSON'],
    ['/', '{"cmd":"XLEN"}', 'ERR the request body must be a JSON array holding the command name and its arguments (strings, numbers or booleans)'],
    ['/', '"XLEN"', 'ERR the request body must be a JSON array holding the command name and its arguments (strings, numbers or booleans)'],
    ['/', '[]', 'ERR empty command'],
    ['/', '["XLEN", null]', 'ERR the request body must be a JSON array holding the command name and its arguments (strings, numbers or booleans)'],
    ['/', '["XLEN", {"a": 1}]', 'ERR the request body must be a JSON array holding the command name and its arguments (strings, numbers or booleans)'],
    ['/', '["XLEN", ["s"]]', 'ERR the request body must be a JSON array holding the command name and its arguments (strings, numbers or booleans)'],
    ['/pipeline', '{', 'ERR failed to parse the request body as JSON'],
    ['/pipeline', '[]', 'ERR empty pipeline: the request body holds no command'],
    ['/pipeline', '["XLEN", "s"]', 'ERR the request body must be a JSON array of commands, each an array holding the command name and its arguments (strings, numbers or booleans)'],
    ['/pipeline', '[["XLEN", "s"], []]', 'ERR empty command'],
    ['/multi-exec', '[["XLEN", "s"], [1, null]]', 'ERR the request body must be a JSON array of commands, each an array holding the command name and its arguments (strings, numbers or booleans)'],
  ];
  it.each(cases)('POST %s %s answers 400 with an ERR text', async (path, body, error) => {
    const r = await send(h, path === '/' ? '' : path, body);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error });
  });

  it('runs nothing of a malformed pipeline', async () => {
    await send(h, '/pipeline', [['XADD', 's', '1-0', 'f', 'v'], 'XLEN']);
    expect((await send(h, '', ['EXISTS', 's'])).body).toEqual({ result: 0 });
  });
});

describe('authentication', () => {
  it('answers 401 WRONGPASS when the token is missing or wrong', async () => {
    for (const token of [null, 'wrong']) {
      const r = await send(h, '', ['XLEN', 's'], { token });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: 'WRONGPASS invalid or missing auth token' });
    }
  });

  it('accepts the token as the _token query parameter', async () => {
    const res = await h(new Request(`${URL_}/xlen/s?_token=${TOKEN}`));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ result: 0 });
  });

  it('lets any token through when the handler has none', async () => {
    const open = createUpstashHandler({ url: URL_ });
    expect((await send(open, '', ['XLEN', 's'], { token: null })).status).toBe(200);
    open.close();
  });
});

describe('HTTP details', () => {
  it('sets a new upstash-sync-token on every response', async () => {
    const a = await send(h, '', ['XLEN', 's']);
    const b = await send(h, '/pipeline', [['XLEN', 's']]);
    expect(a.headers.get('upstash-sync-token')).toMatch(/\S/);
    expect(b.headers.get('upstash-sync-token')).not.toBe(a.headers.get('upstash-sync-token'));
  });

  it('answers 405 to methods other than HEAD, GET, POST and PUT', async () => {
    const res = await h(new Request(URL_, { method: 'DELETE', headers: { authorization: `Bearer ${TOKEN}` } }));
    expect(res.status).toBe(405);
  });

  it('serves commands in the path, with a POST body and query parameters as the last arguments', async () => {
    expect((await send(h, '/xadd/s/1-0/f/v', undefined, { method: 'GET' })).body).toEqual({ result: '1-0' });
    expect((await send(h, '/xadd/s/2-0/f', 'a value', { method: 'POST' })).body).toEqual({ result: '2-0' });
    expect((await send(h, '/xrange/s/-/+?COUNT=1', undefined, { method: 'GET' })).body).toEqual({ result: [['1-0', ['f', 'v']]] });
    expect((await send(h, '/xrevrange/s/%2B/-', undefined, { method: 'GET' })).body).toEqual({ result: [['2-0', ['f', 'a value']], ['1-0', ['f', 'v']]] });
  });

  it('answers 400 to a path command with broken percent-encoding', async () => {
    const r = await send(h, '/xlen/%zz', undefined, { method: 'GET' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'ERR invalid percent-encoding in the request URL' });
  });

  it('refuses Upstash-Response-Format: resp2, which the fake does not emulate', async () => {
    const res = await h(new Request(URL_, { method: 'POST', body: '["XLEN","s"]', headers: { authorization: `Bearer ${TOKEN}`, 'upstash-response-format': 'resp2' } }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/^\[ioredis-mock-streams\] .*resp2/);
  });

  it('is callable as fetch(url, init)', async () => {
    const res = await h(URL_, { method: 'POST', body: '["XLEN","s"]', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(await res.json()).toEqual({ result: 0 });
  });

  it('answers 500 after close() instead of rejecting', async () => {
    h.close();
    const r = await send(h, '', ['XLEN', 's']);
    expect(r.status).toBe(500);
    expect((r.body as { error: string }).error).toMatch(/^\[ioredis-mock-streams\]/);
  });
});

describe('what the REST API refuses', () => {
  it.each([['WATCH', 's'], ['MULTI'], ['EXEC'], ['SELECT', '1'], ['SUBSCRIBE', 'ch'], ['BLPOP', 'l', '0'], ['CLIENT', 'ID']])(
    '%s answers 400: the REST API does not serve it',
    async (...argv) => {
      const r = await send(h, '', argv);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: `ERR Command is not available over the REST API: '${argv[0]}'` });
    },
  );

  it('refuses XREAD and XREADGROUP with BLOCK, whatever the option order', async () => {
    for (const argv of [
      ['XREAD', 'COUNT', '1', 'BLOCK', '0', 'STREAMS', 's', '$'],
      ['xreadgroup', 'block', '5', 'GROUP', 'g', 'c', 'STREAMS', 's', '>'],
    ]) {
      const r = await send(h, '', argv);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: `ERR Command is not available over the REST API: '${argv[0]}' with BLOCK (only the non-blocking XREAD and XREADGROUP are supported)` });
    }
  });

  it('does not take a group or consumer named BLOCK for the option', async () => {
    await send(h, '', ['XGROUP', 'CREATE', 's', 'BLOCK', '$', 'MKSTREAM']);
    const r = await send(h, '', ['XREADGROUP', 'GROUP', 'BLOCK', 'BLOCK', 'STREAMS', 's', '>']);
    expect(r.body).toEqual({ result: null });
  });
});

describe('URLs and options', () => {
  it('serves only its base URL and the paths under it', async () => {
    const scoped = createUpstashHandler({ url: 'https://fake.upstash.io/db1/' });
    expect(scoped.url).toBe('https://fake.upstash.io/db1');
    expect(scoped.handles('https://fake.upstash.io/db1/pipeline')).toBe(true);
    expect(scoped.handles('https://fake.upstash.io/db10')).toBe(false);
    expect(scoped.handles('https://other.upstash.io/db1')).toBe(false);
    await expect(scoped(new Request('https://other.upstash.io/db1', { method: 'POST', body: '["PING"]' }))).rejects.toThrow(StreamsMockError);
    scoped.close();
  });

  it('sends other URLs to the fallback', async () => {
    const fallback = jest.fn(async () => new Response('elsewhere'));
    const withFallback = createUpstashHandler({ url: URL_, fallback });
    const res = await withFallback('https://example.com/x');
    expect(await res.text()).toBe('elsewhere');
    expect(fallback).toHaveBeenCalledWith('https://example.com/x', undefined);
    withFallback.close();
  });

  it('rejects bad options with a StreamsMockError that says the fix', () => {
    expect(() => createUpstashHandler({ url: 'fake.upstash.io' })).toThrow(/url must be an absolute http\(s\) URL/);
    expect(() => createUpstashHandler({ url: 'ftp://fake.upstash.io' })).toThrow(StreamsMockError);
    expect(() => createUpstashHandler({ url: URL_, redis: new Redis(), streams: {} })).toThrow(/either `redis`.*or `streams`/);
    expect(() => createUpstashHandler({ url: URL_, redis: {} as never })).toThrow(/must be a fake client of ioredis-mock-streams/);
    expect(() => createUpstashHandler({ url: URL_, streams: { redisVersion: '6.2' as never } })).toThrow(StreamsMockError);
  });

  it('keeps the keyspace of each handler to itself', async () => {
    const other = createUpstashHandler({ url: URL_, token: TOKEN });
    await send(h, '', ['XADD', 's', '1-0', 'f', 'v']);
    expect((await send(other, '', ['XLEN', 's'])).body).toEqual({ result: 0 });
    other.close();
  });

  it('emulates the Redis version and clock given in streams', async () => {
    const old = createUpstashHandler({ url: URL_, streams: { clock, redisVersion: '7.0' } });
    expect(old.keyspace.redisVersion).toBe('7.0');
    expect((await send(old, '', ['XADD', 's', '*', 'f', 'v'])).body).toEqual({ result: `${T0}-0` });
    expect((await send(old, '', ['XACKDEL', 's', 'g', 'IDS', '1', '1-0'])).body).toEqual({ error: "ERR unknown command 'XACKDEL', with args beginning with: 's' 'g' 'IDS' '1' '1-0' " });
    old.close();
  });

  it('shares the keyspace, clock and version of a fake ioredis client given as redis', async () => {
    const ioredis = new Redis({ port: 41_002, db: 3, streams: { clock, redisVersion: '8.2' } });
    const shared = createUpstashHandler({ url: URL_, redis: ioredis });
    expect(shared.keyspace.clock).toBe(clock);
    expect(shared.keyspace.redisVersion).toBe('8.2');
    await ioredis.xadd('s', '*', 'from', 'ioredis');
    expect((await send(shared, '', ['XRANGE', 's', '-', '+'])).body).toEqual({ result: [[`${T0}-0`, ['from', 'ioredis']]] });
    clock.tick(1);
    await send(shared, '', ['XADD', 's', '*', 'from', 'rest']);
    expect(await ioredis.xrange('s', '-', '+')).toEqual([[`${T0}-0`, ['from', 'ioredis']], [`${T0 + 1}-0`, ['from', 'rest']]]);
    shared.close();
    ioredis.disconnect();
  });
});

describe('called as fetch', () => {
  it('reads headers given as a Headers object and a Uint8Array body', async () => {
    const res = await h(`${URL_}/pipeline`, {
      method: 'POST',
      headers: new Headers({ Authorization: `Bearer ${TOKEN}`, 'Upstash-Encoding': 'base64' }),
      body: new TextEncoder().encode('[["XADD","s","1-0","f","v"],["XLEN","s"]]'),
    });
    expect(await res.json()).toEqual([{ result: b64('1-0') }, { result: 1 }]);
  });

  it('reads header names of a plain object case-insensitively', async () => {
    const res = await h(URL_, { method: 'post', headers: { AUTHORIZATION: `Bearer ${TOKEN}`, 'UPSTASH-ENCODING': 'base64' }, body: '["XADD","s","1-0","f","v"]' });
    expect(await res.json()).toEqual({ result: b64('1-0') });
  });
});
