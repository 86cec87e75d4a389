/**
 * Lua scripting (EVAL, EVALSHA, EVAL_RO, EVALSHA_RO, SCRIPT, ioredis `defineCommand`) on Redis's
 * own Lua 5.1 compiled to WebAssembly (./vm.ts): the number formatting, error texts
 * and libraries (`cjson`, `cmsgpack`, `struct`, `bit`, Redis's `math.random`) are Redis's C code.
 * `redis.call`/`redis.pcall` run commands through the connection (`Connection.scriptCall`): the
 * stream commands, the connection commands scripts may use and ioredis-mock's built-ins, with
 * the script's arity/unknown/not-allowed texts (script.c `scriptCall`). The script runs in one
 * atomic section of the keyspace (`beginAtomic`): one time snapshot, blocked readers served only
 * after it. This module is loaded on the first script (STYLE 17).
 *
 * The Lua environment follows script_lua.c / eval.c of the emulated version (checked on
 * redis-server 7.0.15 and the post-7.4 build): Redis's libraries (`os` with only `os.clock` from
 * 7.4 on), no `print`/`dofile`/`loadfile`/`debug`, Redis's `pcall` (an error table's text),
 * globals locked (writing: "Attempt to modify a readonly table"; reading an unknown one: "Script
 * attempted to access nonexistent global variable 'x'"), the `redis` table (call, pcall,
 * error_reply, status_reply, sha1hex, log, setresp, set_repl, replicate_commands, breakpoint,
 * debug, REDIS_VERSION, REDIS_VERSION_NUM, REPL_* and LOG_* constants).
 *
 * One Lua state per server (host:port) and emulated version, created on its first script (about a
 * millisecond) and reset by SCRIPT FLUSH, as Redis resets its VM; a script body is compiled once
 * per state (EVALSHA and repeated EVALs reuse it).
 *
 * Conversions (script_lua.c redisProtocolToLuaType / luaReplyToRedisReply):
 * - Redis → Lua (RESP2, the default): integer → number, bulk → string, nil bulk/array → false,
 *   array (maps and sets flattened as RESP2 sends them) → table, status → `{ok=…}`, error →
 *   `{err=…}` returned by `pcall`, raised by `call`. After `redis.setresp(3)`: map →
 *   `{map={k=v…}}`, set → `{set={m=true…}}`, double → `{double=n}`, null → nil, boolean →
 *   boolean, big number → `{big_number='…'}`, verbatim → `{verbatim_string={format=…, string=…}}`.
 * - Lua → reply: string → bulk, number → integer (C `(long long)` cast: truncated; NaN, ±inf
 *   and numbers beyond 64 bits are LLONG_MIN as on x86-64), true → 1, false/nil → nil (after
 *   setresp(3): RESP3 booleans), `{err=…}` → error, `{ok=…}` → status, `{double=…}`, `{map=…}`,
 *   `{set=…}`, `{big_number=…}` → their RESP3 types, other tables → array up to the first nil.
 * - Number arguments of redis.call: `%.17g` up to 7.2, from 7.4 an integral value within ±2^62
 *   as an integer and others in the shortest round-trip form (fpconv_dtoa).
 * - An error that ends the script answers "<err> script: <sha>, on @user_script:<line>.", a
 *   non-table Lua error first becoming "ERR <message>" (eval.c's error handler), a compile
 *   error "ERR Error compiling script (new function): <message>".
 *
 * Long scripts (busy-reply-threshold, SCRIPT KILL): a script runs synchronously for up to
 * FIRST_SLICE_MS of real time; a longer one goes on in slices of SLICE_MS with the event loop
 * turning in between (the EVAL's reply then comes later; its connection waits). While it runs,
 * other connections of the server wait, and from `busy-reply-threshold` ms (default 5000; 0: never)
 * on they get "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN
 * NOSAVE." (connection/server-state.ts BUSY_TEXT; the commands Redis allows then still run). SCRIPT
 * KILL ends the script with "ERR Script killed by user with SCRIPT KILL..." to its caller, or
 * answers "UNKILLABLE …" once the script wrote. A script can only be suspended between Lua
 * instructions outside a C call: `pcall` and `xpcall` are Lua code over a thread of their own
 * for that (installPcall, installXpcall), `coroutine.resume`/`wrap` Lua code that lets the slice
 * hook suspend the coroutine and then its caller (installCoroutine); inside a metamethod, a
 * comparator or a gsub callback it cannot be, and is stopped after stuckAfterMs.
 *
 * Library errors (StreamsMockError, bugs) thrown by a command inside the script are re-thrown to
 * the caller as they are, even when the script caught them with pcall.
 */
import { createHash } from 'crypto';
import { nextTurn, realNow } from './real-turn';
import { commandKeys, keyHashSlot, routeQuery } from '../engine/cluster';
import { DENIED_IN_SCRIPTS } from './rules';
import { CONNECTION_COMMANDS } from '../engine/commands/index';
import { ErrorReply, MapReply, type Reply, SetReply, SimpleString } from '../reply/reply';
import { CommandError } from '../errors';
import { NoStatsCommandError } from '../stats/command-stats';
import { StreamsMockError } from '../clock/clock';
import { SERVER_VERSION, type RedisVersion, versionIndex } from '../version';
import type { Connection } from '../engine/connection';
import { type ServerState, pastBusyReplyThreshold } from '../engine/registry';
import { NOREPLICAS_TEXT, OOM_SCRIPT_TEXT, OOM_TEXT, commandArity, hasWriteFlag, isDenyOom } from '../engine/maxmemory';
import { commandSpec } from '../commands/command-data';
import { recordedInfo } from '../commands/server/command-table';
import { type Library, SCRIPT_FLAGS, splitArgs } from './libraries';
import { CountedErrorReply, cString, formatArgNumber, formatG17, oneLine, popResult, pushField, pushReply, statsCounted, userErrorText } from './values';
import { LUA_GLOBALSINDEX, LUA_TBOOLEAN, LUA_TFUNCTION, LUA_TNIL, LUA_TNUMBER, LUA_TSTRING, LUA_TTABLE, LUA_TTHREAD, LUA_YIELD, LuaVm, RAND48_INITIAL, type JsFunction, type LuaState } from './vm';

// ---------------------------------------------------------------------------------------------
// Texts (script.c / script_lua.c / eval.c, checked on redis-server 7.0.15; same in 8.x sources)

const ERR_NO_ARGS = 'ERR Please specify at least one argument for this redis lib call';
const ERR_BAD_ARG_TYPE = 'ERR Lua redis lib command arguments must be strings or integers';
export const ERR_NOSCRIPT = 'NOSCRIPT No matching script. Please use EVAL.';
const UNKILLABLE =
  'UNKILLABLE Sorry the script already executed write commands against the dataset. You can either wait the script termination or kill the server in a hard way using the SHUTDOWN NOSAVE command.';
const NOTBUSY = 'NOTBUSY No scripts in execution right now.';
const ERR_WRITE_IN_RO = 'ERR Write commands are not allowed from read-only scripts.';
export const ERR_RO_WITH_WRITE_FLAG = 'ERR Can not execute a script with write flag using *_ro command.';
/** server.c shared.slowevalerr / slowscripterr. */
export const BUSY_EVAL_TEXT = 'BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.';
export const BUSY_FUNCTION_TEXT = 'BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE.';
/** FUNCTION LOAD stops a library's top level after this long (functions.c LOAD_TIMEOUT_MS). */
const LOAD_TIMEOUT_MS = 500;

/** Real time a script runs before its first suspension, and between two suspensions (ms). */
export const FIRST_SLICE_MS = 50;
export const SLICE_MS = 20;
/**
 * A script that could not be suspended for twice busy-reply-threshold (10 s when that is 0) after
 * its slice ended (its loop inside a metamethod, a sort comparator or a gsub callback: Lua 5.1
 * cannot yield across those C calls) is stopped with an error: meanwhile the
 * process serves nothing (no BUSY, no SCRIPT KILL, no signal handler), where Redis would go on
 * answering BUSY.
 */
