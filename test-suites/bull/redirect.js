// Required by mocha before Bull's tests (run.sh): they connect to ioredis's default address
// (127.0.0.1 / localhost, port 6379) in many places; this sends those connections to
// BULL_REDIS_PORT instead, so the test files stay as Bull ships them (tests that only read a
// queue's connection options still see 6379).
'use strict';
const net = require('net');
const port = +process.env.BULL_REDIS_PORT;
if (port) {
  const createConnection = net.createConnection;
  const redirect = (o) =>
    o && typeof o === 'object' && !o.path && (o.port === undefined || +o.port === 6379) &&
    (!o.host || o.host === 'localhost' || o.host === '127.0.0.1')
      ? Object.assign({}, o, { port, host: '127.0.0.1' })
      : o;
  net.createConnection = net.connect = function (o, ...rest) {
    return createConnection.call(this, redirect(o), ...rest);
  };
}
