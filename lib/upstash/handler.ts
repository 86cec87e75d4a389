/**
 * The Upstash REST API as a plain fetch-API handler: `(request) => Promise<Response>`, a thin
 * translator around the engine (STYLE 16). It parses the HTTP request into argv, runs it on one
 * engine connection of the keyspace it serves, and encodes the typed reply as Upstash does
 * (./encode.ts). No msw here: the handler works with any interceptor, or as `fetch` itself.
 *
 * Endpoints (Upstash docs, "REST API"):
 * - `POST /` — one command, the body a JSON array `["XADD", "s", "*", "f", "v"]`;
 *   `{"result": …}` (200) or `{"error": "…"}` (400);
 * - `POST /pipeline` — an array of commands, run in order; an array of `{result}`/`{error}`
 *   (200), each command succeeding or failing on its own;
 * - `POST /multi-exec` — the same body, run as MULTI/EXEC: atomically, on one time snapshot;
 *   the array of outcomes (200), or one `{error}` (400) when the transaction is discarded
 *   (a command the REST API refuses, or a queue-time error such as an unknown command or a
 *   wrong number of arguments: Redis's `EXECABORT …` text);
 * - `GET|POST|PUT /cmd/arg1/arg2…` — a command in the path (URL-decoded segments), a POST
 *   body appended as the last argument, query parameters (`?EX=100`) after it;
 * - `POST /subscribe/ch1/ch2…`, `POST /psubscribe/pattern…` — a server-sent event stream
 *   (`text/event-stream`) of a connection of its own subscribed to them, as @upstash/redis's
 *   `redis.subscribe()` / `psubscribe()` (Subscriber) reads it: one `data: <kind>,<a>,<b>[,<c>]`
 *   line per push (`subscribe,ch,1`, `message,ch,<text>`, `pmessage,pattern,ch,<text>`), UTF-8
 *   text; the subscription ends when the client aborts the request or the handler is closed.
 * Headers: `Authorization: Bearer <token>` (or `?_token=`), checked when the handler has a
 * `token`: 401 `{"error":"WRONGPASS invalid or missing auth token"}` otherwise;
 * `Upstash-Encoding: base64` (base64 strings in results); every response carries an
 * `upstash-sync-token` header (read-your-writes: the client echoes it; one copy of the data
 * here, so any token is up to date). Other methods than HEAD/GET/POST/PUT get 405.
 *
 * Command arguments travel as JSON strings, numbers and booleans (numbers and booleans as
 * their JSON text: `100`, `true`); anything else (null, objects, nested arrays), an empty
 * command or a body that is not JSON is a malformed request: 400 with an `ERR …` text. A
 * handled request never rejects (a rejection would make @upstash/redis retry with real-time
 * backoff); only a request for another URL does, when no `fallback` is given.
 */
import type IORedis from 'ioredis';
import { StreamsMockError } from '../clock/clock';
import { parseStreamsOptions } from '../adapter/options';
import { streamsKeyspace, type StreamsKeyspace } from '../index';
import type { KeyspaceOptions } from '../keyspace/keyspace';
import { ErrorReply, PushReply, type Reply } from '../reply/reply';
import { utf8Of } from '../bytes/index';
import { errorBody, resultBody } from './encode';
import {
  ERR_BODY_EMPTY_COMMAND,
  ERR_BODY_EMPTY_PIPELINE,
  ERR_BODY_NOT_COMMAND,
  ERR_BODY_NOT_JSON,
  ERR_BODY_NOT_PIPELINE,
  ERR_PATH_ENCODING,
  ERR_UNAUTHORIZED,
  restRefusal,
} from './rest-rules';
import { type Connection, createConnection } from '../engine';
import { keyspaceView } from '../keyspace/view';

/** A `fetch`-like function, for `fallback`. */
export type FetchLike = (input: Request | string | URL, init?: RequestInit) => Promise<Response>;

export interface UpstashHandlerOptions {
  /**
   * The REST URL the handler answers for, as given to `new Redis({ url })` of @upstash/redis
   * (`UPSTASH_REDIS_REST_URL`). Requests to any path under it are served.
   * @example 'https://fake.upstash.io'
   */
  url: string;
  /**
   * The REST token (`UPSTASH_REDIS_REST_TOKEN`). When given, a request without it (as
   * `Authorization: Bearer <token>` or `?_token=`) gets 401. When absent, any token passes.
   */
  token?: string;
  /**
   * A fake ioredis client (`new Redis()` of this package) whose keyspace to serve: same data,
   * clock and emulated version as it and every other client of its host:port/db. Its
   * `keyPrefix` does not apply to REST requests. Not together with `streams`.
   */
  redis?: IORedis;
  /**
   * Options of a keyspace of the handler's own (as the `streams` client option): its clock and
   * emulated Redis version. Ignored keys are an error. Not together with `redis`.
   * @default the global clock and Redis 8.10
   */
  streams?: KeyspaceOptions;
  /**
   * Called for requests to other URLs (e.g. the original `fetch`, when the handler replaces
   * `globalThis.fetch`). Without it such requests reject with a StreamsMockError.
   */
  fallback?: FetchLike;
}

