/**
 * Lua scripting that reaches the stream commands: EVAL, EVALSHA (and their `…Buffer` twins, in
 * `pipeline()`/`multi()` too) and `defineCommand` custom commands.
 *
 * ioredis-mock runs scripts on fengari but resolves `redis.call(name, …)` through its private
 * command table only, so XADD & co. fail there. This module replaces those entry points per
 * instance with its own fengari runner, in which `redis.call`/`redis.pcall`:
 * - run our stream commands through the dispatcher (`canBlock: false`, `inScript: true`), with
 *   the script's arity/unknown-command texts (script.c `scriptCall`);
 * - run every other command on ioredis-mock's own synchronous emulator (taken from the table
 *   `Pipeline.prototype.copyCommands` walks), except TYPE on a stream and the TTL family, which
 *   the adapter owns (ttl.ts), and the commands Redis refuses in scripts.
 * The whole script runs in `keyspace.atomically()`: one time snapshot for every command, blocked
 * readers served only after the script.
 *
 * Conversions follow script_lua.c (7.0.15; same in the 8.x sources):
 * - Redis → Lua: integer → number, bulk → string, nil bulk/array → false, array → table (nested),
 *   status (typed SimpleString replies, e.g. `OK` and HELP lines) → `{ok=…}`, error → `{err=…}` returned by
 *   `pcall`, raised by `call`. Built-in results are converted from ioredis-mock's JS values
 *   (null → false, numbers, strings, arrays, HGETALL's object flattened); their status replies
 *   stay plain strings, as ioredis-mock gives them.
 * - Lua → reply (ioredis-mock's existing behaviour where it had one): string, number (not
 *   truncated), boolean as is, nil → undefined, table → array up to the first nil; where
 *   ioredis-mock had none, Redis's rules: `{err=…}` → error reply, `{ok=…}` → status, a table
 *   without array part → [] and other types → null.
 * - An error that ends the script answers "<err> script: <sha>, on @user_script:<line>.", a
 *   non-table Lua error first becoming "ERR <message>" (the server's error handler), a compile
 *   error "ERR Error compiling script (new function): <message>".
 * Library errors (StreamsMockError, bugs) thrown by a command inside the script are re-thrown
 * to the caller as they are, even when the script caught them with pcall.
 *
 * Not emulated: global-variable protection, Redis's Lua 5.1 (fengari is Lua 5.3: number
 * formatting, some runtime error texts), `cjson`/`cmsgpack`/`bit`/`struct`, `redis.setresp`,
 * script flags in the `#!lua` shebang (parsed, not enforced), the script-kill timeout, RESP3.
 */
import { createHash } from 'crypto';
import { ReplyError } from 'redis-errors';
import { parseInt64 } from '../commands/args';
import { dispatch, lookupCommand } from '../commands/dispatch';
import type { CommandContext, Db } from '../commands/types';
import { ErrorReply, MapReply, NIL_ARRAY, PushReply, type Reply, SetReply, SimpleString, mapPairs, toResp2Plain } from '../reply/reply';
import { isBlockRequest } from '../commands/types';
import { CommandError, ERR_NOT_INTEGER } from '../errors';
import type { Keyspace } from '../keyspace/keyspace';
import { COMMAND_SINCE, versionIndex } from '../version';
import { fixStreamReplies, guardStreamKeys, withKeyspaceTime } from './builtins';
import { decodeBytes, flattenArgs, toByteString } from './encoding';
import { clockTtlCommands } from './ttl';

/* eslint-disable @typescript-eslint/no-explicit-any */
type MockInstance = any;

// ---------------------------------------------------------------------------------------------
// fengari (a dependency of ioredis-mock): the part of its C-like API used here.

type LuaState = object;
type LuaString = Uint8Array;
type JsFunction = (L: LuaState) => number;

interface LuaDebug {
  source: LuaString | null;
  currentline: number;
  what: LuaString | null;
}

