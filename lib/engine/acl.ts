/**
 * Users and permissions of one emulated server (acl.c): the user table ACL SETUSER edits, the
 * `default` user (`requirepass` is its password), the ACL log and the checks processCommand makes
 * before running a command (command bits, key patterns per key-spec flags, channel patterns).
 *
 * A selector keeps what acl.c keeps: the set of allowed commands (acl.c's bitmap, here a set of
 * full names: `get`, `client|kill`), the reserved "future commands" bit +@all sets, first-arg
 * exceptions (`+select|0`), the retained command rules string GETUSER/LIST show (the post-7.2
 * lossless form; 7.0.15 rebuilt it from the bitmap instead, in another order), key patterns with
 * %R/%W flags, channel patterns.
 *
 * The connection's check is one flag test while its user may do everything (`unrestricted`).
 */
import { createHash } from 'crypto';
import { globMatch } from '../bytes/glob';
import { type RedisVersion, predates } from '../version';

/* eslint-disable @typescript-eslint/no-require-imports -- the tables load with the first ACL rule or restricted user */
const keySpecs = (): typeof import('../commands/server/key-specs') => require('../commands/server/key-specs');
const tables = (): typeof import('./acl-table') => require('./acl-table');
/* eslint-enable @typescript-eslint/no-require-imports */

const READ = 1;
const WRITE = 2;

/** One parsed universe of commands per version: full names, containers, masks. */
interface CommandUniverse {
  readonly all: readonly string[];
  readonly topLevel: readonly string[];
  readonly subs: ReadonlyMap<string, readonly string[]>;
  readonly has: ReadonlySet<string>;
  mask(name: string): number;
}

const universes = new Map<string, CommandUniverse>();

function universeOf(version: RedisVersion): CommandUniverse {
  const key = predates(version, '7.2') ? '7.0' : version;
  let u = universes.get(key);
  if (u) return u;
  const { ACL_CATEGORY_MASKS, ACL_CATEGORY_MASKS_70 } = tables();
  const names = keySpecs().redisCommandNames(version);
  const subs = new Map<string, string[]>();
  for (const n of names) {
    const bar = n.indexOf('|');
    if (bar > 0) {
      const parent = n.slice(0, bar);
      let list = subs.get(parent);
      if (!list) subs.set(parent, (list = []));
      list.push(n);
    }
  }
  const seventy = key === '7.0';
  u = {
    all: names,
    topLevel: names.filter((n) => !n.includes('|')),
    subs,
    has: new Set(names),
    mask: (name) => (seventy && ACL_CATEGORY_MASKS_70[name] !== undefined ? ACL_CATEGORY_MASKS_70[name] : (ACL_CATEGORY_MASKS[name] ?? 0)),
  };
  universes.set(key, u);
  return u;
}

/** True when `full` (`name` or `container|sub`) is an @admin command in `version` (CMD_ADMIN). */
export function isAdminCommand(full: string, version: RedisVersion): boolean {
  return (universeOf(version).mask(full) & categoryFlag('admin')) !== 0;
}

/** True when `full` reads or writes the keyspace in `version` (@read / @write: CMD_READONLY, CMD_WRITE). */
export function readsOrWritesKeys(full: string, version: RedisVersion): boolean {
  return (universeOf(version).mask(full) & (categoryFlag('read') | categoryFlag('write'))) !== 0;
}

/** The category bit of `name` (case-insensitive), or 0. */
function categoryFlag(name: string): number {
  const i = tables().ACL_CATEGORIES.indexOf(name.toLowerCase());
  return i < 0 ? 0 : 1 << i;
}

/**
 * The ACL categories of `full` (`name` or `container|sub`) in `version`, in Redis's order, as
 * COMMAND INFO lists them (`acl_categories`), or null when the table does not know it.
 */
export function categoriesOf(full: string, version: RedisVersion): string[] | null {
  const mask = universeOf(version).mask(full);
  if (mask === 0) return null;
  const names = tables().ACL_CATEGORIES;
  const out: string[] = [];
  for (let i = 0; i < names.length; i++) if ((mask & (1 << i)) !== 0) out.push(`@${names[i]}`);
  return out;
}

/** ACL CAT category: every command and subcommand of the category. */
export function commandsInCategory(version: RedisVersion, category: string): string[] | null {
  const flag = categoryFlag(category);
  if (!flag) return null;
  const u = universeOf(version);
  return u.all.filter((n) => (u.mask(n) & flag) !== 0);
}

