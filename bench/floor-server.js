#!/usr/bin/env node
/*
 * The floor of a RESP server written in Node, for the `serve` section of bench/run.js: a bare
 * `net` server that parses each request just enough to know where it ends and what it is (its
 * first bulk string), and answers a constant reply per request — +OK for SET, a 3-byte bulk for
 * GET and LPOP (redis-benchmark's default value size), :1 for LPUSH, a two-element array for
 * CONFIG (redis-benchmark's CONFIG GET at start), an empty array for anything else — all replies of one read written at once, as
 * `serve` does. No keyspace, no command table: what Node's sockets and event loop cost alone, so
 * `serve`'s ratio to redis-server can be read against Node's own.
 *
 *   node bench/floor-server.js <port>
 */
'use strict';
const net = require('net');

const port = Number(process.argv[2]);
if (!Number.isInteger(port) || port <= 0) {
  process.stderr.write('usage: floor-server.js <port>\n');
  process.exit(2);
}

// CONFIG: redis-benchmark's CONFIG GET save / appendonly at start (any two-element array will do)
const REPLY = { SET: '+OK\r\n', GET: '$3\r\nxxx\r\n', LPUSH: ':1\r\n', LPOP: '$3\r\nxxx\r\n', CONFIG: '*2\r\n$4\r\nsave\r\n$0\r\n\r\n' };
const OTHER = '*0\r\n';
const CR = 13;

/** Index after the CRLF line starting at `i`, and the integer on it after its type byte; null when incomplete. */
function line(buf, i) {
  let n = 0;
  let j = i + 1;
  while (j < buf.length && buf[j] !== CR) n = n * 10 + (buf[j++] - 48);
  return j + 1 < buf.length ? [n, j + 2] : null;
}

const server = net.createServer((socket) => {
  socket.setNoDelay(true);
  let pending = null;
  socket.on('data', (chunk) => {
    const buf = pending === null ? chunk : Buffer.concat([pending, chunk]);
    let out = '';
    let i = 0;
    for (;;) {
      // *<argc>\r\n then argc × $<len>\r\n<bytes>\r\n
      if (i >= buf.length) break;
      const head = line(buf, i);
      if (head === null) break;
      let [argc, at] = head;
      let name = null;
      let complete = true;
      for (let a = 0; a < argc; a++) {
        const bulk = at < buf.length ? line(buf, at) : null;
        if (bulk === null || bulk[1] + bulk[0] + 2 > buf.length) {
          complete = false;
          break;
        }
        if (a === 0) name = buf.toString('latin1', bulk[1], bulk[1] + bulk[0]).toUpperCase();
        at = bulk[1] + bulk[0] + 2;
      }
      if (!complete) break;
      out += REPLY[name] ?? OTHER;
      i = at;
    }
    pending = i < buf.length ? buf.subarray(i) : null;
    if (out.length > 0) socket.write(out, 'latin1');
  });
  socket.on('error', () => socket.destroy());
});
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