interface FengariLua {
  LUA_OK: number;
  LUA_MULTRET: number;
  LUA_TNIL: number;
  LUA_TBOOLEAN: number;
  LUA_TNUMBER: number;
  LUA_TSTRING: number;
  LUA_TTABLE: number;
  lua_Debug: new () => LuaDebug;
  lua_close(L: LuaState): void;
  lua_checkstack(L: LuaState, n: number): boolean;
  lua_gettop(L: LuaState): number;
  lua_settop(L: LuaState, n: number): void;
  lua_pop(L: LuaState, n: number): void;
  lua_insert(L: LuaState, idx: number): void;
  lua_remove(L: LuaState, idx: number): void;
  lua_replace(L: LuaState, idx: number): void;
  lua_type(L: LuaState, idx: number): number;
  lua_isinteger(L: LuaState, idx: number): boolean;
  lua_isnumber(L: LuaState, idx: number): boolean;
  lua_isstring(L: LuaState, idx: number): boolean;
  lua_istable(L: LuaState, idx: number): boolean;
  lua_tointeger(L: LuaState, idx: number): number;
  lua_tonumber(L: LuaState, idx: number): number;
  lua_toboolean(L: LuaState, idx: number): boolean;
  lua_tolstring(L: LuaState, idx: number): LuaString | null;
  lua_pushnil(L: LuaState): void;
  lua_pushboolean(L: LuaState, b: boolean): void;
  lua_pushinteger(L: LuaState, n: number): void;
  lua_pushnumber(L: LuaState, n: number): void;
  lua_pushstring(L: LuaState, s: LuaString): void;
  lua_pushjsfunction(L: LuaState, fn: JsFunction): void;
  lua_createtable(L: LuaState, narr: number, nrec: number): void;
  lua_rawseti(L: LuaState, idx: number, n: number): void;
  lua_rawgeti(L: LuaState, idx: number, n: number): number;
  lua_rawget(L: LuaState, idx: number): number;
  lua_setfield(L: LuaState, idx: number, k: LuaString): void;
  lua_getfield(L: LuaState, idx: number, k: LuaString): number;
  lua_setglobal(L: LuaState, name: LuaString): void;
  lua_getglobal(L: LuaState, name: LuaString): number;
  lua_pcall(L: LuaState, nargs: number, nresults: number, msgh: number): number;
  lua_error(L: LuaState): never;
  lua_getstack(L: LuaState, level: number, ar: LuaDebug): number;
  lua_getinfo(L: LuaState, what: LuaString, ar: LuaDebug): number;
}

interface Fengari {
  lua: FengariLua;
  lauxlib: {
    luaL_newstate(): LuaState;
    luaL_loadbuffer(L: LuaState, buff: LuaString, size: number, name: LuaString): number;
    luaL_tolstring(L: LuaState, idx: number): LuaString;
    luaL_checkany(L: LuaState, arg: number): void;
  };
  lualib: { luaL_openlibs(L: LuaState): void };
  to_luastring(s: string): LuaString;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const fengari = require('fengari') as Fengari;
const { lua, lauxlib, lualib } = fengari;
const ls = (s: string): LuaString => fengari.to_luastring(s);

// ---------------------------------------------------------------------------------------------
// Texts (script.c / script_lua.c / eval.c, checked on redis-server 7.0.15; same in 8.x sources)

const ERR_UNKNOWN_FROM_SCRIPT = 'ERR Unknown Redis command called from script';
const ERR_ARITY_FROM_SCRIPT = 'ERR Wrong number of args calling Redis command from script';
const ERR_NOT_ALLOWED_FROM_SCRIPT = 'ERR This Redis command is not allowed from script';
const ERR_NO_ARGS = 'ERR Please specify at least one argument for this redis lib call';
const ERR_BAD_ARG_TYPE = 'ERR Lua redis lib command arguments must be strings or integers';
const ERR_NOSCRIPT = 'NOSCRIPT No matching script. Please use EVAL.';

/**
 * Commands ioredis-mock emulates (or names a script may try) that carry Redis's `noscript`
 * flag: refused with "This Redis command is not allowed from script" (each checked on
 * redis-server 7.0.15, EVAL/FCALL variants by their flag).
 */
const DENIED_IN_SCRIPTS = new Set([
  'auth', 'bgrewriteaof', 'bgsave', 'client', 'config', 'discard', 'eval', 'eval_ro', 'evalsha',
  'evalsha_ro', 'exec', 'failover', 'fcall', 'fcall_ro', 'function', 'monitor', 'multi',
  'psubscribe', 'punsubscribe', 'quit', 'replconf', 'replicaof', 'role', 'save', 'script',
  'slaveof', 'ssubscribe', 'subscribe', 'sync', 'unsubscribe', 'unwatch', 'watch',
]);

/** Entries of ioredis-mock's command table that are helpers, not commands. */
const NOT_COMMANDS = new Set(['connect', 'evaluate']);

// ---------------------------------------------------------------------------------------------
// Bytes

function luaBytesOf(s: string): LuaString {
  return new Uint8Array(Buffer.from(s, 'latin1'));
}

function utf8ToLua(s: string): LuaString {
  return new Uint8Array(Buffer.from(s, 'utf8'));
}

/** A Lua string as a byte string (one char per byte). */
function byteStringOf(b: LuaString): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');
}