function stuckAfterMs(conn: Connection): number {
  const threshold = Number(conn.server.config.get('busy-reply-threshold') ?? 5000);
  return threshold > 0 ? 2 * threshold : 10_000;
}
/** VM instructions between two looks at the clock (script_lua.c checks every 100000). */
export const HOOK_COUNT = 10000;

// ---------------------------------------------------------------------------------------------
// The VM, its states and the script being run

let vmInstance: LuaVm | undefined;
export function theVm(): LuaVm {
  return (vmInstance ??= new LuaVm());
}

/**
 * An exception out of the VM's own code (a WebAssembly trap such as "memory access out of
 * bounds" or "unreachable", a stack overflow inside it) leaves its memory in no known state: the
 * VM is dropped and the next use makes a new one, every engine made on the old one is made again
 * at its next use (engineIn), and scripts and libraries compile again from the server's caches.
 * The command that ran into it gets this error (Redis itself would have crashed).
 */
export function vmFailed(err: unknown): CommandError {
  vmInstance = undefined;
  const what = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return new CommandError(`ERR [ioredis-mock-streams] the Lua VM failed (${what}) and was made anew: scripts and functions compile again at their next call. Please report the script that did this.`);
}

/** `vm.load` of a user's chunk (a script body, a library's code): its status, the VM's own failure as vmFailed's error. */
export function loadUserChunk(vm: LuaVm, L: LuaState, source: string, name: string): number {
  try {
    return vm.load(L, source, name);
  } catch (err) {
    throw vmFailed(err);
  }
}

/** Whether `engine` lives in the VM in use (not one dropped by vmFailed). */
export function engineAlive(engine: Engine): boolean {
  return engine.vm === vmInstance;
}

/** One Lua state of a server and version: Redis's scripting VM (EVAL) or its functions VM. */
export interface Engine {
  /** The VM the state lives in. */
  readonly vm: LuaVm;
  readonly L: LuaState;
  readonly version: RedisVersion;
  /** SHA1 → registry reference of the compiled body. */
  readonly functions: Map<string, number>;
  closed: boolean;
  /** Functions VM: each library's functions (lower-case name → registry reference). */
  readonly libRefs: Map<Library, Map<string, number>>;
  /** Functions VM: registry references of the globals' metatable, the globals and the load API. */
  globalsMt: number;
  globalsRef: number;
  loadApiRef: number;
  /** The thread of the last script that ended normally, run again by the next (no new thread). */
  spare: { co: LuaState; ref: number } | null;
}

/** math.random's 48-bit state of each server (Redis: one per process; here one per host:port). */
const randomStates = new WeakMap<ServerState, number>();

/** A script in progress. */
interface ScriptRun {
  readonly conn: Connection;
  readonly engine: Engine;
  readonly sha: string;
  /** The coroutine the body runs in, and its registry reference (kept alive while suspended). */
  readonly co: LuaState;
  readonly coRef: number;
  /** RESP of the script's view (redis.setresp). */
  resp: 2 | 3;
  /** A library error (not an error reply) thrown inside the script; re-thrown afterwards. */
  internal: { error: unknown } | null;
  readonly startedAt: number;
  sliceEndsAt: number;
  /** Arguments of the first resume (FCALL: the keys and args tables). */
  nargs: number;
  /** EVAL_RO/FCALL_RO or a no-writes script: write commands refused (SCRIPT_READ_ONLY). */
  readonly readOnly: boolean;
  /** EVAL/EVALSHA (SCRIPT KILL) or FCALL (FUNCTION KILL). */
  readonly isEval: boolean;
  /** The caller's command (FUNCTION STATS). */
  readonly argv: string[];
  killRequested: boolean;
  /** Stopped after stuckAfterMs without a chance to suspend it. */
  stuck: boolean;
  readonly stuckAfterMs: number;
  /** When the hook first found the slice over (0: not yet in this slice). */
  overSince: number;
  wrote: boolean;
  /** Settles when the script has ended (for the connections waiting on it). */
  done: Promise<void> | null;
  endAtomic: () => void;
  /** Cluster mode: whether undeclared keys of several slots are allowed (EVAL without a
   *  shebang, or `allow-cross-slot-keys`), and the slot the script's keys are in so far (-1). */
  cluster: { allowCrossSlot: boolean; slot: number } | null;
  /** The declared KEYS, when undeclared keys are to be reported (ServerState.warnUndeclaredKeys). */
  declared: Set<string> | null;
  /** The script declared `allow-oom` (SCRIPT_ALLOW_OOM). */
  allowOom: boolean;
  /** A write command has been called (SCRIPT_WRITE_DIRTY): no OOM refusal after it. */
  writeDirty: boolean;
  /** Threads of `pcall` calls in progress (see installPcall) → their registry references. */
  nested: Map<LuaState, number> | null;
  /** The body returned (the thread can run the next script). */
  returned: boolean;
}

/** Scripts and keys already reported (one warning each per process). */
const reportedUndeclared = new Set<string>();

function warnUndeclaredKeysOn(conn: Connection): boolean {
  return conn.server.warnUndeclaredKeys || process.env.IOREDIS_MOCK_STREAMS_WARN_UNDECLARED_KEYS === '1';
}

/** Report the keys of argv the script did not declare (the warning mode). */
function reportUndeclared(run: ScriptRun, argv: string[]): void {
  const declared = run.declared!;
  for (const key of commandKeys(argv)) {
    if (declared.has(key)) continue;
    const id = `${run.sha}\n${key}`;
    if (reportedUndeclared.has(id)) continue;
    reportedUndeclared.add(id);
    console.warn(
      `[ioredis-mock-streams] script ${run.sha} runs ${argv[0].toUpperCase()} on key "${key}", which it did not declare in KEYS: ` +
        'in a Redis Cluster that key may live on another node (pass every key the script touches as KEYS, in one hash slot)',
    );
  }
}

/**
 * script.c scriptVerifyClusterState for one `redis.call` in cluster mode: the error text, or
 * null. 7.0.15: a command whose keys are another node's, or of several slots, is refused
 * with "Script attempted to access a non local key in a cluster node"; a script with a
 * shebang (and without allow-cross-slot-keys) must keep to one slot, its declared keys' one.
 */
function scriptClusterError(run: ScriptRun, argv: string[]): string | null {
  const conn = run.conn;
  const cluster = conn.server.cluster;
  const state = run.cluster;
  if (cluster === null || state === null) return null;
  const name = argv[0].toLowerCase();
  if (conn.checkCommand(argv) !== null || DENIED_IN_SCRIPTS.has(name) || CONNECTION_COMMANDS.get(name)?.noScript) return null;
  const route = routeQuery(cluster, [argv]);
  if (route.kind === 'keyless') return null;
  const modern = versionIndex(run.engine.version) >= versionIndex('8.0');
  if (route.kind === 'crossslot') {
    if (modern) return `ERR Command '${name}' in script attempted to access keys that don't hash to the same slot`;
    return 'ERR Script attempted to access a non local key in a cluster node';
  }
  if (conn.clusterNode !== null && route.node !== conn.clusterNode) return 'ERR Script attempted to access a non local key in a cluster node';
  if (!state.allowCrossSlot) {
    if (state.slot === -1) state.slot = route.slot;
    else if (state.slot !== route.slot) return 'ERR Script attempted to access keys that do not hash to the same slot';
  }
  return null;
}

/** The script a host function or the hook serves (set around every resume). */
let current: ScriptRun | null = null;

const enginesByServer = new WeakMap<ServerState, Map<RedisVersion, Engine>>();
export const functionEnginesByServer = new WeakMap<ServerState, Map<RedisVersion, Engine>>();
/** The suspended (busy) script of each server. */
export const busyByServer = new WeakMap<ServerState, ScriptRun>();

/** Redis version text and number (REDIS_VERSION, REDIS_VERSION_NUM) of an emulated version. */
function versionInfo(v: RedisVersion): { text: string; num: number } {
  const text = SERVER_VERSION[v];
  const [a, b, c] = text.split('.').map(Number);
  return { text, num: (a << 16) | (b << 8) | c };
}

