/**
 * Client-side caching (tracking.c, networking.c CLIENT TRACKING/CACHING/GETREDIR/TRACKINGINFO):
 * the server remembers which connection read which key, and tells it when the key changes.
 *
 * - Default mode: after a read-only command of a tracking connection, its keys are remembered
 *   (key → connection ids; server-wide: keys of every database share one table, as in Redis).
 *   OPTIN remembers only after CLIENT CACHING YES, OPTOUT skips after CLIENT CACHING NO (both
 *   for the next command, or the next transaction). A write to a remembered key — any command,
 *   a script, an expiry (lazy or active), a deletion — sends `invalidate [key]` once to every
 *   connection that read it, and forgets them (until they read it again).
 * - BCAST: every key written that starts with one of the connection's prefixes ('' = all) is
 *   collected and sent, per prefix, as one `invalidate [keys…]` after the commands that run in
 *   the same turn of the event loop (Redis: beforeSleep).
 * - NOLOOP: keys the connection itself wrote are left out.
 * - FLUSHDB/FLUSHALL: one `invalidate` with a null key list to every tracking connection; the
 *   table is emptied.
 * - Delivery: RESP3 — a push `[invalidate, keys]` on the connection (after the reply of its own
 *   command when it invalidated its own key: Redis's pending keys); REDIRECT id — to that
 *   connection: a push when it speaks RESP3, else `[message, __redis__:invalidate, keys]` when
 *   it is in pub/sub mode (an ioredis client: its `message` event, through `redirectSink`),
 *   else nothing. RESP2 without REDIRECT gets nothing. A redirection whose connection is gone
 *   sets `broken_redirect` and pushes `[tracking-redir-broken, id]` to a RESP3 connection.
 * - `tracking-table-max-keys` (CONFIG): over it, keys are invalidated (oldest first) until the
 *   table fits again, before and after each command.
 * INFO: tracking_clients, tracking_total_keys, tracking_total_items, tracking_total_prefixes.
 */
import { realSetImmediate } from '../clock/real-timers';
import { commandSpec } from '../commands/command-data';
import { CommandError, ERR_SYNTAX } from '../errors';
import { MapReply, PushReply, type Reply, SetReply } from '../reply/reply';
import { commandKeys } from './cluster';
import type { Connection } from './connection';
import type { ServerState } from './registry';
import { ChurnMap } from '../model/churn-map';

/** The tracking state of one connection (Redis CLIENT_TRACKING* flags, redirection, prefixes). */
export interface ClientTracking {
  bcast: boolean;
  optin: boolean;
  optout: boolean;
  noloop: boolean;
  /** CLIENT CACHING yes/no given for the next command. */
  caching: boolean;
  brokenRedirect: boolean;
  /** Redirection client id, 0 for none. */
  redirect: number;
  /** BCAST prefixes (byte strings). */
  readonly prefixes: Set<string>;
}

interface PrefixState {
  /** Keys written this turn → the connection that wrote last (null: no connection, e.g. expiry). */
  keys: Map<string, Connection | null>;
  readonly clients: Set<Connection>;
}

const CHANNEL = '__redis__:invalidate';

/** Containers whose subcommands with a key read it (COMMAND INFO flags them readonly). */
const READONLY_CONTAINERS = new Set(['object', 'xinfo', 'memory']);

function isReadonly(name: string): boolean {
  if (READONLY_CONTAINERS.has(name)) return true;
  const spec = commandSpec(name);
  return spec !== undefined && spec.flags.includes('readonly');
}

/** Byte-wise order (rax iteration order). */
function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The server's tracking table (Redis TrackingTable, PrefixTable, tracking_pending_keys). */
export class TrackingState {
  /** tracking_clients */
  clients = 0;
  /** key → ids of the connections that may have it cached */
  private readonly table = new ChurnMap<Set<number>>(); // a ChurnMap: a key read (tracked) and written (invalidated) over and over among 1M tracked keys stays O(1)
  private items = 0;
  private readonly prefixTable = new Map<string, PrefixState>();
  /** The connection whose command runs now (server.current_client), and that command's argv. */
  current: Connection | null = null;
  currentArgv: string[] | null = null;
  /** Invalidations for `current`'s own tracking, sent after its command (null: flush). */
  private pending: [Connection, string | null][] = [];
  /** Set while a flush empties the keyspaces: no per-key invalidation. */
  private flushing = false;
  private bcastScheduled = false;
  private depth = 0;
  /** Set while `beforeCommand` runs: invalidations are written ahead of the pending reply. */
  private early = false;

