/**
 * A minimal RESP2/RESP3 client for the differential fuzzer: sends argv as byte strings (one char
 * per byte) and reads each reply into a tagged tree that keeps every distinction the protocol
 * makes (simple vs bulk string, integer vs double, nil bulk vs nil array, map vs array, push), so
 * the fake and a real server are compared on what they put on the wire.
 */
import * as net from 'node:net';

/** A reply as read off the wire. */
export type Wire =
  | { t: '+'; v: string }
  | { t: '-'; v: string }
  | { t: ':'; v: string }
  | { t: '$'; v: string | null }
  | { t: '*'; v: Wire[] | null }
  | { t: '%'; v: Wire[] }
  | { t: '~'; v: Wire[] }
  | { t: '>'; v: Wire[] }
  | { t: ','; v: string }
  | { t: '#'; v: string }
  | { t: '_' }
  | { t: '('; v: string }
  | { t: '='; v: string };

class Reader {
  private buf: Buffer = Buffer.alloc(0);
  private pos = 0;

  push(chunk: Buffer): void {
    this.buf = this.pos === this.buf.length ? chunk : Buffer.concat([this.buf.subarray(this.pos), chunk]);
    this.pos = 0;
  }

  /** One whole reply, or undefined when more bytes are needed. */
  next(): Wire | undefined {
    const start = this.pos;
    const out = this.read();
    if (out === undefined) this.pos = start;
    return out;
  }

  private line(): string | undefined {
    const end = this.buf.indexOf('\r\n', this.pos);
    if (end < 0) return undefined;
    const text = this.buf.toString('latin1', this.pos, end);
    this.pos = end + 2;
    return text;
  }

  private read(): Wire | undefined {
    if (this.pos >= this.buf.length) return undefined;
    const type = String.fromCharCode(this.buf[this.pos++]);
    const head = this.line();
    if (head === undefined) return undefined;
    switch (type) {
      case '+':
      case '-':
      case ':':
      case ',':
      case '#':
      case '(':
        return { t: type, v: head } as Wire;
      case '_':
        return { t: '_' };
      case '$':
      case '=': {
        const n = Number(head);
        if (n < 0) return { t: '$', v: null };
        if (this.buf.length < this.pos + n + 2) return undefined;
        const v = this.buf.toString('latin1', this.pos, this.pos + n);
        this.pos += n + 2;
        return { t: type, v } as Wire;
      }
      case '*':
      case '~':
      case '>':
      case '%': {
        const n = Number(head);
        if (n < 0) return { t: '*', v: null };
        const items: Wire[] = [];
        const count = type === '%' ? n * 2 : n;
        for (let i = 0; i < count; i++) {
          const item = this.read();
          if (item === undefined) return undefined;
          items.push(item);
        }
        return { t: type, v: items } as Wire;
      }
      default:
        throw new Error(`unexpected RESP type byte ${JSON.stringify(type)}`);
    }
  }
}

/** A connection that sends commands one at a time and resolves each with its reply. */
export class RespClient {
  private readonly reader = new Reader();
  private readonly waiting: ((w: Wire) => void)[] = [];
  /** Called with every push (`>`: keyspace events on a RESP3 subscriber) in arrival order. */
  onPush?: (w: Wire) => void;
  /** A RESP2 subscriber: arrays led by message/pmessage/(p)subscribe are its pushes too. */
  resp2Pushes = false;
  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.reader.push(chunk);
      for (;;) {
        const w = this.reader.next();
        if (w === undefined) break;
        if (w.t === '>' || (this.resp2Pushes && w.t === '*' && w.v && w.v[0]?.t === '$' && /^p?(message|subscribe)$/.test(w.v[0].v ?? ''))) {
          // pushes (keyspace events) are not replies
          this.onPush?.(w);
          continue;
        }
        this.waiting.shift()?.(w);
      }
    });
  }

  static connect(port: number, host = '127.0.0.1'): Promise<RespClient> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, host, () => resolve(new RespClient(socket)));
      socket.once('error', reject);
    });
  }

  /** Send argv (byte strings) and resolve with the reply. */
  call(argv: readonly string[]): Promise<Wire> {
    let out = `*${argv.length}\r\n`;
    for (const a of argv) out += `$${a.length}\r\n${a}\r\n`;
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.socket.write(Buffer.from(out, 'latin1'));
    });
  }

  /** Send argv without waiting for a reply (PSUBSCRIBE on RESP3: its confirmation is a push). */
  send(argv: readonly string[]): void {
    let out = `*${argv.length}\r\n`;
    for (const a of argv) out += `$${a.length}\r\n${a}\r\n`;
    this.socket.write(Buffer.from(out, 'latin1'));
  }

  close(): void {
    this.socket.destroy();
  }
}

/** A reply as one line of text: types tagged, bytes escaped. */
export function showWire(w: Wire): string {
  const str = (s: string) => JSON.stringify(s).replace(/[\u007f-\u00ff]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  switch (w.t) {
    case '$':
      return w.v === null ? 'nil' : str(w.v);
    case '*':
      return w.v === null ? '*nil' : `[${w.v.map(showWire).join(', ')}]`;
    case '%':
    case '~':
    case '>':
      return `${w.t}[${w.v.map(showWire).join(', ')}]`;
    case '_':
      return '_';
    case '=':
      return `=${str(w.v)}`;
    default:
      return `${w.t}${w.v}`;
  }
}
