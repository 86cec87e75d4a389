/**
 * Lua scripting (EVAL, EVALSHA, SCRIPT, ioredis `defineCommand`) on fengari, the Lua VM
 * ioredis-mock ships. `redis.call`/`redis.pcall` run commands through the connection
 * (`Connection.scriptCall`): the stream commands (`canBlock: false`, `inScript: true`, the key
 * prefix of the connection applied), the connection commands scripts may use (PING, ECHO) and
 * ioredis-mock's built-ins, with the script's arity/unknown/not-allowed texts (script.c
 * `scriptCall`). The whole script runs in `keyspace.atomically()`: one time snapshot, blocked
 * readers served only after the script. This module is loaded on the first script (STYLE 17).
 *
 * Conversions follow script_lua.c (7.0.15; same in the 8.x sources), from the typed replies:
 * - Redis → Lua: integer → number, bulk → string, nil bulk/array → false, array (maps and sets
 *   flattened as RESP2 sends them) → table, status → `{ok=…}`, error → `{err=…}` returned by
 *   `pcall`, raised by `call`;
 * - Lua → reply: string → bulk, number → integer (C `(long long)` cast: truncated; NaN, ±inf and
 *   numbers beyond 64 bits are LLONG_MIN as on x86-64), true → 1, false/nil → nil,
 *   `{err=…}` → error reply, `{ok=…}` → status, a table → array up to the first nil.
 * - An error that ends the script answers "<err> script: <sha>, on @user_script:<line>.", a
 *   non-table Lua error first becoming "ERR <message>" (the server's error handler), a compile
 *   error "ERR Error compiling script (new function): <message>".
 * Library errors (StreamsMockError, bugs) thrown by a command inside the script are re-thrown
 * to the caller as they are, even when the script caught them with pcall.
 *
 * Not emulated: global-variable protection, Redis's Lua 5.1 (fengari is Lua 5.3: number
 * formatting — tostring, `..` and string.format('%s') print 1e15 as '1000000000000000.0' and 7/1
 * as '7.0' where 5.1's `%.14g` gives '1e+15' and '7'; fengari captures its formatter at load
 * and reaches it through module-local references, so it cannot be swapped cleanly — and some
 * runtime error texts), redis.call number arguments as 7.2.5+/7.4+ print them (an integral
 * value within ±2^62 as an integer, others in fpconv_dtoa's shortest form: '0.1', '1e-7'; every
 * version here uses 7.0's `%.17g`), `cjson`/`cmsgpack`/`bit`/`struct`, `redis.setresp`,
 * script flags in the `#!lua` shebang (parsed, not enforced), the script-kill timeout, RESP3.
 */
import { createHash } from 'crypto';
import { parseInt64 } from '../commands/args';
import { ErrorReply, MapReply, PairsReply, PushReply, type Reply, SetReply, SimpleString, flatPairs, mapPairs, toResp2Plain } from '../reply/reply';
import { CommandError, ERR_NOT_INTEGER } from '../errors';
import type { Connection } from './connection';

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

const ERR_NO_ARGS = 'ERR Please specify at least one argument for this redis lib call';
const ERR_BAD_ARG_TYPE = 'ERR Lua redis lib command arguments must be strings or integers';
const ERR_NOSCRIPT = 'NOSCRIPT No matching script. Please use EVAL.';

// ---------------------------------------------------------------------------------------------
// Bytes

function luaBytesOf(s: string): LuaString {
  return new Uint8Array(Buffer.from(s, 'latin1'));
}

/** A Lua string as a byte string (one char per byte). */
function byteStringOf(b: LuaString): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');
}

/** No CR/LF inside an error or status line (networking.c). */
function oneLine(s: string): string {
  return s.replace(/[\r\n]/g, ' ');
}

/**
 * C `%.17g`, as Redis formats a Lua number argument (script_lua.c luaArgsToRedisArgv). A NaN is
 * `-nan`: on x86-64 the NaN of 0/0, inf-inf … has its sign bit set and glibc prints it so
 * (checked on redis-server 7.0.15; JS cannot tell the sign of a NaN, -(0/0)'s `nan` is lost).
 */
