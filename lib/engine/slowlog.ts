/**
 * The slow log of a server (slowlog.c): every command that ran (EXEC itself excepted: the
 * commands it ran are logged) taking at least `slowlog-log-slower-than` µs — with 0, every
 * command; -1 turns it off — newest first, at most `slowlog-max-len` entries. A fake's commands
 * take microseconds, so with the default (10000) nothing is logged; the time is measured only
 * when the threshold is below the default. Entries: id (increasing per server, kept by RESET),
 * unix time (s, keyspace clock), duration (µs), the arguments (at most 32: the 32nd says
 * "... (N more arguments)"; each at most 128 bytes, then "... (N more bytes)"; secrets
 * "(redacted)" as Redis redacts them: AUTH, HELLO … AUTH, ACL SETUSER/DELUSER/GETUSER, CONFIG
 * SET of sensitive parameters, MIGRATE … AUTH/AUTH2), the client's addr and name.
 */
import type { Reply } from '../reply/reply';
import type { RedisVersion } from '../version';

export interface SlowlogEntry {
  readonly id: number;
  readonly time: number;
  readonly duration: number;
  readonly argv: string[];
  readonly addr: string;
  readonly name: string;
}

const SENSITIVE_CONFIGS = new Set(['masteruser', 'masterauth', 'requirepass', 'tls-key-file-pass', 'tls-client-key-file-pass']);
/** 7.0 redacts only these (7.0.15 logs `config set tls-key-file-pass {}` as given). */
const SENSITIVE_CONFIGS_70 = new Set(['masteruser', 'masterauth', 'requirepass']);
const REDACTED = '(redacted)';

/**
 * argv with its secrets "(redacted)" as the command redacts them (redactClientCommandArgument:
 * the `original_argv` SLOWLOG and MONITOR show).
 */
export function redactedArgv(argv: readonly string[], version?: RedisVersion): string[] {
  const a = [...argv];
  const name = String(a[0]).toLowerCase();
  const sub = a.length > 1 ? String(a[1]).toLowerCase() : '';
  const redact = (from: number, to = a.length) => {
    for (let i = from; i < to && i < a.length; i++) a[i] = REDACTED;
  };
  if (name === 'auth') redact(1);
  else if (name === 'hello') {
    for (let i = 2; i < a.length; i++) if (a[i].toLowerCase() === 'auth') redact(i + 1, i + 3);
  } else if (name === 'acl' && (sub === 'setuser' || sub === 'deluser')) redact(2);
  else if (name === 'acl' && sub === 'getuser') redact(2, 3);
  else if (name === 'config' && sub === 'set') {
    const sensitive = version === '7.0' ? SENSITIVE_CONFIGS_70 : SENSITIVE_CONFIGS;
    for (let i = 2; i + 1 < a.length; i += 2) if (sensitive.has(a[i].toLowerCase())) a[i + 1] = REDACTED;
  } else if (name === 'migrate') {
    for (let i = 6; i < a.length; i++) {
      const o = a[i].toLowerCase();
      if (o === 'auth') redact(i + 1, i + 2);
      else if (o === 'auth2') redact(i + 1, i + 3);
    }
  }
  return a;
}

/** The arguments as the slow log keeps them (redacted secrets, trimmed). */
function logged(argv: readonly string[], version?: RedisVersion): string[] {
  const a = redactedArgv(argv, version);
  const out: string[] = [];
  const n = Math.min(a.length, 32);
  for (let i = 0; i < n; i++) {
    if (n === 32 && i === 31 && a.length > 32) out.push(`... (${a.length - 31} more arguments)`);
    else out.push(a[i].length > 128 ? `${a[i].slice(0, 128)}... (${a[i].length - 128} more bytes)` : a[i]);
  }
  return out;
}

export class Slowlog {
  private entries: SlowlogEntry[] = [];
  private nextId = 0;

  /** slowlogPushEntryIfNeeded */
  push(argv: readonly string[], durationUs: number, time: number, addr: string, name: string, threshold: number, maxLen: number, version?: RedisVersion): void {
    if (threshold < 0 || durationUs < threshold) return;
    this.entries.unshift({ id: this.nextId++, time: Math.floor(time / 1000), duration: durationUs, argv: logged(argv, version), addr, name });
    if (this.entries.length > maxLen) this.entries.length = maxLen;
  }

  get length(): number {
    return this.entries.length;
  }

  reset(): void {
    this.entries = [];
  }

  /** SLOWLOG GET count (-1: all) */
  get(count: number): Reply {
    const list = count < 0 ? this.entries : this.entries.slice(0, count);
    return list.map((e) => [e.id, e.time, e.duration, e.argv, e.addr, e.name]);
  }
}
