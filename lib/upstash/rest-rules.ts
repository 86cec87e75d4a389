/**
 * What the Upstash REST API refuses before a command reaches Redis, and the texts it answers.
 *
 * Sources (checked): Upstash docs, "REST API" (redis/features/restapi): "REST - Redis API
 * Compatibility" — Streams "Supported, except blocking versions of XREAD and XREADGROUP";
 * List/SortedSet blocking commands not supported; Transactions "WATCH/UNWATCH/DISCARD are not
 * supported" (transactions are the `/multi-exec` endpoint); Pub/Sub "Only PUBLISH and PUBSUB";
 * Connection "Only PING and ECHO". "HTTP Codes": 400 for a syntax error, an invalid/unsupported
 * command or a failed command, 401 for a missing or invalid token, 405 for a method other than
 * HEAD, GET, POST and PUT. Upstash docs, troubleshooting "http_unauthorized": the 401 text
 * `WRONGPASS invalid or missing auth token`.
 *
 * Not documented, so chosen here (a recording against a real Upstash database would settle
 * them): the texts for malformed request bodies, for commands the REST API does not serve and
 * for BLOCK. The unsupported-command text starts like the one a real database gave for an
 * unknown command in 2022 (`ERR Command is not available…`, asserted by the upstashdis Go
 * client's tests against Upstash); unknown commands themselves get Redis's own
 * unknown-command error from the engine.
 */

/** 401 body text (Upstash troubleshooting docs, "WRONGPASS invalid or missing auth token"). */
export const ERR_UNAUTHORIZED = 'WRONGPASS invalid or missing auth token';

// Malformed bodies (400). Texts are ours; the statuses are Upstash's documented 400.
export const ERR_BODY_NOT_JSON = 'ERR failed to parse the request body as JSON';
export const ERR_BODY_NOT_COMMAND =
  'ERR the request body must be a JSON array holding the command name and its arguments (strings, numbers or booleans)';
export const ERR_BODY_EMPTY_COMMAND = 'ERR empty command';
export const ERR_BODY_NOT_PIPELINE =
  'ERR the request body must be a JSON array of commands, each an array holding the command name and its arguments (strings, numbers or booleans)';
export const ERR_BODY_EMPTY_PIPELINE = 'ERR empty pipeline: the request body holds no command';
export const ERR_PATH_ENCODING = 'ERR invalid percent-encoding in the request URL';

/** A command the REST API does not serve (400). */
export function errNotAvailable(name: string): string {
  return `ERR Command is not available over the REST API: '${name}'`;
}

/** XREAD/XREADGROUP with BLOCK (400): Upstash serves only their non-blocking forms. */
export function errBlockNotAvailable(name: string): string {
  return `ERR Command is not available over the REST API: '${name}' with BLOCK (only the non-blocking XREAD and XREADGROUP are supported)`;
}

/**
 * Commands the REST API refuses (lower-case): connection state other than PING/ECHO,
 * transaction commands outside `/multi-exec`, subscriptions (served as server-sent events on
 * `/subscribe/…` and `/psubscribe/…` instead: ./handler.ts) and every blocking
 * list/sorted-set command.
 */
export const NOT_OVER_REST: ReadonlySet<string> = new Set([
  // Connection (only PING and ECHO are supported)
  'auth', 'client', 'hello', 'quit', 'reset', 'select',
  // Transactions: the /multi-exec endpoint instead
  'multi', 'exec', 'discard', 'watch', 'unwatch',
  // Pub/Sub (only PUBLISH and PUBSUB)
  'subscribe', 'psubscribe', 'ssubscribe', 'unsubscribe', 'punsubscribe', 'sunsubscribe', 'monitor',
  // Server control of a managed database
  'shutdown',
  // Blocking list and sorted-set commands
  'blpop', 'brpop', 'brpoplpush', 'blmove', 'blmpop', 'bzpopmin', 'bzpopmax', 'bzmpop',
]);

/**
 * True when an XREAD/XREADGROUP argv carries the BLOCK option. Options are walked as Redis
 * walks them (t_stream.c xreadCommand) up to STREAMS, so a group or consumer named "BLOCK"
 * is not taken for the option.
 */
export function hasBlockOption(argv: readonly string[]): boolean {
  for (let i = 1; i < argv.length; i++) {
    const opt = argv[i].toUpperCase();
    if (opt === 'BLOCK') return true;
    if (opt === 'STREAMS') return false;
    if (opt === 'GROUP') i += 2;
    else if (opt === 'COUNT' || opt === 'CLAIM' || opt === 'MAXCOUNT' || opt === 'MAXSIZE') i += 1;
    else if (opt !== 'NOACK') return false; // a syntax error: the command reports it
  }
  return false;
}

/** The REST API's refusal of a command (its error text), or null when it is served. */
export function restRefusal(argv: readonly string[]): string | null {
  const name = argv[0].toLowerCase();
  if (NOT_OVER_REST.has(name)) return errNotAvailable(argv[0]);
  if ((name === 'xread' || name === 'xreadgroup') && hasBlockOption(argv)) return errBlockNotAvailable(argv[0]);
  return null;
}
