/**
 * TEMPORARY — a minimal stand-in for `createConnection` of lib/engine (ENGINE-API.md), used by
 * the Upstash REST handler until the engine branch lands on main. Replace every import of this
 * file with `../engine` and delete it then; nothing else in lib/upstash depends on how it works.
 *
 * It runs commands through a hidden client of the package's fake ioredis class on the same
 * host:port/db (so: same keyspace, clock, emulated version and blocking machinery as the
 * user's fake clients) and turns ioredis-style replies back into typed replies
 * (lib/reply/reply.ts). Known gaps, all gone with the engine:
 * - status replies are recognised by their text (`OK`, `QUEUED`, `PONG`) at the top level
 *   only; a bulk string holding exactly that text is taken for a status (the REST encoder
 *   then sends a top-level bulk "OK" unencoded — the client decodes both forms the same);
 * - replies of ioredis-mock's own commands keep the shape ioredis-mock gives them (objects
 *   are flattened back to RESP2 key/value arrays);
 * - MULTI … EXEC is collected here and run as one ioredis `multi()` (atomic, one time
 *   snapshot, EXECABORT on queue-time errors), so queue-time errors surface at EXEC.
 */
import type IORedis from 'ioredis';
import Redis, { streamsKeyspace, type StreamsKeyspace } from '../index';
import type { KeyspaceOptions } from '../keyspace/keyspace';
import { CommandError } from '../errors';
import { ErrorReply, type Reply, SimpleString } from '../reply/reply';

/** The subset of ENGINE-API.md `ConnectionOptions` this stand-in honours. */
export interface TempConnectionOptions {
  host?: string;
  port?: number;
  db?: number;
  streams?: KeyspaceOptions;
  /** The fake client class to attach with (default: the package's `Redis`). */
  RedisClass?: new (options: object) => IORedis;
}

/** The subset of ENGINE-API.md `Connection` the REST handler uses. */
export interface TempConnection {
  execute(argv: string[]): Promise<Reply>;
  close(): void;
  readonly closed: boolean;
  /** The hidden client. */
  readonly client: IORedis;
}

/** The keyspace a connection runs on, as the public `StreamsKeyspace` view. */
export function keyspaceOfConnection(conn: TempConnection): StreamsKeyspace {
  return streamsKeyspace(conn.client);
}

const STATUS = new Set(['OK', 'QUEUED', 'PONG']);
const ASCII = /^[\x00-\x7f]*$/;

/** A byte string as an ioredis argument: ASCII as is, anything else as its bytes. */
function toArg(s: string): string | Buffer {
  return ASCII.test(s) ? s : Buffer.from(s, 'latin1');
}

/** A JS (UTF-16) string as the byte string of its UTF-8 encoding. */
function utf8Bytes(s: string): string {
  return ASCII.test(s) ? s : Buffer.from(s, 'utf8').toString('latin1');
}

function toReply(v: unknown, top: boolean): Reply {
  if (v === null || v === undefined) return null;
  if (Buffer.isBuffer(v) || typeof v === 'string') {
    const s = Buffer.isBuffer(v) ? v.toString('latin1') : utf8Bytes(v);
    return top && STATUS.has(s) ? new SimpleString(s) : s;
  }
  if (typeof v === 'number' || typeof v === 'bigint') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (Array.isArray(v)) return v.map((x) => toReply(x, false));
  if (v instanceof Error) return new ErrorReply(utf8Bytes(v.message));
  if (v instanceof Map) return [...v].flatMap(([k, x]) => [toReply(k, false), toReply(x, false)]);
  if (v instanceof Set) return [...v].map((x) => toReply(x, false));
  if (typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => [utf8Bytes(k), toReply(x, false)]);
  return utf8Bytes(String(v));
}

function toCommandError(e: unknown): CommandError {
  return new CommandError(utf8Bytes(e instanceof Error ? e.message : String(e)));
}

/** TEMPORARY stand-in for lib/engine `createConnection` (see the file header). */
export function createConnection(options: TempConnectionOptions = {}): TempConnection {
  const { RedisClass, ...rest } = options;
  const Ctor = (RedisClass ?? (Redis as unknown as new (o: object) => IORedis));
  const client = new Ctor({ host: rest.host ?? 'localhost', port: rest.port ?? 6379, db: rest.db ?? 0, ...(rest.streams ? { streams: rest.streams } : {}) });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const anyClient = client as any;
  let queued: string[][] | null = null;
  let closed = false;

  const runOne = (argv: string[]): Promise<Reply> =>
    (anyClient.callBuffer(argv[0], ...argv.slice(1).map(toArg)) as Promise<unknown>).then(
      (r) => toReply(r, true),
      (e) => Promise.reject(toCommandError(e)),
    );

  const exec = (cmds: string[][]): Promise<Reply> => {
    const m = anyClient.multi();
    for (const argv of cmds) m.callBuffer(argv[0], ...argv.slice(1).map(toArg));
    return (m.exec() as Promise<[Error | null, unknown][]>).then(
      (pairs) => pairs.map(([err, r]) => (err ? new ErrorReply(utf8Bytes(err.message)) : toReply(r, true))),
      (e) => Promise.reject(toCommandError(e)),
    );
  };

  return {
    client,
    get closed() {
      return closed;
    },
    execute(argv: string[]): Promise<Reply> {
      if (closed) return Promise.reject(new CommandError('Connection is closed.'));
      const name = (argv[0] ?? '').toLowerCase();
      if (name === 'multi') {
        if (queued) return Promise.reject(new CommandError('ERR MULTI calls can not be nested'));
        queued = [];
        return Promise.resolve(new SimpleString('OK'));
      }
      if (name === 'exec') {
        if (!queued) return Promise.reject(new CommandError('ERR EXEC without MULTI'));
        const cmds = queued;
        queued = null;
        return exec(cmds);
      }
      if (name === 'discard') {
        if (!queued) return Promise.reject(new CommandError('ERR DISCARD without MULTI'));
        queued = null;
        return Promise.resolve(new SimpleString('OK'));
      }
      if (queued) {
        queued.push(argv);
        return Promise.resolve(new SimpleString('QUEUED'));
      }
      try {
        return runOne(argv);
      } catch (e) {
        return Promise.reject(toCommandError(e));
      }
    },
    close(): void {
      if (closed) return;
      closed = true;
      client.disconnect();
    },
  };
}
