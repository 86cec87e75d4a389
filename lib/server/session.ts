/**
 * One client socket: bytes in → requests (resp-parser) → engine connection → typed replies →
 * RESP bytes out (resp-encoder), in order.
 *
 * - Requests are taken one at a time and submitted to the connection, which runs them in order
 *   (a request after a blocked one waits behind it, as on a Redis connection). Parsing pauses
 *   after AUTH, HELLO and RESET until their reply (they change what the next request may be:
 *   the unauthenticated size limits, the protocol) and stops for good after QUIT.
 * - Replies are written in request order. Each is encoded in the protocol in effect when it is
 *   written: a successful HELLO switches to the protocol it reports (its own reply included),
 *   RESET back to RESP2. SUBSCRIBE-family requests answer one frame per channel.
 * - Out-of-band pushes (pub/sub messages) are written as soon as the replies before them are:
 *   appended after pending replies, or ahead of a blocked one.
 * - A protocol error is answered with Redis's text, after the replies of the requests before it,
 *   and the connection is closed (CLIENT_CLOSE_AFTER_REPLY). A client that disconnects (even
 *   mid-request or while blocked) releases its blocked calls; nothing is written to it.
 */
import type { Socket } from 'net';
import { CommandError } from '../errors';
import { MapReply, PushReply, type Reply, mapPairs } from '../reply/reply';
import type { ServerStats } from '../stats/server-stats';
import { RequestParser } from './resp-parser';
import { type Protocol, appendParts, encodeToParts, encodeToString, errorLine } from './resp-encoder';
import { realSetImmediate } from '../clock/real-timers';

/** The engine connection as the session uses it (ENGINE-API.md). */
export interface SessionConnection {
  execute(argv: string[]): Promise<Reply>;
  /** `execute` run now, without a promise, or `undefined` when it cannot run now (Connection.executeNow). */
  executeNow?(argv: string[]): Reply | Promise<Reply> | undefined;
  onPush(listener: (msg: Reply) => void): () => void;
  close(): void;
  readonly closed: boolean;
  readonly blocked: boolean;
  readonly protocol: 2 | 3;
  /** False while the connection must authenticate first (tighter request size limits). */
  readonly isAuthenticated: boolean;
  /** Called when the connection closes (QUIT, CLIENT KILL). */
  onClose(listener: () => void): () => void;
  /** Closed by a `POST` or `Host:` command: no reply still due is written (Connection.closedBySecurityWarning). */
  readonly closedBySecurityWarning?: boolean;
  /**
   * True when pushes the connection's own command produces go where they are produced (7.0):
   * inside EXEC's array ahead of the element of the command that sent them (`execIndex`), ahead
   * of any other command's reply. Else (and without it) after the reply.
   */
  readonly pushesInline?: boolean;
  /** While EXEC runs: the index of the queued command running (-1 otherwise). */
  readonly execIndex?: number;
  /** Set while a request runs behind replies of the same read not written yet (Connection.repliesPending). */
  repliesPending?: boolean;
  /**
   * Blocked calls of the server served so far: when a request moves it, the replies of the
   * clients it woke go out first (Redis writes them first: lib/blocking/blocking.ts `woken`).
   */
  readonly servedBlocked?: number;
  /**
   * Deliver the pub/sub messages published so far that still wait for their nextTick
   * (Connection.deliverPendingMessages): a request's reply is written after them, as Redis
   * writes a client's pending pushes (7.2+: its own PUBLISH's message, after that reply) before
   * it reads the next request.
   */
  deliverPendingMessages?(): void;
  /** Set once SYNC/PSYNC made the connection a replica (lib/engine/replication.ts). */
  readonly replicaFeed?: { connect(writer: (data: string) => void): string } | null;
}

interface Slot {
  /** Request name (lower case), '' for pushes and protocol errors. */
  readonly name: string;
  settled: boolean;
  /** The reply, or the error text; `drop` = write nothing (connection closed). */
  result?: { reply: Reply } | { error: string } | { drop: true } | { raw: string };
  /** 7.0: pushes the request's own execution produced, with the EXEC element they precede (see SessionConnection.pushesInline). */
  inline?: [number, Reply][];
  /** EXEC: the indexes of its elements that are a queued HELLO's reply (see `queuedHellos`). */
  hellos?: number[];
}

