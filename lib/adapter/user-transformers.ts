/**
 * ioredis's global transformers as the user set them: `Command.setArgumentTransformer(name, fn)`
 * and `Command.setReplyTransformer(name, fn)` on the project's ioredis (`Redis.Command` of the
 * fake is that class). Real ioredis looks both up in `Command._transformer` by the command name
 * as its Command holds it (methods, `…Buffer` methods and pipeline/multi methods: the lowercase
 * name; `call()`/`callBuffer()`: the name as written, so `call('GET')` skips `get`'s), the
 * argument one after flattening and before the key prefix, the reply one after the reply
 * encoding (Buffers for `…Buffer` and `callBuffer`), with `(reply, { commandName, protocol,
 * replyMapping })` on ioredis 6 and `(reply)` on ioredis 5; a transformer that throws rejects the
 * command. The fake's own encoding already does what ioredis's built-in transformers do (hgetall,
 * hset/mset objects, ioredis 6's pair and stream reshaping), so only a transformer that is not
 * ioredis's built-in one runs here, on the value ioredis would hand it (the built-in's input).
 *
 * Cost: until the project's `built/Command` module is known to be loaded (the fake's `Command`
 * export, or real ioredis already loaded when a client is made) every lookup is one comparison;
 * then one property read per map.
 */
import { installedIoredisDir } from './command-table';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Fn = (...args: any[]) => any;
interface CommandClass {
  _transformer: { argument: Record<string, Fn | undefined>; reply: Record<string, Fn | undefined> };
}

let commandClass: CommandClass | undefined;
/** ioredis's own transformers, by name (a Map: a name only inherited by `{}` is no built-in). */
const builtinArgument = new Map<string, Fn>();
const builtinReply = new Map<string, Fn>();

/** Names ioredis 5.11.1 / 6.0.0 register a built-in transformer under. */
const BUILTIN_ARGUMENT = new Set(['mset', 'msetnx', 'hset', 'hmset']);

/**
 * Whether `fn`, found under `name` when the module was first seen, is ioredis's own: its argument
 * transformers convert Maps (`convertMapToArray`), its hgetall transformer names issue 1267, the
 * rest of ioredis 6's are the exports of its `replyTransformers` module. A transformer the user
 * had already set by then is not mistaken for one.
 */
function isBuiltin(kind: 'argument' | 'reply', name: string, fn: Fn, exported: ReadonlySet<unknown>): boolean {
  if (kind === 'argument') return BUILTIN_ARGUMENT.has(name) && String(fn).includes('convertMapToArray');
  if (name === 'hgetall') return String(fn).includes('issues/1267');
  return exported.has(fn);
}

/** Start consulting `cls._transformer` (the project's ioredis Command class), once. */
export function watchIoredisTransformers(cls: unknown): void {
  if (commandClass !== undefined || typeof cls !== 'function' || typeof (cls as unknown as CommandClass)._transformer !== 'object') return;
  const found = cls as unknown as CommandClass;
  let exported: ReadonlySet<unknown> = new Set();
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    exported = new Set(Object.values(require(`${installedIoredisDir()}/built/replyTransformers`) as object));
  } catch {
    /* ioredis 5: no such module */
  }
  for (const [name, fn] of Object.entries(found._transformer.argument)) if (fn && isBuiltin('argument', name, fn, exported)) builtinArgument.set(name, fn);
  for (const [name, fn] of Object.entries(found._transformer.reply)) if (fn && isBuiltin('reply', name, fn, exported)) builtinReply.set(name, fn);
  commandClass = found;
}

/** What a built-in transformer the user deleted leaves: the value as it is. */
const unchanged: Fn = (v: unknown) => v;

let commandPath: string | null | undefined;

/**
 * At a client's construction: when the project's ioredis Command module is already loaded
 * (real ioredis required in the same module registry), watch its transformers. Never loads it.
 */
export function noticeLoadedIoredisCommand(): void {
  if (commandClass !== undefined || commandPath === null) return;
  try {
    commandPath ??= require.resolve(`${installedIoredisDir()}/built/Command`);
    const loaded = (require.cache as Record<string, { exports?: { default?: unknown } } | undefined>)[commandPath];
    if (loaded?.exports?.default !== undefined) watchIoredisTransformers(loaded.exports.default);
  } catch {
    commandPath = null;
  }
}

/** The user's argument transformer for `name` (as ioredis's Command holds it), if any. */
export function userArgumentTransformer(name: string): Fn | undefined {
  if (commandClass === undefined) return undefined;
  const fn = commandClass._transformer.argument[name];
  // ioredis runs whatever is there (`if (transformer)`); a built-in the user deleted runs no more
  if (!fn) return builtinArgument.has(name) ? unchanged : undefined;
  return fn === builtinArgument.get(name) ? undefined : fn;
}

/** The user's reply transformer for `name` (as ioredis's Command holds it), if any. */
export function userReplyTransformer(name: string): Fn | undefined {
  if (commandClass === undefined) return undefined;
  const fn = commandClass._transformer.reply[name];
  if (!fn) return builtinReply.has(name) ? unchanged : undefined;
  return fn === builtinReply.get(name) ? undefined : fn;
}
