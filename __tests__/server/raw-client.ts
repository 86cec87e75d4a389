/**
 * A raw-socket RESP client for server tests: sends bytes, and reads whole reply frames (RESP2 or
 * RESP3) as the exact bytes the server wrote, so replies can be compared byte for byte with a
 * real redis-server.
 */
import * as net from 'net';

/** Length in bytes of the first complete RESP frame in `buf` at `at`, or -1 if incomplete. */
export function frameLength(buf: Buffer, at = 0): number {
  if (at >= buf.length) return -1;
  const type = String.fromCharCode(buf[at]);
  const eol = buf.indexOf('\r\n', at, 'latin1');
  if (eol < 0) return -1;
  const line = buf.toString('latin1', at + 1, eol);
  const after = eol + 2;
  switch (type) {
    case '+':
    case '-':
    case ':':
    case '_':
    case ',':
    case '#':
    case '(':
      return after - at;
    case '$':
    case '=':
    case '!': {
      const n = Number(line);
      if (n < 0) return after - at;
      return buf.length >= after + n + 2 ? after + n + 2 - at : -1;
    }
    case '*':
    case '~':
    case '>':
    case '%':
    case '|': {
      let n = Number(line);
      if (n < 0) return after - at;
      if (type === '%' || type === '|') n *= 2;
      let p = after;
      for (let i = 0; i < n; i++) {
        const len = frameLength(buf, p);
        if (len < 0) return -1;
        p += len;
      }
      return p - at;
    }
    default:
      // not a RESP frame: an inline reply does not exist; treat up to CRLF as one frame
      return after - at;
  }
}

/** A socket connected to host:port (rejects with the connection's error). */
export async function connectSocket(port: number, host = '127.0.0.1'): Promise<net.Socket> {
  const socket = net.connect(port, host);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  return socket;
}

/**
 * Send each write (its commands in one socket write), waiting up to 500 ms for reply bytes after
 * it, then `tailMs`; everything the server wrote, as a byte string.
 */
export async function transcript(port: number, host: string, writes: readonly (readonly string[])[][], tailMs = 50): Promise<string> {
  const socket = await connectSocket(port, host);
  let out = '';
  socket.on('data', (chunk: Buffer) => (out += chunk.toString('latin1')));
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  try {
    for (const commands of writes) {
      const before = out.length;
      socket.write(commands.map(requestBytes).join(''), 'latin1');
      for (let i = 0; i < 100 && out.length === before; i++) await sleep(5);
    }
    await sleep(tailMs);
    return out;
  } finally {
    socket.destroy();
  }
}

/** argv of byte strings (one char per byte) as a RESP multibulk request, to write as latin1. */
export function requestBytes(argv: readonly string[]): string {
  return `*${argv.length}\r\n${argv.map((a) => `$${Buffer.byteLength(a, 'latin1')}\r\n${a}\r\n`).join('')}`;
}

/** Encode argv as a RESP multibulk request. */
export function request(...argv: (string | number | Buffer)[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`*${argv.length}\r\n`)];
  for (const a of argv) {
    const b = Buffer.isBuffer(a) ? a : Buffer.from(String(a), 'utf8');
    parts.push(Buffer.from(`$${b.length}\r\n`), b, Buffer.from('\r\n'));
  }
  return Buffer.concat(parts);
}

export class RawClient {
  private buf = Buffer.alloc(0);
  private waiting: { n: number; resolve: (frames: string[]) => void; reject: (e: Error) => void }[] = [];
  closed = false;
  private closeWaiters: (() => void)[] = [];

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (d) => {
      this.buf = Buffer.concat([this.buf, d]);
      this.pump();
    });
    socket.on('close', () => {
      this.closed = true;
      for (const w of this.waiting.splice(0)) w.reject(new Error(`connection closed; unread: ${JSON.stringify(this.buf.toString('latin1'))}`));
      for (const c of this.closeWaiters.splice(0)) c();
    });
    socket.on('error', () => undefined);
  }

  static connect(port: number, host = '127.0.0.1'): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const s = net.connect(port, host, () => resolve(new RawClient(s)));
      s.once('error', reject);
    });
  }

  private pump(): void {
    while (this.waiting.length) {
      const w = this.waiting[0];
      const frames: string[] = [];
      let p = 0;
      for (let i = 0; i < w.n; i++) {
        const len = frameLength(this.buf, p);
        if (len < 0) return;
        frames.push(this.buf.toString('latin1', p, p + len));
        p += len;
      }
      this.buf = this.buf.subarray(p);
      this.waiting.shift();
      w.resolve(frames);
    }
  }

  /** Read `n` reply frames (as latin1 byte strings). */
  read(n = 1): Promise<string[]> {
    return new Promise((resolve, reject) => {
      if (this.closed && this.waiting.length === 0 && frameLength(this.buf) < 0) {
        reject(new Error('connection closed'));
        return;
      }
      this.waiting.push({ n, resolve, reject });
      this.pump();
    });
  }

  write(data: Buffer | string): void {
    this.socket.write(typeof data === 'string' ? Buffer.from(data, 'latin1') : data);
  }

  /** Send one command and read its reply frame. */
  async call(...argv: (string | number | Buffer)[]): Promise<string> {
    this.write(request(...argv));
    return (await this.read(1))[0];
  }

  /** Bytes received and not read as frames. */
  get pending(): string {
    return this.buf.toString('latin1');
  }

  /** Resolves when the server closes the connection. */
  whenClosed(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => this.closeWaiters.push(resolve));
  }

  close(): void {
    this.socket.destroy();
  }
}

