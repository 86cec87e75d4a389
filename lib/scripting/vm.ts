/**
 * Redis's Lua 5.1 as WebAssembly (`wasm/redis-lua.wasm`, built by scripts/lua-wasm/build.sh from
 * deps/lua of the Redis source tree: the VM with Redis's readonly tables, `cjson`, `cmsgpack`,
 * `struct`, `bit`; glue in scripts/lua-wasm/glue.c), and the part of its C API lib/scripting/lua.ts
 * calls, as JS functions over the instance's exports.
 *
 * Start-up: the file is read and compiled once per process (the `WebAssembly.Module` is kept on
 * `globalThis`, so every jest test file of a worker reuses it) and instantiated once per module
 * registry, on the first script; nothing here runs at import of the package.
 *
 * Conventions: a `LuaState` is a pointer into the instance's memory; strings cross as byte
 * strings (one char per byte, latin1), never decoded as UTF-8. A Lua error raised inside a host
 * function (`pushJsFunction`) unwinds through a JS exception (`LUA_THROW`): the glue redirects
 * Lua's longjmp to the host, which has no other way to unwind WebAssembly frames.
 */
import { readFileSync } from 'fs';
import { performance } from 'perf_hooks';
import { join } from 'path';
import { StreamsMockError } from '../clock/clock';

/** V8's longest string (2^29 - 24 chars): a longer byte string cannot be a JS string. */
const MAX_JS_STRING = 0x1fffffe8;

// The WebAssembly global of Node (this project's TypeScript libs do not declare it).
interface WasmModule {
  readonly wasmModule?: never;
}
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: Record<string, Record<string, unknown>>) => { exports: Record<string, unknown> };
};

export type LuaState = number;

/** The initial state of Redis's rand.c (drand48's X0..X2 = 0x330E, 0xABCD, 0x1234). */
export const RAND48_INITIAL = 0x1234abcd330e;
/** A host function: reads its arguments from the stack of L, pushes results, returns how many. */
export type JsFunction = (L: LuaState) => number;

export const LUA_TNIL = 0;
export const LUA_TBOOLEAN = 1;
export const LUA_TLIGHTUSERDATA = 2;
export const LUA_TNUMBER = 3;
export const LUA_TSTRING = 4;
export const LUA_TTABLE = 5;
export const LUA_TFUNCTION = 6;
export const LUA_TTHREAD = 8;
export const LUA_YIELD = 1;
export const LUA_MULTRET = -1;
export const LUA_REGISTRYINDEX = -10000;
export const LUA_GLOBALSINDEX = -10002;

interface Exports {
  memory: { buffer: ArrayBuffer };
  __stack_pointer: { value: number };
  malloc(n: number): number;
  free(p: number): void;
  glue_call_protected(f: number, L: number, ud: number): void;
  glue_pushjsfunction(L: number, id: number): void;
  glue_tolstring(L: number, idx: number): number;
  glue_last_len(): number;
  glue_scratch(n: number): number;
  glue_tostring(L: number, idx: number): number;
  glue_where(L: number, level: number): number;
  glue_where_line(): number;
  glue_sethook(L: number, count: number): void;
  glue_hook_yielded(): number;
  glue_newstate(withOs: number): number;
  glue_rand_get(): number;
  glue_rand_set(x: number): void;
  glue_protect(L: number): void;
  lua_gettop(L: number): number;
  lua_settop(L: number, n: number): void;
  lua_pushvalue(L: number, i: number): void;
  lua_remove(L: number, i: number): void;
  lua_insert(L: number, i: number): void;
  lua_replace(L: number, i: number): void;
  lua_checkstack(L: number, n: number): number;
  lua_type(L: number, i: number): number;
  lua_isnumber(L: number, i: number): number;
  lua_isstring(L: number, i: number): number;
  lua_tonumber(L: number, i: number): number;
  lua_toboolean(L: number, i: number): number;
  lua_objlen(L: number, i: number): number;
  lua_pushnil(L: number): void;
  lua_pushnumber(L: number, n: number): void;
  lua_pushlstring(L: number, p: number, n: number): void;
  lua_pushboolean(L: number, b: number): void;
  lua_getfield(L: number, i: number, k: number): void;
  lua_rawget(L: number, i: number): void;
  lua_rawgeti(L: number, i: number, n: number): void;
  lua_createtable(L: number, a: number, r: number): void;
  lua_setfield(L: number, i: number, k: number): void;
  lua_rawset(L: number, i: number): void;
  lua_rawseti(L: number, i: number, n: number): void;
  lua_setmetatable(L: number, i: number): number;
  lua_getmetatable(L: number, i: number): number;
  lua_pcall(L: number, nargs: number, nres: number, errf: number): number;
  lua_error(L: number): number;
  lua_next(L: number, i: number): number;
  lua_newthread(L: number): number;
  lua_resume(L: number, nargs: number): number;
  lua_status(L: number): number;
  lua_xmove(from: number, to: number, n: number): void;
  lua_gc(L: number, what: number, data: number): number;
  lua_enablereadonlytable(L: number, i: number, on: number): void;
  lua_isreadonlytable(L: number, i: number): number;
  luaL_loadbuffer(L: number, p: number, n: number, name: number): number;
  luaL_ref(L: number, t: number): number;
  luaL_unref(L: number, t: number, ref: number): void;
}

