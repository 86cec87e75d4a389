/**
 * Redis Functions on the Lua engine (function_lua.c): FUNCTION LOAD compiles a library in a Lua
 * state of its own per server and version, with the load API (`redis.register_function`, its
 * top level timed out after 500 ms), and FCALL/FCALL_RO run a registered function as a script
 * (./lua.ts startRun). The libraries themselves (names, flags, DUMP payload) are ./libraries.ts's;
 * the FUNCTION commands are lib/engine/commands/functions.ts's.
 */
import { parseInt64 } from '../commands/args';
import { CommandError } from '../errors';
import { MapReply, type Reply } from '../reply/reply';
import type { RedisVersion } from '../version';
import type { Connection } from '../engine/connection';
import type { ServerState } from '../engine/registry';
import { ERR_BAD_NAME, type FunctionInfo, type Library, SCRIPT_FLAGS, librariesOf, parseMetadata, validName } from './libraries';
import { realNow } from './real-turn';
import { oneLine } from './values';
import { LUA_GLOBALSINDEX, LUA_TFUNCTION, LUA_TNIL, LUA_TNUMBER, LUA_TSTRING, LUA_YIELD, type JsFunction, type LuaState, type LuaVm } from './vm';
import {
  BUSY_EVAL_TEXT,
  type Engine,
  ERR_RO_WITH_WRITE_FLAG,
  HOOK_COUNT,
  type LoadCtx,
  busyByServer,
  checkScriptOom,
  clusterState,
  createEngine,
  engineAlive,
  engineIn,
  functionEnginesByServer,
  functionLoad,
  hook,
  loadUserChunk,
  raiseError,
  raiseText,
  startRun,
  theVm,
  vmFailed,
} from './lua';

/** A new metatable whose __index raises "Script attempted to access nonexistent global variable". */
function pushErrorMetatable(vm: LuaVm, L: LuaState): void {
  vm.createTable(L, 0, 1);
  vm.pushJsFunction(L, (L1) => {
    const name = vm.isString(L1, -1) ? (vm.toString(L1, -1) as string) : '?';
    return raiseText(vm, L1, `Script attempted to access nonexistent global variable '${name}'`);
  });
  vm.setField(L, -2, '__index');
}

/** redis.register_function (function_lua.c luaRegisterFunction and its argument readers). */
function registerFunction(vm: LuaVm): JsFunction {
  return (L) => {
    const ctx = functionLoad.ctx;
    if (ctx === null) raiseError(vm, L, 'ERR redis.register_function can only be called on FUNCTION LOAD command');
    const argc = vm.getTop(L);
    if (argc < 1 || argc > 2) raiseError(vm, L, 'ERR wrong number of arguments to redis.register_function');
    let name: string | null = null;
    let description: string | null = null;
    let ref: number | null = null;
    let mask = 0;
    const fail = (text: string): never => {
      if (ref !== null) vm.unref(L, ref);
      return raiseError(vm, L, text);
    };
    const stringAt = (i: number): string | null => {
      if (!vm.isString(L, i)) return null;
      vm.pushValue(L, i); // a copy: lua_tostring turns a number into a string in place
      const s = vm.toString(L, -1) as string;
      vm.pop(L, 1);
      return s;
    };
    if (argc === 1) {
      if (!vm.isTable(L, 1)) {
        fail('ERR calling redis.register_function with a single argument is only applicable to Lua table (representing named arguments).');
      }
      vm.pushNil(L);
      while (vm.next(L, 1)) {
        const key = stringAt(-2);
        if (key === null) fail('ERR named argument key given to redis.register_function is not a string');
        const k = (key as string).toLowerCase();
        if (k === 'function_name') {
          name = stringAt(-1);
          if (name === null) fail('ERR function_name argument given to redis.register_function must be a string');
        } else if (k === 'description') {
          description = stringAt(-1);
          if (description === null) fail('ERR description argument given to redis.register_function must be a string');
        } else if (k === 'callback') {
          if (vm.type(L, -1) !== LUA_TFUNCTION) fail('ERR callback argument given to redis.register_function must be a function');
          if (ref !== null) vm.unref(L, ref);
          ref = vm.ref(L);
          continue; // the value is popped
        } else if (k === 'flags') {
          if (!vm.isTable(L, -1)) fail('ERR flags argument to redis.register_function must be a table representing function flags');
          for (let j = 1; ; j++) {
            if (vm.rawGetI(L, -1, j) === LUA_TNIL) {
              vm.pop(L, 1);
              break;
            }
            const flag = stringAt(-1);
            vm.pop(L, 1);
            const bit = flag === null ? -1 : SCRIPT_FLAGS.findIndex((f) => f === flag.toLowerCase());
            if (bit < 0) fail('ERR unknown flag given');
            mask |= 1 << bit;
          }
        } else fail('ERR unknown argument given to redis.register_function');
        vm.pop(L, 1);
      }
      if (name === null) fail('ERR redis.register_function must get a function name argument');
      if (ref === null) fail('ERR redis.register_function must get a callback argument');
    } else {
      name = stringAt(1);
      if (name === null) fail('ERR first argument to redis.register_function must be a string');
      if (vm.type(L, 2) !== LUA_TFUNCTION) fail('ERR second argument to redis.register_function must be a function');
      vm.setTop(L, 2);
      ref = vm.ref(L);
    }
    const fname = name as string;
    if (!validName(fname)) fail(ERR_BAD_NAME);
    if (ctx!.functions.has(fname)) fail('ERR Function already exists in the library');
    const flags = SCRIPT_FLAGS.filter((_, i) => (mask & (1 << i)) !== 0);
    ctx!.functions.set(fname, { name: fname, description, flags, ref: ref as number });
    return 0;
  };
}