/** Commands MULTI does not queue (they run at once, or are refused without being queued). */
const NOT_QUEUED = new Set(['multi', 'exec', 'discard', 'watch', 'quit', 'reset']);

const PAUSE_AFTER = new Set(['auth', 'hello', 'reset']);

/** (Un)subscribe confirmations: every version writes them where the command produces them (inside EXEC's array too). */
const CONFIRMATION_KINDS = new Set(['subscribe', 'unsubscribe', 'psubscribe', 'punsubscribe', 'ssubscribe', 'sunsubscribe']);
/** Pub/sub messages: 7.0 writes them where produced too; later versions after the reply. */
const MESSAGE_KINDS = new Set(['message', 'pmessage', 'smessage']);

/**
 * A push a running command of this connection produced, to be written where it was produced:
 * a (un)subscribe confirmation, and in 7.0 (`messagesInline`) a pub/sub message (not a
 * tracking invalidation, which 7.0 defers too).
 */
function isInlinePush(msg: Reply, messagesInline: boolean): boolean {
  if (!(msg instanceof PushReply)) return false;
  const kind = msg.items[0];
  if (typeof kind !== 'string') return false;
  if (CONFIRMATION_KINDS.has(kind)) return true;
  return messagesInline && MESSAGE_KINDS.has(kind) && !(kind === 'message' && msg.items[1] === '__redis__:invalidate');
}

export interface SessionOptions {
  stats?: ServerStats;
  /** `proto-max-bulk-len` in bytes, or a function that reads it (the server's CONFIG). */
  maxBulkLen?: number | (() => number);
  /** Called once when the session ends. */
  onClose?: () => void;
}

/** Replies are joined into one socket write up to this many bytes. */
const FLUSH_CHUNK = 64 * 1024 * 1024;

export class Session {
  private readonly parser: RequestParser;
  private readonly slots: Slot[] = [];
  private proto: Protocol;
  private paused = false;
  /** QUIT or a protocol error: no more requests; close once the queued replies are written. */
  private closing = false;
  private ended = false;
  /** After SYNC/PSYNC: the socket carries the replication stream; requests and replies are dropped. */
  private replica = false;
  private readonly unsubscribePush: () => void;
  private unsubscribeClose: (() => void) | undefined;

  constructor(
    private readonly socket: Socket,
    private readonly conn: SessionConnection,
    private readonly options: SessionOptions = {},
  ) {
    this.proto = conn.protocol;
    this.parser = new RequestParser({ maxBulkLen: options.maxBulkLen, authRequired: () => !conn.isAuthenticated });
    this.unsubscribePush = conn.onPush((msg) => this.push(msg));
    // Closed by the server side (CLIENT KILL; QUIT after its +OK): write what is due, then close.
    this.unsubscribeClose = conn.onClose(() => {
      // a `POST`/`Host:` command: the socket goes at once, replies still due unwritten (Redis)
      if (conn.closedBySecurityWarning) return this.destroy();
      this.closing = true;
      this.flush();
    });
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('end', () => this.onEnd());
    socket.on('error', () => this.teardown());
    socket.on('close', () => this.teardown());
  }

  /**
   * What this session holds (CLIENT LIST): the query buffer, reply bytes not yet written to the
   * socket, the bytes of the running command's arguments. While a request read in this turn runs,
   * the query buffer is every byte held when the turn began (Redis trims the commands it ran from
   * its query buffer only after running them all: `qbuf=26` for a lone CLIENT LIST), else the
   * unparsed bytes.
   */
  buffers(): { qbuf: number; omem: number; argvMem: number } {
    const running = this.runningArgv !== null;
    let argvMem = 0;
    if (running) for (const a of this.runningArgv!) argvMem += a.length;
    return { qbuf: running ? this.turnBuffered : this.parser.buffered, omem: this.socket.writableLength, argvMem };
  }

  /** Bytes the parser held when the requests of this turn began to be taken. */
  private turnBuffered = 0;
  /** The arguments of the request running now (synchronously), or null. */
  private runningArgv: string[] | null = null;

  private onData(chunk: Buffer): void {
    if (this.ended || this.closing || this.replica) return;
    const stats = this.options.stats;
    if (stats) {
      stats.totalNetInputBytes += chunk.length;
      stats.totalReadsProcessed++;
    }
    this.parser.push(chunk);
    this.pump();
  }