/** ACLLookupCommand: a command or `container|sub` of the version, lower case; undefined when unknown. */
function lookupAclCommand(u: CommandUniverse, name: string): string | undefined {
  const n = name.toLowerCase();
  const bar = n.indexOf('|');
  if (bar >= 0) {
    if (n.indexOf('|', bar + 1) >= 0) return undefined;
    if (!u.subs.has(n.slice(0, bar))) return undefined;
  }
  return u.has.has(n) ? n : undefined;
}

class SetUserError extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

const E_NOENT = 'Unknown command or category name in ACL';
const E_INVAL = 'Syntax error';
const E_EXIST =
  "Adding a pattern after the * pattern (or the 'allkeys' flag) is not valid and does not have any effect. Try 'resetkeys' to start with an empty list of patterns";
const E_ISDIR =
  "Adding a pattern after the * pattern (or the 'allchannels' flag) is not valid and does not have any effect. Try 'resetchannels' to start with an empty list of channels";
const E_NODEV = 'The password you are trying to remove from the user does not exist';
const E_BADMSG = 'The password hash must be exactly 64 characters and contain only lowercase hexadecimal characters';
const E_CHILD = 'Allowing first-arg of a subcommand is not supported';

export interface KeyPattern {
  pattern: string;
  flags: number;
}

export class Selector {
  allKeys = false;
  allChannels = false;
  /** SELECTOR_FLAG_ALLCOMMANDS: every command, no bit test. */
  allCommands = false;
  /** The reserved bit +@all sets: future commands (GETUSER starts with +@all). */
  future = false;
  /** Allowed full names; null: every command (the default user's +@all, made a set on the first removal). */
  allowed: Set<string> | null = new Set<string>();
  firstArgs: Map<string, string[]> | null = null;
  rules = '';
  patterns: KeyPattern[] = [];
  channels: string[] = [];

  constructor(readonly root: boolean) {}

  clone(root = this.root): Selector {
    const s = new Selector(root);
    s.allKeys = this.allKeys;
    s.allChannels = this.allChannels;
    s.allCommands = this.allCommands;
    s.future = this.future;
    s.allowed = this.allowed === null ? null : new Set(this.allowed);
    s.firstArgs = this.firstArgs ? new Map([...this.firstArgs].map(([k, v]) => [k, [...v]])) : null;
    s.rules = this.rules;
    s.patterns = this.patterns.map((p) => ({ ...p }));
    s.channels = [...this.channels];
    return s;
  }

  private setBit(u: CommandUniverse, name: string, allow: boolean): void {
    const allowed = (this.allowed ??= new Set(u.all));
    if (allow) allowed.add(name);
    else {
      allowed.delete(name);
      this.allCommands = false;
    }
  }

  /** ACLChangeSelectorPerm: the command, its first-args reset, and its subcommands. */
  changePerm(u: CommandUniverse, name: string, allow: boolean): void {
    this.setBit(u, name, allow);
    this.firstArgs?.delete(name);
    const subs = u.subs.get(name);
    if (subs) for (const s of subs) this.setBit(u, s, allow);
  }

  /** ACLSelectorRemoveCommandRule + append (ACLUpdateCommandRules). */
  private updateRules(rule: string, allow: boolean): void {
    const r = rule.toLowerCase();
    const kept = this.rules === '' ? [] : this.rules.split(' ').filter((existing) => {
      const body = existing.slice(1);
      return !(body === r || (body.length > r.length && body.startsWith(r) && body[r.length] === '|'));
    });
    kept.push(`${allow ? '+' : '-'}${r}`);
    this.rules = kept.join(' ');
  }