/**
 * The functions VM (function_lua.c luaEngineInitEngine): Redis's libraries and `redis` API as for
 * EVAL, globals reached through an empty read-only table (a function cannot set a global), and
 * while a library loads only the load API (`redis.register_function`, `redis.log`,
 * `redis.REDIS_VERSION(_NUM)`; anything else is a nonexistent global).
 */
function createFunctionEngine(version: RedisVersion): Engine {
  const vm = theVm();
  const engine = createEngine(version, true);
  const L = engine.L;
  vm.createTable(L, 0, 1); // the load API
  vm.createTable(L, 0, 8); // its `redis`
  vm.pushJsFunction(L, registerFunction(vm));
  vm.setField(L, -2, 'register_function');
  vm.getGlobal(L, 'redis');
  for (const k of ['log', 'LOG_DEBUG', 'LOG_VERBOSE', 'LOG_NOTICE', 'LOG_WARNING', 'REDIS_VERSION', 'REDIS_VERSION_NUM']) {
    vm.getField(L, -1, k);
    vm.setField(L, -3, k);
  }
  vm.pop(L, 1);
  pushErrorMetatable(vm, L);
  vm.setMetatable(L, -2);
  vm.setField(L, -2, 'redis');
  pushErrorMetatable(vm, L);
  vm.setMetatable(L, -2);
  vm.protect(L);
  engine.loadApiRef = vm.ref(L);
  vm.pushValue(L, LUA_GLOBALSINDEX);
  engine.globalsRef = vm.ref(L);
  vm.createTable(L, 0, 0); // the globals functions see
  vm.createTable(L, 0, 1); // their metatable: __index = the real globals (or the load API)
  vm.pushValue(L, LUA_GLOBALSINDEX);
  vm.setField(L, -2, '__index');
  vm.setReadonly(L, -1, true);
  vm.pushValue(L, -1);
  engine.globalsMt = vm.ref(L);
  vm.setMetatable(L, -2);
  vm.setReadonly(L, -1, true);
  vm.replace(L, LUA_GLOBALSINDEX);
  vm.setTop(L, 0);
  return engine;
}

/** The Lua engine for Redis Functions of `conn`'s server and emulated version (made on first use). */
function functionEngineFor(conn: Connection): Engine {
  return engineIn(functionEnginesByServer, conn, createFunctionEngine);
}

