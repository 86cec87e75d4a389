#!/bin/sh
# Build wasm/redis-lua.wasm: Redis's Lua 5.1 (deps/lua of the Redis source tree: the VM with
# Redis's readonly tables, and its cjson, cmsgpack, struct and bit libraries) for wasm32-wasi,
# with scripts/lua-wasm/glue.c. Needs Debian's clang-14, lld-14, wasi-libc and
# libclang-rt-14-dev-wasm32 (`apt-get install clang-14 lld-14 wasi-libc libclang-rt-14-dev-wasm32`).
# Usage: scripts/lua-wasm/build.sh [redis-source.tar.gz | redis source dir]
# (default: ../shared/redis-unstable/redis-4f8cdc2a.tar.gz next to the repository).
# The built file is committed: installing or testing the package never builds it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
src=${1:-$root/../shared/redis-unstable/redis-4f8cdc2a.tar.gz}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -d "$src" ]; then cp -r "$src/deps/lua/src" "$work/lua"; else
  tar xzf "$src" -C "$work" deps/lua/src && mv "$work/deps/lua/src" "$work/lua"
fi
# Errors through the host (see glue.c): no setjmp/longjmp on wasm32-wasi.
sed -i \
  -e 's|^#define LUAI_THROW(L,c)\tlongjmp((c)->b, 1)|#define LUAI_THROW(L,c)\tlua_wasm_throw()|' \
  -e 's|^#define LUAI_TRY(L,c,a)\tif (setjmp((c)->b) == 0) { a }|#define LUAI_TRY(L,c,a)\tlua_wasm_try(f, L, ud)|' \
  -e 's|^#define luai_jmpbuf\tjmp_buf|#define luai_jmpbuf\tint|' \
  "$work/lua/luaconf.h"
# Redis runs on 64-bit hosts, where long, size_t and ptrdiff_t (Lua 5.1's lua_Integer) are 64 bits;
# on wasm32 they are 32: string.format's %d/%x (LUA_INTFRM_T long), struct's l/L/T sizes and its
# integers (STRUCT_INT long), and lua_Integer conversions (string.sub/rep/byte indices) would cut
# values past 2^31 (string.format('%d', 1704067200000) gave -2147483648). 64-bit types throughout.
sed -i -e 's|^#define LUA_INTEGER\tptrdiff_t|#define LUA_INTEGER\tlong long|' "$work/lua/luaconf.h"
grep -q '^#define LUA_INTEGER	long long' "$work/lua/luaconf.h" || { echo "luaconf.h: LUA_INTEGER not replaced" >&2; exit 1; }
sed -i -e "s|case 'L': case 'l': return sizeof(long);|case 'L': case 'l': return 8;|" -e "s|case 'T': return sizeof(size_t);|case 'T': return 8;|" "$work/lua/lua_struct.c"
grep -q "case 'T': return 8;" "$work/lua/lua_struct.c" || { echo "lua_struct.c: sizes not replaced" >&2; exit 1; }
# string positions: lua_Integer kept whole, compared as 64-bit size_t is on those hosts
sed -i -e 's|ptrdiff_t|long long|g' -e 's|(size_t)pose > l|(unsigned long long)pose > l|' \
  -e 's|(size_t)(init) > l1|(unsigned long long)(init) > l1|' "$work/lua/lstrlib.c"
grep -q '(unsigned long long)(init) > l1' "$work/lua/lstrlib.c" || { echo "lstrlib.c: positions not replaced" >&2; exit 1; }
# double → integer conversions as x86-64 makes them (cvttsd2si: NaN and out-of-range values give
# INT64_MIN; to unsigned through the signed one, 2^63 and up shifted), where wasm gives 0:
# string.format('%x', -1) is ffffffffffffffff on Redis, struct.pack('<i8', 0/0) ends in 0x80
sed -i -e 's|(unsigned LUA_INTFRM_T)luaL_checknumber(L, arg)|lua_wasm_d2u(luaL_checknumber(L, arg))|' \
  -e 's|(LUA_INTFRM_T)luaL_checknumber(L, arg)|lua_wasm_d2ll(luaL_checknumber(L, arg))|' "$work/lua/lstrlib.c"
grep -q 'lua_wasm_d2u(luaL_checknumber' "$work/lua/lstrlib.c" || { echo "lstrlib.c: conversions not replaced" >&2; exit 1; }
# struct: the same conversions, and unpack's offset a 64-bit size_t as on those hosts (2^32 was 0)
sed -i -e 's|value = (Uinttype)(Inttype)n;|value = (Uinttype)lua_wasm_d2ll(n);|' -e 's|value = (Uinttype)n;|value = lua_wasm_d2u(n);|' \
  -e 's|size_t pos = luaL_optinteger(L, 3, 1);|unsigned long long pos = luaL_optinteger(L, 3, 1);|' "$work/lua/lua_struct.c"
