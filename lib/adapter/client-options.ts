/**
 * Constructor arguments as ioredis reads them (Redis.parseOptions): any mix of a port number,
 * a URL or path string and option objects, the first value given for an option winning.
 * URLs follow ioredis's `parseURL`: `redis://user:pass@host:port/db`, `rediss://` (TLS),
 * query options (`?db=3`), a bare port. The result is one options object, which ioredis-mock's
 * constructor takes as is (it only reads host and port from a URL itself).
 */

type Options = Record<string, unknown>;

type ParseURL = (url: string) => Options;
let parseURL: ParseURL | undefined;
function ioredisParseURL(): ParseURL {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  parseURL ??= (require('ioredis/built/utils') as { parseURL: ParseURL }).parseURL;
  return parseURL;
}

function defaults(target: Options, source: Options): void {
  for (const key of Object.keys(source)) if (target[key] === undefined) target[key] = source[key];
}

let defaultOptions: Options | null | undefined;
/**
 * The installed ioredis's `Redis.defaultOptions` (redis/RedisOptions DEFAULT_REDIS_OPTIONS: 5.x
 * and 6.x differ, e.g. `protocol: 3` on 6); null when no ioredis is installed.
 */
export function ioredisDefaultOptions(): Options | null {
  if (defaultOptions === undefined) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      defaultOptions = (require('ioredis/built/redis/RedisOptions') as { DEFAULT_REDIS_OPTIONS?: Options }).DEFAULT_REDIS_OPTIONS ?? null;
    } catch {
      defaultOptions = null;
    }
  }
  return defaultOptions;
}

/**
 * ioredis's option parsing of `new Redis(...args)`, its default options filled in as ioredis
 * fills them (`client.options.maxRetriesPerRequest` is 20, `protocol` 3 on ioredis 6, …, as
 * libraries that read a client's options find them on a real client).
 */
export function normalizeClientArgs(args: unknown[]): Options {
  const options: Options = {};
  let tls = false;
  for (const arg of args) {
    if (arg === null || arg === undefined) continue;
    if (typeof arg === 'object') defaults(options, arg as Options);
    else if (typeof arg === 'string') {
      defaults(options, ioredisParseURL()(arg));
      if (arg.startsWith('rediss://')) tls = true;
    } else if (typeof arg === 'number') options.port = arg;
    else throw new Error(`Invalid argument ${String(arg)}`);
  }
  if (tls) defaults(options, { tls: true });
  const fallback = ioredisDefaultOptions();
  if (fallback !== null) defaults(options, fallback);
  if (typeof options.port === 'string') options.port = parseInt(options.port, 10);
  if (typeof options.db === 'string') options.db = parseInt(options.db, 10);
  return options;
}