  constructor(private readonly server: ServerState) {}

  get totalKeys(): number {
    return this.table.size;
  }

  get totalItems(): number {
    return this.items;
  }

  get totalPrefixes(): number {
    return this.prefixTable.size;
  }

  // ---------------------------------------------------------------------------------------------
  // Commands running

  /** A command of `conn` starts (argv as run); returns what `leave` needs. */
  enter(conn: Connection, argv: string[]): [Connection | null, string[] | null] {
    const saved: [Connection | null, string[] | null] = [this.current, this.currentArgv];
    if (this.depth === 0 && this.clients > 0) this.limitUsedSlots();
    this.depth++;
    this.current = conn;
    this.currentArgv = argv;
    return saved;
  }

  /**
   * The command entered with `enter` ended (`ran`: it ran, even if it answered an error; false
   * when it was refused or only queued): remember its keys, reset CLIENT CACHING, send the
   * connection's own invalidations (after its reply: the front end queued the reply's place).
   */
  leave(conn: Connection, argv: string[], ran: boolean, saved: [Connection | null, string[] | null]): void {
    this.depth--;
    if (ran) this.remember(conn, argv);
    [this.current, this.currentArgv] = saved;
    if (this.depth > 0) return;
    const ct = conn.tracking;
    if (ct !== null && ct.caching && !conn.inMulti && String(argv[0]).toLowerCase() !== 'client') ct.caching = false;
    if (this.pending.length > 0) {
      const pending = this.pending;
      this.pending = [];
      for (const [c, key] of pending) this.send(c, key === null ? null : [key]);
    }
    if (this.clients > 0) this.limitUsedSlots();
  }

  /**
   * Run `fn` as processCommand's steps before call() (evictions, 7.2+): no client executes a
   * command (no CLIENT_EXECUTING_COMMAND), so an invalidation goes out at once, ahead of the
   * reply of the command about to run (a push marked `beforeReply` for the session).
   */
  beforeCommand<T>(fn: () => T): T {
    const saved: [Connection | null, boolean] = [this.current, this.early];
    this.current = null;
    this.early = true;
    try {
      return fn();
    } finally {
      [this.current, this.early] = saved;
    }
  }

  /** A blocked command of `conn` is served now (its retry runs): its invalidations go after its reply. */
  served<T>(conn: Connection, retry: () => T): T {
    const saved: [Connection | null, string[] | null] = [this.current, this.currentArgv];
    const pendingBefore = this.pending;
    this.pending = [];
    this.current = conn;
    this.depth++;
    try {
      return retry();
    } finally {
      this.depth--;
      [this.current, this.currentArgv] = saved;
      const mine = this.pending;
      this.pending = pendingBefore;
      if (mine.length > 0) realSetImmediate(() => {
        for (const [c, key] of mine) this.send(c, key === null ? null : [key]);
      });
    }
  }

