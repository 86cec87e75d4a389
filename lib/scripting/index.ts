/**
 * The scripting machinery as the engine's commands use it, loaded on the first script, FUNCTION
 * or SCRIPT command (lib/engine/commands/scripting.ts `lua()`; in the `rare` bundle): Redis's
 * Lua 5.1 as WebAssembly (./vm.ts), the values a script and Redis exchange (./values.ts),
 * running a script in slices with Redis's API and errors (./lua.ts), EVAL and its cache
 * (./eval.ts), Redis Functions (./functions.ts over the libraries of ./libraries.ts).
 */
export { killScript, resetScripting } from './lua';
export { evalCommand, evalshaCommand, loadScript, sha1hex } from './eval';
export { deleteLibrary, fcallCommand, flushLibraries, flushLibrariesOf, functionStats, loadLibrary, restoreLibraries } from './functions';