/** The Lua engine for EVAL scripts of `conn`'s server and emulated version (made on first use). */
export function engineFor(conn: Connection): Engine {
  return engineIn(enginesByServer, conn, createEngine);
}

/** The engine of `table` for `conn`'s server and emulated version, made by `create` on first use. */
export function engineIn(table: WeakMap<ServerState, Map<RedisVersion, Engine>>, conn: Connection, create: (version: RedisVersion) => Engine): Engine {
  const version = conn.keyspace.redisVersion;
  let byVersion = table.get(conn.server);
  if (!byVersion) table.set(conn.server, (byVersion = new Map()));
  let engine = byVersion.get(version);
  if (!engine || !engineAlive(engine)) {
    try {
      engine = create(version);
    } catch (err) {
      throw err instanceof CommandError ? err : vmFailed(err);
    }
    byVersion.set(version, engine);
  }
  return engine;
}

/** SCRIPT FLUSH: Redis resets its Lua VM (eval.c scriptingReset). */
export function resetScripting(server: ServerState): void {
  const byVersion = enginesByServer.get(server);
  if (!byVersion) return;
  enginesByServer.delete(server);
  for (const engine of byVersion.values()) {
    engine.closed = true;
    if (busyByServer.get(server)?.engine !== engine && engineAlive(engine)) theVm().close(engine.L); // else when it ends
  }
}

/** A FUNCTION LOAD in progress: what redis.register_function registers. */
export interface LoadCtx {
  readonly functions: Map<string, { name: string; description: string | null; flags: string[]; ref: number }>;
  readonly startedAt: number;
  timedOut: boolean;
}
/** The FUNCTION LOAD in progress (the slice hook times its top level out), or null. */
export const functionLoad: { ctx: LoadCtx | null } = { ctx: null };

// ---------------------------------------------------------------------------------------------
// The environment of a state (script_lua.c luaRegisterRedisAPI, eval.c scriptingInit)

/**
 * The first `n` levels of L's call stack as Redis's would be (lua_getinfo): without the frames of
 * the Lua parts of pcall and xpcall (a `=pcall`/`=xpcall` frame and the "(tail call)" marks their
 * tail calls leave).
 */
function userFrames(vm: LuaVm, L: LuaState, n: number): ReturnType<LuaVm['where']>[] {
  const frames: ReturnType<LuaVm['where']>[] = [];
  let inPcall = false;
  for (let level = 0; frames.length < n && level < n + 16; level++) {
    const f = vm.where(L, level);
    if (f === null) break;
    if (f !== 'C' && (f.source === PCALL_CHUNK || f.source === XPCALL_CHUNK || f.source === COROUTINE_CHUNK)) {
      inPcall = true;
      continue;
    }
    if (inPcall && f !== 'C' && f.source === '=(tail call)') continue;
    inPcall = false;
    frames.push(f);
  }
  return frames;
}

/** Raise `msg` as luaL_error does: "<source>:<line>: msg" of the calling Lua function. */
export function raiseText(vm: LuaVm, L: LuaState, msg: string): never {
  const at = userFrames(vm, L, 2)[1] ?? null;
  const where = at !== null && at !== 'C' && at.line > 0 ? `${at.source.startsWith('@') ? at.source.slice(1) : at.source}:${at.line}: ` : '';
  vm.pushString(L, where + msg);
  return vm.error(L);
}

/** Raise the error table `{err=text}` (script_lua.c luaPushError + luaError). */
export function raiseError(vm: LuaVm, L: LuaState, text: string): never {
  pushField(vm, L, 'err', text);
  return vm.error(L);
}

function runOf(vm: LuaVm, L: LuaState): ScriptRun {
  if (current === null) raiseError(vm, L, 'ERR redis lib called outside a script');
  return current!;
}

/** The body of `redis.call` (raise = true) and `redis.pcall`. */
/** The arguments of a redis.call-like function as a command line, or the error text (luaArgsToRedisArgv). */
function luaArgv(vm: LuaVm, L: LuaState, run: ScriptRun): string[] | string {
  const argc = vm.getTop(L);
  const argv: string[] = new Array(argc);
  const modern = versionIndex(run.engine.version) >= versionIndex('7.4');
  for (let j = 1; j <= argc; j++) {
    const t = vm.type(L, j);
    if (t === LUA_TNUMBER) {
      const x = vm.toNumber(L, j);
      argv[j - 1] = modern ? formatArgNumber(x) : formatG17(x);
    } else if (t === LUA_TSTRING) argv[j - 1] = vm.toString(L, j) as string;
    else return ERR_BAD_ARG_TYPE;
  }
  return argv;
}

function redisCallFunction(vm: LuaVm, raise: boolean): JsFunction {
  return (L) => {
    const run = runOf(vm, L);
    const argc = vm.getTop(L);
    let error: string | undefined;
    let reply: Reply = null;
    // the error came from scriptCall (refused or failed), counted in INFO there
    let counted = false;
    if (argc === 0) error = ERR_NO_ARGS;
    else {
      const args = luaArgv(vm, L, run);
      const argv = typeof args === 'string' ? [] : args;
      if (typeof args === 'string') error = args;
      else {
        if (run.readOnly && writesData(argv, run.engine.version)) error = ERR_WRITE_IN_RO;
        if (error === undefined) error = scriptOomError(run, argv);
        if (error === undefined && run.declared !== null) reportUndeclared(run, argv);
        if (error === undefined && run.cluster !== null) error = scriptClusterError(run, argv) ?? undefined;
        if (error !== undefined) {
          counted = true;
          run.conn.scriptCallRefused(argv, error);
        }
      }
      if (error === undefined) {
        const before = run.conn.server.stats.dirty;
        try {
          reply = run.conn.scriptCall(argv);
        } catch (err) {
          if (err instanceof CommandError) {
            error = oneLine(err.message);
            counted = true;
          }
          else {
            run.internal ??= { error: err };
            error = 'ERR internal error in ioredis-mock-streams';
          }
        }
        if (run.conn.server.stats.dirty !== before) run.wrote = true;
      }
    }
    vm.setTop(L, 0);
    if (error !== undefined) {
      pushField(vm, L, 'err', error);
      if (counted) {
        // script_lua.c: the error was counted when the command failed or was refused
        vm.pushBoolean(L, true);
        vm.setField(L, -2, 'ignore_error_stats_update');
      }
      if (raise) return vm.error(L);
      return 1;
    }
    pushReply(vm, L, reply, run.resp);
    return 1;
  };
}

/**
 * The error replies nested in a script's result, as script_lua.c luaReplyToRedisReply writes them
 * (networking.c afterErrorReply): each counted in errorstats and total_error_replies, which makes
 * the script's command failed (call()); one counted already (ignore_error_stats_update: the error
 * of a command the script called) adds a failed call instead. Checked on 7.0.15 and the post-7.4
 * build: `return {redis.pcall('nosuch'), redis.error_reply('Q x')}` counts ERR 1, Q 1, failed 2.
 */
function countNestedErrors(conn: Connection, result: Reply): void {
  let fresh = false;
  // a stack, not recursion: a result can nest 7995 levels deep
  const pending: Reply[] = [result];
  while (pending.length > 0) {
    const r = pending.pop()!;
    if (r instanceof CountedErrorReply) conn.nestedFailedCalls++;
    else if (r instanceof ErrorReply) {
      conn.server.stats.errorReply(r.message);
      fresh = true;
    } else if (Array.isArray(r)) for (let i = r.length - 1; i >= 0; i--) pending.push(r[i]);
    else if (r instanceof MapReply || r instanceof SetReply) for (let i = r.items.length - 1; i >= 0; i--) pending.push(r.items[i]);
  }
  if (fresh) conn.nestedFailedCalls++;
}

/**
 * A command a read-only script may not run (script.c scriptVerifyWriteCommandAllow: `write` or
 * `may_replicate`), as far as Redis's table knows it; unknown commands, a wrong arity and
 * noscript commands are left to scriptCall, which Redis checks first.
 */