/** The exception that carries a Lua error through WebAssembly frames (never seen outside). */
const LUA_THROW = { luaThrow: true };

const MODULE_KEY = Symbol.for('ioredis-mock-streams.redis-lua.wasm');

/** The compiled module: once per process (kept on globalThis across jest module registries). */
function compiledModule(): WasmModule {
  const g = globalThis as unknown as Record<symbol, WasmModule | undefined>;
  let mod = g[MODULE_KEY];
  if (!mod) {
    // lib/engine/ (sources) and dist/bundle/ or dist/engine/ (build) are both two levels down
    mod = new WebAssembly.Module(readFileSync(join(__dirname, '..', '..', 'wasm', 'redis-lua.wasm')));
    g[MODULE_KEY] = mod;
  }
  return mod;
}

/** One instance of the Lua WebAssembly module and its C API. */
export class LuaVm {
  private readonly x: Exports;
  private heap: Uint8Array;
  private readonly fns: JsFunction[] = [];
  /** Asked every `count` instructions of a hooked state: 0 go on, 1 yield, 2 kill. */
  onHook: (L: LuaState) => number = () => 0;
  /** A non-Lua exception thrown inside a host function (a bug or a library error). */
  hostError: { error: unknown } | null = null;

  constructor() {
    const wasiStub = () => 52; // ENOSYS: nothing here does I/O
    const instance = new WebAssembly.Instance(compiledModule(), {
      env: {
        lua_throw: () => {
          throw LUA_THROW;
        },
        lua_try: (f: number, L: number, ud: number) => {
          const sp = this.x.__stack_pointer.value;
          try {
            this.x.glue_call_protected(f, L, ud);
          } catch (e) {
            if (e !== LUA_THROW) throw e;
            this.x.__stack_pointer.value = sp;
          }
        },
        js_call: (L: number, id: number) => {
          try {
            return this.fns[id](L);
          } catch (e) {
            if (e === LUA_THROW) throw e;
            // a host bug must not unwind past Lua's own handlers: turn it into a Lua error
            this.hostError ??= { error: e };
            this.pushString(L, 'ERR internal error in ioredis-mock-streams');
            return this.x.lua_error(L);
          }
        },
        js_hook: (L: number) => this.onHook(L),
      },
      wasi_snapshot_preview1: new Proxy(
        {
          clock_time_get: (_id: number, _precision: bigint, out: number) => {
            // perf_hooks, not process.hrtime: @sinonjs/fake-timers on the real global fakes hrtime (real-turn.ts)
            const ns = BigInt(Math.round(performance.now() * 1e6));
            new DataView(this.x.memory.buffer).setBigUint64(out, ns, true);
            return 0;
          },
          fd_prestat_get: () => 8, // EBADF: no preopened directories (ends libc's scan)
          proc_exit: (code: number) => {
            throw new Error(`redis-lua.wasm exited (${code})`);
          },
        } as Record<string, unknown>,
        { get: (t, k: string) => t[k] ?? wasiStub },
      ),
    });
    this.x = instance.exports as unknown as Exports;
    this.heap = new Uint8Array(this.x.memory.buffer);
  }

  private mem(): Uint8Array {
    // a grown memory detaches the old buffer (its views read 0 bytes long): cheaper than
    // comparing with memory.buffer on every call
    if (this.heap.byteLength === 0) this.heap = new Uint8Array(this.x.memory.buffer);
    return this.heap;
  }

  /** A C string (NUL-terminated) of `s` in the scratch buffer; valid until the next use. */
  private cstr(s: string): number {
    const p = this.x.glue_scratch(s.length + 1);
    const m = this.mem();
    for (let i = 0; i < s.length; i++) m[p + i] = s.charCodeAt(i);
    m[p + s.length] = 0;
    return p;
  }

  /** math.random's 48-bit generator state (an exact integer below 2^48). */
  get randomState(): number {
    return this.x.glue_rand_get();
  }
  set randomState(x: number) {
    this.x.glue_rand_set(x);
  }

