/**
 * The function libraries of a server (functions.c): what FUNCTION LOAD registered, kept per
 * host:port and never touched by FLUSHALL/FLUSHDB (FUNCTION FLUSH/DELETE/RESTORE change them).
 * Pure data and texts: compiling a library is lib/scripting/functions.ts's, the commands are
 * lib/engine/commands/functions.ts's.
 *
 * - Library names are case-sensitive, function names case-insensitive (Redis's functions dict
 *   compares without case: `FCALL MYFN` runs `myfn`), both `[A-Za-z0-9_]+`.
 * - The metadata line `#!<engine> name=<library>` (functionExtractLibMetaData): engine names
 *   compare without case (only LUA exists), `name=` without case too.
 * - FUNCTION DUMP's payload: for each library the RDB opcode FUNCTION2 (245) and its code as an
 *   RDB string (LZF-compressed when `rdbcompression` is on and it saves), then the RDB version (2
 *   bytes LE) and the CRC-64 (8 bytes LE) — functions.c functionDumpCommand, rdb.c
 *   rdbSaveFunctions; byte-identical to the real server's for the same libraries in the same order.
 */
import { CommandError } from '../errors';
import { crc64 } from '../rdb/crc64';
import { RdbReader, RdbWriter, byteString, bytesOf } from '../rdb/rdb-io';

export const RDB_OPCODE_FUNCTION_PRE_GA = 246;
export const RDB_OPCODE_FUNCTION2 = 245;

/** The script flags (script.c scripts_flags_def), in Redis's order. */
export const SCRIPT_FLAGS = ['no-writes', 'allow-oom', 'allow-stale', 'no-cluster', 'allow-cross-slot-keys'] as const;

export const ERR_BAD_NAME =
  'ERR Library names can only contain letters, numbers, or underscores(_) and must be at least one character long';

export interface FunctionInfo {
  /** As registered (FUNCTION LIST shows it so). */
  readonly name: string;
  readonly description: string | null;
  /** Flags in SCRIPT_FLAGS order. */
  readonly flags: readonly string[];
  readonly library: Library;
}

export interface Library {
  readonly name: string;
  /** The engine as registered: 'LUA'. */
  readonly engine: string;
  /** The whole code, metadata line included (FUNCTION LIST WITHCODE, DUMP). */
  readonly code: string;
  /** By name (the library's own dict is case-sensitive), in registration order. */
  readonly functions: Map<string, FunctionInfo>;
}

/** The libraries of one server. */
export class FunctionLibraries {
  /** By name (case-sensitive), in load order. */
  readonly libraries = new Map<string, Library>();
  /**
   * Every function by lower-case name (Redis's server-wide dict compares without case; of two
   * names of one library equal but for case, the first registered is the one FCALL finds).
   */
  readonly functions = new Map<string, FunctionInfo>();

  link(lib: Library): void {
    this.libraries.set(lib.name, lib);
    for (const [name, fn] of lib.functions) if (!this.functions.has(name.toLowerCase())) this.functions.set(name.toLowerCase(), fn);
  }

  unlink(lib: Library): void {
    this.libraries.delete(lib.name);
    for (const name of lib.functions.keys()) if (this.functions.get(name.toLowerCase())?.library === lib) this.functions.delete(name.toLowerCase());
  }

  clear(): void {
    this.libraries.clear();
    this.functions.clear();
  }

  functionCount(): number {
    return this.functions.size;
  }

  /** The libraries' code, bytes (INFO's estimate of the functions VM). */
  get codeBytes(): number {
    let n = 0;
    for (const lib of this.libraries.values()) n += lib.code.length;
    return n;
  }
}

const byServer = new WeakMap<object, FunctionLibraries>();

/** The libraries of a server (created empty on first use). */
export function librariesOf(server: object): FunctionLibraries {
  let libs = byServer.get(server);
  if (!libs) byServer.set(server, (libs = new FunctionLibraries()));
  return libs;
}

/** functionsVerifyName: `[A-Za-z0-9_]+`. */
export function validName(name: string): boolean {
  return /^[A-Za-z0-9_]+$/.test(name);
}

/**
 * sds.c sdssplitargs: words separated by spaces; `"…"` (with \\xHH, \\n, \\r, \\t, \\b, \\a
 * escapes) and `'…'` (with \\') quote, also in the middle of a word (`name="foo"` is
 * `name=foo`); a closing quote must end the word. Null on unbalanced quotes.
 */