function setLoadGlobals(engine: Engine, load: boolean): void {
  const vm = theVm();
  const L = engine.L;
  vm.pushRef(L, engine.globalsMt);
  vm.setReadonly(L, -1, false);
  vm.pushRef(L, load ? engine.loadApiRef : engine.globalsRef);
  vm.setField(L, -2, '__index');
  vm.setReadonly(L, -1, true);
  vm.pop(L, 1);
}

type Compiled = LoadCtx['functions'];

/**
 * function_lua.c luaEngineCreate: compile a library's code (after its metadata line) and run it
 * with the load API; what it registered. Throws "ERR Error compiling function: …" or "ERR Error
 * registering functions: …" (a top level running past 500 ms: "FUNCTION LOAD timeout").
 */
function compileLibrary(engine: Engine, body: string): Compiled {
  const vm = theVm();
  const L = engine.L;
  setLoadGlobals(engine, true);
  const ctx: LoadCtx = { functions: new Map(), startedAt: realNow(), timedOut: false };
  let co = 0;
  let coRef: number | null = null;
  try {
    if (loadUserChunk(vm, L, body, '@user_function') !== 0) {
      const msg = vm.toString(L, -1) ?? '';
      throw new CommandError(oneLine(`ERR Error compiling function: ${msg}`));
    }
    co = vm.newThread(L);
    coRef = vm.ref(L);
    vm.xmove(L, co, 1);
    const outer = functionLoad.ctx;
    functionLoad.ctx = ctx;
    vm.onHook = hook;
    vm.setHook(co, HOOK_COUNT);
    let status: number;
    try {
      status = vm.resume(co, 0);
    } catch (err) {
      throw vmFailed(err);
    } finally {
      functionLoad.ctx = outer;
    }
    if (vm.hostError) {
      const e = vm.hostError.error;
      vm.hostError = null;
      throw e;
    }
    if (status !== 0) {
      let msg: string;
      if (ctx.timedOut) msg = 'ERR FUNCTION LOAD timeout';
      else if (status === LUA_YIELD) msg = 'ERR attempt to yield across metamethod/C-call boundary';
      else if (vm.type(co, -1) === LUA_TSTRING || vm.type(co, -1) === LUA_TNUMBER) msg = `ERR ${vm.toString(co, -1)}`;
      else if (vm.isTable(co, -1)) {
        vm.getField(co, -1, 'err');
        msg = vm.isString(co, -1) ? (vm.toString(co, -1) as string) : '(null)';
      } else msg = '(null)';
      throw new CommandError(oneLine(`ERR Error registering functions: ${msg}`));
    }
    return ctx.functions;
  } catch (err) {
    if (engineAlive(engine)) for (const f of ctx.functions.values()) vm.unref(L, f.ref);
    throw err;
  } finally {
    // (nothing to release in a VM that failed: vmFailed dropped it)
    if (engineAlive(engine)) {
      if (coRef !== null) {
        vm.setHook(co, 0);
        vm.unref(L, coRef);
      }
      setLoadGlobals(engine, false);
      vm.setTop(L, 0);
    }
  }
}

function forgetCompiled(engine: Engine, compiled: Compiled): void {
  for (const f of compiled.values()) theVm().unref(engine.L, f.ref);
}

/** Drop what every functions VM of the server compiled for `lib`. */
function dropLibraryRefs(server: ServerState, lib: Library): void {
  for (const engine of functionEnginesByServer.get(server)?.values() ?? []) {
    const refs = engine.libRefs.get(lib);
    if (!refs) continue;
    engine.libRefs.delete(lib);
    if (!engine.closed && engineAlive(engine)) for (const ref of refs.values()) theVm().unref(engine.L, ref);
  }
}

function makeLibrary(name: string, code: string, compiled: Compiled): Library {
  const functions = new Map<string, FunctionInfo>();
  const lib: Library = { name, engine: 'LUA', code, functions };
  for (const [key, f] of compiled) functions.set(key, { name: f.name, description: f.description, flags: f.flags, library: lib });
  return lib;
}