  /** Take and submit requests until more bytes are needed, or a pause/stop. */
  private pump(): void {
    this.pumpRequests();
  }

  private pumpRequests(): void {
    try {
      this.takeRequests();
    } finally {
      // the replies of the requests answered at once, in one write; after the replies of the
      // clients they woke (written as their promises settle), as Redis writes those first
      if (this.unflushed) {
        if (this.wokeBlocked) {
          this.wokeBlocked = false;
          realSetImmediate(() => {
            if (this.unflushed) this.flush();
          });
        } else {
          this.flush();
        }
      }
    }
  }

  private takeRequests(): void {
    this.turnBuffered = this.parser.buffered;
    while (!this.paused && !this.closing && !this.ended) {
      const req = this.parser.next();
      if (!req) return;
      if ('protocolError' in req) {
        // addReplyError: "-ERR " + the text
        const text = `ERR ${req.protocolError}`;
        this.options.stats?.errorReply(text);
        this.slots.push({ name: '', settled: true, result: { error: text } });
        this.closing = true;
        this.flush();
        return;
      }
      if (req.tooLong !== undefined) {
        // an argument no JS string can hold: the command cannot run; the session goes on
        const text = `ERR [ioredis-mock-streams] a string of ${req.tooLong} bytes is longer than JavaScript strings can be (536870888); Redis would store it`;
        this.options.stats?.errorReply(text);
        this.slots.push({ name: '', settled: true, result: { error: text } });
        this.unflushed = true;
        continue;
      }
      this.submit(req.argv);
    }
  }

  /**
   * Since a MULTI: how many requests were queued, and which of them were HELLO (by position).
   * An EXEC whose reply is an array answers exactly those requests in order (a refusal at queue
   * time makes it EXECABORT), so the HELLOs are known by name, not by the shape of a reply.
   */
  private queuedHellos: { count: number; at: number[] } | null = null;

  private submit(argv: string[]): void {
    const name = argv[0].toLowerCase();
    const slot: Slot = { name, settled: false };
    this.conn.deliverPendingMessages?.();
    this.slots.push(slot);
    const multiOpens = name === 'multi' && this.queuedHellos === null;
    if (multiOpens) this.queuedHellos = { count: 0, at: [] };
    else if (name === 'exec' || name === 'discard' || name === 'reset') {
      if (name === 'exec' && this.queuedHellos !== null && this.queuedHellos.at.length > 0) slot.hellos = this.queuedHellos.at;
      this.queuedHellos = null;
    } else if (this.queuedHellos !== null && !NOT_QUEUED.has(name)) {
      if (name === 'hello') this.queuedHellos.at.push(this.queuedHellos.count);
      this.queuedHellos.count++;
    }
    if (name === 'quit') this.closing = true;
    const pause = PAUSE_AFTER.has(name);
    if (pause) this.paused = true;
    else if (!this.closing && this.conn.executeNow !== undefined && this.answerNow(slot, argv)) {
      // a MULTI refused (nested is not this case: it keeps the one open) opens no transaction
      if (multiOpens && slot.result !== undefined && 'error' in slot.result) this.queuedHellos = null;
      return;
    }
    this.conn.execute(argv).then(
      (reply) => {
        slot.result = { reply };
      },
      (err: unknown) => {
        if (err instanceof CommandError) slot.result = { error: err.message };
        else if (this.conn.closed) slot.result = { drop: true };
        else slot.result = { error: `ERR ${err instanceof Error ? err.message : String(err)}` };
      },
    ).finally(() => {
      slot.settled = true;
      this.flush();
      if (pause && !this.ended) {
        this.paused = false;
        this.pump();
      }
    });
  }

  /** Replies settled by `answerNow` and not written yet (written once the requests at hand are taken). */
  private unflushed = false;
  /** A request answered at once woke blocked clients: the write waits a turn for theirs. */
  private wokeBlocked = false;