  /** ACLSetSelector; throws SetUserError. */
  apply(u: CommandUniverse, op: string): void {
    const lower = op.toLowerCase();
    if (lower === 'allkeys' || op === '~*') {
      this.allKeys = true;
      this.patterns = [];
    } else if (lower === 'resetkeys') {
      this.allKeys = false;
      this.patterns = [];
    } else if (lower === 'allchannels' || op === '&*') {
      this.allChannels = true;
      this.channels = [];
    } else if (lower === 'resetchannels') {
      this.allChannels = false;
      this.channels = [];
    } else if (lower === 'allcommands' || lower === '+@all') {
      this.allowed = null;
      this.future = true;
      this.allCommands = true;
      this.rules = '';
      this.firstArgs = null;
    } else if (lower === 'nocommands' || lower === '-@all') {
      this.allowed = new Set();
      this.future = false;
      this.allCommands = false;
      this.rules = '';
      this.firstArgs = null;
    } else if (op[0] === '~' || op[0] === '%') {
      if (this.allKeys) throw new SetUserError(E_EXIST);
      let flags = 0;
      let offset = 1;
      if (op[0] === '%') {
        let closed = false;
        for (; offset < op.length; offset++) {
          const c = op[offset].toUpperCase();
          if (c === 'R' && !(flags & READ)) flags |= READ;
          else if (c === 'W' && !(flags & WRITE)) flags |= WRITE;
          else if (op[offset] === '~' && flags) {
            offset++;
            closed = true;
            break;
          } else throw new SetUserError(E_INVAL);
        }
        if (!closed) throw new SetUserError(E_INVAL);
      } else flags = READ | WRITE;
      const pattern = op.slice(offset);
      if (/[ \0]/.test(pattern)) throw new SetUserError(E_INVAL);
      const existing = this.patterns.find((p) => p.pattern === pattern);
      if (existing) existing.flags |= flags;
      else this.patterns.push({ pattern, flags });
      this.allKeys = false;
    } else if (op[0] === '&') {
      if (this.allChannels) throw new SetUserError(E_ISDIR);
      const pattern = op.slice(1);
      if (/[ \0]/.test(pattern)) throw new SetUserError(E_INVAL);
      if (!this.channels.includes(pattern)) this.channels.push(pattern);
      this.allChannels = false;
    } else if (op[0] === '+' && op[1] !== '@') {
      const body = op.slice(1);
      const bar = body.lastIndexOf('|');
      if (bar < 0) {
        const cmd = lookupAclCommand(u, body);
        if (cmd === undefined) throw new SetUserError(E_NOENT);
        this.changePerm(u, cmd, true);
        this.updateRules(cmd, true);
      } else {
        const head = body.slice(0, bar);
        const sub = body.slice(bar + 1);
        const cmd = lookupAclCommand(u, head);
        if (cmd === undefined) throw new SetUserError(E_NOENT);
        if (cmd.includes('|')) throw new SetUserError(E_CHILD);
        if (sub.length === 0) throw new SetUserError(E_INVAL);
        if (u.subs.has(cmd)) {
          const full = lookupAclCommand(u, body);
          if (full === undefined) throw new SetUserError(E_NOENT);
          this.changePerm(u, full, true);
        } else {
          const list: string[] = (this.firstArgs ??= new Map<string, string[]>()).get(cmd) ?? [];
          if (!list.some((a) => a.toLowerCase() === sub.toLowerCase())) list.push(sub);
          this.firstArgs.set(cmd, list);
        }
        this.updateRules(body, true);
      }
    } else if (op[0] === '-' && op[1] !== '@') {
      const cmd = lookupAclCommand(u, op.slice(1));
      if (cmd === undefined) throw new SetUserError(E_NOENT);
      this.changePerm(u, cmd, false);
      this.updateRules(cmd, false);
    } else if ((op[0] === '+' || op[0] === '-') && op[1] === '@') {
      const allow = op[0] === '+';
      const flag = categoryFlag(op.slice(2));
      if (!flag) throw new SetUserError(E_NOENT);
      this.updateRules(op.slice(1), allow);
      for (const name of u.topLevel) {
        if (u.mask(name) & flag) this.changePerm(u, name, allow);
        const subs = u.subs.get(name);
        if (subs) for (const s of subs) if (u.mask(s) & flag) this.changePerm(u, s, allow);
      }
    } else {
      throw new SetUserError(E_INVAL);
    }
  }

  /**
   * ACLDescribeSelectorCommandRules: after 7.2 the retained rules; before (`version` 7.0) the
   * text rebuilt from the bitmap as 7.0.15 does: +@all or -@all, the categories that best fit
   * what is left (acl.c's greedy loop over its category order), single commands fixing the
   * remaining differences, each command's first-arg rules right after it. 7.0.15 walks its
   * command dict for the single commands, in an order that changes from one server start to the
   * next (a seeded hash); here the command table's order.
   */
  describeCommands(version?: RedisVersion): string {
    const head = this.future ? '+@all' : '-@all';
    if (version !== undefined && predates(version, '7.2')) return this.rebuiltCommands(universeOf(version));
    return this.rules === '' ? head : `${head} ${this.rules}`;
  }

