// Required by mocha before ioredis's tests (run.sh): they connect to ioredis's default address
// (127.0.0.1 / localhost, port 6379), through `new Redis()` and, in connection.ts, a bare
// `net.Socket#connect(6379, "127.0.0.1")`; this sends those connections to IOREDIS_REDIS_PORT
// instead, so the test files stay as ioredis ships them (tests that only read a client's
// options still see 6379). MockServer ports (17379, 30001, …) are left alone.
'use strict';
const net = require('net');
const port = +process.env.IOREDIS_REDIS_PORT;
if (port) {
  const local = (h) => !h || h === 'localhost' || h === '127.0.0.1';
  const redirect = (o) =>
    o && typeof o === 'object' && !Array.isArray(o) && !o.path && (o.port === undefined || +o.port === 6379) && local(o.host)
      ? Object.assign({}, o, { port, host: '127.0.0.1' })
      : o;
  const createConnection = net.createConnection;
  net.createConnection = net.connect = function (o, ...rest) {
    return createConnection.call(this, redirect(o), ...rest);
  };
  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function (...args) {
    if (typeof args[0] === 'number' && args[0] === 6379 && local(args[1])) args[0] = port;
    else if (args[0] && typeof args[0] === 'object' && !Array.isArray(args[0]) && +args[0].port === 6379) args[0] = redirect(args[0]);
    return connect.apply(this, args);
  };
}