function refsOf(compiled: Compiled): Map<string, number> {
  return new Map([...compiled].map(([k, f]) => [k, f.ref]));
}

/**
 * functions.c functionsCreateWithLibraryCtx for FUNCTION LOAD / RESTORE into `target` (the
 * server's libraries, or RESTORE's own set): metadata, name, engine, an existing library
 * (REPLACE), the code, then a name another library already has. Returns the new library.
 */
function createLibrary(
  engine: Engine,
  code: string,
  replace: boolean,
  target: { libraries: Map<string, Library>; functions: Map<string, FunctionInfo> },
  link: (lib: Library, old: Library | undefined) => void,
): Library {
  const meta = parseMetadata(code);
  if (!validName(meta.name)) throw new CommandError(ERR_BAD_NAME);
  if (meta.engine.toUpperCase() !== 'LUA') throw new CommandError(oneLine(`ERR Engine '${meta.engine}' not found`));
  const old = target.libraries.get(meta.name);
  if (old && !replace) throw new CommandError(oneLine(`ERR Library '${meta.name}' already exists`));
  const compiled = compileLibrary(engine, meta.body);
  try {
    if (compiled.size === 0) throw new CommandError('ERR No functions registered');
    for (const [key, f] of compiled) {
      const other = target.functions.get(key.toLowerCase());
      if (other && other.library !== old) throw new CommandError(oneLine(`ERR Function ${f.name} already exists`));
    }
  } catch (err) {
    forgetCompiled(engine, compiled);
    throw err;
  }
  const lib = makeLibrary(meta.name, code, compiled);
  engine.libRefs.set(lib, refsOf(compiled));
  link(lib, old);
  return lib;
}

/** FUNCTION LOAD [REPLACE] code: the library's name. */
export function loadLibrary(conn: Connection, code: string, replace: boolean): string {
  const libs = librariesOf(conn.server);
  const lib = createLibrary(functionEngineFor(conn), code, replace, libs, (lib, old) => {
    if (old) {
      libs.unlink(old);
      dropLibraryRefs(conn.server, old);
    }
    libs.link(lib);
  });
  return lib.name;
}

/** FUNCTION DELETE name. */
export function deleteLibrary(conn: Connection, name: string): void {
  const libs = librariesOf(conn.server);
  const lib = libs.libraries.get(name);
  if (!lib) throw new CommandError('ERR Library not found');
  libs.unlink(lib);
  dropLibraryRefs(conn.server, lib);
}

/** FUNCTION FLUSH. */
export function flushLibraries(conn: Connection): void {
  flushLibrariesOf(conn.server);
}

/** Every function library of `server` gone (FUNCTION FLUSH, SHUTDOWN). */
export function flushLibrariesOf(server: ServerState): void {
  const libs = librariesOf(server);
  for (const lib of libs.libraries.values()) dropLibraryRefs(server, lib);
  libs.clear();
}

/**
 * FUNCTION RESTORE payload codes with a policy (functions.c functionRestoreCommand): the payload's
 * libraries are created apart first (an error leaves the server's libraries as they were), then
 * FLUSH swaps them in, APPEND/REPLACE join them (libraryJoin: "Library x already exists" without
 * quotes, then "Function f already exists").
 */