  private rebuiltCommands(u: CommandUniverse): string {
    const rules: string[] = [];
    const additive = !this.future;
    const bits = (sel: Selector) => sel.allowed ?? new Set(u.all);
    const user = bits(this);
    const fake = new Selector(false);
    fake.apply(u, additive ? '-@all' : '+@all');
    rules.push(additive ? '-@all' : '+@all');
    const temp = new Selector(false);
    temp.allowed = new Set(user);
    const applied = new Set<number>();
    const { ACL_CATEGORIES } = tables();
    for (;;) {
      let best = -1;
      let mindiff = Number.MAX_SAFE_INTEGER;
      let maxsame = 0;
      const tempBits = bits(temp);
      for (let j = 0; j < ACL_CATEGORIES.length; j++) {
        if (applied.has(j)) continue;
        const flag = 1 << j;
        let on = 0;
        let off = 0;
        for (const name of u.topLevel) {
          if ((u.mask(name) & flag) === 0) continue;
          if (tempBits.has(name)) on++;
          else off++;
        }
        const diff = additive ? off : on;
        const same = additive ? on : off;
        if (same > diff && (diff < mindiff || (diff === mindiff && same > maxsame))) {
          best = j;
          mindiff = diff;
          maxsame = same;
        }
      }
      if (best === -1) break;
      const name = ACL_CATEGORIES[best];
      fake.apply(u, `${additive ? '+' : '-'}@${name}`);
      temp.apply(u, `${additive ? '-' : '+'}@${name}`);
      rules.push(`${additive ? '+' : '-'}@${name}`);
      applied.add(best);
    }
    // single commands: a container's own bit, then its subcommands'
    for (const name of u.topLevel) {
      const fix = (full: string) => {
        const userbit = user.has(full);
        if (userbit !== bits(fake).has(full)) {
          rules.push(`${userbit ? '+' : '-'}${full}`);
          fake.changePerm(u, full, userbit);
        }
      };
      fix(name);
      for (const sub of u.subs.get(name) ?? []) fix(sub);
      // its first-arg rules right after it (ACLDescribeSelectorCommandRulesSingleCommands: while
      // the command itself is not allowed): 7.0.15 answers `-debug +debug|digest`
      if (this.firstArgs && !user.has(name)) for (const arg of this.firstArgs.get(name) ?? []) rules.push(`+${name}|${arg}`);
    }
    return rules.join(' ');
  }

  /** Key patterns as GETUSER/LIST spell them (sdsCatPatternString). */
  keyPatterns(): string[] {
    if (this.allKeys) return ['~*'];
    return this.patterns.map((p) => `${p.flags === (READ | WRITE) ? '' : p.flags === READ ? '%R' : '%W'}~${p.pattern}`);
  }

  /** ACLDescribeSelector. */
  describe(version?: RedisVersion): string {
    let out = this.allKeys ? '~* ' : this.keyPatterns().map((p) => `${p} `).join('');
    out += this.allChannels ? '&* ' : `resetchannels ${this.channels.map((c) => `&${c} `).join('')}`;
    return out + this.describeCommands(version);
  }

  /** True when this selector lets anything run: every command, key and channel. */
  get unrestricted(): boolean {
    return this.allCommands && this.allKeys && this.allChannels;
  }
}

export const ACL_OK = 0;
export const ACL_DENIED_CMD = 1;
export const ACL_DENIED_KEY = 2;
export const ACL_DENIED_AUTH = 3;

/** An argument as addReplyErrorFormat's `%s` prints it: a C string, up to its first NUL byte. */
export function cStringText(s: string): string {
  const z = s.indexOf('\0');
  return z < 0 ? s : s.slice(0, z);
}
export const ACL_DENIED_CHANNEL = 4;

export class AclUser {
  enabled = false;
  nopass = false;
  sanitize: 'sanitize-payload' | 'skip-sanitize-payload' | null = null;
  passwords: string[] = [];
  selectors: Selector[] = [new Selector(true)];
  /** Every command, key and channel allowed (the connection's one-flag fast path). */
  unrestricted = false;

  constructor(readonly name: string) {}

  get root(): Selector {
    return this.selectors[0];
  }

  copyFrom(src: AclUser): void {
    this.enabled = src.enabled;
    this.nopass = src.nopass;
    this.sanitize = src.sanitize;
    this.passwords = [...src.passwords];
    this.selectors = src.selectors.map((s) => s.clone());
    this.refresh();
  }

  refresh(): void {
    this.unrestricted = this.selectors.some((s) => s.unrestricted);
  }

  /**
   * The flags as GETUSER lists them: on|off, nopass, the sanitize-payload flag (a user created
   * after 7.2 has `sanitize-payload` from the start; 7.0.15 shows it only once set).
   */
  flagNames(version: RedisVersion): string[] {
    const out: string[] = [];
    if (this.enabled) out.push('on');
    else out.push('off');
    if (this.nopass) out.push('nopass');
    const sanitize = this.sanitize ?? (predates(version, '7.2') ? null : 'sanitize-payload');
    if (sanitize !== null) out.push(sanitize);
    return out;
  }

