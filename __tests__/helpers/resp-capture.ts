/**
 * A tiny RESP listener on loopback that records every command a client sends (as UTF-8 argv)
 * and answers `+OK` (HELLO gets an error, so an ioredis 6 on protocol 3 falls back to RESP2).
 * It shows what a real client puts on the wire — e.g. which arguments ioredis prefixes with
 * `keyPrefix` — for commands the local redis-server does not have.
 */
import * as net from 'node:net';

export interface Capture {
  readonly port: number;
  /** Every command received so far, in order. */
  readonly commands: string[][];
  close(): Promise<void>;
}

/** Parse complete RESP arrays of bulk strings at the head of `buf`; returns argvs and the rest. */
function parse(buf: Buffer): { argvs: string[][]; rest: Buffer } {
  const argvs: string[][] = [];
  let pos = 0;
  for (;;) {
    const start = pos;
    const line = (at: number) => {
      const end = buf.indexOf('\r\n', at);
      return end < 0 ? undefined : { text: buf.toString('latin1', at + 1, end), next: end + 2 };
    };
    const head = buf[pos] === 0x2a ? line(pos) : undefined;
    if (!head) return { argvs, rest: buf.subarray(start) };
    const n = Number(head.text);
    pos = head.next;
    const argv: string[] = [];
    for (let i = 0; i < n; i++) {
      const len = line(pos);
      if (!len || buf.length < len.next + Number(len.text) + 2) return { argvs, rest: buf.subarray(start) };
      argv.push(buf.toString('utf8', len.next, len.next + Number(len.text)));
      pos = len.next + Number(len.text) + 2;
    }
    argvs.push(argv);
  }
}

export async function startCapture(): Promise<Capture> {
  const commands: string[][] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let pending: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      const { argvs, rest } = parse(Buffer.concat([pending, chunk]));
      pending = rest;
      for (const argv of argvs) {
        commands.push(argv);
        socket.write(argv[0]?.toUpperCase() === 'HELLO' ? "-ERR unknown command 'HELLO'\r\n" : '+OK\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    commands,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
