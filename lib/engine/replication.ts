/**
 * The replication stream of one emulated server (Redis replication.c / server.c propagation):
 * what a replica attached with SYNC (or PSYNC) receives after the RDB payload.
 *
 * - Nothing exists until a replica attaches (`ServerState.replication` stays null): a server
 *   without replicas pays one null check per command.
 * - Every command runs as a frame (`enterCommand` … `leaveCommand`, lib/engine/connection/propagation.ts).
 *   When it changed the dataset (`server.dirty` moved) and did not prevent it, the command is
 *   propagated as sent, or as the form its module asked for (`rewrite`, Redis
 *   rewriteClientCommandVector), after what it propagated itself (`also`, Redis alsoPropagate —
 *   a lazily expired key's DEL among them). EXEC and scripts never propagate themselves: their
 *   commands do (effects replication).
 * - At the end of the outermost frame (an execution unit: a command, an EXEC, a script, a
 *   served blocked call, an active expiry) the pending commands are fed to the replicas
 *   (propagatePendingCommands): wrapped in MULTI … EXEC when there are more than one, except
 *   for commands that touch arbitrary keys (SCAN, RANDOMKEY); a SELECT precedes the first
 *   command of a database other than the last one fed (7.0: ahead of the MULTI, later versions:
 *   inside it).
 * - A PING every `repl-ping-replica-period` seconds while replicas are attached (replicationCron).
 */
import { realClearTimeout, realSetTimeout } from '../clock/real-timers';
import type { Propagation } from '../commands/types';
import type { RedisVersion } from '../version';

/** A replica: receives the stream as RESP bytes (a byte string, one char per byte). */
export interface ReplicaLink {
  write(data: string): void;
  /** Called when the server drops the replica (REPLICAOF). */
  close(): void;
}

/** The state of the running command (saved while a nested one runs). */
interface Frame {
  db: number;
  rewritten: string[] | null;
  prevented: boolean;
  forced: boolean;
}

/** Commands that never propagate themselves (call(): EXEC; scripts replicate their effects). */
const SELF_SILENT = new Set(['exec', 'eval', 'evalsha', 'eval_ro', 'evalsha_ro', 'fcall', 'fcall_ro']);
/** CMD_TOUCHES_ARBITRARY_KEYS: their lazy expirations are not wrapped in MULTI/EXEC. */
const ARBITRARY_KEYS = new Set(['scan', 'randomkey']);

/** `*<n>\r\n$<len>\r\n<arg>\r\n…` of argv (byte strings). */
export function encodeCommand(argv: readonly string[]): string {
  let out = `*${argv.length}\r\n`;
  for (const a of argv) out += `$${a.length}\r\n${a}\r\n`;
  return out;
}

export class Replication implements Propagation {
  private readonly replicas = new Set<ReplicaLink>();
  /** The database of the last command fed (Redis server.slaveseldb); -1 forces a SELECT. */
  private seldb = -1;
  /** Pending commands of the current execution unit (server.also_propagate). */
  private ops: { db: number; argv: string[] }[] = [];
  /** Nesting of frames (server.execution_nesting). */
  private depth = 0;
  /** The outermost frame's command touches arbitrary keys (no MULTI/EXEC around its ops). */
  private arbitrary = false;
  private frame: Frame = { db: 0, rewritten: null, prevented: false, forced: false };
  /** On Node's own timers: fake timers in a test never hold the pings back. */
  private pingTimer: ReturnType<typeof realSetTimeout> | null = null;

  constructor(
    /** `repl-ping-replica-period` in seconds. */
    private readonly pingPeriod: () => number,
    /** The emulated version (the MULTI/SELECT order differs in 7.0). */
    private readonly version: () => RedisVersion,
    /** False while the server is a replica itself (REPLICAOF): nothing is fed (replicationFeedSlaves). */
    private readonly isMaster: () => boolean,
  ) {}

  /** True while at least one replica is attached. */
  get active(): boolean {
    return this.replicas.size > 0;
  }

  get replicaCount(): number {
    return this.replicas.size;
  }

  /** A replica attached (full resynchronisation): the next command fed is preceded by SELECT. */
  attach(link: ReplicaLink): void {
    this.replicas.add(link);
    this.seldb = -1;
    this.armPing();
  }

  detach(link: ReplicaLink): void {
    this.replicas.delete(link);
    if (this.replicas.size === 0) {
      this.ops = [];
      if (this.pingTimer !== null) realClearTimeout(this.pingTimer);
      this.pingTimer = null;
    }
  }

  /** Drop every replica (the server became a replica itself: REPLICAOF host port). */
  dropAll(): void {
    for (const link of [...this.replicas]) {
      this.detach(link);
      link.close();
    }
  }

  private armPing(): void {
    if (this.pingTimer !== null) return;
    const period = Math.max(1, this.pingPeriod());
    this.pingTimer = realSetTimeout(() => {
      this.pingTimer = null;
      if (this.replicas.size === 0) return;
      this.send(encodeCommand(['PING']));
      this.armPing();
    }, period * 1000);
    this.pingTimer.unref?.();
  }

  // ---------------------------------------------------------------------------------------
  // Frames (call())