  /** ACLDescribeUser (ACL LIST after `user NAME `). */
  describe(version: RedisVersion): string {
    let out = this.flagNames(version).map((f) => `${f} `).join('');
    out += this.passwords.map((p) => `#${p} `).join('');
    this.selectors.forEach((s, i) => {
      out += i === 0 ? s.describe(version) : ` (${s.describe(version)})`;
    });
    return out;
  }

  /** ACLSetUser; throws SetUserError. */
  apply(u: CommandUniverse, op: string, pubsubAllChannels: boolean, v70: boolean): void {
    if (op.length === 0) return;
    const lower = op.toLowerCase();
    if (lower === 'on') this.enabled = true;
    else if (lower === 'off') this.enabled = false;
    else if (lower === 'skip-sanitize-payload') this.sanitize = 'skip-sanitize-payload';
    else if (lower === 'sanitize-payload') this.sanitize = 'sanitize-payload';
    else if (lower === 'nopass') {
      this.nopass = true;
      this.passwords = [];
    } else if (lower === 'resetpass') {
      this.nopass = false;
      this.passwords = [];
    } else if (op[0] === '>' || op[0] === '#') {
      let hash: string;
      if (op[0] === '>') hash = hashPassword(op.slice(1));
      else {
        hash = op.slice(1);
        if (!/^[0-9a-f]{64}$/.test(hash)) throw new SetUserError(E_BADMSG);
      }
      if (!this.passwords.includes(hash)) this.passwords.push(hash);
      this.nopass = false;
    } else if (op[0] === '<' || op[0] === '!') {
      let hash: string;
      if (op[0] === '<') hash = hashPassword(op.slice(1));
      else {
        hash = op.slice(1);
        if (!/^[0-9a-f]{64}$/.test(hash)) throw new SetUserError(E_BADMSG);
      }
      const i = this.passwords.indexOf(hash);
      if (i < 0) throw new SetUserError(E_NODEV);
      this.passwords.splice(i, 1);
    } else if (op[0] === '(' && op[op.length - 1] === ')') {
      const s = new Selector(false);
      for (const inner of splitArgs(op.slice(1, -1))) s.apply(u, inner);
      this.selectors.push(s);
    } else if (lower === 'clearselectors') {
      this.selectors = [this.selectors[0]];
    } else if (lower === 'reset') {
      this.apply(u, 'resetpass', pubsubAllChannels, v70);
      this.apply(u, 'resetkeys', pubsubAllChannels, v70);
      this.apply(u, 'resetchannels', pubsubAllChannels, v70);
      if (pubsubAllChannels) this.apply(u, 'allchannels', pubsubAllChannels, v70);
      this.apply(u, 'off', pubsubAllChannels, v70);
      // every version sets it here (7.0.15's user created without `reset` has no flag shown)
      this.apply(u, 'sanitize-payload', pubsubAllChannels, v70);
      this.apply(u, 'clearselectors', pubsubAllChannels, v70);
      this.apply(u, '-@all', pubsubAllChannels, v70);
    } else {
      this.root.apply(u, op);
    }
  }

  /** ACLCheckUserCredentials. */
  checkPassword(password: string): boolean {
    if (!this.enabled) return false;
    if (this.nopass) return true;
    return this.passwords.includes(hashPassword(password));
  }
}

/** ACLHashPassword: SHA-256 hex of the password's bytes. */
export function hashPassword(password: string): string {
  return createHash('sha256').update(Buffer.from(password, 'latin1')).digest('hex');
}

/** sdssplitargs for a selector's inside (plain space separation; quotes as sdssplitargs takes them). */
function splitArgs(s: string): string[] {
  return s.split(/[ \t\n\r]+/).filter((a) => a.length > 0);
}

/** One ACL LOG entry (acl.c ACLLogEntry). */
export interface AclLogEntry {
  count: number;
  reason: number;
  context: 'toplevel' | 'multi' | 'lua';
  object: string;
  username: string;
  ctime: number;
  cinfo: string;
  entryId: number;
  created: number;
}

/** The users of a server at one moment (AclState.snapshotUsers): each user and a copy of its state. */
export interface AclUsersSnapshot {
  readonly users: readonly (readonly [AclUser, AclUser])[];
}

/** The ACL state of one server. */
export class AclState {
  readonly users = new Map<string, AclUser>();
  defaultUser!: AclUser;
  log: AclLogEntry[] = [];
  private logCount = 0;
  readonly denied = { auth: 0, cmd: 0, key: 0, channel: 0 };
  /**
   * Bumped by every change of a user (SETUSER, DELUSER, requirepass, reset, restore): a snapshot
   * taken at one count still describes the users while the count is the same.
   */
  changes = 0;

