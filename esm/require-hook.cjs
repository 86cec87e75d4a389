// The CommonJS half of the register entry for `--require` (esm/register.cjs): `require('ioredis')`
// outside this package gives the fake, as esm/require-hook.mjs installs it for the ES module
// entries (same marker: installed once per module system, whichever entry ran first).
'use strict';
const path = require('node:path');

const INSTALLED = Symbol.for('ioredis-mock-streams.ioredisRequireHook');

exports.redirectIoredisRequires = function redirectIoredisRequires() {
  const Module = require('node:module');
  if (Module[INSTALLED]) return;
  Module[INSTALLED] = true;
  const cjsEntry = path.join(__dirname, '..', 'dist', 'cjs-entry.js');
  const ownDir = path.join(__dirname, '..') + path.sep;
  const resolveFilename = Module._resolveFilename;
  Module._resolveFilename = function resolveIoredis(request, parent, ...rest) {
    if (request === 'ioredis' && !String(parent?.filename ?? '').startsWith(ownDir)) return cjsEntry;
    return resolveFilename.call(this, request, parent, ...rest);
  };
};