  /**
   * Run the request now when the connection can (nothing ahead of it): its slot settles at once,
   * and its reply is written with the others of this read (one socket write, not one per reply).
   * False when it cannot run now (the caller submits it in order); a command that blocks
   * settles its slot when it is served.
   */
  private answerNow(slot: Slot, argv: string[]): boolean {
    let out: Reply | Promise<Reply> | undefined;
    const served = this.conn.servedBlocked;
    try {
      this.running = slot;
      this.runningArgv = argv;
      // replies of this read's earlier requests are not written yet (flush writes them after it)
      this.conn.repliesPending = this.slots.length > 1;
      out = this.conn.executeNow!(argv);
      if (this.conn.servedBlocked !== served) this.wokeBlocked = true;
    } catch (err) {
      this.running = null;
      this.runningArgv = null;
      this.conn.repliesPending = false;
      this.settleFailed(slot, err);
      this.unflushed = true;
      return true;
    }
    this.running = null;
    this.runningArgv = null;
    this.conn.repliesPending = false;
    if (out === undefined) return false;
    if (out instanceof Promise) {
      out.then(
        (reply) => {
          slot.result = { reply };
        },
        (err: unknown) => this.settleFailed(slot, err),
      ).finally(() => {
        slot.settled = true;
        this.flush();
      });
      return true;
    }
    slot.result = { reply: out };
    slot.settled = true;
    this.unflushed = true;
    return true;
  }

  private settleFailed(slot: Slot, err: unknown): void {
    if (err instanceof CommandError) slot.result = { error: err.message };
    else if (this.conn.closed) slot.result = { drop: true };
    else slot.result = { error: `ERR ${err instanceof Error ? err.message : String(err)}` };
    slot.settled = true;
  }

  /** The request running now (synchronously) whose own pushes go inline (7.0), or null. */
  private running: Slot | null = null;

  /** A pub/sub message: after the replies already due, ahead of a blocked one. */
  private push(msg: Reply): void {
    if (this.ended || this.closing) return;
    const beforeReply = (msg as { beforeReply?: boolean }).beforeReply === true;
    if (this.running !== null && !beforeReply && isInlinePush(msg, this.conn.pushesInline === true)) {
      (this.running.inline ??= []).push([this.conn.execIndex ?? -1, msg]);
      return;
    }
    const slot: Slot = { name: '', settled: true, result: { reply: msg } };
    // blocked: ahead of the blocked reply; `beforeReply` (a tracking invalidation of a key evicted
    // before the command runs, lib/engine/tracking.ts beforeCommand, or of a 7.4+ blocking async
    // flush): ahead of that command's reply
    if (this.conn.blocked || beforeReply) {
      const i = this.slots.findIndex((s) => !s.settled);
      if (i >= 0) this.slots.splice(i, 0, slot);
      else this.slots.push(slot);
    } else {
      this.slots.push(slot);
    }
    this.flush();
  }

  /** Write every settled reply at the head of the queue. */
  private flush(): void {
    this.unflushed = false;
    let out = '';
    while (this.slots.length > 0 && this.slots[0].settled) {
      const slot = this.slots.shift() as Slot;
      // many large replies in one read (a pipeline of 600 1 MB GETs), or one reply past the
      // longest JS string (MGET of a 300 MB value twice): written in parts, as one string would
      // pass the longest a JS string can be (RangeError)
      const encoded = this.encode(slot);
      if (typeof encoded === 'string') {
        if (out.length + encoded.length > FLUSH_CHUNK) {
          this.write(out);
          out = '';
        }
        out += encoded;
        continue;
      }
      for (const part of encoded) {
        if (out.length + part.length > FLUSH_CHUNK) {
          this.write(out);
          out = '';
        }
        out += part;
      }
    }
    this.write(out);
    if (this.slots.length === 0 && (this.closing || this.ended)) this.finish();
  }

  private write(out: string): void {
    if (out && this.socket.writable) {
      const stats = this.options.stats;
      if (stats) {
        stats.totalNetOutputBytes += out.length;
        stats.totalWritesProcessed++;
      }
      this.socket.write(out, 'latin1');
    }
  }

