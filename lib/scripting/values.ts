/**
 * The values a Lua script and Redis exchange (script_lua.c): a Lua number as a command argument
 * (`%.17g` up to 7.2, double2ll/fpconv_dtoa from 7.4), a typed reply pushed onto the Lua stack
 * (redisProtocolToLuaType) and the script's result read back as a reply (luaReplyToRedisReply),
 * in the script's RESP (redis.setresp). Pure conversions over the VM's stack: no script state.
 * The conversion rules are listed in ./lua.ts's header.
 */
import { fpconvDtoa } from '../rdb/fpconv';
import {
  BigNumberReply,
  BooleanReply,
  DoubleReply,
  ErrorReply,
  MapReply,
  NilArray,
  PairsReply,
  PushReply,
  type Reply,
  SetReply,
  SimpleString,
  VerbatimReply,
  flatPairs,
  mapPairs,
  toResp2Plain,
} from '../reply/reply';
import { type RedisVersion, versionIndex } from '../version';
import { scoreReply } from '../commands/zset-common';
import { LUA_TBOOLEAN, LUA_TNIL, LUA_TNUMBER, LUA_TSTRING, LUA_TTABLE, type LuaState, type LuaVm } from './vm';

// ---------------------------------------------------------------------------------------------
// Bytes and numbers

/** No CR/LF inside an error or status line (networking.c). */
export function oneLine(s: string): string {
  return s.replace(/[\r\n]/g, ' ');
}

/**
 * C `%.17g`, as Redis up to 7.2 formats a Lua number argument (script_lua.c luaArgsToRedisArgv).
 * A NaN is `-nan`: on x86-64 the NaN of 0/0, inf-inf … has its sign bit set and glibc prints it
 * so (checked on redis-server 7.0.15).
 */