  // -- states ------------------------------------------------------------------------------
  /** A new state with Redis's libraries (`os` only when withOs: Redis 7.4+). */
  newState(withOs: boolean): LuaState {
    const L = this.x.glue_newstate(withOs ? 1 : 0);
    if (!L) throw new Error('redis-lua.wasm: cannot create a Lua state');
    return L;
  }
  newThread(L: LuaState): LuaState {
    return this.x.lua_newthread(L);
  }
  close(L: LuaState): void {
    (this.x as unknown as { lua_close(L: number): void }).lua_close(L);
  }
  /** lua_resume: 0 finished, LUA_YIELD suspended, else an error (its value on top of L). */
  resume(L: LuaState, nargs: number): number {
    return this.x.lua_resume(L, nargs);
  }
  /** True when the last LUA_YIELD came from the slice hook (not coroutine.yield). */
  hookYielded(): boolean {
    return this.x.glue_hook_yielded() === 1;
  }
  /**
   * Whether L could yield now (ldo.c lua_yield: no C call of L in between, nCcalls <= baseCcalls):
   * the two `unsigned short` fields of lua_State at offsets 52 and 54 on wasm32 (lstate.h).
   */
  canYield(L: LuaState): boolean {
    const m = this.mem();
    const nCcalls = m[L + 52] | (m[L + 53] << 8);
    const baseCcalls = m[L + 54] | (m[L + 55] << 8);
    return nCcalls <= baseCcalls;
  }
  setHook(L: LuaState, count: number): void {
    this.x.glue_sethook(L, count);
  }
  xmove(from: LuaState, to: LuaState, n: number): void {
    this.x.lua_xmove(from, to, n);
  }
  gcStep(L: LuaState, data: number): void {
    this.x.lua_gc(L, 5 /* LUA_GCSTEP */, data);
  }
  /** Lua heap in use, bytes (lua_gc LUA_GCCOUNT × 1024 + LUA_GCCOUNTB). */
  memoryUsed(L: LuaState): number {
    return this.x.lua_gc(L, 3, 0) * 1024 + this.x.lua_gc(L, 4, 0);
  }