export function restoreLibraries(conn: Connection, codes: string[], policy: 'flush' | 'append' | 'replace'): void {
  const engine = functionEngineFor(conn);
  const libs = librariesOf(conn.server);
  const temp = { libraries: new Map<string, Library>(), functions: new Map<string, FunctionInfo>() };
  const created: Library[] = [];
  const discard = () => {
    for (const lib of created) dropLibraryRefs(conn.server, lib);
  };
  try {
    for (const code of codes) {
      created.push(
        createLibrary(engine, code, false, temp, (lib) => {
          temp.libraries.set(lib.name, lib);
          for (const [k, f] of lib.functions) if (!temp.functions.has(k.toLowerCase())) temp.functions.set(k.toLowerCase(), f);
        }),
      );
    }
  } catch (err) {
    discard();
    throw err;
  }
  if (policy === 'flush') {
    flushLibraries(conn);
    for (const lib of created) libs.link(lib);
    return;
  }
  const replaced: Library[] = [];
  for (const lib of created) {
    const old = libs.libraries.get(lib.name);
    if (!old) continue;
    if (policy !== 'replace') {
      discard();
      throw new CommandError(oneLine(`ERR Library ${lib.name} already exists`));
    }
    replaced.push(old);
  }
  for (const lib of created) {
    for (const [key, f] of lib.functions) {
      const other = libs.functions.get(key.toLowerCase());
      if (other && !replaced.includes(other.library)) {
        discard();
        throw new CommandError(oneLine(`ERR Function ${f.name} already exists`));
      }
    }
  }
  for (const old of replaced) {
    libs.unlink(old);
    dropLibraryRefs(conn.server, old);
  }
  for (const lib of created) libs.link(lib);
}

/** The compiled function `fn` in `engine` (its library compiled there now if it was not). */
function compiledFunction(engine: Engine, fn: FunctionInfo): number {
  let refs = engine.libRefs.get(fn.library);
  if (!refs) {
    refs = refsOf(compileLibrary(engine, parseMetadata(fn.library.code).body));
    engine.libRefs.set(fn.library, refs);
  }
  return refs.get(fn.name) as number;
}

function pushArray(vm: LuaVm, L: LuaState, items: string[]): void {
  vm.createTable(L, items.length, 0);
  for (let i = 0; i < items.length; i++) {
    vm.pushString(L, items[i]);
    vm.rawSetI(L, -2, i + 1);
  }
}

/** FCALL / FCALL_RO function numkeys key… arg… (functions.c fcallCommandGeneric). */
export function fcallCommand(conn: Connection, argv: string[], ro: boolean): Reply | Promise<Reply> {
  const fn = librariesOf(conn.server).functions.get(argv[1].toLowerCase());
  if (!fn) throw new CommandError('ERR Function not found');
  const n = parseInt64(argv[2]);
  if (n === null) throw new CommandError('ERR Bad number of keys provided');
  if (n > BigInt(argv.length - 3)) throw new CommandError("ERR Number of keys can't be greater than number of args");
  if (n < 0n) throw new CommandError("ERR Number of keys can't be negative");
  if (conn.server.cluster !== null && fn.flags.includes('no-cluster')) {
    throw new CommandError("ERR Can not run script on cluster, 'no-cluster' flag is set.");
  }
  const noWrites = fn.flags.includes('no-writes');
  if (!noWrites && ro) throw new CommandError(ERR_RO_WITH_WRITE_FLAG);
  checkScriptOom(conn, fn.flags);
  const engine = functionEngineFor(conn);
  const ref = compiledFunction(engine, fn);
  const keys = argv.slice(3, 3 + Number(n));
  const args = argv.slice(3 + Number(n));
  const vm = theVm();
  return startRun(conn, engine, ref, {
    name: fn.name,
    isEval: false,
    readOnly: ro || noWrites,
    allowOom: fn.flags.includes('allow-oom'),
    argv,
    push: (co) => {
      pushArray(vm, co, keys);
      pushArray(vm, co, args);
      return 2;
    },
    ...clusterState(conn, keys, fn.flags.includes('allow-cross-slot-keys')),
  });
}

/** FUNCTION STATS (functions.c functionStatsCommand). */
export function functionStats(conn: Connection): Reply {
  const run = busyByServer.get(conn.server);
  if (run && run.isEval) throw new CommandError(BUSY_EVAL_TEXT);
  const running = run
    ? new MapReply(['name', run.sha, 'command', run.argv, 'duration_ms', Math.floor(realNow() - run.startedAt)])
    : null;
  const libs = librariesOf(conn.server);
  return new MapReply([
    'running_script',
    running,
    'engines',
    new MapReply(['LUA', new MapReply(['libraries_count', libs.libraries.size, 'functions_count', [...libs.libraries.values()].reduce((n, l) => n + l.functions.size, 0)])]),
  ]);
}
