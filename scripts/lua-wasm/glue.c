/*
 * Glue between Redis's Lua 5.1 (deps/lua of the Redis source tree, with its cjson, cmsgpack,
 * struct and bit libraries) compiled to WebAssembly and lib/scripting/vm.ts.
 *
 * - Errors: luaconf.h's LUAI_THROW/LUAI_TRY are redirected (see build.sh) to the host: the host's
 *   `lua_try` calls `glue_call_protected(f, L, ud)` inside a JS try/catch and `lua_throw` throws a
 *   JS exception, which unwinds the WebAssembly frames (no setjmp/longjmp in wasm32-wasi).
 * - Host functions: `glue_pushjsfunction(L, id)` pushes a C closure whose upvalue is `id`;
 *   calling it calls the host's `js_call(L, id)`, which returns the number of results.
 * - Slices: `glue_sethook(L, count)` installs a count hook that asks the host (`js_hook`) every
 *   `count` VM instructions whether to go on (0), yield the coroutine (1: only where Lua 5.1 can
 *   yield from a hook: no C call in between) or raise the SCRIPT KILL error (2), as
 *   script_lua.c luaMaskCountHook does (after a kill the hook runs on every line so pcall cannot
 *   swallow it).
 * - math.random / math.randomseed: the 48-bit linear congruential generator of POSIX drand48
 *   (X' = 0x5DEECE66D·X + 0xB mod 2^48), the generator Redis's Lua uses (rand.c), with the same
 *   initial state and `srand48` seeding; random() = (lrand48() % INT32_MAX) / INT32_MAX.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"
#include "lstate.h"

#define EXPORT(name) __attribute__((export_name(#name)))
#define IMPORT(name) __attribute__((import_module("env"), import_name(#name)))

IMPORT(js_call) int js_call(lua_State *L, int id);
IMPORT(js_hook) int js_hook(lua_State *L);

/* Called by the host's lua_try inside its try/catch. */
typedef void (*Pfunc)(lua_State *L, void *ud);
EXPORT(glue_call_protected) void glue_call_protected(Pfunc f, lua_State *L, void *ud) { f(L, ud); }

/* ---- host functions ---------------------------------------------------------------------- */

static int trampoline(lua_State *L) {
  return js_call(L, (int)lua_tonumber(L, lua_upvalueindex(1)));
}
EXPORT(glue_pushjsfunction) void glue_pushjsfunction(lua_State *L, int id) {
  lua_pushnumber(L, id);
  lua_pushcclosure(L, trampoline, 1);
}

/* ---- strings ----------------------------------------------------------------------------- */

static size_t last_len;
EXPORT(glue_tolstring) const char *glue_tolstring(lua_State *L, int idx) {
  size_t len = 0;
  const char *s = lua_tolstring(L, idx, &len);
  last_len = len;
  return s;
}
EXPORT(glue_last_len) size_t glue_last_len(void) { return last_len; }

static char *scratch;
static size_t scratch_size;
EXPORT(glue_scratch) char *glue_scratch(size_t size) {
  if (size > scratch_size) {
    free(scratch);
    scratch_size = size < 256 ? 256 : size * 2;
    scratch = malloc(scratch_size);
  }
  return scratch;
}

/* luaL_tolstring-like: tostring(v) through the global tostring (metamethods included). */
EXPORT(glue_tostring) const char *glue_tostring(lua_State *L, int idx) {
  lua_getglobal(L, "tostring");
  lua_pushvalue(L, idx < 0 && idx > LUA_REGISTRYINDEX ? idx - 1 : idx);
  lua_call(L, 1, 1);
  return glue_tolstring(L, -1); /* left on the stack: the caller pops it */
}

/* ---- debug info -------------------------------------------------------------------------- */

static int where_line;
/* The function at `level` of L's call stack: 0 none, 1 Lua (its line via glue_where_line and
 * source pushed), 2 C. */
EXPORT(glue_where) int glue_where(lua_State *L, int level) {
  lua_Debug ar;
  if (!lua_getstack(L, level, &ar)) return 0;
  lua_getinfo(L, "Sl", &ar);
  if (strcmp(ar.what, "C") == 0) return 2;
  where_line = ar.currentline;
  lua_pushstring(L, ar.source);
  return 1;
}
EXPORT(glue_where_line) int glue_where_line(void) { return where_line; }

/* ---- slices and SCRIPT KILL -------------------------------------------------------------- */

static int hook_yielded;
static void count_hook(lua_State *L, lua_Debug *ar) {
  (void)ar;
  int r = js_hook(L);
  if (r == 2) {
    lua_sethook(L, count_hook, LUA_MASKLINE, 0);
    lua_newtable(L);
    lua_pushstring(L, "err");
    lua_pushstring(L, "ERR Script killed by user with SCRIPT KILL...");
    lua_settable(L, -3);
    lua_error(L);
  }
  if (r == 1 && L->nCcalls <= L->baseCcalls) {
    hook_yielded = 1;
    lua_yield(L, 0);
  }
}
EXPORT(glue_sethook) void glue_sethook(lua_State *L, int count) {
  if (count > 0) lua_sethook(L, count_hook, LUA_MASKCOUNT, count);
  else lua_sethook(L, NULL, 0, 0);
}
/* 1 when the last LUA_YIELD of a resume came from the hook (then reset). */
EXPORT(glue_hook_yielded) int glue_hook_yielded(void) { int r = hook_yielded; hook_yielded = 0; return r; }