export function splitArgs(line: string): string[] | null {
  const out: string[] = [];
  const n = line.length;
  const space = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\v' || c === '\f';
  const hex = (c: string | undefined) => c !== undefined && /^[0-9a-fA-F]$/.test(c);
  let i = 0;
  while (true) {
    while (i < n && space(line[i])) i++;
    if (i >= n) return out;
    let cur = '';
    let inq = false;
    let insq = false;
    let done = false;
    while (!done) {
      const c = line[i];
      if (inq) {
        if (c === '\\' && line[i + 1] === 'x' && hex(line[i + 2]) && hex(line[i + 3])) {
          cur += String.fromCharCode(parseInt(line.slice(i + 2, i + 4), 16));
          i += 3;
        } else if (c === '\\' && i + 1 < n) {
          const e = line[++i];
          cur += e === 'n' ? '\n' : e === 'r' ? '\r' : e === 't' ? '\t' : e === 'b' ? '\b' : e === 'a' ? '\x07' : e;
        } else if (c === '"') {
          if (i + 1 < n && !space(line[i + 1])) return null;
          done = true;
        } else if (i >= n) return null;
        else cur += c;
      } else if (insq) {
        if (c === '\\' && line[i + 1] === "'") {
          i++;
          cur += "'";
        } else if (c === "'") {
          if (i + 1 < n && !space(line[i + 1])) return null;
          done = true;
        } else if (i >= n) return null;
        else cur += c;
      } else if (i >= n || space(c)) done = true;
      else if (c === '"') inq = true;
      else if (c === "'") insq = true;
      else cur += c;
      if (i < n) i++;
    }
    out.push(cur);
  }
}

export interface LibraryMetadata {
  engine: string;
  name: string;
  /** The code after the metadata line, its newline kept (line numbers as in Redis). */
  body: string;
}

/** functionExtractLibMetaData. Throws the CommandError FUNCTION LOAD answers. */
export function parseMetadata(code: string): LibraryMetadata {
  if (!code.startsWith('#!')) throw new CommandError('ERR Missing library metadata');
  const eol = code.indexOf('\n');
  // strchr(payload, '\n'): a NUL byte before the newline ends the C string first
  const nul = code.indexOf('\0');
  if (eol < 0 || (nul >= 0 && nul < eol)) throw new CommandError('ERR Invalid library metadata');
  const parts = splitArgs(code.slice(0, eol));
  if (!parts || parts.length === 0) throw new CommandError('ERR Invalid library metadata');
  const engine = parts[0].slice(2);
  let name: string | null = null;
  for (const part of parts.slice(1)) {
    if (part.slice(0, 5).toLowerCase() === 'name=') {
      if (name !== null) throw new CommandError('ERR Invalid metadata value, name argument was given multiple times');
      name = part.slice(5);
      continue;
    }
    throw new CommandError(oneLine(`ERR Invalid metadata value given: ${part}`));
  }
  if (name === null) throw new CommandError('ERR Library name was not given');
  return { engine, name, body: code.slice(eol) };
}

function oneLine(s: string): string {
  return s.replace(/[\r\n]/g, ' ');
}

/** FUNCTION DUMP's payload (a byte string). */
export function dumpLibraries(libs: Iterable<Library>, rdbVersion: number, compression: boolean): string {
  const w = new RdbWriter({ compression });
  for (const lib of libs) {
    w.byte(RDB_OPCODE_FUNCTION2);
    w.string(lib.code);
  }
  w.byte(rdbVersion & 0xff);
  w.byte((rdbVersion >> 8) & 0xff);
  const body = w.bytes();
  const out = new Uint8Array(body.length + 8);
  out.set(body);
  new DataView(out.buffer).setBigUint64(body.length, crc64(body), true);
  return byteString(out);
}

/**
 * The library codes of a FUNCTION RESTORE payload (verifyDumpPayload, then the opcodes):
 * throws the CommandError Redis answers for a bad payload.
 */
export function readDumpedLibraries(payload: string, rdbVersion: number): string[] {
  const bytes = bytesOf(payload);
  const bad = () => new CommandError('ERR DUMP payload version or checksum are wrong');
  if (bytes.length < 10) throw bad();
  const footer = bytes.length - 10;
  const ver = bytes[footer] | (bytes[footer + 1] << 8);
  if (ver > rdbVersion) throw bad();
  const expected = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(footer + 2, true);
  if (crc64(bytes, 0n, 0, bytes.length - 8) !== expected) throw bad();
  const r = new RdbReader(bytes);
  const codes: string[] = [];
  while (bytes.length - r.pos > 10) {
    const type = r.byte();
    if (type === RDB_OPCODE_FUNCTION_PRE_GA) throw new CommandError('ERR Pre-GA function format not supported');
    if (type !== RDB_OPCODE_FUNCTION2) throw new CommandError('ERR given type is not a function');
    try {
      codes.push(r.string());
    } catch {
      throw new CommandError('ERR Failed loading library payload');
    }
  }
  return codes;
}