  /** A command starts in database `db`; returns the outer frame to hand back to `leaveCommand`. */
  enterCommand(db: number, name: string): Frame {
    const outer = this.frame;
    if (this.depth === 0) this.arbitrary = ARBITRARY_KEYS.has(name);
    this.depth++;
    this.frame = { db, rewritten: null, prevented: false, forced: false };
    return outer;
  }

  /**
   * The command ends: `dirty` says whether it changed the dataset, `db` the database it ended in
   * (Redis c->db). Propagates it (or its rewrite) unless prevented; the outermost frame feeds the
   * unit to the replicas.
   */
  leaveCommand(outer: Frame, argv: string[], name: string, dirty: boolean, db: number): void {
    const f = this.frame;
    this.frame = outer;
    this.depth--;
    if ((dirty || f.forced) && !f.prevented && !SELF_SILENT.has(name) && this.replicas.size > 0) {
      this.ops.push({ db, argv: f.rewritten ?? argv });
    }
    if (this.depth === 0) this.flush();
  }

  // Propagation (for the running command)

  get db(): number {
    return this.frame.db;
  }

  rewrite(argv: string[]): void {
    this.frame.rewritten = argv;
  }

  also(argv: string[]): void {
    if (this.replicas.size > 0) this.ops.push({ db: this.frame.db, argv });
  }

  prevent(): void {
    this.frame.prevented = true;
  }

  /**
   * HDELs for the fields the running command found expired. A command run on its own (not in
   * MULTI or a script, nothing propagated yet) sends each as a unit of its own before it, as the
   * active expiry the fake models (every due field of the hash removed at once) would have just
   * done; else they join the unit (Redis: in the command's execution unit).
   */
  expiredFields(key: string, fields: readonly string[]): void {
    if (this.replicas.size === 0) return;
    const alone = this.depth === 1 && this.ops.length === 0;
    for (const field of fields) {
      this.ops.push({ db: this.frame.db, argv: ['HDEL', key, field] });
      if (alone) this.flush();
    }
  }

  force(): void {
    this.frame.forced = true;
  }

  /**
   * A key of database `db` was deleted by expiry (lazily inside a command, or actively):
   * DEL, or UNLINK with `lazy` (lazyfree-lazy-expire). Outside a command it is a unit of its own.
   */
  expired(db: number, key: string, lazy: boolean): void {
    if (this.replicas.size === 0) return;
    this.ops.push({ db, argv: [lazy ? 'UNLINK' : 'DEL', key] });
    if (this.depth === 0) this.flush();
  }

  /**
   * Active expiry removed `fields` of the hash at `key` in database `db` (7.4 hash field
   * expiration): an HDEL per field, each a unit of its own (t_hash.c propagateHashFieldDeletion).
   */
  fieldsExpired(db: number, key: string, fields: readonly string[]): void {
    if (this.replicas.size === 0) return;
    for (const field of fields) {
      this.ops.push({ db, argv: ['HDEL', key, field] });
      if (this.depth === 0) this.flush();
    }
  }

  /** propagatePendingCommands: feed the unit's commands to every replica. */
  private flush(): void {
    const ops = this.ops;
    if (ops.length === 0) return;
    this.ops = [];
    if (this.replicas.size === 0 || !this.isMaster()) return;
    const transaction = ops.length > 1 && !this.arbitrary;
    let out = '';
    // 7.0 gives MULTI the first command's database (SELECT first); later versions -1 (SELECT inside)
    if (transaction) out += this.feed(this.version() === '7.0' ? ops[0].db : -1, MULTI);
    for (const op of ops) out += this.feed(op.db, op.argv);
    if (transaction) out += this.feed(-1, EXEC);
    this.send(out);
  }

  /** replicationFeedSlaves: SELECT when the database changes, then the command. */
  private feed(db: number, argv: readonly string[]): string {
    let out = '';
    if (db !== -1 && db !== this.seldb) {
      out += encodeCommand(['SELECT', String(db)]);
      this.seldb = db;
    }
    return out + encodeCommand(argv);
  }

  private send(data: string): void {
    if (!this.isMaster()) return;
    for (const link of this.replicas) link.write(data);
  }
}

const MULTI = ['MULTI'];
const EXEC = ['EXEC'];

/**
 * The stream of one replica connection: what the server writes is kept until the front end
 * connects its writer (after the replies due before SYNC's), then written through.
 */
export class ReplicaFeed implements ReplicaLink {
  private buffered: string[] = [];
  private writer: ((data: string) => void) | null = null;

  constructor(
    /** The full-resynchronisation preamble: `$<len>\r\n<RDB>` (PSYNC: `+FULLRESYNC …` first). */
    preamble: string,
    private readonly onClose: () => void,
  ) {
    this.buffered.push(preamble);
  }

  write(data: string): void {
    if (this.writer !== null) this.writer(data);
    else this.buffered.push(data);
  }

  /** The front end writes from now on: returns what was kept (the preamble first). */
  connect(writer: (data: string) => void): string {
    const kept = this.buffered.join('');
    this.buffered = [];
    this.writer = writer;
    return kept;
  }

  close(): void {
    this.onClose();
  }
}