function writesData(argv: string[], version: RedisVersion, mayReplicate = true): boolean {
  const name = argv[0].toLowerCase();
  // the flags of the version's own table: a container's subcommand carries its own (XGROUP CREATE
  // is `write`, XGROUP is not), and BLPOP … lost `noscript` after 7.0
  let info = argv.length >= 2 ? recordedInfo(version, `${name}|${argv[1].toLowerCase()}`) : undefined;
  if (!Array.isArray(info)) info = recordedInfo(version, name);
  if (Array.isArray(info) && info[2] instanceof SetReply) {
    const flags = info[2].items.map((f) => (f instanceof SimpleString ? f.value : ''));
    const arity = Number(info[1]);
    if (flags.includes('noscript') || (arity >= 0 ? argv.length !== arity : argv.length < -arity)) return false;
    return flags.includes('write') || (mayReplicate && MAY_REPLICATE.has(name)); // COMMAND INFO does not show may_replicate
  }
  // a command newer than the recorded tables (8.x: XCFGSET, XNACK, DELEX …): the engine's own spec
  const arity = commandArity(name);
  if (arity === undefined || commandSpec(name)?.flags.includes('noscript')) return false;
  if (arity >= 0 ? argv.length !== arity : argv.length < -arity) return false;
  return hasWriteFlag(argv) || (mayReplicate && MAY_REPLICATE.has(name));
}

/**
 * script.c scriptVerifyOOM: out of memory when the script started, its first write may not be
 * a denyoom command (unless the script has `allow-oom`); after it, the script writes on.
 */
function scriptOomError(run: ScriptRun, argv: string[]): string | undefined {
  const arity = commandArity(argv[0].toLowerCase());
  if (arity === undefined || (arity >= 0 ? argv.length !== arity : argv.length < -arity)) return undefined;
  const server = run.conn.server;
  const write = hasWriteFlag(argv);
  // scriptVerifyWriteCommandAllow: a first write with too few good replicas (min-replicas-to-write)
  if (!run.writeDirty && server.config.replicasLacking && write) return NOREPLICAS_TEXT;
  if (!run.allowOom && !run.writeDirty && server.config.maxmemory !== 0 && server.preCommandOom && isDenyOom(argv)) return OOM_TEXT;
  if (write) run.writeDirty = true;
  return undefined;
}

/**
 * script.c scriptPrepareForRun: a script with flags but not no-writes needs enough good replicas
 * (NOREPLICAS); out of memory, it needs allow-oom or no-writes.
 */
export function checkScriptOom(conn: Connection, flags: readonly string[]): void {
  if (!flags.includes('no-writes') && conn.server.config.replicasLacking) throw new CommandError(NOREPLICAS_TEXT);
  if (flags.includes('allow-oom') || flags.includes('no-writes')) return;
  if (conn.server.config.maxmemory !== 0 && conn.server.preCommandOom) throw new CommandError(OOM_SCRIPT_TEXT);
}

/** Commands Redis flags may_replicate (commands.def; COMMAND INFO does not show the flag). */
const MAY_REPLICATE = new Set(['pfcount', 'publish', 'spublish']);

/**
 * Threads a slice may suspend besides the run's own coroutine: the threads Lua's `pcall` runs its
 * function in while its caller could yield (see installPcall).
 */
const yieldableThreads = new Set<LuaState>();
/** Set when a nested thread was suspended by the slice hook: its caller yields too. */
let propagatingYield = false;

/** The source name of the Lua part of `pcall` (skipped where a script error's line is taken). */
const PCALL_CHUNK = '=pcall';
/**
 * `pcall` as Lua code over two host functions, so that a slice can suspend the script inside it:
 * `start(f, …)` runs f in a new thread (or, where the caller could not yield anyway, with
 * lua_pcall) and returns the thread, whether it was suspended, then pcall's results; `cont(co)`
 * resumes a suspended one and returns the same. Between the two the caller yields (to the slice loop) with `yield`.
 */
const PCALL_SOURCE = `local start, cont, yield = ...
local function after(co, y, ...)
  if y then
    yield()
    return after(cont(co))
  end
  return ...
end
return function(...) return after(start(...)) end`;

/** Redis 7's `pcall` hands the script the text of an error table, not the table. */
function pcallErrorText(vm: LuaVm, L: LuaState): void {
  if (vm.isTable(L, -1)) {
    vm.getField(L, -1, 'err');
    if (vm.isString(L, -1)) vm.replace(L, -2);
    else vm.pop(L, 1);
  }
}

/**
 * Results of a nested thread's resume for the Lua part of pcall, on T's stack above the thread
 * (index 1): `co, suspended` then `true, results…` / `false, message`.
 */
function nestedResult(run: ScriptRun, vm: LuaVm, T: LuaState, co: LuaState, status: number): number {
  vm.setTop(T, 1);
  if (status === LUA_YIELD && (vm.hookYielded() || propagatingYield)) {
    propagatingYield = true;
    vm.pushBoolean(T, true);
    return 2;
  }
  // done with the thread (the values it leaves are moved to T first)
  const ref = run.nested?.get(co);
  run.nested?.delete(co);
  const raw = rawThreads.delete(co);
  try {
    return nestedDone(vm, T, co, status, raw);
  } finally {
    if (ref !== undefined) vm.unref(T, ref);
  }
}

/** Nested threads of `xpcall`: their error object goes to the handler as it is (no error-table text). */
const rawThreads = new Set<LuaState>();

/** The source name of the Lua part of `xpcall`. */
const XPCALL_CHUNK = '=xpcall';
/**
 * `xpcall(f, h)` over the same thread machinery as pcall (so a slice can suspend the script in
 * f): Lua 5.1's native xpcall where the caller could not yield, "bad argument #2 to 'xpcall'
 * (value expected)" at the caller's line without a handler; else f runs in a nested
 * thread, and on an error `h` gets the error object once f's thread is done (Lua 5.1 calls it
 * before unwinding: nothing a script can observe without the debug library), for one result, a
 * failing handler giving "error in error handling" as Lua 5.1's does.
 */
const XPCALL_SOURCE = `local start, cont, yield, native, slicing, select, argerror = ...
local function fail() return 'error in error handling' end
local function after(h, co, y, ok, ...)
  if y then
    yield()
    return after(h, cont(co))
  end
  if ok then return true, ... end
  local e = ...
  local _, r = native(function() return (h(e)) end, fail)
  return false, r
end
return function(...)
  if select('#', ...) < 2 then return argerror() end
  if not slicing() then return native(...) end
  local f, h = ...
  return after(h, start(f))
end`;

function nestedDone(vm: LuaVm, T: LuaState, co: LuaState, status: number, raw: boolean): number {
  if (status === LUA_YIELD) {
    // coroutine.yield inside pcall: Redis runs the script with lua_pcall, where yielding fails
    vm.pushBoolean(T, false);
    vm.pushBoolean(T, false);
    vm.pushString(T, 'attempt to yield across metamethod/C-call boundary');
    return 4;
  }
  if (status === 0) {
    const n = vm.getTop(co);
    if (!vm.checkStack(T, n + 3)) raiseText(vm, T, 'too many results to unpack');
    vm.pushBoolean(T, false);
    vm.pushBoolean(T, true);
    vm.xmove(co, T, n);
    return n + 3;
  }
  vm.pushBoolean(T, false);
  vm.pushBoolean(T, false);
  vm.xmove(co, T, 1);
  if (!raw) pcallErrorText(vm, T);
  return 4;
}

/** Whether a slice may suspend a call made on T: the running script's coroutine or a thread it resumed, able to yield. */
function maySuspend(vm: LuaVm, T: LuaState): boolean {
  const run = current;
  return run !== null && (T === run.co || yieldableThreads.has(T)) && vm.canYield(T);
}

function resumeNested(vm: LuaVm, co: LuaState, nargs: number): number {
  yieldableThreads.add(co);
  try {
    return vm.resume(co, nargs);
  } finally {
    yieldableThreads.delete(co);
  }
}

