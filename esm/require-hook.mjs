// `require('ioredis')` made through Node's CommonJS loader anywhere outside this package gives the
// fake (dist/cjs-entry.js): the register entry's CommonJS half, and what the vitest entry adds to
// its vi.mock — vitest mocks the imports of test files (and of inlined modules), while a dependency
// it leaves to Node (BullMQ building a connection from options: `require('ioredis')`) would get real
// ioredis and wait for a server, silently. Installed once per module system (a worker thread has
// its own), however many setup files run it.
import ImportedModule from 'node:module';
import { fileURLToPath } from 'node:url';

const INSTALLED = Symbol.for('ioredis-mock-streams.ioredisRequireHook');

export function redirectIoredisRequires() {
  // Node's own loader even where `node:module` is a stand-in (vitest's vm pools give their
  // modules one, whose requires still resolve through Node's)
  const Module = process.getBuiltinModule?.('node:module') ?? ImportedModule;
  if (Module[INSTALLED]) return;
  Module[INSTALLED] = true;
  const cjsEntry = fileURLToPath(new URL('../dist/cjs-entry.js', import.meta.url));
  const ownDir = fileURLToPath(new URL('..', import.meta.url));
  const resolveFilename = Module._resolveFilename;
  Module._resolveFilename = function resolveIoredis(request, parent, ...rest) {
    if (request === 'ioredis' && !String(parent?.filename ?? '').startsWith(ownDir)) return cjsEntry;
    return resolveFilename.call(this, request, parent, ...rest);
  };
}
