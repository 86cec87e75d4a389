// node:test (or any plain Node program): `node --import ioredis-mock-streams/register --test`.
// Every `import … from 'ioredis'` and `require('ioredis')` outside this package then gives the
// fake, and (under node:test) after each test every keyspace is emptied, blocked calls are
// released and clocks go back to the defaults — as ioredis-mock-streams/jest does under jest.
// ESM imports are redirected by a module.register() resolve hook (Node >= 20.6), CommonJS
// requires by the CommonJS resolver. Keep keyspaces between tests with
// `globalThis.__IOREDIS_MOCK_STREAMS_KEEP_STATE__ = true`.
import Module, { register } from 'node:module';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'node:test';
import { resetAllKeyspaces } from './index.mjs';

register('./register-hooks.mjs', import.meta.url);

const cjsEntry = fileURLToPath(new URL('../dist/cjs-entry.js', import.meta.url));
const ownDir = fileURLToPath(new URL('..', import.meta.url));
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function resolveIoredis(request, parent, ...rest) {
  if (request === 'ioredis' && !String(parent?.filename ?? '').startsWith(ownDir)) return cjsEntry;
  return resolveFilename.call(this, request, parent, ...rest);
};

afterEach(() => {
  if (globalThis.__IOREDIS_MOCK_STREAMS_KEEP_STATE__) return;
  resetAllKeyspaces();
});