function installPcall(vm: LuaVm, L: LuaState): void {
  installXpcall(vm, L);
  installCoroutine(vm, L);
  const start: JsFunction = (T) => {
    const argc = vm.getTop(T);
    if (argc === 0) {
      // Redis's luaRedisPcall calls its `true` placeholder (checked on 7.0.15 and the post-7.4 build)
      vm.pushNil(T);
      vm.pushBoolean(T, false);
      vm.pushBoolean(T, false);
      vm.pushString(T, 'attempt to call a boolean value');
      return 4;
    }
    if (maySuspend(vm, T)) {
      const run = current!;
      const co = vm.newThread(T);
      (run.nested ??= new Map()).set(co, vm.ref(T));
      vm.xmove(T, co, argc);
      vm.pushNumber(T, co);
      vm.insert(T, 1);
      return nestedResult(run, vm, T, co, resumeNested(vm, co, argc - 1));
    }
    // lua_pcall: nothing in between can be suspended
    vm.pushBoolean(T, true);
    vm.insert(T, 1);
    if (vm.pcall(T, argc - 1, -1, 0) !== 0) {
      vm.remove(T, 1);
      pcallErrorText(vm, T);
      vm.pushBoolean(T, false);
      vm.insert(T, 1);
    }
    vm.pushBoolean(T, false);
    vm.insert(T, 1);
    vm.pushNil(T);
    vm.insert(T, 1);
    return vm.getTop(T);
  };
  installSliced(vm, L, 'pcall', PCALL_SOURCE, start, () => 0);
}

/**
 * Install global `name` (pcall, xpcall): its Lua part `source` (chunk `=name`, see userFrames)
 * called with the host functions `start` (the first resume of a nested thread) and `cont` (the
 * next ones, after the caller yielded to the slice loop), `coroutine.yield`, then what `extra`
 * pushes (returning how many); the function it returns becomes the global.
 */
function installSliced(vm: LuaVm, L: LuaState, name: 'pcall' | 'xpcall', source: string, start: JsFunction, extra: () => number): void {
  const cont: JsFunction = (T) => {
    const run = runOf(vm, T);
    const co = vm.toNumber(T, 1);
    if (!run.nested?.has(co)) raiseText(vm, T, `${name}: not a suspended call`);
    propagatingYield = false;
    return nestedResult(run, vm, T, co, resumeNested(vm, co, 0));
  };
  if (vm.load(L, source, `=${name}`) !== 0) throw new Error(`${name}: ${vm.toString(L, -1)}`);
  vm.pushJsFunction(L, start);
  vm.pushJsFunction(L, cont);
  vm.getGlobal(L, 'coroutine');
  vm.getField(L, -1, 'yield');
  vm.remove(L, -2);
  if (vm.pcall(L, 3 + extra(), 1, 0) !== 0) throw new Error(`${name}: ${vm.toString(L, -1)}`);
  vm.setGlobal(L, name);
}

/** The source name of the Lua part of `coroutine.resume` and `coroutine.wrap`. */
const COROUTINE_CHUNK = '=coroutine';
/**
 * `coroutine.resume` and `coroutine.wrap` so that a slice can suspend the script inside a
 * coroutine's body: where the caller could yield, the coroutine may be suspended by the slice hook
 * too (`begin` marks it); a resume that came back because the hook suspended it (`hooked`) makes
 * the caller yield to the slice loop, then resumes the coroutine again, so the script sees one
 * resume. Elsewhere the native resume. `wrap` is Lua 5.1's luaB_auxwrap over this resume (a
 * string error gets the caller's position), behind a host function that checks the argument as
 * luaB_cowrap does: not a Lua function is "<caller's position>: bad argument #1 to 'wrap' (Lua
 * function expected)" (7.0.15 and the post-7.4 build; a host function keeps the caller's frame
 * even when called as `return coroutine.wrap(x)`, a tail call, where a Lua one would not).
 */
const COROUTINE_SOURCE = `local rawresume, create, yield, begin, hooked, wraperror, tostring, type = ...
local function after(co, at, ...)
  if hooked(at) then
    yield()
    begin(co, at, true)
    return after(co, at, rawresume(co))
  end
  return ...
end
local function resume(co, ...)
  local at = type(co) == 'thread' and tostring(co)
  if not begin(co, at) then return rawresume(co, ...) end
  return after(co, at, rawresume(co, ...))
end
local function unwrap(ok, ...)
  if ok then return ... end
  return wraperror((...))
end
local function wrap(f)
  local co = create(f)
  return function(...) return unwrap(resume(co, ...)) end
end
return resume, wrap`;

function installCoroutine(vm: LuaVm, L: LuaState): void {
  // A coroutine's address from its tostring ("thread: 0x…", lua_topointer: the build exports no
  // lua_tothread), as the hook sees the thread.
  const threadAt = (T: LuaState, i: number): LuaState => parseInt((vm.toString(T, i) as string).slice('thread: '.length), 16);
  // begin(co, at, again): whether co may be suspended by the hook (its caller can yield); marks it
  const begin: JsFunction = (T) => {
    if (vm.type(T, 1) !== LUA_TTHREAD) raiseText(vm, T, "bad argument #1 to 'resume' (coroutine expected)");
    const ok = maySuspend(vm, T);
    if (ok) {
      yieldableThreads.add(threadAt(T, 2));
      if (vm.toBoolean(T, 3)) propagatingYield = false;
    }
    vm.pushBoolean(T, ok);
    return 1;
  };
  // hooked(at): the resume came back because a slice ended inside co (then its caller yields too)
  const hooked: JsFunction = (T) => {
    yieldableThreads.delete(threadAt(T, 1));
    const y = vm.hookYielded() || propagatingYield;
    if (y) propagatingYield = true;
    vm.pushBoolean(T, y);
    return 1;
  };
  const wraperror: JsFunction = (T) => {
    if (vm.type(T, 1) === LUA_TSTRING || vm.type(T, 1) === LUA_TNUMBER) raiseText(vm, T, vm.toString(T, 1) as string);
    vm.setTop(T, 1);
    return vm.error(T);
  };
  let luaWrap = 0;
  const wrap: JsFunction = (T) => {
    // luaL_argerror names the function as its caller's call instruction does: '?' from pcall (C)
    const caller = userFrames(vm, T, 2)[1];
    const bad = `bad argument #1 to '${caller === undefined || caller === null || caller === 'C' ? '?' : 'wrap'}' (Lua function expected)`;
    if (vm.type(T, 1) !== LUA_TFUNCTION) raiseText(vm, T, bad);
    vm.setTop(T, 1);
    vm.pushRef(T, luaWrap);
    vm.insert(T, 1);
    if (vm.pcall(T, 1, 1, 0) !== 0) raiseText(vm, T, bad); // create refused it: a C function
    return 1;
  };
  if (vm.load(L, COROUTINE_SOURCE, COROUTINE_CHUNK) !== 0) throw new Error(`coroutine: ${vm.toString(L, -1)}`);
  vm.getGlobal(L, 'coroutine');
  vm.getField(L, -1, 'resume');
  vm.getField(L, -2, 'create');
  vm.getField(L, -3, 'yield');
  vm.remove(L, -4);
  vm.pushJsFunction(L, begin);
  vm.pushJsFunction(L, hooked);
  vm.pushJsFunction(L, wraperror);
  vm.getGlobal(L, 'tostring');
  vm.getGlobal(L, 'type');
  if (vm.pcall(L, 8, 2, 0) !== 0) throw new Error(`coroutine: ${vm.toString(L, -1)}`);
  luaWrap = vm.ref(L);
  vm.getGlobal(L, 'coroutine');
  vm.insert(L, -2);
  vm.setField(L, -2, 'resume');
  vm.pushJsFunction(L, wrap);
  vm.setField(L, -2, 'wrap');
  vm.pop(L, 1);
}