  /** The reply's bytes: one string, or its parts in order when one string cannot hold them. */
  private encode(slot: Slot): string | string[] {
    const r = slot.result;
    if (!r || 'drop' in r || this.replica) return '';
    const feed = this.conn.replicaFeed;
    if ((slot.name === 'sync' || slot.name === 'psync') && feed && 'reply' in r) {
      // the full resynchronisation (RDB), then the stream as the server feeds it
      this.replica = true;
      return feed.connect((data) => {
        if (this.socket.writable) this.socket.write(Buffer.from(data, 'latin1'));
      });
    }
    if ('raw' in r) return r.raw;
    if ('error' in r) return errorLine(r.error);
    let reply = r.reply;
    if (slot.name === 'hello' && reply instanceof MapReply) {
      this.switchedBy(reply);
    } else if (slot.name === 'reset') {
      this.proto = 2;
    }
    // pushes written where produced (7.0), or an EXEC with a queued HELLO (the elements after it
    // in the protocol it switched to)
    if (slot.inline !== undefined || slot.hellos !== undefined) return this.encodeInline(slot.name, slot.inline ?? [], reply, slot.hellos);
    // SUBSCRIBE & co.: the confirmations were pushed; the command itself answers nothing more
    // (the engine's NO_REPLY, an empty push).
    // CLIENT REPLY OFF/SKIP: a silenced reply is the same empty push, whatever the command.
    if (reply instanceof PushReply && reply.items.length === 0) return '';
    if (reply === undefined) reply = null;
    try {
      return encodeToString(reply, this.proto);
    } catch (err) {
      // longer than a JS string can be (MGET of a 300 MB value twice): its parts, written in turn
      if (err instanceof RangeError) return encodeToParts(reply, this.proto);
      throw err;
    }
  }

  /** A HELLO's reply: the protocol it reports is the connection's from it on. */
  private switchedBy(reply: MapReply): void {
    for (const [k, v] of mapPairs(reply)) if (k === 'proto' && (v === 2 || v === 3)) this.proto = v as Protocol;
  }

  /**
   * 7.0: a reply with the pushes its own command produced where they were written — EXEC's
   * array with each push ahead of the element of the command that sent it (not counted in the
   * array's length), any other reply after them (see SessionConnection.pushesInline). An EXEC
   * with queued HELLOs (`hellos`, any version): Redis writes each element as its command ran, so
   * the header and the elements before a HELLO in the EXEC's protocol, the HELLO's map and what
   * follows in the protocol it switched to (which the connection keeps).
   */
  private encodeInline(name: string, inline: [number, Reply][], reply: Reply | undefined, hellos?: readonly number[]): string[] {
    // as parts, not one string: EXEC's elements may add up to more than a JS string holds
    const out: string[] = [];
    let proto = this.proto;
    if (name === 'exec' && Array.isArray(reply)) {
      out.push(`*${reply.length}\r\n`);
      let at = 0;
      for (let i = 0; i < reply.length; i++) {
        const item = reply[i] === undefined ? null : reply[i];
        // a SUBSCRIBE-family element is its first confirmation: the others follow it
        const confirmation = item instanceof PushReply && item.items.length > 0;
        while (at < inline.length && inline[at][0] < i) appendParts(inline[at++][1], proto, out);
        // a queued HELLO: what follows it is written in the protocol it switched to
        if (hellos?.includes(i) && item instanceof MapReply) {
          this.switchedBy(item);
          proto = this.proto;
        }
        if (!confirmation) while (at < inline.length && inline[at][0] === i) appendParts(inline[at++][1], proto, out);
        appendParts(item, proto, out);
      }
      while (at < inline.length) appendParts(inline[at++][1], proto, out);
      return out;
    }
    for (const [, msg] of inline) appendParts(msg, proto, out);
    if (reply instanceof PushReply && reply.items.length === 0) return out;
    appendParts(reply === undefined ? null : reply, proto, out);
    return out;
  }

  /** Client half-closed: answer what was already executed, then close. */
  private onEnd(): void {
    if (this.ended) return;
    this.ended = true;
    this.conn.close();
    if (this.slots.every((s) => s.settled)) this.finish();
  }

  /**
   * The server closes the connection (QUIT, CLIENT KILL, a protocol error): the replies due are
   * written, then the socket is closed both ways as Redis's close() does (a client still writing,
   * as after a protocol desync, gets an error instead of writing into a half-closed socket).
   */
  private finish(): void {
    if (!this.socket.destroyed) this.socket.end(() => this.socket.destroy());
    this.teardown();
  }

  /** Close the connection (socket gone or ended): releases blocked calls. */
  private teardown(): void {
    this.unsubscribeClose?.();
    if (!this.conn.closed) this.conn.close();
    this.unsubscribePush();
    if (!this.ended) {
      this.ended = true;
    }
    if (this.options.onClose) {
      const cb = this.options.onClose;
      this.options.onClose = undefined;
      cb();
    }
  }

  /** Close from the server side (server shutdown, CLIENT KILL). */
  destroy(): void {
    this.teardown();
    this.socket.destroy();
  }
}