/** A byte string for ioredis-mock's emulators: the UTF-8 text when it is valid, else a Buffer. */
function builtinArg(s: string): string | Buffer {
  const text = decodeBytes(s);
  return Buffer.from(text, 'utf8').toString('latin1') === s ? text : Buffer.from(s, 'latin1');
}

/** No CR/LF inside an error or status line (networking.c). */
function oneLine(s: string): string {
  return s.replace(/[\r\n]/g, ' ');
}

/** C `%.17g`, as Redis formats a Lua number argument (script_lua.c luaArgsToRedisArgv). */
function formatG17(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const [mant, expText] = x.toExponential(16).split('e');
  const exp = Number(expText);
  const trim = (s: string) => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);
  if (exp < -4 || exp >= 17) {
    return `${trim(mant)}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return trim(x.toFixed(16 - exp));
}

// ---------------------------------------------------------------------------------------------
// Pushing values onto the Lua stack

/** fengari integers are 32-bit; larger values become floats. */
function pushNumber(L: LuaState, n: number): void {
  if (Number.isInteger(n) && Math.abs(n) <= 0x7fffffff) lua.lua_pushinteger(L, n);
  else lua.lua_pushnumber(L, n);
}

function pushSingleFieldTable(L: LuaState, field: 'ok' | 'err', value: LuaString): void {
  lua.lua_createtable(L, 0, 1);
  lua.lua_pushstring(L, value);
  lua.lua_setfield(L, -2, ls(field));
}

/**
 * A typed reply as Redis hands it to Lua in RESP2 mode (script_lua.c redisProtocolToLuaType):
 * bulk → string, status → `{ok=…}`, error → `{err=…}`, integer → number, both nils → false,
 * arrays (and maps/sets, flattened as RESP2 sends them) → tables.
 */
function pushReply(L: LuaState, reply: Reply): void {
  if (reply instanceof SimpleString) pushSingleFieldTable(L, 'ok', luaBytesOf(reply.value));
  else if (reply instanceof ErrorReply) pushSingleFieldTable(L, 'err', luaBytesOf(reply.message));
  else if (Array.isArray(reply) || reply instanceof MapReply || reply instanceof SetReply || reply instanceof PushReply) {
    // RESP2 shapes: maps flattened (XREAD's as [key, entries] pairs), sets as arrays
    const items: Reply[] = Array.isArray(reply)
      ? reply
      : reply instanceof MapReply && reply.resp2Pairs
        ? mapPairs(reply)
        : reply.items;
    lua.lua_checkstack(L, 4);
    lua.lua_createtable(L, items.length, 0);
    items.forEach((r, i) => {
      pushReply(L, r);
      lua.lua_rawseti(L, -2, i + 1);
    });
  } else {
    const v = toResp2Plain(reply); // nils, strings, integers, doubles/verbatim as strings, booleans 1/0
    if (v === null) lua.lua_pushboolean(L, false);
    else if (typeof v === 'string') lua.lua_pushstring(L, luaBytesOf(v));
    else pushNumber(L, Number(v));
  }
}

/** A value returned by one of ioredis-mock's emulators, as Redis would hand it to Lua. */
function pushJs(L: LuaState, value: unknown): void {
  if (value === null || value === undefined || value === false) lua.lua_pushboolean(L, false);
  else if (value === true) lua.lua_pushinteger(L, 1);
  else if (typeof value === 'number') {
    if (Number.isNaN(value)) lua.lua_pushboolean(L, false); // ioredis-mock's INCR of a non-number
    else pushNumber(L, value);
  }
  else if (typeof value === 'bigint') pushNumber(L, Number(value));
  else if (typeof value === 'string') lua.lua_pushstring(L, utf8ToLua(value));
  else if (value instanceof Uint8Array) lua.lua_pushstring(L, new Uint8Array(value));
  else if (Array.isArray(value) || (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)) {
    // Arrays, and HGETALL's object as its flat field/value list.
    const items = Array.isArray(value) ? value : Object.entries(value as object).flat();
    lua.lua_checkstack(L, 4);
    lua.lua_createtable(L, items.length, 0);
    items.forEach((v, i) => {
      pushJs(L, v);
      lua.lua_rawseti(L, -2, i + 1);
    });
  } else lua.lua_pushboolean(L, false);
}

// ---------------------------------------------------------------------------------------------
// Reading the script's result

/** `t[field]` (raw) if it is a string, else undefined; the table is at the top of the stack. */
function rawStringField(L: LuaState, field: string): string | undefined {
  lua.lua_pushstring(L, ls(field));
  const t = lua.lua_rawget(L, -2);
  const out = t === lua.LUA_TSTRING ? byteStringOf(lua.lua_tolstring(L, -1) as LuaString) : undefined;
  lua.lua_pop(L, 1);
  return out;
}

function stringOut(bytes: string, buffers: boolean): string | Buffer {
  return buffers ? Buffer.from(bytes, 'latin1') : decodeBytes(bytes);
}

/** Convert the value at the top of the stack and pop it. Error tables become ReplyError values. */
function popResult(L: LuaState, buffers: boolean): unknown {
  let out: unknown;
  switch (lua.lua_type(L, -1)) {
    case lua.LUA_TSTRING:
      out = stringOut(byteStringOf(lua.lua_tolstring(L, -1) as LuaString), buffers);
      break;
    // Redis's Lua → RESP rules (script_lua.c luaReplyToRedisReply): numbers become integers
    // (truncated), true → 1, false and nil → nil.
    case lua.LUA_TNUMBER:
      out = Math.trunc(lua.lua_tonumber(L, -1));
      break;
    case lua.LUA_TBOOLEAN:
      out = lua.lua_toboolean(L, -1) ? 1 : null;
      break;
    case lua.LUA_TNIL:
      out = null;
      break;
    case lua.LUA_TTABLE: {
      const err = rawStringField(L, 'err');
      const ok = err === undefined ? rawStringField(L, 'ok') : undefined;
      if (err !== undefined) out = new ReplyError(decodeBytes(oneLine(err)));
      else if (ok !== undefined) out = stringOut(oneLine(ok), buffers);
      else {
        lua.lua_checkstack(L, 4);
        const items: unknown[] = [];
        for (let i = 1; lua.lua_rawgeti(L, -1, i) !== lua.LUA_TNIL; i++) items.push(popResult(L, buffers));
        lua.lua_pop(L, 1); // the nil
        out = items;
      }
      break;
    }
    default:
      out = null;
  }
  lua.lua_pop(L, 1);
  return out;
}

// ---------------------------------------------------------------------------------------------
// The script environment

/** What the runner needs from the adapter's per-instance state. */
export interface ScriptHost {
  keyspace: Keyspace;
  db: Db;
  prefix: string;
}

type Builtin = (this: MockInstance, ...args: unknown[]) => unknown;

/** ioredis-mock's synchronous command emulators, per Pipeline class. */
const builtinTables = new WeakMap<object, Record<string, Builtin>>();

/**
 * ioredis-mock keeps its emulators in a module-private table; `Pipeline.prototype.copyCommands`
 * hands each of them to `this._createCommand(name, fn)`, so a stand-in `this` collects them.
 */
function builtinCommands(redis: MockInstance): Record<string, Builtin> {
  const Pipeline = redis.constructor?.Pipeline;
  const copy = Pipeline?.prototype?.copyCommands;
  if (typeof copy !== 'function') return {};
  let table = builtinTables.get(Pipeline);
  if (!table) {
    const collected: Record<string, Builtin> = Object.create(null);
    copy.call({
      redis: { customCommands: {} },
      _createCommand: (name: string, fn: Builtin) => {
        if (name === name.toLowerCase() && !NOT_COMMANDS.has(name) && typeof fn === 'function') collected[name] = fn;
      },
    });
    table = collected;
    builtinTables.set(Pipeline, table);
  }
  return table;
}

interface Env {
  redis: MockInstance;
  host: ScriptHost;
  builtins: Record<string, Builtin>;
  ttl: Record<string, (args: unknown[]) => number>;
}

function arityOk(arity: number, argc: number): boolean {
  return arity >= 0 ? argc === arity : argc >= -arity;
}

/** An error thrown by one of ioredis-mock's emulators (or the TTL commands) as an error reply. */
function builtinError(err: unknown): CommandError {
  const msg = oneLine(toByteString(err instanceof Error ? err.message : String(err)));
  return new CommandError(/^[A-Z][A-Z0-9_-]*( |$)/.test(msg) ? msg : `ERR ${msg}`);
}

type Outcome = { kind: 'stream'; reply: Reply } | { kind: 'js'; value: unknown };

/** One `redis.call`: argv are byte strings. Throws CommandError for error replies. */
function runCommand(env: Env, argv: string[]): Outcome {
  const { keyspace: ks, db, prefix } = env.host;
  const name = argv[0].toLowerCase();
  const spec = lookupCommand(name);
  if (spec) {
    const since = COMMAND_SINCE[name];
    if (since && versionIndex(ks.redisVersion) < versionIndex(since)) throw new CommandError(ERR_UNKNOWN_FROM_SCRIPT);
    // Redis looks a container's subcommand up with the command itself (argc >= 2).
    let arity = spec.arity;
    if (spec.subcommands && argv.length >= 2) {
      const sub = spec.subcommands[argv[1].toLowerCase()];
      if (!sub) throw new CommandError(ERR_UNKNOWN_FROM_SCRIPT);
      arity = sub.arity;
    }
    if (!arityOk(arity, argv.length)) throw new CommandError(ERR_ARITY_FROM_SCRIPT);
    if (DENIED_IN_SCRIPTS.has(name)) throw new CommandError(ERR_NOT_ALLOWED_FROM_SCRIPT); // CONFIG
    const ctx: CommandContext = { now: ks.now(), version: ks.redisVersion, db, canBlock: false, isRetry: false, inScript: true };
    const result = dispatch(ctx, argv);
    return { kind: 'stream', reply: isBlockRequest(result) ? NIL_ARRAY : result };
  }
  if (DENIED_IN_SCRIPTS.has(name)) throw new CommandError(ERR_NOT_ALLOWED_FROM_SCRIPT);
  const args = argv.slice(1).map(builtinArg);
  const run =
    env.ttl[name] ??
    (env.builtins[name]
      ? (a: unknown[]) => {
          guardStreamKeys(ks, name, a, prefix);
          return withKeyspaceTime(ks, () => fixStreamReplies(ks, name, a, prefix, env.builtins[name].apply(env.redis, a)));
        }
      : undefined);
  if (!run) throw new CommandError(ERR_UNKNOWN_FROM_SCRIPT);
  try {
    // HGETALL answers an object; the other emulators arrays, strings, numbers or null.
    return { kind: 'js', value: run(args) };
  } catch (err) {
    // Any failure of an emulator is that command's error reply, as ioredis-mock's scripts had it.
    throw builtinError(err);
  }
}

interface Run {
  /** A library error (not an error reply) thrown inside the script; re-thrown afterwards. */
  internal: { error: unknown } | null;
}

/** The body of `redis.call` (raise = true) and `redis.pcall`. */
function redisCallFunction(env: Env, run: Run, raise: boolean): JsFunction {
  return (L) => {
    const argc = lua.lua_gettop(L);
    let error: string | undefined;
    let outcome: Outcome | undefined;
    if (argc === 0) error = ERR_NO_ARGS;
    else {
      const argv: string[] = [];
      for (let j = 1; j <= argc && error === undefined; j++) {
        const t = lua.lua_type(L, j);
        if (t === lua.LUA_TNUMBER) {
          argv.push(lua.lua_isinteger(L, j) ? String(lua.lua_tointeger(L, j)) : formatG17(lua.lua_tonumber(L, j)));
        } else if (t === lua.LUA_TSTRING) argv.push(byteStringOf(lua.lua_tolstring(L, j) as LuaString));
        else error = ERR_BAD_ARG_TYPE;
      }
      if (error === undefined) {
        try {
          outcome = runCommand(env, argv);
        } catch (err) {
          if (err instanceof CommandError) error = oneLine(err.message);
          else {
            run.internal ??= { error: err };
            error = 'ERR internal error in ioredis-mock-streams';
          }
        }
      }
    }
    lua.lua_settop(L, 0);
    lua.lua_checkstack(L, 8);
    if (error !== undefined) {
      pushSingleFieldTable(L, 'err', luaBytesOf(error));
      if (raise) lua.lua_error(L);
      return 1;
    }
    if (outcome?.kind === 'stream') pushReply(L, outcome.reply);
    else pushJs(L, outcome?.value);
    return 1;
  };
}

/** script_lua.c luaPushErrorBuff: "-CODE msg" / "msg" (→ ERR) as the `err` text. */
function userErrorText(s: string): string {
  const e = s.startsWith('-') ? s : `-${s}`;
  const space = e.indexOf(' ');
  const code = space < 0 ? 'ERR' : e.slice(1, space);
  const msg = (space < 0 ? e.slice(1) : e.slice(space + 1)).replace(/^[\r\n]+|[\r\n]+$/g, '');
  return `${code} ${msg}`;
}

function raiseError(L: LuaState, text: string): never {
  pushSingleFieldTable(L, 'err', luaBytesOf(text));
  return lua.lua_error(L);
}

/** Fill the `redis` table and the globals of a fresh state. */
function defineRedisLib(L: LuaState, env: Env, run: Run): void {
  const set = (name: string, fn: JsFunction) => {
    lua.lua_pushjsfunction(L, fn);
    lua.lua_setfield(L, -2, ls(name));
  };
  const setNumber = (name: string, n: number) => {
    lua.lua_pushinteger(L, n);
    lua.lua_setfield(L, -2, ls(name));
  };
  lua.lua_createtable(L, 0, 24);
  set('call', redisCallFunction(env, run, true));
  set('pcall', redisCallFunction(env, run, false));
  set('error_reply', (L1) => {
    if (lua.lua_gettop(L1) !== 1 || lua.lua_type(L1, -1) !== lua.LUA_TSTRING) {
      pushSingleFieldTable(L1, 'err', ls('ERR wrong number or type of arguments'));
      return 1;
    }
    const text = userErrorText(byteStringOf(lua.lua_tolstring(L1, -1) as LuaString));
    pushSingleFieldTable(L1, 'err', luaBytesOf(text));
    return 1;
  });
  set('status_reply', (L1) => {
    if (lua.lua_gettop(L1) !== 1 || lua.lua_type(L1, -1) !== lua.LUA_TSTRING) {
      pushSingleFieldTable(L1, 'err', ls('ERR wrong number or type of arguments'));
      return 1;
    }
    pushSingleFieldTable(L1, 'ok', lua.lua_tolstring(L1, -1) as LuaString);
    return 1;
  });
  set('sha1hex', (L1) => {
    if (lua.lua_gettop(L1) !== 1) raiseError(L1, 'ERR wrong number of arguments');
    const s = lauxlib.luaL_tolstring(L1, 1);
    lua.lua_pushstring(L1, ls(createHash('sha1').update(s).digest('hex')));
    return 1;
  });
  set('log', (L1) => {
    const argc = lua.lua_gettop(L1);
    if (argc < 2) raiseError(L1, 'ERR redis.log() requires two arguments or more.');
    if (!lua.lua_isnumber(L1, 1)) raiseError(L1, 'ERR First argument must be a number (log level).');
    const level = Math.trunc(lua.lua_tonumber(L1, 1));
    if (level < 0 || level > 3) raiseError(L1, 'ERR Invalid debug level.');
    return 0; // nothing is logged
  });
  setNumber('LOG_DEBUG', 0);
  setNumber('LOG_VERBOSE', 1);
  setNumber('LOG_NOTICE', 2);
  setNumber('LOG_WARNING', 3);
  set('replicate_commands', (L1) => {
    lua.lua_pushboolean(L1, true);
    return 1;
  });
  set('set_repl', (L1) => {
    if (lua.lua_gettop(L1) !== 1) raiseError(L1, 'ERR redis.set_repl() requires two arguments.');
    const flags = Math.trunc(lua.lua_tonumber(L1, -1));
    if ((flags & ~3) !== 0) {
      raiseError(L1, 'ERR Invalid replication flags. Use REPL_AOF, REPL_REPLICA, REPL_ALL or REPL_NONE.');
    }
    return 0;
  });
  setNumber('REPL_NONE', 0);
  setNumber('REPL_AOF', 1);
  setNumber('REPL_SLAVE', 2);
  setNumber('REPL_REPLICA', 2);
  setNumber('REPL_ALL', 3);
  lua.lua_setglobal(L, ls('redis'));

  // Redis 7's `pcall` hands the script the text of an error table, not the table.
  lua.lua_pushjsfunction(L, (L1) => {
    const argc = lua.lua_gettop(L1);
    lauxlib.luaL_checkany(L1, 1);
    lua.lua_pushboolean(L1, true);
    lua.lua_insert(L1, 1);
    if (lua.lua_pcall(L1, argc - 1, lua.LUA_MULTRET, 0) !== lua.LUA_OK) {
      lua.lua_remove(L1, 1);
      if (lua.lua_istable(L1, -1)) {
        lua.lua_getfield(L1, -1, ls('err'));
        if (lua.lua_isstring(L1, -1)) lua.lua_replace(L1, -2);
        else lua.lua_pop(L1, 1);
      }
      lua.lua_pushboolean(L1, false);
      lua.lua_insert(L1, 1);
    }
    return lua.lua_gettop(L1);
  });
  lua.lua_setglobal(L, ls('pcall'));
  // Lua 5.1's global `unpack`, which ioredis-mock's scripts had too.
  lua.lua_getglobal(L, ls('table'));
  lua.lua_getfield(L, -1, ls('unpack'));
  lua.lua_setglobal(L, ls('unpack'));
  lua.lua_pop(L, 1);
}

function setGlobalArray(L: LuaState, name: string, items: LuaString[]): void {
  lua.lua_createtable(L, items.length, 0);
  items.forEach((b, i) => {
    lua.lua_pushstring(L, b);
    lua.lua_rawseti(L, -2, i + 1);
  });
  lua.lua_setglobal(L, ls(name));
}

/**
 * The message handler of the script call (the server's error handler): a non-table error
 * becomes `{err='ERR ' .. tostring(e)}`; the table gets the `source` and `line` of the Lua code
 * that raised it (the caller when a library function raised it).
 */
const errorHandler: JsFunction = (L) => {
  if (!lua.lua_istable(L, 1)) {
    const text = byteStringOf(lauxlib.luaL_tolstring(L, 1));
    lua.lua_settop(L, 0);
    pushSingleFieldTable(L, 'err', luaBytesOf(`ERR ${text}`));
  } else lua.lua_settop(L, 1);
  const ar = new lua.lua_Debug();
  for (let level = 1; level <= 2; level++) {
    if (!lua.lua_getstack(L, level, ar)) break;
    lua.lua_getinfo(L, ls('Sl'), ar);
    const what = ar.what ? byteStringOf(ar.what) : '';
    if (what === 'C' || what === 'J') continue; // error(), redis.call …: report their caller
    lua.lua_pushstring(L, ar.source ?? ls('?'));
    lua.lua_setfield(L, 1, ls('source'));
    pushNumber(L, ar.currentline);
    lua.lua_setfield(L, 1, ls('line'));
    break;
  }
  return 1;
};

/** Strip a `#!lua …` first line (its flags are checked, not enforced); line numbers are kept. */
function stripShebang(body: string): string {
  if (!body.startsWith('#!')) return body;
  const eol = body.indexOf('\n');
  const line = eol < 0 ? body : body.slice(0, eol);
  const [engine, ...options] = line.split(' ').filter((p) => p !== '');
  if (engine !== '#!lua') throw new ReplyError(decodeBytes(oneLine(`ERR Unexpected engine in script shebang: ${engine}`)));
  const known = ['no-writes', 'allow-oom', 'allow-stale', 'no-cluster', 'allow-cross-slot-keys'];
  for (const opt of options) {
    if (!opt.startsWith('flags=')) throw new ReplyError(decodeBytes(oneLine(`ERR Unknown lua shebang option: ${opt}`)));
    for (const flag of opt.slice('flags='.length).split(',')) {
      if (flag !== '' && !known.includes(flag)) {
        throw new ReplyError(decodeBytes(oneLine(`ERR Unexpected flag in script shebang: ${flag}`)));
      }
    }
  }
  return eol < 0 ? '' : body.slice(eol);
}

/** Run one script (body, KEYS and ARGV as byte strings) atomically; returns the reply. */
function runScript(env: Env, body: string, sha: string, keys: string[], args: string[], buffers: boolean): unknown {
  const source = stripShebang(body);
  return env.host.keyspace.atomically(() => {
    const L = lauxlib.luaL_newstate();
    const run: Run = { internal: null };
    try {
      lualib.luaL_openlibs(L);
      defineRedisLib(L, env, run);
      setGlobalArray(L, 'KEYS', keys.map(luaBytesOf));
      setGlobalArray(L, 'ARGV', args.map(luaBytesOf));
      lua.lua_pushjsfunction(L, errorHandler);
      const chunk = luaBytesOf(source);
      if (lauxlib.luaL_loadbuffer(L, chunk, chunk.length, ls('@user_script')) !== lua.LUA_OK) {
        const msg = byteStringOf(lauxlib.luaL_tolstring(L, -1));
        throw new ReplyError(decodeBytes(oneLine(`ERR Error compiling script (new function): ${msg}`)));
      }
      const status = lua.lua_pcall(L, 0, 1, 1);
      if (run.internal) throw run.internal.error;
      if (status !== lua.LUA_OK) throw new ReplyError(decodeBytes(oneLine(scriptErrorText(L, sha))));
      const result = popResult(L, buffers);
      if (result instanceof ReplyError) throw result;
      return result;
    } finally {
      lua.lua_close(L);
    }
  });
}

/** The error reply of a failed script (script_lua.c luaCallFunction). */
function scriptErrorText(L: LuaState, sha: string): string {
  if (!lua.lua_istable(L, -1)) {
    const msg = lua.lua_isstring(L, -1) ? byteStringOf(lua.lua_tolstring(L, -1) as LuaString) : 'execution failure';
    return `ERR Error running script f_${sha}, ${msg.slice(0, 100)}`;
  }
  const field = (name: string): string | undefined => {
    lua.lua_getfield(L, -1, ls(name));
    const v = lua.lua_isstring(L, -1) ? byteStringOf(lauxlib.luaL_tolstring(L, -1)) : undefined;
    lua.lua_settop(L, lua.lua_gettop(L) - (v === undefined ? 1 : 2));
    return v;
  };
  const err = field('err') ?? 'ERR unknown error';
  const source = field('source');
  const line = field('line');
  return source !== undefined && line !== undefined ? `${err} script: ${sha}, on ${source}:${line}.` : err;
}

// ---------------------------------------------------------------------------------------------
// EVAL / EVALSHA / defineCommand

function sha1hex(body: string): string {
  return createHash('sha1').update(Buffer.from(body, 'latin1')).digest('hex');
}

/** `numkeys key… arg…` as EVAL parses them (eval.c evalGenericCommand). */
function splitKeys(numkeys: unknown, rest: string[]): { keys: string[]; args: string[] } {
  const n = parseInt64(toByteString(numkeys));
  if (n === null) throw new ReplyError(ERR_NOT_INTEGER);
  if (n > BigInt(rest.length)) throw new ReplyError("ERR Number of keys can't be greater than number of args");
  if (n < 0n) throw new ReplyError("ERR Number of keys can't be negative");
  return { keys: rest.slice(0, Number(n)), args: rest.slice(Number(n)) };
}

function splitCallback(args: unknown[]): { args: unknown[]; cb: unknown } {
  if (args.length && typeof args[args.length - 1] === 'function') return { args: args.slice(0, -1), cb: args[args.length - 1] };
  return { args, cb: undefined };
}

/** An instance method: ioredis flattening, optional callback, a promise for the reply. */
function asMethod(run: (args: unknown[]) => unknown): (...raw: unknown[]) => Promise<unknown> {
  return (...raw) => {
    const { args, cb } = splitCallback(raw);
    const p = new Promise<unknown>((resolve) => resolve(run(flattenArgs(args))));
    if (typeof cb === 'function') p.then((r) => cb(null, r), (e) => cb(e));
    return p;
  };
}

/**
 * Make `eval`, `evalsha`, their `…Buffer` twins (as methods and for `pipeline()`/`multi()`) and
 * `defineCommand` of an ioredis-mock instance run scripts whose `redis.call` reaches the stream
 * commands. Called once per instance by the adapter (`setUpInstance`).
 */
export function installScripting(redis: MockInstance, host: ScriptHost): void {
  const env: Env = {
    redis,
    host,
    builtins: builtinCommands(redis),
    ttl: clockTtlCommands(host.keyspace, host.prefix),
  };
  if (!redis.shaScripts) redis.shaScripts = {};
  const cache = (): Record<string, unknown> => redis.shaScripts;

  const evalRun = (command: string, buffers: boolean) => (argv: unknown[]) => {
    if (argv.length < 2) throw new ReplyError(`ERR wrong number of arguments for '${command}' command`);
    const [script, numkeys, ...rest] = argv;
    const { keys, args } = splitKeys(numkeys, rest.map(toByteString));
    const body = toByteString(script);
    const sha = sha1hex(body);
    cache()[sha] = script;
    return runScript(env, body, sha, keys, args, buffers);
  };
  const evalshaRun = (command: string, buffers: boolean) => (argv: unknown[]) => {
    if (argv.length < 2) throw new ReplyError(`ERR wrong number of arguments for '${command}' command`);
    const [shaArg, numkeys, ...rest] = argv;
    const { keys, args } = splitKeys(numkeys, rest.map(toByteString));
    const sha = toByteString(shaArg).toLowerCase();
    const script = cache()[sha];
    if (script === undefined || script === null) throw new ReplyError(ERR_NOSCRIPT);
    return runScript(env, toByteString(script), sha, keys, args, buffers);
  };

  const install = (name: string, run: (argv: unknown[]) => unknown) => {
    redis[name] = asMethod(run);
    // pipeline()/multi() call customCommands bound to the instance, arguments already flattened.
    redis.customCommands[name] = (...argv: unknown[]) => run(argv);
  };
  install('eval', evalRun('eval', false));
  install('evalBuffer', evalRun('eval', true));
  install('evalsha', evalshaRun('evalsha', false));
  install('evalshaBuffer', evalshaRun('evalsha', true));

  /** ioredis `defineCommand(name, { numberOfKeys?, lua })`: without numberOfKeys, the first argument is numkeys. */
  redis.defineCommand = (name: string, definition: { numberOfKeys?: number | null; lua: string }) => {
    const body = toByteString(definition.lua);
    const sha = sha1hex(body);
    const commandRun = (buffers: boolean) => (argv: unknown[]) => {
      const fixed = typeof definition.numberOfKeys === 'number';
      if (!fixed && argv.length < 1) throw new ReplyError(`ERR wrong number of arguments for 'evalsha' command`);
      const [numkeys, rest] = fixed ? [definition.numberOfKeys, argv] : [argv[0], argv.slice(1)];
      const { keys, args } = splitKeys(numkeys, rest.map(toByteString));
      cache()[sha] = definition.lua;
      return runScript(env, body, sha, keys, args, buffers);
    };
    install(name, commandRun(false));
    install(`${name}Buffer`, commandRun(true));
  };
}
