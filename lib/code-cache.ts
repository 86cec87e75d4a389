/**
 * V8 code cache for the package's own bundles (`dist/bundle/<group>.js` other than the root one):
 * what Node 22's `module.enableCompileCache()` does for every module, done here for these files
 * only, on every Node line (20, 22, 24), and made after the bundle has run, so the cache also
 * holds the bytecode of the functions the process called (V8 compiles a function on its first
 * call; a cache made at load time would hold the top level only).
 *
 * Why: a fresh process's first command paid for reading, compiling and first-calling the client
 * bundle and the command family's bundle (~2.5 ms of the ~3 ms of a first SET here, more than
 * the next thousand GETs). With the cache, V8 deserializes the bytecode instead.
 *
 * When it is used: the bundle is loaded by Node's own module system in the main realm (node:test,
 * vitest's externalized dependencies, scripts), not when the process runs with source maps
 * (`--enable-source-maps`: Node maps stack traces of the files it loads itself), and not inside
 * a test framework's sandbox realm (jest runs each test file in a vm context of its own: the
 * bundle must be compiled there, which jest does, and V8 then shares its compilation between the
 * test files of one worker). Otherwise the bundle is `require`d as before.
 *
 * Where: `<node_modules>/.cache/ioredis-mock-streams/` of the `node_modules` holding this package
 * (`<package>/node_modules/.cache/…` in a source checkout; with pnpm, its store's folder of the
 * package); the environment variable `IOREDIS_MOCK_STREAMS_CODE_CACHE` names another directory
 * (an absolute path, or relative to the working directory), turns it off (`0`/`false`/`off`/`no`)
 * or keeps the default (`1`/`true`/`on`/`yes`). One file per bundle, file path, Node version and
 * flag set (`process.execArgv` but a `-e` script, and `NODE_OPTIONS`), written 40 ms after the
 * bundle loaded (an unref'd timer of Node's own: vitest ends a quick test file's worker with a
 * signal, and no exit handler runs) and again, fuller, at exit, only when it was missing or refused;
 * written to a temporary name, then renamed; at most FILES_PER_BUNDLE (8) files per bundle are kept
 * (a write removes the oldest). Not used while V8 coverage is collected
 * (`NODE_V8_COVERAGE`: a cached function has no coverage). A file is taken only when its header
 * names this build of the bundle (content hash written into the root bundle by the build, file
 * size, mtime, inode), this Node version and architecture, and the SHA-256 of its payload
 * matches (V8 checks no checksum in release builds: a flipped bit would crash the process); a
 * directory that cannot be written leaves the package working as without the cache.
 */
import type * as FsModule from 'fs';
import type * as VmModule from 'vm';
import { realSetTimeout } from './clock/real-timers';

/** The environment variable that moves (a directory), turns off (`0`, `false`, `off`, `no`) or keeps (`1`, `true`, `on`, `yes`) the cache. */
export const CODE_CACHE_ENV = 'IOREDIS_MOCK_STREAMS_CODE_CACHE';

/** A bundle's code as a CommonJS module's function; the prefix's columns are taken back (columnOffset). */
const PREFIX = '(function (exports, require, module, __filename, __dirname) { ';
const SUFFIX = '\n})';
/** The header's format tag (a new one invalidates every older file). */
const FORMAT = 'ims1';
/**
 * How long after a bundle loads its cache is first written (ms): vitest ends a quick test file's
 * worker ~100 ms after the bundle loaded, with a signal (no exit handler runs).
 */
const WRITE_AFTER_MS = 40;
/** A temporary file older than this (ms) is a write that was killed: removed by the next write. */
const STALE_TMP_MS = 10 * 60_000;
/**
 * Cache files kept per bundle (one per Node version and flag set): a write removes the bundle's
 * oldest beyond this many, so runs with ever other flags (`--test-name-pattern=…`) do not grow
 * the directory without end. A removed one still in use is written again by its next process.
 */
const FILES_PER_BUNDLE = 8;

interface Pending {
  script: VmModule.Script;
  file: string;
  /** The header without the payload's digest. */
  key: string;
  /** Written once already (by the timer): the timer skips it, exit writes it again. */
  written: boolean;
}

