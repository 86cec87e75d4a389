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
