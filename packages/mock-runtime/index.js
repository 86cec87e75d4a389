'use strict';
// ioredis-mock's class. ioredis-mock requires `ioredis/built/Command` (reply and argument
// transformers) and `ioredis/built/utils` (parseURL); it resolves them to the ioredis 5 next to
// it in this package, never to the project's ioredis (which may be 6, whose transformers take a
// protocol context ioredis-mock does not pass).
module.exports = require('ioredis-mock');