/** A RESP frame parsed: its type byte and its value (children for aggregates, text otherwise). */
export type RespNode = { t: string; v: string | null | RespNode[] };

/** Parse the one complete RESP2/RESP3 frame `text` (as RawClient returns it: latin1 bytes). */
export function parseFrame(text: string): RespNode {
  const buf = Buffer.from(text, 'latin1');
  let at = 0;
  const one = (): RespNode => {
    const t = String.fromCharCode(buf[at]);
    const eol = buf.indexOf('\r\n', at, 'latin1');
    const line = buf.toString('latin1', at + 1, eol);
    at = eol + 2;
    if ('$=!'.includes(t)) {
      const n = Number(line);
      if (n < 0) return { t, v: null };
      const v = buf.toString('latin1', at, at + n);
      at += n + 2;
      return { t, v };
    }
    if ('*~>%|'.includes(t)) {
      const n = Number(line);
      if (n < 0) return { t, v: null };
      const count = t === '%' || t === '|' ? n * 2 : n;
      const v: RespNode[] = [];
      for (let i = 0; i < count; i++) v.push(one());
      return { t, v };
    }
    return { t, v: line };
  };
  return one();
}

/**
 * Redis keeps a command's subcommands in a dict, so COMMAND INFO's subcommand array (an entry's
 * 10th element) and COMMAND DOCS' `subcommands` map come in an order that changes with every
 * server process (its hash seed): the frame with those put in name order, every other order kept.
 */
export function subcommandsSorted(node: RespNode): RespNode {
  const byText = (a: RespNode[], b: RespNode[]) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0);
  const walk = (n: RespNode, infoEntry: boolean): RespNode => {
    if (!Array.isArray(n.v)) return n;
    const kids = n.v;
    if ((n.t === '%' || n.t === '*') && kids.length % 2 === 0 && !infoEntry) {
      // a map (RESP3) or its RESP2 flat array: the value after a `subcommands` key is sorted by pairs
      const out: RespNode[] = [];
      for (let i = 0; i < kids.length; i++) {
        const k = kids[i];
        if (i % 2 === 0 && k.v === 'subcommands' && i + 1 < kids.length && Array.isArray(kids[i + 1].v)) {
          const sub = kids[i + 1];
          const pairs: RespNode[][] = [];
          for (let j = 0; j < (sub.v as RespNode[]).length; j += 2) pairs.push([(sub.v as RespNode[])[j], walk((sub.v as RespNode[])[j + 1], false)]);
          pairs.sort(byText);
          out.push(k, { t: sub.t, v: pairs.flat() });
          i++;
          continue;
        }
        out.push(walk(k, false));
      }
      return { t: n.t, v: out };
    }
    return { t: n.t, v: kids.map((c) => walk(c, false)) };
  };
  return walk(node, false);
}

/** A COMMAND INFO reply (an array of entries) with each entry's subcommands (10th element) in name order. */
export function infoSubcommandsSorted(node: RespNode): RespNode {
  if (!Array.isArray(node.v)) return node;
  return {
    t: node.t,
    v: node.v.map((entry) => {
      if (!Array.isArray(entry.v) || entry.v.length < 10 || !Array.isArray(entry.v[9].v)) return entry;
      const subs = [...(entry.v[9].v as RespNode[])].sort((a, b) => (byName(a) < byName(b) ? -1 : byName(a) > byName(b) ? 1 : 0));
      return { t: entry.t, v: [...entry.v.slice(0, 9), { t: entry.v[9].t, v: subs }, ...entry.v.slice(10)] };
    }),
  };
}
const byName = (entry: RespNode): string => (Array.isArray(entry.v) && typeof entry.v[0]?.v === 'string' ? entry.v[0].v : JSON.stringify(entry));