function installXpcall(vm: LuaVm, L: LuaState): void {
  const slicing: JsFunction = (T) => {
    vm.pushBoolean(T, maySuspend(vm, T));
    return 1;
  };
  // start(f): f in a nested thread (slicing() said the caller can yield); results as pcall's start
  const start: JsFunction = (T) => {
    const run = runOf(vm, T);
    vm.setTop(T, 1);
    const co = vm.newThread(T);
    (run.nested ??= new Map()).set(co, vm.ref(T));
    rawThreads.add(co);
    vm.xmove(T, co, 1);
    vm.pushNumber(T, co);
    vm.insert(T, 1);
    return nestedResult(run, vm, T, co, resumeNested(vm, co, 0));
  };
  installSliced(vm, L, 'xpcall', XPCALL_SOURCE, start, () => {
    vm.getGlobal(L, 'xpcall');
    vm.pushJsFunction(L, slicing);
    vm.getGlobal(L, 'select');
    vm.pushJsFunction(L, (T) => raiseText(vm, T, "bad argument #2 to 'xpcall' (value expected)"));
    return 4;
  });
}

/**
 * `__redis__err__handler(err)`, as scripts see it on Redis: `err` as a table (`{err = "ERR " ..
 * err}` unless it is one) with the `source` and `line` of the code that called it (past a C
 * function between).
 */
const ERR_HANDLER_SOURCE = `local getinfo = debug.getinfo
__redis__err__handler = function(err)
  local at = getinfo(2, 'nSl')
  if at and at.what == 'C' then at = getinfo(3, 'nSl') end
  if type(err) ~= 'table' then err = { err = 'ERR ' .. tostring(err) } end
  if at then
    err['source'] = at.source
    err['line'] = at.currentline
  end
  return err
end`;

export function createEngine(version: RedisVersion, forFunctions = false): Engine {
  const vm = theVm();
  const withOs = versionIndex(version) >= versionIndex('7.4');
  const L = vm.newState(withOs);
  const engine: Engine = { vm, L, version, functions: new Map(), closed: false, libRefs: new Map(), globalsMt: 0, globalsRef: 0, loadApiRef: 0, spare: null };
  const set = (name: string, fn: JsFunction) => {
    vm.pushJsFunction(L, fn);
    vm.setField(L, -2, name);
  };
  const setNumber = (name: string, n: number) => {
    vm.pushNumber(L, n);
    vm.setField(L, -2, name);
  };
  // globals Redis does not keep (its allow list drops them as the libraries register them);
  // 7.0.15 has no setfenv/getfenv/newproxy either (the post-7.4 build has them; 7.2 taken as it)
  const dropped = versionIndex(version) < versionIndex('7.2') ? ['print', 'dofile', 'loadfile', 'setfenv', 'getfenv', 'newproxy'] : ['print', 'dofile', 'loadfile'];
  for (const g of dropped) {
    vm.pushNil(L);
    vm.setGlobal(L, g);
  }
  installPcall(vm, L);

  vm.createTable(L, 0, 32);
  set('call', redisCallFunction(vm, true));
  set('pcall', redisCallFunction(vm, false));
  set('error_reply', (L1) => {
    if (vm.getTop(L1) !== 1 || vm.type(L1, -1) !== LUA_TSTRING) {
      pushField(vm, L1, 'err', 'ERR wrong number or type of arguments');
      return 1;
    }
    // script_lua.c luaRedisErrorReplyCommand formats it with %s: up to a NUL
    pushField(vm, L1, 'err', userErrorText(cString(vm.toString(L1, -1) as string)));
    return 1;
  });
  set('status_reply', (L1) => {
    if (vm.getTop(L1) !== 1 || vm.type(L1, -1) !== LUA_TSTRING) {
      pushField(vm, L1, 'err', 'ERR wrong number or type of arguments');
      return 1;
    }
    pushField(vm, L1, 'ok', vm.toString(L1, -1) as string);
    return 1;
  });
  set('sha1hex', (L1) => {
    if (vm.getTop(L1) !== 1) raiseError(vm, L1, 'ERR wrong number of arguments');
    const s = vm.toString(L1, 1) ?? '';
    vm.pushString(L1, createHash('sha1').update(Buffer.from(s, 'latin1')).digest('hex'));
    return 1;
  });
  set('log', (L1) => {
    const argc = vm.getTop(L1);
    if (argc < 2) raiseError(vm, L1, 'ERR redis.log() requires two arguments or more.');
    if (!vm.isNumber(L1, 1)) raiseError(vm, L1, 'ERR First argument must be a number (log level).');
    const level = Math.trunc(vm.toNumber(L1, 1));
    // 7.0.15: "Invalid debug level."; the post-7.4 build: "Invalid log level." (taken as 7.4's)
    if (level < 0 || level > 3) raiseError(vm, L1, versionIndex(version) >= versionIndex('7.4') ? 'ERR Invalid log level.' : 'ERR Invalid debug level.');
    return 0; // nothing is logged
  });
  setNumber('LOG_DEBUG', 0);
  setNumber('LOG_VERBOSE', 1);
  setNumber('LOG_NOTICE', 2);
  setNumber('LOG_WARNING', 3);
  const info = versionInfo(version);
  setNumber('REDIS_VERSION_NUM', info.num);
  vm.pushString(L, info.text);
  vm.setField(L, -2, 'REDIS_VERSION');
  set('setresp', (L1) => {
    const run = runOf(vm, L1);
    if (vm.getTop(L1) !== 1) raiseError(vm, L1, 'ERR redis.setresp() requires one argument.');
    const resp = Math.trunc(vm.toNumber(L1, 1));
    if (resp !== 2 && resp !== 3) raiseError(vm, L1, 'ERR RESP version must be 2 or 3.');
    run.resp = resp as 2 | 3;
    return 0;
  });
  // script_lua.c luaRedisAclCheckCmdPermissionsCommand: may the script's user run this command line?
  set('acl_check_cmd', (L1) => {
    const run = runOf(vm, L1);
    if (vm.getTop(L1) === 0) raiseError(vm, L1, ERR_NO_ARGS);
    const argv = luaArgv(vm, L1, run);
    if (typeof argv === 'string') raiseError(vm, L1, argv);
    const allowed = run.conn.aclAllows(argv);
    if (allowed === null) raiseError(vm, L1, 'ERR Invalid command passed to redis.acl_check_cmd()');
    vm.pushBoolean(L1, allowed);
    return 1;
  });
  set('set_repl', (L1) => {
    if (vm.getTop(L1) !== 1) raiseError(vm, L1, 'ERR redis.set_repl() requires one argument.');
    const flags = Math.trunc(vm.toNumber(L1, -1));
    if ((flags & ~3) !== 0) raiseError(vm, L1, 'ERR Invalid replication flags. Use REPL_AOF, REPL_REPLICA, REPL_ALL or REPL_NONE.');
    return 0;
  });
  setNumber('REPL_NONE', 0);
  setNumber('REPL_AOF', 1);
  setNumber('REPL_SLAVE', 2);
  setNumber('REPL_REPLICA', 2);
  setNumber('REPL_ALL', 3);
  // EVAL's scripts only (eval.c adds them; function_lua.c does not: in a function,
  // `redis.breakpoint()` is "attempt to call field 'breakpoint' (a nil value)", 7.0.15 and the
  // post-7.4 build)
  if (!forFunctions) {
    set('replicate_commands', (L1) => {
      vm.pushBoolean(L1, true);
      return 1;
    });
    // the debugger's entry points answer as without SCRIPT DEBUG
    set('breakpoint', (L1) => {
      vm.pushBoolean(L1, false);
      return 1;
    });
    set('debug', () => 0);
  }
  vm.setGlobal(L, 'redis');
  // the error handler Redis keeps as a global of EVAL's scripts (7.0.15 and the post-7.4 build;
  // not of functions): it holds `debug.getinfo` from before `debug` goes
  if (!forFunctions && (vm.load(L, ERR_HANDLER_SOURCE, '=err_handler') !== 0 || vm.pcall(L, 0, 0, 0) !== 0)) throw new Error(`err_handler: ${vm.toString(L, -1)}`);
  vm.pushNil(L);
  vm.setGlobal(L, 'debug');

  // lock the globals: reading an unknown one raises (luaSetErrorMetatable), writing any table
  // reachable from them raises (luaSetTableProtectionRecursively)
  vm.pushValue(L, LUA_GLOBALSINDEX);
  vm.createTable(L, 0, 1);
  vm.pushJsFunction(L, (L1) => {
    const name = vm.isString(L1, -1) ? (vm.toString(L1, -1) as string) : '?';
    return raiseText(vm, L1, `Script attempted to access nonexistent global variable '${name}'`);
  });
  vm.setField(L, -2, '__index');
  vm.setMetatable(L, -2);
  vm.protect(L);
  vm.pop(L, 1);
  // the strings' metatable too: `getmetatable('').__index = nil` would change every later
  // script's strings (refused on Debian's 7.0.15 and the releases of October 2025 on: 7.2.11,
  // 7.4.6, 8.0.4, 8.2.2; the post-7.4 build of 2024 here predates it and allows it)
  vm.pushString(L, '');
  if (vm.getMetatable(L, -1)) vm.protect(L);
  vm.setTop(L, 0);
  return engine;
}