/** A fetch-API handler serving the Upstash REST API on a fake keyspace. */
export interface UpstashHandler extends FetchLike {
  /** The base URL served (no trailing slash). */
  readonly url: string;
  /** True when the handler serves this URL (the base URL or a path under it). */
  handles(url: string | URL): boolean;
  /** The keyspace served: clock, emulated version, `reset()`. */
  readonly keyspace: StreamsKeyspace;
  /** Release the handler's connection; later requests answer 500. Idempotent. */
  close(): void;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT']);
/** The options `createUpstashHandler` takes (UpstashHandlerOptions). */
const HANDLER_OPTIONS = ['url', 'token', 'redis', 'streams', 'fallback'];
const ASCII = /^[\x00-\x7f]*$/;

/** Own keyspaces get a port of their own on this host, as ioredis-mock keys its data by host:port/db. */
const OWN_HOST = 'upstash-rest';
let nextOwnPort = 1;

/** A JS string as the byte string of its UTF-8 encoding (one char per byte). */
function utf8Bytes(s: string): string {
  return ASCII.test(s) ? s : Buffer.from(s, 'utf8').toString('latin1');
}

/** One command from parsed JSON, or the error text for a malformed one. */
function toArgv(v: unknown): string[] | { error: string } {
  if (!Array.isArray(v)) return { error: ERR_BODY_NOT_COMMAND };
  if (v.length === 0) return { error: ERR_BODY_EMPTY_COMMAND };
  const argv: string[] = [];
  for (const a of v) {
    if (typeof a === 'string') argv.push(utf8Bytes(a));
    else if (typeof a === 'number' || typeof a === 'boolean') argv.push(String(a));
    else return { error: ERR_BODY_NOT_COMMAND };
  }
  return argv;
}

/** The commands of a pipeline/multi-exec body, or the error text for a malformed one. */
function toCommands(v: unknown): string[][] | { error: string } {
  if (!Array.isArray(v)) return { error: ERR_BODY_NOT_PIPELINE };
  if (v.length === 0) return { error: ERR_BODY_EMPTY_PIPELINE };
  const out: string[][] = [];
  for (const c of v) {
    if (!Array.isArray(c)) return { error: ERR_BODY_NOT_PIPELINE };
    const argv = toArgv(c);
    if (!Array.isArray(argv)) return argv.error === ERR_BODY_EMPTY_COMMAND ? argv : { error: ERR_BODY_NOT_PIPELINE };
    out.push(argv);
  }
  return out;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** `?a=1&NX` after a path command: `a`, `1`, `NX` (the `_token` parameter is not an argument). */
function queryArgs(search: string): string[] {
  if (search.length <= 1) return [];
  const out: string[] = [];
  for (const part of search.slice(1).split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = decodeURIComponent(eq === -1 ? part : part.slice(0, eq));
    if (key === '_token') continue;
    out.push(utf8Bytes(key));
    if (eq !== -1) out.push(utf8Bytes(decodeURIComponent(part.slice(eq + 1))));
  }
  return out;
}

function bearerToken(request: RestRequest): string | null {
  const header = request.header('authorization');
  if (header !== null) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return m ? m[1] : null;
  }
  return request.url.searchParams.get('_token');
}

/** What the handler reads of a request. */
interface RestRequest {
  readonly url: URL;
  /** Upper-case method. */
  readonly method: string;
  header(name: string): string | null;
  body(): Promise<Buffer>;
  /** The request's abort signal (a subscription stream ends with it). */
  readonly signal?: AbortSignal | null;
  /**
   * The Request the signal belongs to, held while a subscription stream lasts: a Request made
   * with `new Request(input, init)` (as msw makes it) follows the caller's signal only while it
   * is alive (undici keeps a weak reference), so a collected copy would never see the abort.
   */
  readonly owner?: Request;
}

function fromRequest(request: Request): RestRequest {
  return {
    url: new URL(request.url),
    method: request.method.toUpperCase(),
    header: (name) => request.headers.get(name),
    body: async () => Buffer.from(await request.arrayBuffer()),
    signal: request.signal,
    owner: request,
  };
}

/**
 * The request of a `fetch(input, init)` call. When called as fetch with a URL and a plain
 * body (what @upstash/redis does), the request is read from `init` directly: Node 20's
 * `new Request()` plus reading its body costs about 0.3 ms, several times the command itself.
 */
function toRestRequest(input: Request | string | URL, init?: RequestInit): RestRequest {
  if (input instanceof Request) return fromRequest(init === undefined ? input : new Request(input, init));
  const body = init?.body;
  const plainBody = body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;
  const rawHeaders = init?.headers;
  if (!plainBody || rawHeaders instanceof Headers || Array.isArray(rawHeaders)) return fromRequest(new Request(input, init));
  const headers = new Map<string, string>();
  for (const [k, v] of Object.entries((rawHeaders ?? {}) as Record<string, string>)) headers.set(k.toLowerCase(), String(v));
  const bytes = body === undefined || body === null ? Buffer.alloc(0) : typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
  return {
    url: new URL(String(input)),
    method: (init?.method ?? 'GET').toUpperCase(),
    header: (name) => headers.get(name) ?? null,
    body: async () => bytes,
    signal: init?.signal,
  };
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * Create a fetch-API handler that serves the Upstash REST API on a fake keyspace.
 * @param options `url` (required), `token`, and the keyspace: `redis` (a fake client whose
 *   keyspace to share) or `streams` (a keyspace of its own)
 * @returns the handler: `(request) => Promise<Response>`, also callable as `fetch(input, init)`
 * @throws StreamsMockError for an unknown option, a missing or non-http(s) `url`, a `token` that
 *   is no string, a `fallback` that is no function, both `redis` and `streams`, a `redis` that is
 *   not a fake client of this package, or invalid `streams`
 * @example
 * const upstash = createUpstashHandler({ url: 'https://fake.upstash.io', token: 't' });
 * const res = await upstash(new Request('https://fake.upstash.io', { method: 'POST', body: '["XLEN","s"]' }));
 */
export function createUpstashHandler(options: UpstashHandlerOptions): UpstashHandler {
  if (!options || typeof options !== 'object') throw new StreamsMockError('createUpstashHandler needs options: { url, token?, redis? | streams? }');
  // a misspelt option would pass unnoticed: `tokn` would leave the handler taking any token
  const unknown = Object.keys(options).filter((k) => !HANDLER_OPTIONS.includes(k));
  if (unknown.length > 0) {
    throw new StreamsMockError(`createUpstashHandler: unknown option ${JSON.stringify(unknown[0])}; it takes ${HANDLER_OPTIONS.join(', ')}`);
  }
  if (options.fallback !== undefined && options.fallback !== null && typeof options.fallback !== 'function') {
    throw new StreamsMockError('createUpstashHandler: fallback must be a function such as the original fetch');
  }
  let base: URL;
  try {
    base = new URL(String(options.url));
  } catch {
    throw new StreamsMockError(`createUpstashHandler: url must be an absolute http(s) URL such as 'https://fake.upstash.io', got ${JSON.stringify(options.url)}`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new StreamsMockError(`createUpstashHandler: url must be http(s), got ${JSON.stringify(options.url)}`);
  }
  if (options.token !== undefined && typeof options.token !== 'string') {
    throw new StreamsMockError('createUpstashHandler: token must be a string');
  }
  if (options.redis !== undefined && options.streams !== undefined) {
    throw new StreamsMockError('createUpstashHandler: give either `redis` (share a fake client\'s keyspace) or `streams` (a keyspace of its own), not both');
  }
  const basePath = base.pathname.replace(/\/+$/, '');
  const baseUrl = base.origin + basePath;

  let conn: Connection;
  /** Where `conn` connects: subscription streams get connections of their own there. */
  let target: { host?: string; port?: number; db?: number };
  if (options.redis !== undefined) {
    try {
      streamsKeyspace(options.redis); // throws for anything but a fake client of this package
    } catch {
      throw new StreamsMockError('createUpstashHandler: `redis` must be a fake client of ioredis-mock-streams (its `Redis` class, or ioredis mocked by it)');
    }
    const o = (options.redis as unknown as { options: { host?: string; port?: number; db?: number } }).options ?? {};
    target = { host: o.host, port: o.port, db: o.db };
    conn = createConnection({ ...target, httpFront: true });
  } else {
    const streams = parseStreamsOptions(options.streams);
    target = { host: OWN_HOST, port: nextOwnPort++, db: 0 };
    conn = createConnection({ ...target, streams, httpFront: true });
  }
  /** The open subscription streams (closed with the handler). */
  const subscriptions = new Set<() => void>();
  const keyspace = keyspaceView(conn.keyspace);
  const token = options.token;
  const fallback = options.fallback;
  let syncToken = 0;

  const handles = (url: string | URL): boolean => {
    let u: URL;
    try {
      u = typeof url === 'string' ? new URL(url) : url;
    } catch {
      return false;
    }
    if (u.origin !== base.origin) return false;
    return basePath === '' || u.pathname === basePath || u.pathname.startsWith(`${basePath}/`);
  };

  async function serve(request: RestRequest): Promise<Response> {
    const { url, method } = request;
    const headers = {
      'content-type': 'application/json',
      'upstash-sync-token': String(++syncToken),
    };
    const reply = (status: number, body: string | null) => new Response(method === 'HEAD' ? null : body, { status, headers });
    if (!METHODS.has(method)) return reply(405, null);
    if (token !== undefined && bearerToken(request) !== token) return reply(401, errorBody(ERR_UNAUTHORIZED));
    if (conn.closed) return reply(500, errorBody('[ioredis-mock-streams] this Upstash handler was closed'));
    const format = request.header('upstash-response-format');
    if (format !== null && format.toLowerCase() !== 'json') {
      return reply(400, errorBody(format.toLowerCase() === 'resp2'
        ? '[ioredis-mock-streams] Upstash-Response-Format: resp2 is not emulated; use the JSON format'
        : 'ERR invalid Upstash-Response-Format: only json and resp2 are allowed'));
    }
    const base64 = (request.header('upstash-encoding') ?? '').trim().toLowerCase() === 'base64';
    const rest = url.pathname.slice(basePath.length);

    if (rest === '' || rest === '/') {
      const parsed = parseJson((await request.body()).toString('utf8'));
      if (!parsed.ok) return reply(400, errorBody(ERR_BODY_NOT_JSON));
      const argv = toArgv(parsed.value);
      if (!Array.isArray(argv)) return reply(400, errorBody(argv.error));
      return runSingle(argv, base64, reply);
    }
    if (rest === '/pipeline' || rest === '/multi-exec') {
      const parsed = parseJson((await request.body()).toString('utf8'));
      if (!parsed.ok) return reply(400, errorBody(ERR_BODY_NOT_JSON));
      const commands = toCommands(parsed.value);
      if (!Array.isArray(commands)) return reply(400, errorBody(commands.error));
      return rest === '/pipeline' ? runPipeline(commands, base64, reply) : runTransaction(commands, base64, reply);
    }
    const stream = /^\/(p?subscribe)\/(.+)$/i.exec(rest);
    if (stream !== null) {
      let names: string[];
      try {
        names = stream[2].split('/').map((seg) => utf8Bytes(decodeURIComponent(seg)));
      } catch {
        return reply(400, errorBody(ERR_PATH_ENCODING));
      }
      return subscriptionStream(stream[1].toUpperCase(), names, request, headers);
    }
    // A command in the path: /xlen/s, /set/k?EX=100, POST /set/k with the value as the body.
    let argv: string[];
    let query: string[];
    try {
      argv = rest.slice(1).split('/').map((seg) => utf8Bytes(decodeURIComponent(seg)));
      query = queryArgs(url.search);
    } catch {
      return reply(400, errorBody(ERR_PATH_ENCODING));
    }
    if (method === 'POST' || method === 'PUT') {
      const body = await request.body();
      if (body.length > 0) argv.push(body.toString('latin1'));
    }
    for (const arg of query) argv.push(arg); // element by element: no call-argument limit
    if (argv[0] === '') return reply(400, errorBody(ERR_BODY_EMPTY_COMMAND));
    return runSingle(argv, base64, reply);
  }

  type Respond = (status: number, body: string | null) => Response;

  /**
   * `/subscribe/…` and `/psubscribe/…`: a connection of its own runs SUBSCRIBE / PSUBSCRIBE and
   * each push it gets becomes one server-sent event. Ends (UNSUBSCRIBE, connection closed) when
   * the client aborts the request, cancels the body, or the handler is closed.
   */
  function subscriptionStream(command: string, names: string[], request: RestRequest, headers: Record<string, string>): Response {
    const signal = request.signal ?? undefined;
    const sub = createConnection({ ...target, httpFront: true });
    const encoder = new TextEncoder();
    let end = (): void => undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        let open = true;
        const off = sub.onPush((msg) => {
          if (!open || !(msg instanceof PushReply)) return;
          const fields = msg.items.map((item) => (typeof item === 'string' ? utf8Of(item) : String(item)));
          controller.enqueue(encoder.encode(`data: ${fields.join(',')}\n\n`));
        });
        // `request` stays referenced (through `end`, in `subscriptions`) until the stream ends
        end = () => {
          if (!open) return;
          open = false;
          void request.owner;
          off();
          sub.close();
          subscriptions.delete(end);
          signal?.removeEventListener('abort', end);
          try {
            controller.close();
          } catch {
            // already closed or errored by the reader
          }
        };
        subscriptions.add(end);
        if (signal?.aborted) return end();
        signal?.addEventListener('abort', end, { once: true });
        sub.execute([command, ...names]).catch((e: unknown) => {
          if (!open) return;
          controller.enqueue(encoder.encode(`data: error,${errorMessage(e)}\n\n`));
          end();
        });
      },
      cancel() {
        end();
      },
    });
    return new Response(body, { status: 200, headers: { ...headers, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } });
  }