function formatG17(x: number): string {
  if (Number.isNaN(x)) return '-nan';
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
 * arrays (and maps/sets/pairs, flattened as RESP2 sends them) → tables.
 */
function pushReply(L: LuaState, reply: Reply): void {
  if (reply instanceof SimpleString) pushSingleFieldTable(L, 'ok', luaBytesOf(reply.value));
  else if (reply instanceof ErrorReply) pushSingleFieldTable(L, 'err', luaBytesOf(reply.message));
  else if (Array.isArray(reply) || reply instanceof MapReply || reply instanceof SetReply || reply instanceof PushReply || reply instanceof PairsReply) {
    // RESP2 shapes: maps flattened (XREAD's as [key, entries] pairs), sets as arrays, pairs
    // flattened (ZRANGE … WITHSCORES: member, score, …)
    const items: Reply[] = Array.isArray(reply)
      ? reply
      : reply instanceof PairsReply
        ? flatPairs(reply)
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

// ---------------------------------------------------------------------------------------------
// Reading the script's result

const TWO_63 = 2 ** 63;
const LLONG_MIN = -(2n ** 63n);

/**
 * `(long long)x` as Redis computes a Lua number's integer reply (script_lua.c
 * luaReplyToRedisReply), on x86-64 (cvttsd2si, what redis-server 7.0.15 answers): truncation
 * toward zero (-0.5 is 0, never -0); NaN, ±inf and anything outside [-2^63, 2^63) give
 * LLONG_MIN (-9223372036854775808). A bigint past 2^53, so the value stays exact.
 */
function longLongOf(x: number): number | bigint {
  if (!(x < TWO_63 && x >= -TWO_63)) return LLONG_MIN;
  const t = Math.trunc(x);
  if (t === 0) return 0;
  return Number.isSafeInteger(t) ? t : BigInt(t);
}

/** `t[field]` (raw) if it is a string, else undefined; the table is at the top of the stack. */
function rawStringField(L: LuaState, field: string): string | undefined {
  lua.lua_pushstring(L, ls(field));
  const t = lua.lua_rawget(L, -2);
  const out = t === lua.LUA_TSTRING ? byteStringOf(lua.lua_tolstring(L, -1) as LuaString) : undefined;
  lua.lua_pop(L, 1);
  return out;
}

/**
 * Convert the value at the top of the stack (the script's result) to a reply and pop it
 * (script_lua.c luaReplyToRedisReply). `{err=…}` tables become ErrorReply values.
 */
function popResult(L: LuaState): Reply {
  let out: Reply;
  switch (lua.lua_type(L, -1)) {
    case lua.LUA_TSTRING:
      out = byteStringOf(lua.lua_tolstring(L, -1) as LuaString);
      break;
    // numbers become integers (C `(long long)` of the double), true → 1, false and nil → nil
    case lua.LUA_TNUMBER:
      out = longLongOf(lua.lua_tonumber(L, -1));
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
      if (err !== undefined) out = new ErrorReply(oneLine(err));
      else if (ok !== undefined) out = new SimpleString(oneLine(ok));
      else {
        lua.lua_checkstack(L, 4);
        const items: Reply[] = [];
        for (let i = 1; lua.lua_rawgeti(L, -1, i) !== lua.LUA_TNIL; i++) items.push(popResult(L));
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

interface Run {
  /** A library error (not an error reply) thrown inside the script; re-thrown afterwards. */
  internal: { error: unknown } | null;
}

/** The body of `redis.call` (raise = true) and `redis.pcall`. */
function redisCallFunction(conn: Connection, run: Run, raise: boolean): JsFunction {
  return (L) => {
    const argc = lua.lua_gettop(L);
    let error: string | undefined;
    let reply: Reply = null;
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
          reply = conn.scriptCall(argv);
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
    pushReply(L, reply);
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
function defineRedisLib(L: LuaState, conn: Connection, run: Run): void {
  const set = (name: string, fn: JsFunction) => {
    lua.lua_pushjsfunction(L, fn);
    lua.lua_setfield(L, -2, ls(name));
  };
  const setNumber = (name: string, n: number) => {
    lua.lua_pushinteger(L, n);
    lua.lua_setfield(L, -2, ls(name));
  };
  lua.lua_createtable(L, 0, 24);
  set('call', redisCallFunction(conn, run, true));
  set('pcall', redisCallFunction(conn, run, false));
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
  if (engine !== '#!lua') throw new CommandError(oneLine(`ERR Unexpected engine in script shebang: ${engine}`));
  const known = ['no-writes', 'allow-oom', 'allow-stale', 'no-cluster', 'allow-cross-slot-keys'];
  for (const opt of options) {
    if (!opt.startsWith('flags=')) throw new CommandError(oneLine(`ERR Unknown lua shebang option: ${opt}`));
    for (const flag of opt.slice('flags='.length).split(',')) {
      if (flag !== '' && !known.includes(flag)) {
        throw new CommandError(oneLine(`ERR Unexpected flag in script shebang: ${flag}`));
      }
    }
  }
  return eol < 0 ? '' : body.slice(eol);
}

/**
 * Run one script (body, KEYS and ARGV as byte strings) on `conn` atomically; returns its reply.
 * Throws CommandError for an error reply.
 */
export function runScript(conn: Connection, body: string, sha: string, keys: string[], args: string[]): Reply {
  const source = stripShebang(body);
  return conn.keyspace.atomically(() => {
    const L = lauxlib.luaL_newstate();
    const run: Run = { internal: null };
    try {
      lualib.luaL_openlibs(L);
      defineRedisLib(L, conn, run);
      setGlobalArray(L, 'KEYS', keys.map(luaBytesOf));
      setGlobalArray(L, 'ARGV', args.map(luaBytesOf));
      lua.lua_pushjsfunction(L, errorHandler);
      const chunk = luaBytesOf(source);
      if (lauxlib.luaL_loadbuffer(L, chunk, chunk.length, ls('@user_script')) !== lua.LUA_OK) {
        const msg = byteStringOf(lauxlib.luaL_tolstring(L, -1));
        throw new CommandError(oneLine(`ERR Error compiling script (new function): ${msg}`));
      }
      const status = lua.lua_pcall(L, 0, 1, 1);
      if (run.internal) throw run.internal.error;
      if (status !== lua.LUA_OK) throw new CommandError(oneLine(scriptErrorText(L, sha)));
      const result = popResult(L);
      if (result instanceof ErrorReply) throw new CommandError(result.message);
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
// EVAL / EVALSHA / SCRIPT

/** SHA1 hex of a script body (a byte string), as SCRIPT LOAD answers it. */
export function sha1hex(body: string): string {
  return createHash('sha1').update(Buffer.from(body, 'latin1')).digest('hex');
}

/** `numkeys key… arg…` as EVAL parses them (eval.c evalGenericCommand). */
export function splitKeys(numkeys: string, rest: string[]): { keys: string[]; args: string[] } {
  const n = parseInt64(numkeys);
  if (n === null) throw new CommandError(ERR_NOT_INTEGER);
  if (n > BigInt(rest.length)) throw new CommandError("ERR Number of keys can't be greater than number of args");
  if (n < 0n) throw new CommandError("ERR Number of keys can't be negative");
  return { keys: rest.slice(0, Number(n)), args: rest.slice(Number(n)) };
}

/** SCRIPT LOAD: compile `body` (compile errors as EVAL gives them) and return its SHA1. */
export function loadScript(body: string): string {
  const source = stripShebang(body);
  const L = lauxlib.luaL_newstate();
  try {
    const chunk = luaBytesOf(source);
    if (lauxlib.luaL_loadbuffer(L, chunk, chunk.length, ls('@user_script')) !== lua.LUA_OK) {
      const msg = byteStringOf(lauxlib.luaL_tolstring(L, -1));
      throw new CommandError(oneLine(`ERR Error compiling script (new function): ${msg}`));
    }
  } finally {
    lua.lua_close(L);
  }
  return sha1hex(body);
}

/** EVAL script numkeys key… arg…: caches the script (SCRIPT EXISTS sees it) and runs it. */
export function evalCommand(conn: Connection, argv: string[]): Reply {
  const [, body, numkeys, ...rest] = argv;
  const { keys, args } = splitKeys(numkeys, rest);
  const sha = sha1hex(body);
  conn.server.scripts.set(sha, body);
  return runScript(conn, body, sha, keys, args);
}

/** EVALSHA sha numkeys key… arg…: NOSCRIPT unless EVAL or SCRIPT LOAD cached it. */
export function evalshaCommand(conn: Connection, argv: string[]): Reply {
  const [, shaArg, numkeys, ...rest] = argv;
  const { keys, args } = splitKeys(numkeys, rest);
  const sha = shaArg.toLowerCase();
  const body = conn.server.scripts.get(sha);
  if (body === undefined) throw new CommandError(ERR_NOSCRIPT);
  return runScript(conn, body, sha, keys, args);
}