  // -- stack -------------------------------------------------------------------------------
  getTop(L: LuaState): number {
    return this.x.lua_gettop(L);
  }
  setTop(L: LuaState, n: number): void {
    this.x.lua_settop(L, n);
  }
  pop(L: LuaState, n: number): void {
    this.x.lua_settop(L, -n - 1);
  }
  pushValue(L: LuaState, i: number): void {
    this.x.lua_pushvalue(L, i);
  }
  insert(L: LuaState, i: number): void {
    this.x.lua_insert(L, i);
  }
  remove(L: LuaState, i: number): void {
    this.x.lua_remove(L, i);
  }
  replace(L: LuaState, i: number): void {
    this.x.lua_replace(L, i);
  }
  checkStack(L: LuaState, n: number): boolean {
    return this.x.lua_checkstack(L, n) !== 0;
  }
  type(L: LuaState, i: number): number {
    return this.x.lua_type(L, i);
  }
  isNumber(L: LuaState, i: number): boolean {
    return this.x.lua_isnumber(L, i) !== 0;
  }
  /** A string or a number (lua_isstring). */
  isString(L: LuaState, i: number): boolean {
    return this.x.lua_isstring(L, i) !== 0;
  }
  isTable(L: LuaState, i: number): boolean {
    return this.x.lua_type(L, i) === LUA_TTABLE;
  }
  toNumber(L: LuaState, i: number): number {
    return this.x.lua_tonumber(L, i);
  }
  toBoolean(L: LuaState, i: number): boolean {
    return this.x.lua_toboolean(L, i) !== 0;
  }
  /** lua_tolstring as a byte string (a number is converted in place, as in C); null if neither. */
  toString(L: LuaState, i: number): string | null {
    const p = this.x.glue_tolstring(L, i);
    if (!p) return null;
    return this.bytesAt(p, this.x.glue_last_len());
  }
  /** tostring(v) (metamethods included), as a byte string. May raise a Lua error. */
  toDisplayString(L: LuaState, i: number): string {
    const p = this.x.glue_tostring(L, i);
    const s = p ? this.bytesAt(p, this.x.glue_last_len()) : '';
    this.pop(L, 1);
    return s;
  }
  private bytesAt(p: number, len: number): string {
    if (len > MAX_JS_STRING) {
      // e.g. a script returning string.rep('x', 6e8): Redis answers it (up to its 4 GB replies)
      throw new StreamsMockError(`a Lua string of ${len} bytes is longer than JavaScript strings can be (${MAX_JS_STRING}); Redis would store it`);
    }
    const m = this.mem();
    if (len < 64) {
      let s = '';
      for (let k = 0; k < len; k++) s += String.fromCharCode(m[p + k]);
      return s;
    }
    return Buffer.from(m.buffer, p, len).toString('latin1');
  }
  pushNil(L: LuaState): void {
    this.x.lua_pushnil(L);
  }
  pushNumber(L: LuaState, n: number): void {
    this.x.lua_pushnumber(L, n);
  }
  pushBoolean(L: LuaState, b: boolean): void {
    this.x.lua_pushboolean(L, b ? 1 : 0);
  }
  /** Push a byte string (one char per byte). */
  pushString(L: LuaState, s: string): void {
    const n = s.length;
    const p = this.x.glue_scratch(n || 1);
    const m = this.mem();
    if (n < 64) for (let k = 0; k < n; k++) m[p + k] = s.charCodeAt(k);
    else Buffer.from(m.buffer).write(s, p, n, 'latin1');
    this.x.lua_pushlstring(L, p, n);
  }
  pushJsFunction(L: LuaState, fn: JsFunction): void {
    this.fns.push(fn);
    this.x.glue_pushjsfunction(L, this.fns.length - 1);
  }
  createTable(L: LuaState, narr: number, nrec: number): void {
    this.x.lua_createtable(L, narr, nrec);
  }
  getField(L: LuaState, i: number, k: string): number {
    this.x.lua_getfield(L, i, this.cstr(k));
    return this.x.lua_type(L, -1);
  }
  setField(L: LuaState, i: number, k: string): void {
    this.x.lua_setfield(L, i, this.cstr(k));
  }
  getGlobal(L: LuaState, k: string): number {
    return this.getField(L, LUA_GLOBALSINDEX, k);
  }
  setGlobal(L: LuaState, k: string): void {
    this.setField(L, LUA_GLOBALSINDEX, k);
  }
  rawGet(L: LuaState, i: number): number {
    this.x.lua_rawget(L, i);
    return this.x.lua_type(L, -1);
  }
  rawGetI(L: LuaState, i: number, n: number): number {
    this.x.lua_rawgeti(L, i, n);
    return this.x.lua_type(L, -1);
  }
  rawSet(L: LuaState, i: number): void {
    this.x.lua_rawset(L, i);
  }
  rawSetI(L: LuaState, i: number, n: number): void {
    this.x.lua_rawseti(L, i, n);
  }
  setMetatable(L: LuaState, i: number): void {
    this.x.lua_setmetatable(L, i);
  }
  /** Push the metatable of the value at `i`; false (nothing pushed) when it has none. */
  getMetatable(L: LuaState, i: number): boolean {
    return this.x.lua_getmetatable(L, i) !== 0;
  }
  next(L: LuaState, i: number): boolean {
    return this.x.lua_next(L, i) !== 0;
  }
  objLen(L: LuaState, i: number): number {
    return this.x.lua_objlen(L, i);
  }
  pcall(L: LuaState, nargs: number, nres: number, errf: number): number {
    return this.x.lua_pcall(L, nargs, nres, errf);
  }
  /** Raise the value on top of L as a Lua error (never returns). */
  error(L: LuaState): never {
    this.x.lua_error(L);
    throw new Error('unreachable: lua_error returned');
  }
  setReadonly(L: LuaState, i: number, on: boolean): void {
    this.x.lua_enablereadonlytable(L, i, on ? 1 : 0);
  }
  /** Set the readonly flag on the table on top, its tables and metatables, recursively. */
  protect(L: LuaState): void {
    this.x.glue_protect(L);
  }
  /** luaL_loadbuffer of a byte string under `name` (e.g. '@user_script'): 0 or an error code. */
  load(L: LuaState, chunk: string, name: string): number {
    const n = chunk.length;
    const p = this.x.malloc(n + name.length + 2);
    const m = this.mem();
    Buffer.from(m.buffer).write(chunk, p, n, 'latin1');
    const q = p + n;
    for (let k = 0; k < name.length; k++) m[q + k] = name.charCodeAt(k);
    m[q + name.length] = 0;
    try {
      return this.x.luaL_loadbuffer(L, p, n, q);
    } finally {
      this.x.free(p);
    }
  }
  ref(L: LuaState): number {
    return this.x.luaL_ref(L, LUA_REGISTRYINDEX);
  }
  unref(L: LuaState, ref: number): void {
    this.x.luaL_unref(L, LUA_REGISTRYINDEX, ref);
  }
  pushRef(L: LuaState, ref: number): void {
    this.x.lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
  }
  /**
   * The function at `level` of L's call stack: null (no such level), 'C', or its source and
   * current line (Lua).
   */
  where(L: LuaState, level: number): null | 'C' | { source: string; line: number } {
    const r = this.x.glue_where(L, level);
    if (r === 0) return null;
    if (r === 2) return 'C';
    const source = this.toString(L, -1) ?? '?';
    this.pop(L, 1);
    return { source, line: this.x.glue_where_line() };
  }
}