/* ---- math.random (Redis: rand.c + script_lua.c redis_math_random) ------------------------- */

static uint64_t rand_x = 0x1234ABCD330EULL;
#define RAND48_MASK ((1ULL << 48) - 1)
static int32_t lrand48_(void) {
  rand_x = (0x5DEECE66DULL * rand_x + 0xB) & RAND48_MASK;
  return (int32_t)(rand_x >> 17);
}
EXPORT(glue_rand_get) double glue_rand_get(void) { return (double)rand_x; }
EXPORT(glue_rand_set) void glue_rand_set(double x) { rand_x = ((uint64_t)x) & RAND48_MASK; }
static int math_random(lua_State *L) {
  lua_Number r = (lua_Number)(lrand48_() % INT32_MAX) / (lua_Number)INT32_MAX;
  switch (lua_gettop(L)) {
    case 0: lua_pushnumber(L, r); break;
    case 1: {
      int u = luaL_checkint(L, 1);
      luaL_argcheck(L, 1 <= u, 1, "interval is empty");
      lua_pushnumber(L, floor(r * u) + 1);
      break;
    }
    case 2: {
      int l = luaL_checkint(L, 1);
      int u = luaL_checkint(L, 2);
      luaL_argcheck(L, l <= u, 2, "interval is empty");
      lua_pushnumber(L, floor(r * (u - l + 1)) + l);
      break;
    }
    default: return luaL_error(L, "wrong number of arguments");
  }
  return 1;
}
static int math_randomseed(lua_State *L) {
  uint32_t seed = (uint32_t)luaL_checkint(L, 1);
  rand_x = (((uint64_t)seed) << 16) | 0x330E;
  return 0;
}

/* ---- os (Redis 7.4+: loslib.c's sandbox_syslib, only os.clock) ------------------------------ */

#include <time.h>
/* Seconds since the first call, in doubles (wasm32's clock() wraps its 32-bit clock_t of
 * nanoseconds after 2.1 s). Real time stands for the process CPU time Redis reports. */
static int os_clock(lua_State *L) {
  static double start = -1;
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  double now = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
  if (start < 0) start = now;
  lua_pushnumber(L, now - start);
  return 1;
}
static const luaL_Reg os_lib[] = { { "clock", os_clock }, { NULL, NULL } };
static int luaopen_os_sandbox(lua_State *L) {
  luaL_register(L, LUA_OSLIBNAME, os_lib);
  return 1;
}

/* ---- state ------------------------------------------------------------------------------- */

LUALIB_API int luaopen_cjson(lua_State *L);
LUALIB_API int luaopen_struct(lua_State *L);
LUALIB_API int luaopen_cmsgpack(lua_State *L);
LUALIB_API int luaopen_bit(lua_State *L);

static void load_lib(lua_State *L, const char *name, lua_CFunction f) {
  lua_pushcfunction(L, f);
  lua_pushstring(L, name);
  lua_call(L, 1, 0);
}

/* A state with Redis's libraries (script_lua.c luaLoadLibraries; `os` only when with_os) and
 * its math.random; the rest (redis table, protection) is the host's. */
static int open_libs(lua_State *L) {
  int with_os = (int)lua_tonumber(L, 1);
  load_lib(L, "", luaopen_base);
  load_lib(L, LUA_TABLIBNAME, luaopen_table);
  load_lib(L, LUA_STRLIBNAME, luaopen_string);
  load_lib(L, LUA_MATHLIBNAME, luaopen_math);
  load_lib(L, LUA_DBLIBNAME, luaopen_debug);
  if (with_os) load_lib(L, LUA_OSLIBNAME, luaopen_os_sandbox);
  load_lib(L, "cjson", luaopen_cjson);
  load_lib(L, "struct", luaopen_struct);
  load_lib(L, "cmsgpack", luaopen_cmsgpack);
  load_lib(L, "bit", luaopen_bit);
  lua_getglobal(L, "math");
  lua_pushcfunction(L, math_random);
  lua_setfield(L, -2, "random");
  lua_pushcfunction(L, math_randomseed);
  lua_setfield(L, -2, "randomseed");
  lua_pop(L, 1);
  return 0;
}
EXPORT(glue_newstate) lua_State *glue_newstate(int with_os) {
  lua_State *L = luaL_newstate();
  if (!L) return NULL;
  lua_pushcfunction(L, open_libs);
  lua_pushnumber(L, with_os);
  if (lua_pcall(L, 1, 0, 0) != 0) return NULL;
  return L;
}

/* Set the readonly flag on the table at the top of the stack, its tables and metatables
 * (script_lua.c luaSetTableProtectionRecursively). */
static void protect_recursively(lua_State *L) {
  if (lua_isreadonlytable(L, -1)) return;
  lua_enablereadonlytable(L, -1, 1);
  lua_checkstack(L, 2);
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    if (lua_istable(L, -1)) protect_recursively(L);
    lua_pop(L, 1);
  }
  if (lua_getmetatable(L, -1)) {
    protect_recursively(L);
    lua_pop(L, 1);
  }
}
EXPORT(glue_protect) void glue_protect(lua_State *L) { protect_recursively(L); }