grep -q 'unsigned long long pos = luaL_optinteger' "$work/lua/lua_struct.c" && grep -q 'value = lua_wasm_d2u(n);' "$work/lua/lua_struct.c" || { echo "lua_struct.c: conversions not replaced" >&2; exit 1; }
# tostring() of a NULL light userdata (cjson.null) prints glibc's "%p" of NULL, "userdata: (nil)"
# (7.0.15 and 8.x); wasi-libc prints "0" (other pointers are "0x…" in both)
sed -i 's|        sprintf(buff, "%p", va_arg(argp, void \*));|        { void *p = va_arg(argp, void *); if (p == NULL) strcpy(buff, "(nil)"); else sprintf(buff, "%p", p); }|' "$work/lua/lobject.c"
grep -q 'strcpy(buff, "(nil)")' "$work/lua/lobject.c" || { echo "lobject.c: %p not replaced" >&2; exit 1; }
# lua_cjson.c includes a header of Redis's src/ for Solaris only
sed -i 's|^#include "../../../src/solarisfixes.h"||' "$work/lua/lua_cjson.c"
grep -q 'lua_wasm_try' "$work/lua/luaconf.h" || { echo "luaconf.h: LUAI_TRY not replaced" >&2; exit 1; }
cat >> "$work/lua/luaconf.h" <<'H'
__attribute__((import_module("env"), import_name("lua_throw"))) void lua_wasm_throw(void);
__attribute__((import_module("env"), import_name("lua_try"))) void lua_wasm_try(void *f, void *L, void *ud);
static inline long long lua_wasm_d2ll(double d) {
  if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0)) return (long long)0x8000000000000000ULL;
  return (long long)d;
}
static inline unsigned long long lua_wasm_d2u(double d) {
  if (d >= 9223372036854775808.0) return (unsigned long long)lua_wasm_d2ll(d - 9223372036854775808.0) ^ 0x8000000000000000ULL;
  return (unsigned long long)lua_wasm_d2ll(d);
}
H
# loslib.c is left out: Redis registers only os.clock (its sandbox_syslib), which glue.c defines.
# ldo.c includes <setjmp.h>, which wasm32-wasi lacks and nothing here uses any more
mkdir -p "$work/inc" && : > "$work/inc/setjmp.h"
files="lapi lcode ldebug ldo ldump lfunc lgc llex lmem lobject lopcodes lparser lstate lstring ltable ltm lundump lvm lzio
  lauxlib lbaselib ldblib lmathlib ltablib lstrlib
  lua_cjson lua_cmsgpack lua_struct lua_bit strbuf fpconv"
objs=""
# -fwrapv: signed overflow wraps, as the x86-64 builds of Redis compute it (clang at -O2 otherwise
# folds overflow checks away: unpack({}, -1, 2^31-2) pushed 2^31 values and trapped the VM instead
# of "too many results to unpack")
for f in $files; do
  clang-14 --target=wasm32-wasi -O2 -fwrapv -D_WASI_EMULATED_PROCESS_CLOCKS -DENABLE_CJSON_GLOBAL=0 \
    -DLUA_USELONGLONG '-DSTRUCT_INT=long long' \
    -Wno-everything -ffile-prefix-map="$work"=. -I"$work/inc" -I"$work/lua" -c "$work/lua/$f.c" -o "$work/$f.o"
  objs="$objs $work/$f.o"
done
clang-14 --target=wasm32-wasi -O2 -D_WASI_EMULATED_PROCESS_CLOCKS -I"$work/lua" -c "$here/glue.c" -o "$work/glue.o"
# the Lua C API lib/scripting/vm.ts calls
api="lua_gettop lua_settop lua_pushvalue lua_remove lua_insert lua_replace lua_checkstack lua_type
  lua_isnumber lua_isstring lua_tonumber lua_toboolean lua_objlen lua_pushnil lua_pushnumber
  lua_pushlstring lua_pushboolean lua_getfield lua_rawget lua_rawgeti lua_createtable lua_setfield
  lua_rawset lua_rawseti lua_setmetatable lua_getmetatable lua_pcall lua_error lua_next
  lua_newthread lua_resume lua_status lua_xmove lua_gc lua_close lua_enablereadonlytable
  lua_isreadonlytable luaL_loadbuffer luaL_ref luaL_unref"
exports=""
for a in $api; do exports="$exports -Wl,--export=$a"; done
mkdir -p "$root/wasm"
clang-14 --target=wasm32-wasi -O2 -nostartfiles -Wl,--no-entry -Wl,--export-dynamic \
  $exports -Wl,--export=malloc -Wl,--export=free -Wl,--export=__stack_pointer -Wl,--allow-undefined \
  -Wl,-z,stack-size=1048576 -Wl,--initial-memory=4194304 -Wl,--strip-all \
  -lwasi-emulated-process-clocks -o "$root/wasm/redis-lua.wasm" $objs "$work/glue.o" -lwasi-emulated-process-clocks
ls -l "$root/wasm/redis-lua.wasm"