/** What this copy of the package did, per bundle file (for tests and `codeCacheReport()`). */
export type CodeCacheUse = 'required' | 'cached' | 'compiled' | 'rejected';
const uses = new Map<string, CodeCacheUse>();
const pending: Pending[] = [];
let exitHooked = false;
let writeTimer: { unref(): unknown } | null = null;
let sameRealm: boolean | undefined;
let cacheDir: string | null | undefined;

/**
 * Loads the bundle `name` (a file of `bundleDir`) through the code cache when it applies
 * (module comment), else with `fallback()` (the `require` of the root bundle: jest's inside
 * jest). `buildKey`: the bundle's content hash, written into the root bundle by the build
 * (scripts/bundle-dist.js). Returns the module's `exports`. Never throws for the cache's sake:
 * any failure of the cache path before the bundle runs falls back to `fallback()`.
 */
export function requireBundle(fallback: () => unknown, bundleDir: string, name: string, buildKey: string): unknown {
  const path: typeof import('path') = require('path');
  const filename = path.join(bundleDir, name); // the platform's separator (Windows: stack traces, createRequire)
  let script: VmModule.Script;
  let source: Pending | null = null;
  let req: NodeRequire;
  try {
    const dir = codeCacheDir(bundleDir);
    if (dir === null || !inMainRealm() || (process as { sourceMapsEnabled?: boolean }).sourceMapsEnabled || process.env.NODE_V8_COVERAGE) {
      uses.set(filename, 'required');
      return fallback();
    }
    const fs: typeof FsModule = require('fs');
    const vm: typeof VmModule = require('vm');
    const stat = fs.statSync(filename);
    const key = `${FORMAT}:${buildKey}:${stat.size}:${stat.mtimeMs}:${stat.ino}:${process.version}:${process.arch}`;
    const flags = `${nodeFlags().join('\0')}\0${process.env.NODE_OPTIONS ?? ''}`;
    const file = path.join(dir, `${name.replace(/\.js$/, '')}-${fnv1a(`${filename}\0${process.version}\0${flags}`)}.bin`);
    let cachedData: Buffer | undefined;
    let refused = false;
    try {
      const saved = fs.readFileSync(file);
      const end = saved.indexOf(10);
      const header = end > 0 ? saved.toString('latin1', 0, end) : '';
      const cut = header.lastIndexOf(':');
      if (header.slice(0, cut) === key) {
        const payload = saved.subarray(end + 1);
        if (digestOf(payload) === header.slice(cut + 1)) cachedData = payload;
        else refused = true; // damaged: never handed to V8
      }
    } catch {
      // no cache yet
    }
    const code = fs.readFileSync(filename, 'utf8');
    script = new vm.Script(PREFIX + code + SUFFIX, {
      filename,
      columnOffset: -PREFIX.length,
      cachedData,
      importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    } as VmModule.ScriptOptions);
    const use: CodeCacheUse = refused || script.cachedDataRejected === true ? 'rejected' : cachedData === undefined ? 'compiled' : 'cached';
    uses.set(filename, use);
    if (use !== 'cached') source = { script, file, key, written: false };
    req = (require('module') as typeof import('module')).createRequire(filename);
  } catch {
    uses.set(filename, 'required');
    return fallback();
  }
  const mod = { exports: {} as unknown };
  (script.runInThisContext() as (...args: unknown[]) => void).call(mod.exports, mod.exports, req, mod, filename, bundleDir);
  if (source !== null) scheduleWrite(source);
  return mod.exports;
}

/**
 * A bundle's cache to write: WRITE_AFTER_MS from now (one timer for all), and again at exit (by
 * then the process has compiled more of the bundle's functions: the fuller cache replaces the
 * first). Only in a process that found no usable cache.
 */
function scheduleWrite(item: Pending): void {
  pending.push(item);
  if (!exitHooked) {
    exitHooked = true;
    process.once('exit', writeCaches);
  }
  if (writeTimer === null) {
    // Node's own timer, never a fake one; unref'd: it keeps no process alive
    writeTimer = realSetTimeout(writeCaches, WRITE_AFTER_MS);
    writeTimer.unref();
  }
}

/** `process.execArgv` without a `-e`/`-p` script's code (not a flag: one cache for every such script). */
function nodeFlags(): string[] {
  const out: string[] = [];
  const argv = process.execArgv;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-e' || a === '--eval' || a === '-p' || a === '--print') i++;
    else if (!a.startsWith('--eval=') && !a.startsWith('--print=')) out.push(a);
  }
  return out;
}