// ---------------------------------------------------------------------------------------------
// Compiling and running

/**
 * eval.c evalExtractShebangFlags: a `#!lua [flags=a,b]` first line (stripped, its newline kept so
 * line numbers stay); `compat` when there is none (no flag checks, as scripts before 7.0).
 */
export function parseShebang(body: string): { source: string; flags: string[]; compat: boolean } {
  if (!body.startsWith('#!')) return { source: body, flags: [], compat: true };
  const eol = body.indexOf('\n');
  if (eol < 0) throw new CommandError('ERR Invalid script shebang');
  const parts = splitArgs(body.slice(0, eol));
  if (!parts || parts.length === 0) throw new CommandError('ERR Invalid engine in script shebang');
  const [engine, ...options] = parts;
  if (engine !== '#!lua') throw new CommandError(oneLine(`ERR Unexpected engine in script shebang: ${engine}`));
  const flags: string[] = [];
  for (const opt of options) {
    if (!opt.startsWith('flags=')) throw new CommandError(oneLine(`ERR Unknown lua shebang option: ${opt}`));
    const text = opt.slice('flags='.length);
    if (text === '') continue;
    for (const flag of text.split(',')) {
      if (!(SCRIPT_FLAGS as readonly string[]).includes(flag)) throw new CommandError(oneLine(`ERR Unexpected flag in script shebang: ${flag}`));
      flags.push(flag);
    }
  }
  return { source: body.slice(eol), flags, compat: false };
}

/** The compiled body of `sha` in the engine (compiled now if new); throws the compile error. */
export function functionRef(engine: Engine, sha: string, source: string): number {
  let ref = engine.functions.get(sha);
  if (ref !== undefined) return ref;
  const vm = theVm();
  const L = engine.L;
  if (loadUserChunk(vm, L, source, '@user_script') !== 0) {
    const msg = vm.toString(L, -1) ?? '';
    vm.setTop(L, 0);
    throw new CommandError(oneLine(`ERR Error compiling script (new function): ${msg}`));
  }
  ref = vm.ref(L);
  engine.functions.set(sha, ref);
  return ref;
}

function setGlobalArray(vm: LuaVm, L: LuaState, name: string, items: string[]): void {
  vm.createTable(L, items.length, 0);
  for (let i = 0; i < items.length; i++) {
    vm.pushString(L, items[i]);
    vm.rawSetI(L, -2, i + 1);
  }
  vm.setReadonly(L, LUA_GLOBALSINDEX, false);
  vm.setGlobal(L, name);
  vm.setReadonly(L, LUA_GLOBALSINDEX, true);
}

/**
 * Run one script (body, KEYS and ARGV as byte strings) on `conn` atomically; returns its reply,
 * or a Promise of it when the script outlives its first slice (see the module doc). Throws (or
 * rejects with) CommandError for an error reply. `ro`: EVAL_RO/EVALSHA_RO.
 */
export function runScript(conn: Connection, body: string, sha: string, keys: string[], args: string[], ro = false, argv: string[] = []): Reply | Promise<Reply> {
  const { source, flags, compat } = parseShebang(body);
  if (conn.server.cluster !== null && !compat && flags.includes('no-cluster')) {
    throw new CommandError("ERR Can not run script on cluster, 'no-cluster' flag is set.");
  }
  const noWrites = !compat && flags.includes('no-writes');
  if (!compat && !noWrites && ro) throw new CommandError(ERR_RO_WITH_WRITE_FLAG);
  if (!compat) checkScriptOom(conn, flags);
  const vm = theVm();
  const engine = engineFor(conn);
  const ref = functionRef(engine, sha, source);
  const L = engine.L;
  setGlobalArray(vm, L, 'KEYS', keys);
  setGlobalArray(vm, L, 'ARGV', args);
  return startRun(conn, engine, ref, { name: sha, isEval: true, readOnly: ro || noWrites, allowOom: !compat && flags.includes('allow-oom'), argv, push: () => 0, ...clusterState(conn, keys, compat || flags.includes('allow-cross-slot-keys')) });
}

/** The cluster and undeclared-key state of a run (see ScriptRun.cluster / .declared). */
export function clusterState(conn: Connection, keys: string[], allowCrossSlot: boolean): Pick<ScriptRun, 'cluster' | 'declared'> {
  return {
    cluster: conn.server.cluster === null ? null : { allowCrossSlot, slot: keys.length > 0 ? keyHashSlot(keys[0]) : -1 },
    declared: warnUndeclaredKeysOn(conn) ? new Set(keys) : null,
  };
}

interface RunOptions extends Pick<ScriptRun, 'cluster' | 'declared'> {
  name: string;
  isEval: boolean;
  readOnly: boolean;
  argv: string[];
  allowOom: boolean;
  /** Push the body's arguments on the coroutine; returns how many. */
  push: (co: LuaState) => number;
}

/** Run the compiled body `ref` of `engine` as a script of `conn` (EVAL or FCALL). */
export function startRun(conn: Connection, engine: Engine, ref: number, opts: RunOptions): Reply | Promise<Reply> {
  const vm = theVm();
  const L = engine.L;
  // a thread whose last body returned is as good as new (lua_resume starts the function on top)
  let co: LuaState;
  let coRef: number;
  if (engine.spare !== null) {
    ({ co, ref: coRef } = engine.spare);
    engine.spare = null;
  } else {
    co = vm.newThread(L);
    coRef = vm.ref(L);
  }
  vm.pushRef(co, ref);
  const nargs = opts.push(co);
  vm.setHook(co, HOOK_COUNT);
  const now = realNow();
  const run: ScriptRun = {
    conn,
    engine,
    sha: opts.name,
    co,
    coRef,
    resp: 2,
    internal: null,
    startedAt: now,
    sliceEndsAt: now + FIRST_SLICE_MS,
    nargs,
    readOnly: opts.readOnly,
    isEval: opts.isEval,
    argv: opts.argv,
    killRequested: false,
    stuck: false,
    stuckAfterMs: stuckAfterMs(conn),
    overSince: 0,
    wrote: false,
    done: null,
    endAtomic: conn.keyspace.beginAtomic(),
    cluster: opts.cluster,
    declared: opts.declared,
    allowOom: opts.allowOom,
    writeDirty: false,
    nested: null,
    returned: false,
  };
  let suspended = false;
  try {
    const out = step(run);
    if (out !== SUSPENDED) return out;
    suspended = true;
  } finally {
    if (!suspended) finish(run);
  }
  // suspended: go on in slices, the server busy meanwhile
  busyByServer.set(conn.server, run);
  let settle!: () => void;
  run.done = new Promise<void>((resolve) => (settle = resolve));
  let passThreshold!: () => void;
  const thresholdPassed = new Promise<void>((resolve) => (passThreshold = resolve));
  // busy-reply-threshold on real time, looked at between slices (no timer for fake timers to hold)
  const checkThreshold = () => {
    if (pastBusyReplyThreshold(conn.server, run.startedAt)) passThreshold();
  };
  let ended = false;
  let abort!: (error: Error) => void;
  conn.server.busyScript = {
    conn,
    startedAt: run.startedAt,
    done: run.done,
    thresholdPassed,
    busyText: run.isEval ? BUSY_EVAL_TEXT : BUSY_FUNCTION_TEXT,
    abort: (error) => abort(error ?? new CommandError('ERR the server was closed while the script ran')),
  };
  return new Promise<Reply>((resolve, reject) => {
    // between two slices (never inside one: nothing else runs then): stop it now
    abort = (error) => {
      if (ended) return;
      end();
      reject(error);
    };
    const next = () => {
      if (ended) return;
      run.sliceEndsAt = realNow() + SLICE_MS;
      run.overSince = 0;
      let out: Reply | typeof SUSPENDED;
      try {
        out = step(run);
      } catch (err) {
        end();
        reject(err);
        return;
      }
      if (out === SUSPENDED) {
        checkThreshold();
        nextTurn(next);
      } else {
        end();
        resolve(out);
      }
    };
    const end = () => {
      ended = true;
      finish(run);
      if (busyByServer.get(conn.server) === run) busyByServer.delete(conn.server);
      if (conn.server.busyScript?.done === run.done) conn.server.busyScript = null;
      settle();
    };
    checkThreshold();
    nextTurn(next);
  });
}