  async function runSingle(argv: string[], base64: boolean, reply: Respond): Promise<Response> {
    const refusal = restRefusal(argv);
    if (refusal !== null) return reply(400, errorBody(refusal));
    try {
      return reply(200, resultBody(await conn.execute(argv), base64));
    } catch (e) {
      // Every error a command ends with is the 400 {error} Upstash gives for a failed command,
      // the library's own (`[ioredis-mock-streams] … is not emulated`) included.
      return reply(400, errorBody(errorMessage(e)));
    }
  }

  async function runPipeline(commands: string[][], base64: boolean, reply: Respond): Promise<Response> {
    // Submitted in one synchronous loop: they run in order, one after another.
    const outcomes = commands.map((argv) => {
      const refusal = restRefusal(argv);
      return refusal !== null ? Promise.resolve(errorBody(refusal)) : conn.execute(argv).then((r) => resultBody(r, base64), outcomeOfError);
    });
    try {
      return reply(200, `[${(await Promise.all(outcomes)).join(',')}]`);
    } catch (e) {
      return internalError(e, reply);
    }
  }

  async function runTransaction(commands: string[][], base64: boolean, reply: Respond): Promise<Response> {
    for (const argv of commands) {
      const refusal = restRefusal(argv);
      if (refusal !== null) return reply(400, errorBody(refusal));
    }
    // MULTI, the commands and EXEC submitted in one synchronous block: no other request's
    // commands can land inside the transaction.
    const queued = [conn.execute(['MULTI']), ...commands.map((argv) => conn.execute(argv))];
    const exec = conn.execute(['EXEC']);
    for (const q of queued) q.catch(() => undefined); // queue-time errors surface as EXECABORT at EXEC
    let replies: Reply;
    try {
      replies = await exec;
    } catch (e) {
      return reply(400, errorBody(errorMessage(e)));
    }
    if (!Array.isArray(replies)) return internalError(new Error(`EXEC answered ${String(replies)}`), reply);
    const entries = replies.map((r) => (r instanceof ErrorReply ? errorBody(r.message) : resultBody(r, base64)));
    return reply(200, `[${entries.join(',')}]`);
  }

  function outcomeOfError(e: unknown): string {
    return errorBody(errorMessage(e));
  }

  function internalError(e: unknown, reply: Respond): Response {
    return reply(500, errorBody(`[ioredis-mock-streams] internal error in the Upstash handler: ${errorMessage(e)}`));
  }

  const handler = ((input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    let request: RestRequest;
    try {
      request = toRestRequest(input, init);
    } catch (e) {
      return Promise.reject(e);
    }
    if (!handles(request.url)) {
      if (fallback) return fallback(input, init);
      return Promise.reject(new StreamsMockError(`the Upstash handler serves ${baseUrl}, not ${request.url.href}; pass { fallback: fetch } to send other requests on`));
    }
    return serve(request).catch((e) => internalError(e, (status, body) => new Response(body, { status, headers: { 'content-type': 'application/json' } })));
  }) as UpstashHandler;

  Object.defineProperties(handler, {
    url: { value: baseUrl, enumerable: true },
    keyspace: { value: keyspace, enumerable: true },
    handles: { value: handles },
    close: {
      value: () => {
        for (const end of [...subscriptions]) end();
        conn.close();
      },
    },
  });
  return handler;
}