/** How each bundle of this copy was loaded: 'cached' (V8 took the cache), 'compiled' (none yet), 'rejected', 'required'. */
export function codeCacheReport(): Record<string, CodeCacheUse> {
  return Object.fromEntries(uses);
}

/** Is this module's realm the main one (not a jest test file's vm context)? */
function inMainRealm(): boolean {
  sameRealm ??= (require('vm') as typeof VmModule).runInThisContext('globalThis') === globalThis;
  return sameRealm;
}

/** The cache directory (module comment), or null when there is none. */
function codeCacheDir(bundleDir: string): string | null {
  if (cacheDir !== undefined) return cacheDir;
  const path: typeof import('path') = require('path');
  const setting = (process.env[CODE_CACHE_ENV] ?? '').trim();
  if (/^(0|false|off|no)$/i.test(setting)) return (cacheDir = null);
  if (setting !== '' && !/^(1|true|on|yes)$/i.test(setting)) return (cacheDir = path.resolve(setting));
  const pkg = path.resolve(bundleDir, '..', '..');
  const parent = path.dirname(pkg);
  if (path.basename(parent) === 'node_modules') cacheDir = path.join(parent, '.cache', 'ioredis-mock-streams');
  else if ((require('fs') as typeof FsModule).existsSync(path.join(pkg, 'node_modules'))) cacheDir = path.join(pkg, 'node_modules', '.cache', 'ioredis-mock-streams');
  else cacheDir = null;
  return cacheDir;
}

/** The cache of each bundle that had none (or a refused one), with what this process compiled so far (kept: written again at exit). */
function writeCaches(atExit?: unknown): void {
  // at exit ('exit' passes the exit code): every bundle again; from the timer: the new ones
  const all = typeof atExit === 'number';
  writeTimer = null;
  const fs: typeof FsModule = require('fs');
  const path: typeof import('path') = require('path');
  for (const item of pending) {
    if (item.written && !all) continue;
    item.written = true;
    const { script, file, key } = item;
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      const data = script.createCachedData();
      fs.mkdirSync(path.dirname(file), { recursive: true });
      tidyCacheDir(fs, path.dirname(file), path.basename(file));
      fs.writeFileSync(tmp, Buffer.concat([Buffer.from(`${key}:${digestOf(data)}\n`, 'latin1'), data]));
      fs.renameSync(tmp, file);
    } catch {
      try {
        fs.rmSync(tmp, { force: true });
      } catch {
        // a directory we cannot write: no cache
      }
    }
  }
}

/**
 * Before `writing` (a file name of the cache directory `dir`) is written: removes the temporary
 * files of writes that were killed (older than STALE_TMP_MS), and the oldest cache files (by
 * mtime) of the same bundle beyond FILES_PER_BUNDLE with the one being written.
 */
function tidyCacheDir(fs: typeof FsModule, dir: string, writing: string): void {
  const { join } = require('path') as typeof import('path');
  const now = Date.now();
  const bundle = writing.slice(0, writing.lastIndexOf('-') + 1); // `<name>-` of `<name>-<hash>.bin`
  const siblings: { file: string; mtimeMs: number }[] = [];
  for (const entry of fs.readdirSync(dir)) {
    const isTmp = entry.endsWith('.tmp');
    const isSibling = !isTmp && entry !== writing && entry.endsWith('.bin') && entry.startsWith(bundle) && !entry.slice(bundle.length).includes('-');
    if (!isTmp && !isSibling) continue;
    try {
      const file = join(dir, entry);
      const { mtimeMs } = fs.statSync(file);
      if (isSibling) siblings.push({ file, mtimeMs });
      else if (now - mtimeMs > STALE_TMP_MS) fs.rmSync(file, { force: true });
    } catch {
      // gone meanwhile
    }
  }
  siblings.sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const { file } of siblings.slice(FILES_PER_BUNDLE - 1)) {
    try {
      fs.rmSync(file, { force: true });
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
}

/** SHA-256 of a cache payload (32 hex digits): a damaged file is refused before V8 reads it. */
function digestOf(data: Buffer): string {
  return (require('crypto') as typeof import('crypto')).createHash('sha256').update(data).digest('hex').slice(0, 32);
}

/** FNV-1a (32 bits) of a short string, as 8 hex digits: the cache file's name per path and flags. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