const SUSPENDED = Symbol('suspended');

/** Release what a run holds (atomic section, coroutine, a flushed engine). */
function finish(run: ScriptRun): void {
  const vm = theVm();
  run.endAtomic();
  run.conn.endScriptSelect();
  if (!engineAlive(run.engine)) return; // the VM failed (vmFailed): nothing of it to release
  if (run.engine.closed) {
    vm.close(run.engine.L); // SCRIPT FLUSH ran while the script was busy
    return;
  }
  vm.setHook(run.co, 0);
  if (run.nested !== null) {
    for (const ref of run.nested.values()) vm.unref(run.engine.L, ref);
    run.nested = null;
  }
  if (run.returned && run.engine.spare === null) {
    vm.setTop(run.co, 0);
    run.engine.spare = { co: run.co, ref: run.coRef };
  } else vm.unref(run.engine.L, run.coRef);
  vm.setTop(run.engine.L, 0);
}

/** Resume the run's coroutine for one slice: its reply, SUSPENDED, or a thrown error. */
function step(run: ScriptRun): Reply | typeof SUSPENDED {
  // suspended between slices while a script of another server made the VM fail (vmFailed)
  if (!engineAlive(run.engine)) throw new CommandError('ERR [ioredis-mock-streams] the Lua VM failed while this script was suspended between its slices, and was made anew');
  const vm = theVm();
  const co = run.co;
  const outer = current;
  current = run;
  vm.onHook = hook;
  const server = run.conn.server;
  const outerRandom = vm.randomState;
  vm.randomState = randomStates.get(server) ?? RAND48_INITIAL;
  let status: number;
  try {
    const nargs = run.nargs;
    run.nargs = 0;
    status = vm.resume(co, nargs);
  } catch (err) {
    throw vmFailed(err);
  } finally {
    current = outer;
    randomStates.set(server, vm.randomState);
    vm.randomState = outerRandom;
  }
  if (vm.hostError) {
    const e = vm.hostError.error;
    vm.hostError = null;
    throw e;
  }
  if (run.internal) throw run.internal.error;
  if (status === LUA_YIELD && (vm.hookYielded() || propagatingYield)) {
    propagatingYield = false;
    return SUSPENDED;
  }
  if (status === 0) {
    run.returned = true;
    // Redis calls the body for one result (lua_pcall nresults 1): the first of several values
    if (vm.getTop(co) > 1) vm.setTop(co, 1);
    const result = vm.getTop(co) === 0 ? null : popResult(vm, co, run.resp, run.engine.version);
    if (result instanceof ErrorReply) throw result instanceof CountedErrorReply ? new NoStatsCommandError(result.message) : new CommandError(result.message);
    if (Array.isArray(result) || result instanceof MapReply || result instanceof SetReply) countNestedErrors(run.conn, result);
    return result;
  }
  if (status === LUA_YIELD) {
    // coroutine.yield in the body: Redis runs it with lua_pcall, where yielding fails
    throw new CommandError(oneLine(`ERR attempt to yield across metamethod/C-call boundary script: ${run.sha}, on @user_script:${lineOf(vm, co) ?? 1}.`));
  }
  if (run.stuck) {
    throw new StreamsMockError(
      `script ${run.sha} stopped: it ran ${Math.round(run.stuckAfterMs)} ms where it cannot be suspended (a loop inside a metamethod, a sort comparator or a gsub callback), the whole process waiting`,
    );
  }
  const counted = vm.type(co, -1) === LUA_TTABLE && statsCounted(vm, co);
  const text = oneLine(scriptErrorText(vm, co, run.sha));
  throw counted ? new NoStatsCommandError(text) : new CommandError(text);
}

function lineOf(vm: LuaVm, co: LuaState): number | undefined {
  for (const at of userFrames(vm, co, 3)) {
    if (at !== null && at !== 'C') return at.line;
  }
  return undefined;
}

/** The slice hook: 0 go on, 1 suspend (the slice is over), 2 kill. */
export function hook(L: LuaState): number {
  const loading = functionLoad.ctx;
  if (loading !== null) {
    if (realNow() - loading.startedAt <= LOAD_TIMEOUT_MS) return 0;
    loading.timedOut = true;
    return 2;
  }
  const run = current;
  if (run === null) return 0;
  if (run.killRequested || run.stuck) return 2;
  const now = realNow();
  if (now < run.sliceEndsAt) return 0;
  // the slice is over: a script that keeps running without being suspended is stuck
  if (run.overSince === 0) run.overSince = now;
  else if (now - run.overSince > run.stuckAfterMs) {
    run.stuck = true; // see stuckAfterMs
    raiseEverywhere(run);
    return 2;
  }
  // another thread (a coroutine of the script) cannot be suspended without its caller
  if (L !== run.co && !yieldableThreads.has(L)) return 0;
  return 1;
}

/**
 * The error reply of a failed script (script_lua.c luaCallFunction with eval.c's error handler:
 * source and line of the Lua function that raised it, or of its caller when a C function did).
 */
function scriptErrorText(vm: LuaVm, co: LuaState, sha: string): string {
  const frames = userFrames(vm, co, 2);
  let at = frames[0] ?? null;
  if (at === 'C') at = frames[1] ?? null;
  let err: string;
  if (vm.type(co, -1) !== LUA_TTABLE) {
    err = `ERR ${vm.type(co, -1) === LUA_TSTRING || vm.type(co, -1) === LUA_TNUMBER ? cString(vm.toString(co, -1) as string) : vm.type(co, -1) === LUA_TNIL ? 'nil' : vm.type(co, -1) === LUA_TBOOLEAN ? String(vm.toBoolean(co, -1)) : 'error object'}`;
  } else {
    vm.getField(co, -1, 'err');
    err = vm.isString(co, -1) ? cString(vm.toString(co, -1) as string) : 'ERR unknown error';
    vm.pop(co, 1);
  }
  return at !== null && at !== 'C' ? `${err} script: ${sha}, on ${at.source}:${at.line}.` : err;
}

// ---------------------------------------------------------------------------------------------
// Killing a script (SCRIPT KILL, FUNCTION KILL)

/**
 * A killed or stuck script: its threads raise the kill error at their next instruction (Redis:
 * the hook turns to every line), so a pcall catching it in one thread does not keep its caller
 * running.
 */
function raiseEverywhere(run: ScriptRun): void {
  const vm = theVm();
  vm.setHook(run.co, 1);
  for (const co of run.nested?.keys() ?? []) vm.setHook(co, 1);
}

/** SCRIPT KILL (isEval) and FUNCTION KILL (script.c scriptKill). */
export function killScript(conn: Connection, isEval = true): Reply {
  const run = busyByServer.get(conn.server);
  if (!run) throw new CommandError(NOTBUSY);
  if (run.wrote) throw new CommandError(UNKILLABLE);
  if (isEval && !run.isEval) throw new CommandError(BUSY_FUNCTION_TEXT);
  if (!isEval && run.isEval) throw new CommandError(BUSY_EVAL_TEXT);
  run.killRequested = true;
  raiseEverywhere(run);
  return new SimpleString('OK');
}

/** The kill error a killed script's caller gets (exported for tests' reference). */