export function formatG17(x: number): string {
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

const LL_HALF = 2 ** 62;
/**
 * 7.4+ (script_lua.c luaArgsToRedisArgv): double2ll (an integral value within ±LLONG_MAX/2 as an
 * integer), else fpconv_dtoa's text (lib/rdb/fpconv.ts: `5e+18`, `1e-7`, `9223372036854776000`;
 * JavaScript's String() would print 5e18 as `5000000000000000000`).
 */
export function formatArgNumber(x: number): string {
  if (Number.isInteger(x) && x >= -LL_HALF && x <= LL_HALF) return Object.is(x, -0) ? '0' : BigInt(x).toString();
  if (Number.isNaN(x)) return '-nan'; // as 7.0 (checked on the post-7.4 build)
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  return fpconvDtoa(x);
}

const TWO_63 = 2 ** 63;
const LLONG_MIN = -(2n ** 63n);

/**
 * `(long long)x` as Redis computes a Lua number's integer reply (script_lua.c
 * luaReplyToRedisReply), on x86-64 (cvttsd2si): truncation toward zero (-0.5 is 0, never -0);
 * NaN, ±inf and anything outside [-2^63, 2^63) give LLONG_MIN. A bigint past 2^53.
 */
function longLongOf(x: number): number | bigint {
  if (!(x < TWO_63 && x >= -TWO_63)) return LLONG_MIN;
  const t = Math.trunc(x);
  if (t === 0) return 0;
  return Number.isSafeInteger(t) ? t : BigInt(t);
}

/** A Lua string as Redis reads it with a C string function (`sdsnew`, `%s`): up to its first NUL byte. */
export function cString(s: string): string {
  const nul = s.indexOf('\0');
  return nul < 0 ? s : s.slice(0, nul);
}

/** script_lua.c luaPushErrorBuff: "-CODE msg" / "msg" (→ ERR) as the `err` text. */
export function userErrorText(s: string): string {
  const e = s.startsWith('-') ? s : `-${s}`;
  const space = e.indexOf(' ');
  const code = space < 0 ? 'ERR' : e.slice(1, space);
  const msg = (space < 0 ? e.slice(1) : e.slice(space + 1)).replace(/^[\r\n]+|[\r\n]+$/g, '');
  return `${code} ${msg}`;
}

// ---------------------------------------------------------------------------------------------
// Pushing replies onto the Lua stack

export function pushField(vm: LuaVm, L: LuaState, field: string, value: string): void {
  vm.createTable(L, 0, 1);
  vm.pushString(L, value);
  vm.setField(L, -2, field);
}

/** Push a number as Lua sees a Redis integer (a double). */
function pushInteger(vm: LuaVm, L: LuaState, n: number | bigint): void {
  vm.pushNumber(L, Number(n));
}

/**
 * A typed reply as Redis hands it to Lua (script_lua.c redisProtocolToLuaType), in the
 * script's RESP (`resp`, redis.setresp).
 */
export function pushReply(vm: LuaVm, L: LuaState, reply: Reply, resp: 2 | 3): void {
  vm.checkStack(L, 4);
  if (typeof reply === 'string') return vm.pushString(L, reply);
  if (typeof reply === 'number' || typeof reply === 'bigint') return pushInteger(vm, L, reply);
  if (reply === null || reply instanceof NilArray) {
    if (resp === 3) vm.pushNil(L);
    else vm.pushBoolean(L, false);
    return;
  }
  if (reply instanceof SimpleString) return pushField(vm, L, 'ok', reply.value);
  if (reply instanceof ErrorReply) return pushField(vm, L, 'err', reply.message);
  if (resp === 3) {
    if (reply instanceof MapReply || reply instanceof PairsReply) {
      const pairs = reply instanceof MapReply ? mapPairs(reply) : null;
      if (pairs) {
        // lua_newtable, not presized, as script_lua.c builds it: the table grows (and rehashes)
        // as Redis's does, so a script iterating it (pairs, next) sees Redis's order
        vm.createTable(L, 0, 1);
        vm.createTable(L, 0, 0);
        for (const [k, v] of pairs) {
          pushReply(vm, L, k, resp);
          pushReply(vm, L, v, resp);
          vm.rawSet(L, -3);
        }
        vm.setField(L, -2, 'map');
        return;
      }
      // pairs: RESP3 arrays of [element, value]
      const items = (reply as PairsReply).items;
      vm.createTable(L, items.length, 0);
      items.forEach(([e, v], i) => {
        pushReply(vm, L, [e, v], resp);
        vm.rawSetI(L, -2, i + 1);
      });
      return;
    }
    if (reply instanceof SetReply) {
      vm.createTable(L, 0, 1);
      vm.createTable(L, 0, 0); // lua_newtable, as for a map
      for (const m of reply.items) {
        pushReply(vm, L, m, resp);
        vm.pushBoolean(L, true);
        vm.rawSet(L, -3);
      }
      vm.setField(L, -2, 'set');
      return;
    }
    if (reply instanceof DoubleReply) {
      vm.createTable(L, 0, 1);
      vm.pushNumber(L, reply.value);
      vm.setField(L, -2, 'double');
      return;
    }
    if (reply instanceof BooleanReply) return vm.pushBoolean(L, reply.value);
    if (reply instanceof BigNumberReply) return pushField(vm, L, 'big_number', reply.text);
    if (reply instanceof VerbatimReply) {
      vm.createTable(L, 0, 1);
      vm.createTable(L, 0, 2);
      vm.pushString(L, reply.format);
      vm.setField(L, -2, 'format');
      vm.pushString(L, reply.text);
      vm.setField(L, -2, 'string');
      vm.setField(L, -2, 'verbatim_string');
      return;
    }
  }
  if (Array.isArray(reply) || reply instanceof MapReply || reply instanceof SetReply || reply instanceof PushReply || reply instanceof PairsReply) {
    // RESP2 shapes: maps flattened (XREAD's as [key, entries] pairs), sets as arrays, pairs flat
    const items: readonly Reply[] = Array.isArray(reply)
      ? reply
      : reply instanceof PairsReply
        ? flatPairs(reply)
        : reply instanceof MapReply && reply.resp2Pairs
          ? mapPairs(reply)
          : reply.items;
    vm.createTable(L, items.length, 0);
    for (let i = 0; i < items.length; i++) {
      pushReply(vm, L, items[i], resp);
      vm.rawSetI(L, -2, i + 1);
    }
    return;
  }
  const v = toResp2Plain(reply); // doubles/verbatim as strings, booleans 1/0, big numbers as strings
  if (v === null) vm.pushBoolean(L, false);
  else if (typeof v === 'string') vm.pushString(L, v);
  else pushInteger(vm, L, v as number | bigint);
}

// ---------------------------------------------------------------------------------------------
// Reading the script's result

/** `t[field]` (raw) if it is of `type`, pushed (returns true), else nothing pushed. */
function rawField(vm: LuaVm, L: LuaState, field: string, type: number): boolean {
  vm.pushString(L, field);
  if (vm.rawGet(L, -2) === type) return true;
  vm.pop(L, 1);
  return false;
}

/**
 * Convert the value at the top of the stack (the script's result) to a reply and pop it
 * (script_lua.c luaReplyToRedisReply). `{err=…}` tables become ErrorReply values. Arrays nest
 * without JS recursion: a reply may nest thousands deep before "reached lua stack limit" (a table
 * that contains itself, as Redis answers it).
 */
export function popResult(vm: LuaVm, L: LuaState, resp: 2 | 3, version: RedisVersion): Reply {
  const open: Reply[][] = []; // the arrays being read, innermost last (their tables on the stack)
  for (;;) {
    const value = popValue(vm, L, resp, version);
    if (value === ARRAY_TABLE) open.push([]);
    else if (open.length === 0) return value;
    else open[open.length - 1].push(value);
    // the next element of the innermost array, or close it
    for (;;) {
      const items = open[open.length - 1];
      if (vm.rawGetI(L, -1, items.length + 1) !== LUA_TNIL) break; // pushed: read it
      vm.pop(L, 2); // the nil and the table
      open.pop();
      if (open.length === 0) return items;
      open[open.length - 1].push(items);
    }
  }
}

const ARRAY_TABLE = Symbol('array table');

/**
 * `{verbatim_string={format=…, string=…}}` of the table at the top of the stack as a verbatim
 * reply (script_lua.c, after big_number; networking.c addReplyVerbatim: the format's first
 * three characters, blanks for the missing ones; a RESP2 client reads the string), or null when
 * the field is not such a table. The stack is left as it was.
 */
function verbatimField(vm: LuaVm, L: LuaState): VerbatimReply | null {
  if (!rawField(vm, L, 'verbatim_string', LUA_TTABLE)) return null;
  let out: VerbatimReply | null = null;
  if (rawField(vm, L, 'format', LUA_TSTRING)) {
    const format = (vm.toString(L, -1) as string).split('\0')[0].slice(0, 3).padEnd(3, ' '); // a C string: up to a NUL
    vm.pop(L, 1);
    if (rawField(vm, L, 'string', LUA_TSTRING)) {
      out = new VerbatimReply(vm.toString(L, -1) as string, format);
      vm.pop(L, 1);
    }
  }
  vm.pop(L, 1);
  return out;
}

/**
 * One value of popResult: a reply (the value popped), or ARRAY_TABLE for a table read as an
 * array (left on the stack, for popResult to read its elements).
 */
function popValue(vm: LuaVm, L: LuaState, resp: 2 | 3, version: RedisVersion): Reply | typeof ARRAY_TABLE {
  let out: Reply;
  let verbatim: VerbatimReply | null;
  // script_lua.c checks room for 4 before converting any value (a string or number too), with
  // the error handler below the result on its stack; 5 here gives the same depth: every value
  // 7995 arrays deep is replaced by the error, the elements after it still follow (checked on
  // 7.0.15 and the post-7.4 build: `{{…{1,2}…}}` ends `-ERR reached lua stack limit` twice)
  if (!vm.checkStack(L, 5)) {
    vm.pop(L, 1);
    return new ErrorReply('ERR reached lua stack limit');
  }
  switch (vm.type(L, -1)) {
    case LUA_TSTRING:
      out = vm.toString(L, -1) as string;
      break;
    case LUA_TNUMBER:
      out = longLongOf(vm.toNumber(L, -1));
      break;
    case LUA_TBOOLEAN:
      out = resp === 3 ? new BooleanReply(vm.toBoolean(L, -1)) : vm.toBoolean(L, -1) ? 1 : null;
      break;
    case LUA_TTABLE: {
      if (rawField(vm, L, 'err', LUA_TSTRING)) {
        // the texts of a returned error or status table are written as C strings (up to a NUL);
        // an error's trailing CR/LF dropped first (addReplyErrorFormatEx's sdstrim of "-%s": the
        // '-' keeps the leading ones, which become spaces)
        const text = oneLine(cString(vm.toString(L, -1) as string).replace(/[\r\n]+$/, ''));
        vm.pop(L, 1);
        out = statsCounted(vm, L) ? new CountedErrorReply(text) : new ErrorReply(text);
      } else if (rawField(vm, L, 'ok', LUA_TSTRING)) {
        out = new SimpleString(oneLine(cString(vm.toString(L, -1) as string)));
        vm.pop(L, 1);
      } else if (rawField(vm, L, 'double', LUA_TNUMBER)) {
        // addReplyDouble: the version's text (7.0 `%.17g`, 7.2+ the shortest round trip); a NaN
        // made by Lua arithmetic is x86's default NaN, sign bit set: glibc's `%.17g` prints "-nan"
        const n = vm.toNumber(L, -1);
        out = Number.isNaN(n) && versionIndex(version) < versionIndex('7.2') ? new DoubleReply(n, '-nan') : scoreReply(n, version);
        vm.pop(L, 1);
      } else if (rawField(vm, L, 'big_number', LUA_TSTRING)) {
        const text = vm.toString(L, -1) as string;
        vm.pop(L, 1);
        // written as given, CR/LF as spaces (script_lua.c: sdsmapchars, addReplyBigNum), not checked to be a number
        const mapped = text.replace(/[\r\n]/g, ' ');
        out = new BigNumberReply(/^-?\d+$/.test(mapped) ? BigInt(mapped) : 0n, mapped);
      } else if ((verbatim = verbatimField(vm, L)) !== null) {
        out = verbatim;
      } else if (rawField(vm, L, 'map', LUA_TTABLE)) {
        const items: Reply[] = [];
        vm.pushNil(L);
        while (vm.next(L, -2)) {
          vm.pushValue(L, -2);
          items.push(popResult(vm, L, resp, version)); // the key (a copy)
          items.push(popResult(vm, L, resp, version)); // the value
        }
        vm.pop(L, 1);
        out = new MapReply(items);
      } else if (rawField(vm, L, 'set', LUA_TTABLE)) {
        const items: Reply[] = [];
        vm.pushNil(L);
        while (vm.next(L, -2)) {
          vm.pop(L, 1);
          vm.pushValue(L, -1);
          items.push(popResult(vm, L, resp, version));
        }
        vm.pop(L, 1);
        out = new SetReply(items);
      } else return ARRAY_TABLE;
      break;
    }
    default:
      out = null;
  }
  vm.pop(L, 1);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Error tables

/** The error table on top of L carries Redis's `ignore_error_stats_update` (luaExtractErrorInformation). */
export function statsCounted(vm: LuaVm, L: LuaState): boolean {
  vm.getField(L, -1, 'ignore_error_stats_update');
  const counted = vm.type(L, -1) === LUA_TBOOLEAN && vm.toBoolean(L, -1);
  vm.pop(L, 1);
  return counted;
}

/** An `{err=…}` result whose error was counted already (see NoStatsCommandError). */
export class CountedErrorReply extends ErrorReply {}