  constructor() {
    this.reset();
  }

  reset(): void {
    this.changes++;
    this.users.clear();
    this.log = [];
    this.logCount = 0;
    this.denied.auth = this.denied.cmd = this.denied.key = this.denied.channel = 0;
    const d = new AclUser('default');
    // +@all ~* &* without loading the command table (allowed = null: every command)
    const root = d.root;
    root.allowed = null;
    root.future = true;
    root.allCommands = true;
    root.allKeys = true;
    root.allChannels = true;
    d.enabled = true;
    d.nopass = true;
    d.refresh();
    this.defaultUser = d;
    this.users.set('default', d);
  }

  /** Users sorted as the rax iterates them (byte order). */
  sortedUsers(): AclUser[] {
    return [...this.users.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** ACL DELUSER of one user (not `default`): the user removed from the table, or undefined. */
  deleteUser(name: string): AclUser | undefined {
    const user = this.users.get(name);
    if (user === undefined || user === this.defaultUser) return undefined;
    this.users.delete(name);
    this.changes++;
    return user;
  }

  /**
   * The users now, each with a copy of its state (flags, passwords, selectors with their command
   * sets, key and channel patterns), for `restoreUsers`: later changes of a user leave the copy as
   * it was.
   */
  snapshotUsers(): AclUsersSnapshot {
    const users: [AclUser, AclUser][] = [];
    for (const user of this.users.values()) {
      const copy = new AclUser(user.name);
      copy.copyFrom(user);
      users.push([user, copy]);
    }
    return { users };
  }

  /**
   * Back to the users of `snapshot`: each user of the snapshot, the same object (connections
   * authenticated as it keep it), given back its state then (created again if it was deleted);
   * users made since are removed. `onChanged(user, staged)` is called for each user of the
   * snapshot before it takes its old state back, as SETUSER calls it (pub/sub clients to close);
   * returns the users removed (their clients are closed as after DELUSER).
   */
  restoreUsers(snapshot: AclUsersSnapshot, onChanged: (user: AclUser, staged: AclUser) => void = () => {}): AclUser[] {
    const kept = new Set<AclUser>();
    for (const [user] of snapshot.users) kept.add(user);
    const removed: AclUser[] = [];
    for (const user of this.users.values()) if (!kept.has(user)) removed.push(user);
    this.users.clear();
    for (const [user, copy] of snapshot.users) {
      onChanged(user, copy);
      user.copyFrom(copy);
      this.users.set(user.name, user);
      if (user.name === 'default') this.defaultUser = user;
    }
    this.changes++;
    return removed;
  }

  /** requirepass: the default user's password (null/empty: nopass). */
  setRequirePass(password: string | null): void {
    this.changes++;
    const d = this.defaultUser;
    d.passwords = [];
    d.nopass = false;
    if (password) d.passwords.push(hashPassword(password));
    else d.nopass = true;
  }

  /**
   * ACL SETUSER username ops…: null when done, else the error text. `onChanged(old, new)` is
   * called for an existing user before it takes the new rules (pub/sub clients to kill).
   */
  setUser(version: RedisVersion, name: string, ops: string[], onChanged: (user: AclUser, staged: AclUser) => void): string | null {
    const u = universeOf(version);
    const merged: string[] = [];
    let open = -1;
    let sel = '';
    // 7.0.15: an argument opening a selector while one is open starts it afresh (the open one
    // is dropped): `(+PING (+SELECT (+DEL )` sets the selector `(+DEL )`
    const reopen = predates(version, '7.2');
    for (let j = 0; j < ops.length; j++) {
      const op = ops[j];
      if ((open === -1 || reopen) && op[0] === '(' && op[op.length - 1] !== ')') {
        sel = op;
        open = j;
        continue;
      }
      if (open !== -1) {
        sel += ` ${op}`;
        if (op[op.length - 1] === ')') {
          open = -1;
          merged.push(sel);
        }
        continue;
      }
      merged.push(op);
    }
    if (open !== -1) return `ERR Unmatched parenthesis in acl selector starting at '${cStringText(ops[open])}'.`;
    const existing = this.users.get(name);
    const staged = new AclUser(name);
    if (existing) staged.copyFrom(existing);
    const pubsubAll = (this.pubsubDefault ?? 'resetchannels') === 'allchannels';
    if (!existing && pubsubAll) staged.root.allChannels = true;
    for (const op of merged) {
      try {
        staged.apply(u, op, pubsubAll, predates(version, '7.2'));
      } catch (err) {
        if (err instanceof SetUserError) return `ERR Error in ACL SETUSER modifier '${cStringText(op)}': ${err.reason}`;
        throw err;
      }
    }
    staged.refresh();
    this.changes++;
    if (existing) {
      onChanged(existing, staged);
      existing.copyFrom(staged);
    } else {
      this.users.set(name, staged);
    }
    return null;
  }

  /** acl-pubsub-default (read from CONFIG by the owner). */
  pubsubDefault: string | undefined;

  /** addACLLogEntry. */
  addLog(reason: number, context: AclLogEntry['context'], object: string, username: string, cinfo: string, now: number, maxLen: number): void {
    if (reason === ACL_DENIED_AUTH) this.denied.auth++;
    else if (reason === ACL_DENIED_CMD) this.denied.cmd++;
    else if (reason === ACL_DENIED_KEY) this.denied.key++;
    else this.denied.channel++;
    if (maxLen === 0) {
      this.log = [];
      return;
    }
    for (let i = 0; i < Math.min(10, this.log.length); i++) {
      const e = this.log[i];
      if (e.reason === reason && e.context === context && Math.abs(e.ctime - now) <= 60000 && e.object === object && e.username === username) {
        this.log.splice(i, 1);
        this.log.unshift(e);
        e.cinfo = cinfo;
        e.ctime = now;
        e.count++;
        return;
      }
    }
    this.log.unshift({ count: 1, reason, context, object, username, ctime: now, cinfo, entryId: this.logCount++, created: now });
    if (this.log.length > maxLen) this.log.length = maxLen;
  }
}

/** What a check found: ACL_OK, or the reason and the argv index of the key/channel (0: the command). */
export interface AclVerdict {
  result: number;
  index: number;
}

const PUBLISH_FIRST = new Set(['publish', 'spublish']);
const SUBSCRIBE_ALL = new Set(['subscribe', 'ssubscribe']);

/** Channels of a command that ACL checks: [argv index, is pattern]. */
function channelArgs(name: string, argv: readonly string[]): [number, boolean][] {
  if (PUBLISH_FIRST.has(name)) return argv.length > 1 ? [[1, false]] : [];
  if (SUBSCRIBE_ALL.has(name)) return argv.slice(1).map((_, i) => [i + 1, false]);
  if (name === 'psubscribe') return argv.slice(1).map((_, i) => [i + 1, true]);
  return [];
}

function channelAllowed(list: readonly string[], channel: string, isPattern: boolean): boolean {
  for (const p of list) if (isPattern ? p === channel : globMatchCase(p, channel)) return true;
  return false;
}

/** stringmatchlen without nocase. */
function globMatchCase(pattern: string, s: string): boolean {
  return globMatchExact(pattern, s);
}

/** ACLSelectorCheckCmd. `full`: the command's full name (`client|kill`). */
function selectorCheck(s: Selector, full: string, argv: readonly string[], version: RedisVersion, keysOf: () => { pos: number; flags: string }[]): AclVerdict {
  if (!s.allCommands && !tables().NO_AUTH_COMMANDS.has(full)) {
    if (s.allowed !== null && !s.allowed.has(full)) {
      const allowedArgs = s.firstArgs?.get(full);
      const idx = full.includes('|') ? 2 : 1;
      if (argv.length < 2 || !allowedArgs || !allowedArgs.some((a) => a.toLowerCase() === String(argv[idx] ?? '').toLowerCase())) {
        return { result: ACL_DENIED_CMD, index: 0 };
      }
    }
  }
  if (!s.allKeys) {
    for (const k of keysOf()) {
      const words = k.flags.split(' ');
      let need = 0;
      if (words.includes('ACCESS')) need |= READ;
      if (words.includes('INSERT') || words.includes('DELETE') || words.includes('UPDATE')) need |= WRITE;
      const key = argv[k.pos];
      if (!s.patterns.some((p) => (p.flags & need) === need && globMatchExact(p.pattern, key))) return { result: ACL_DENIED_KEY, index: k.pos };
    }
  }
  if (!s.allChannels) {
    const name = full.split('|')[0];
    for (const [i, isPattern] of channelArgs(name, argv)) {
      if (!channelAllowed(s.channels, argv[i], isPattern)) return { result: ACL_DENIED_CHANNEL, index: i };
    }
  }
  void version;
  return { result: ACL_OK, index: 0 };
}

/** ACLCheckAllUserCommandPerm: `full` the looked-up command's full name, argv the command line. */
export function checkCommand(user: AclUser, full: string, argv: readonly string[], version: RedisVersion): AclVerdict {
  let keys: { pos: number; flags: string }[] | undefined;
  const keysOf = () => (keys ??= keySpecs().commandKeyRefs(argv, version));
  let relevant = ACL_DENIED_CMD;
  let lastIdx = 0;
  for (const s of user.selectors) {
    const v = selectorCheck(s, full, argv, version, keysOf);
    if (v.result === ACL_OK) return v;
    if (v.result > relevant || (v.result === relevant && v.index > lastIdx)) {
      relevant = v.result;
      lastIdx = v.index;
    }
  }
  return { result: relevant, index: lastIdx };
}

/**
 * ACLUserCheckCmdWithUnrestrictedKeyAccess (SORT's BY and GET patterns): true when a selector of
 * `user` that lets argv run also reads every key (allkeys, or a `*` pattern with read
 * permission: `~*`, `%R~*`, `%RW~*`; `%W~*` or narrower patterns are not enough).
 */
export function hasUnrestrictedKeyAccess(user: AclUser, full: string, argv: readonly string[], version: RedisVersion): boolean {
  let keys: { pos: number; flags: string }[] | undefined;
  const keysOf = () => (keys ??= keySpecs().commandKeyRefs(argv, version));
  for (const s of user.selectors) {
    if (selectorCheck(s, full, argv, version, keysOf).result !== ACL_OK) continue;
    if (s.allKeys || s.patterns.some((p) => (p.flags & READ) === READ && p.pattern === '*')) return true;
  }
  return false;
}

/** getAclErrorMessage (NOPERM text without the prefix), per version. */
export function aclErrorMessage(version: RedisVersion, result: number, user: AclUser, full: string, value: string, verbose: boolean): string {
  const v70 = predates(version, '7.2');
  const who = v70 ? 'this user' : `User ${user.name}`;
  const Who = v70 ? 'This user' : `User ${user.name}`;
  switch (result) {
    case ACL_DENIED_CMD:
      return `${verbose ? Who : who} has no permissions to run the '${full}' command`;
    case ACL_DENIED_KEY:
      if (verbose) return `${Who} has no permissions to access the '${value}' key`;
      return v70 ? 'this user has no permissions to access one of the keys used as arguments' : 'No permissions to access a key';
    default:
      if (verbose) return `${Who} has no permissions to access the '${value}' channel`;
      return v70 ? 'this user has no permissions to access one of the channels used as arguments' : 'No permissions to access a channel';
  }
}

/**
 * getUpcomingChannelList + ACLShouldKillPubsubClient: whether a client of `original` subscribed
 * to these channels/patterns/shard channels loses one of them under `staged`.
 */
export function losesChannels(original: AclUser, staged: AclUser, channels: string[], patterns: string[], shard: string[]): boolean {
  if (staged.selectors.some((s) => s.allChannels)) return false;
  const upcoming = staged.selectors.flatMap((s) => s.channels);
  let superset = true;
  for (const s of original.selectors) {
    if (s.allChannels || !s.channels.every((c) => upcoming.includes(c))) {
      superset = false;
      break;
    }
  }
  if (superset) return false;
  if (patterns.some((p) => !channelAllowed(upcoming, p, true))) return true;
  if (channels.some((c) => !channelAllowed(upcoming, c, false))) return true;
  return shard.some((c) => !channelAllowed(upcoming, c, false));
}

/** Redis stringmatchlen, case-sensitive (ACL key and channel patterns). */
export function globMatchExact(pattern: string, str: string): boolean {
  return globMatch(pattern, str);
}

const states = new WeakMap<object, AclState>();

/** The server's ACL state (created on first use; `requirepass` and a CONFIG reset keep it in step). */
export function aclStateOf(server: { readonly config: { get(name: string): string | undefined; readonly listeners: Set<(name: string | null, value: string) => void> } }): AclState {
  let st = states.get(server);
  if (st === undefined) {
    const state = new AclState();
    st = state;
    states.set(server, state);
    state.pubsubDefault = server.config.get('acl-pubsub-default');
    // a requirepass set before the first connection (serve's start-up configuration)
    const requirepass = server.config.get('requirepass');
    if (requirepass) state.setRequirePass(requirepass);
    server.config.listeners.add((name, value) => {
      if (name === null) {
        state.reset();
        state.pubsubDefault = server.config.get('acl-pubsub-default');
      } else if (name === 'requirepass') state.setRequirePass(value);
      else if (name === 'acl-pubsub-default') state.pubsubDefault = value;
    });
  }
  return st;
}