  /**
   * trackingRememberKeys after a read-only command, or a read inside a script: its keys (7.2+),
   * the script's declared keys (7.0: the caller's command, checked on 7.0.15).
   */
  remember(conn: Connection, argv: string[]): void {
    const tracking = this.current ?? conn;
    const ct = tracking.tracking;
    if (ct === null || ct.bcast) return;
    if ((ct.optin && !ct.caching) || (ct.optout && ct.caching)) return;
    const name = String(argv[0]).toLowerCase();
    if (!isReadonly(name)) return;
    let keysOf = argv;
    const v70 = tracking.keyspace.redisVersion === '7.0';
    // a read-only script itself remembers nothing (7.0.15 too): only the reads it makes
    if (name === 'eval_ro' || name === 'evalsha_ro' || name === 'fcall_ro') return;
    if (v70 && this.currentArgv !== null && this.currentArgv !== argv && /^(eval|evalsha|fcall)(_ro)?$/i.test(String(this.currentArgv[0]))) {
      keysOf = this.currentArgv; // 7.0 remembers the caller's command: the script's declared keys
    }
    for (const key of commandKeys(keysOf)) {
      let ids = this.table.get(key);
      if (!ids) this.table.set(key, (ids = new Set()));
      if (!ids.has(tracking.id)) {
        ids.add(tracking.id);
        this.items++;
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Invalidation

  /** trackingInvalidateKey: `key` was modified (by the current connection, if any). */
  keyModified(key: string): void {
    if (this.flushing) return;
    if (this.prefixTable.size > 0) this.rememberToBroadcast(key);
    this.invalidate(key);
  }

  private invalidate(key: string): void {
    const ids = this.table.get(key);
    if (!ids) return;
    this.table.delete(key);
    this.items -= ids.size;
    for (const id of ids) {
      const target = connectionById(id);
      if (target === null || target.tracking === null || target.tracking.bcast) continue;
      if (target.tracking.noloop && target === this.current) continue;
      if (target === this.current && this.depth > 0) this.pending.push([target, key]);
      else this.send(target, [key]);
    }
  }

  private rememberToBroadcast(key: string): void {
    for (const [prefix, state] of this.prefixTable) {
      if (!key.startsWith(prefix)) continue;
      state.keys.set(key, this.current);
    }
    if (!this.bcastScheduled) {
      this.bcastScheduled = true;
      realSetImmediate(() => this.broadcast());
    }
  }

  /** trackingBroadcastInvalidationMessages (beforeSleep): one message per prefix. */
  private broadcast(): void {
    this.bcastScheduled = false;
    for (const state of this.prefixTable.values()) {
      if (state.keys.size === 0) continue;
      const written = [...state.keys].sort((a, b) => byteOrder(a[0], b[0]));
      state.keys = new Map();
      const cluster = this.server.cluster;
      for (const c of state.clients) {
        if (c.closed) continue;
        // in a cluster each node broadcasts the keys written on it: those of its own slots
        const here = cluster === null || c.clusterNode === null ? written : written.filter(([k]) => cluster.nodeOfKey(k) === c.clusterNode);
        const keys = (c.tracking?.noloop ? here.filter(([, by]) => by !== c) : here).map(([k]) => k);
        if (keys.length > 0) this.send(c, keys);
      }
    }
  }

  /**
   * trackingInvalidateKeysOnFlush: run `empty` (the flush) then tell every tracking connection.
   * `beforeReply`: the flushing connection's own invalidation goes ahead of its reply (7.4+ runs
   * FLUSHALL/FLUSHDB SYNC as blocking async, replying once the flush completes), else after it.
   */
  flush(empty: () => void, beforeReply = false): void {
    this.flushing = true;
    try {
      empty();
    } finally {
      this.flushing = false;
    }
    if (this.clients > 0) {
      for (const c of trackingConnections(this.server)) {
        if (c !== this.current || this.depth === 0) this.send(c, null);
        else if (!beforeReply) this.pending.push([c, null]);
        else {
          const early = this.early;
          this.early = true; // written ahead of the flush's pending reply
          try {
            this.send(c, null);
          } finally {
            this.early = early;
          }
        }
      }
    }
    this.table.clear();
    this.items = 0;
  }

  /** sendTrackingMessage: `keys` (null: every key) to `c`'s connection or its redirection. */
  send(c: Connection, keys: string[] | null): void {
    const ct = c.tracking;
    if (ct === null || c.closed) return;
    let target = c;
    let redirected = false;
    if (ct.redirect !== 0) {
      const r = connectionNear(ct.redirect, c);
      if (r === null) {
        ct.brokenRedirect = true;
        if (c.protocol === 3) c.push(new PushReply(['tracking-redir-broken', ct.redirect]));
        return;
      }
      target = r;
      redirected = true;
    }
    if (target.protocol === 3) {
      const push = new PushReply(['invalidate', keys]);
      if (this.early) (push as { beforeReply?: boolean }).beforeReply = true;
      target.push(push);
    } else if (redirected && target.inSubscriberMode && !target.frontEndSubscriber) {
      // (a front end's subscriber gets it through its redirectSink below)
      target.push(new PushReply(['message', CHANNEL, keys]));
    } else if (redirected && target.redirectSink !== null) {
      target.redirectSink(keys);
    }
  }

  /** trackingLimitUsedSlots: invalidate keys (oldest first) until the table fits `tracking-table-max-keys`. */
  limitUsedSlots(): void {
    const max = Number(this.server.config.get('tracking-table-max-keys') ?? '1000000');
    if (!(max > 0) || this.table.size <= max) return;
    const saved = this.current;
    this.current = null;
    try {
      for (const key of this.table.keys()) {
        if (this.table.size <= max) break;
        this.invalidate(key);
      }
    } finally {
      this.current = saved;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // CLIENT TRACKING on/off

  enable(c: Connection, redirect: number, opts: { bcast: boolean; optin: boolean; optout: boolean; noloop: boolean }, prefixes: string[]): void {
    let ct = c.tracking;
    if (ct === null) {
      this.clients++;
      ct = c.tracking = { bcast: false, optin: false, optout: false, noloop: false, caching: false, brokenRedirect: false, redirect: 0, prefixes: new Set() };
    }
    ct.brokenRedirect = false;
    ct.redirect = redirect;
    ct.bcast = opts.bcast;
    ct.optin = opts.optin;
    ct.optout = opts.optout;
    ct.noloop = opts.noloop;
    if (opts.bcast) {
      for (const p of prefixes.length === 0 ? [''] : prefixes) {
        let state = this.prefixTable.get(p);
        if (!state) this.prefixTable.set(p, (state = { keys: new Map(), clients: new Set() }));
        state.clients.add(c);
        ct.prefixes.add(p);
      }
    }
  }

  disable(c: Connection): void {
    const ct = c.tracking;
    if (ct === null) return;
    for (const p of ct.prefixes) {
      const state = this.prefixTable.get(p);
      if (!state) continue;
      state.clients.delete(c);
      if (state.clients.size === 0) this.prefixTable.delete(p);
    }
    c.tracking = null;
    this.clients--;
  }
}

/** The server's tracking state, created on first use. */
export function trackingOf(server: ServerState): TrackingState {
  return (server.tracking ??= new TrackingState(server));
}

let lookup: ((id: number) => Connection | null) | null = null;
let everyOpen: (() => Iterable<Connection>) | null = null;

/** Set by connection.ts (no import cycle at load). */
export function setConnectionLookup(byId: (id: number) => Connection | null, all: () => Iterable<Connection>): void {
  lookup = byId;
  everyOpen = all;
}

function connectionById(id: number): Connection | null {
  return lookup?.(id) ?? null;
}

/** The open connection of id `id` on the Redis process `near` talks to (same server, same cluster node), or null. */
function connectionNear(id: number, near: Connection): Connection | null {
  const c = connectionById(id);
  return c !== null && c.server === near.server && c.clusterNode === near.clusterNode ? c : null;
}

function* trackingConnections(server: ServerState): IterableIterator<Connection> {
  for (const c of everyOpen?.() ?? []) if (c.server === server && c.tracking !== null) yield c;
}

// ---------------------------------------------------------------------------------------------
// CLIENT subcommands

/** checkPrefixCollisionsOrReply */
function checkPrefixes(ct: ClientTracking | null, prefixes: string[]): void {
  const overlaps = (a: string, b: string) => a.startsWith(b) || b.startsWith(a);
  for (let i = 0; i < prefixes.length; i++) {
    if (ct !== null) {
      for (const existing of [...ct.prefixes].sort(byteOrder)) {
        if (overlaps(prefixes[i], existing)) {
          throw new CommandError(`ERR Prefix '${prefixes[i]}' overlaps with an existing prefix '${existing}'. Prefixes for a single client must not overlap.`);
        }
      }
    }
    for (let j = i + 1; j < prefixes.length; j++) {
      if (overlaps(prefixes[i], prefixes[j])) {
        throw new CommandError(`ERR Prefix '${prefixes[i]}' overlaps with another provided prefix '${prefixes[j]}'. Prefixes for a single client must not overlap.`);
      }
    }
  }
}

/** CLIENT TRACKING (on|off) [REDIRECT id] [BCAST] [PREFIX p]… [OPTIN] [OPTOUT] [NOLOOP] */
export function clientTracking(conn: Connection, argv: string[], parseId: (s: string) => bigint | null): void {
  let redirect = 0;
  const opts = { bcast: false, optin: false, optout: false, noloop: false };
  const prefixes: string[] = [];
  for (let j = 3; j < argv.length; j++) {
    const a = argv[j].toLowerCase();
    const more = j < argv.length - 1;
    if (a === 'redirect' && more) {
      j++;
      if (redirect !== 0) throw new CommandError('ERR A client can only redirect to a single other client');
      const id = parseId(argv[j]);
      if (id === null) throw new CommandError('ERR value is not an integer or out of range');
      if (connectionNear(Number(id), conn) === null) throw new CommandError('ERR The client ID you want redirect to does not exist');
      redirect = Number(id);
    } else if (a === 'bcast') opts.bcast = true;
    else if (a === 'optin') opts.optin = true;
    else if (a === 'optout') opts.optout = true;
    else if (a === 'noloop') opts.noloop = true;
    else if (a === 'prefix' && more) prefixes.push(argv[++j]);
    else throw new CommandError(ERR_SYNTAX);
  }
  const mode = argv[2].toLowerCase();
  const ct = conn.tracking;
  if (mode === 'on') {
    if (!opts.bcast && prefixes.length > 0) throw new CommandError('ERR PREFIX option requires BCAST mode to be enabled');
    if (ct !== null && ct.bcast !== opts.bcast) {
      throw new CommandError("ERR You can't switch BCAST mode on/off before disabling tracking for this client, and then re-enabling it with a different mode.");
    }
    if (opts.bcast && (opts.optin || opts.optout)) throw new CommandError('ERR OPTIN and OPTOUT are not compatible with BCAST');
    if (opts.optin && opts.optout) throw new CommandError("ERR You can't specify both OPTIN mode and OPTOUT mode");
    if (ct !== null && ((opts.optin && ct.optout) || (opts.optout && ct.optin))) {
      throw new CommandError("ERR You can't switch OPTIN/OPTOUT mode before disabling tracking for this client, and then re-enabling it with a different mode.");
    }
    if (opts.bcast) checkPrefixes(ct, prefixes);
    trackingOf(conn.server).enable(conn, redirect, opts, prefixes);
  } else if (mode === 'off') {
    conn.server.tracking?.disable(conn);
  } else throw new CommandError(ERR_SYNTAX);
}

/** CLIENT CACHING yes|no */
export function clientCaching(conn: Connection, argv: string[]): void {
  const ct = conn.tracking;
  if (ct === null) throw new CommandError('ERR CLIENT CACHING can be called only when the client is in tracking mode with OPTIN or OPTOUT mode enabled');
  const opt = argv[2].toLowerCase();
  if (opt === 'yes') {
    if (!ct.optin) throw new CommandError('ERR CLIENT CACHING YES is only valid when tracking is enabled in OPTIN mode.');
  } else if (opt === 'no') {
    if (!ct.optout) throw new CommandError('ERR CLIENT CACHING NO is only valid when tracking is enabled in OPTOUT mode.');
  } else throw new CommandError(ERR_SYNTAX);
  ct.caching = true;
}

/** CLIENT TRACKINGINFO */
export function trackingInfo(conn: Connection): Reply {
  const ct = conn.tracking;
  const flags: string[] = [ct !== null ? 'on' : 'off'];
  if (ct !== null) {
    if (ct.bcast) flags.push('bcast');
    if (ct.optin) flags.push('optin', ...(ct.caching ? ['caching-yes'] : []));
    if (ct.optout) flags.push('optout', ...(ct.caching ? ['caching-no'] : []));
    if (ct.noloop) flags.push('noloop');
    if (ct.brokenRedirect) flags.push('broken_redirect');
  }
  const prefixes = ct !== null ? [...ct.prefixes].sort(byteOrder) : [];
  return new MapReply(['flags', new SetReply(flags), 'redirect', ct !== null ? ct.redirect : -1, 'prefixes', prefixes]);
}
