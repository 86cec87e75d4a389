/**
 * Issue 23, item 9: `setupFilesAfterEnv: ['ioredis-mock-streams/vitest']` under jest gave jest's
 * generic ESM error ("Cannot use import statement outside a module"). jest loads setup files with
 * `require`, so the entry's `require` condition now throws a StreamsMockError naming the jest
 * entry (as the jest entry under vitest names the vitest one). `import` still gets the ES module.
 */
import { execFileSync } from 'child_process';
import { existsSync } from 'fs';
import { join } from 'path';

const ROOT = join(__dirname, '..', '..');
const built = existsSync(join(ROOT, 'dist', 'clock', 'clock.js'));
if (!built) console.warn('dist/ not built (run `npm run build`): vitest-entry-under-require check skipped');

// skip: dist/ not built (npm test builds it first)
(built ? it : it.skip)('require of the vitest entry throws a StreamsMockError naming the jest entry', () => {
  const script = `try { require('ioredis-mock-streams/vitest'); console.log('loaded'); } catch (e) { console.log(e.name + ': ' + e.message); }`;
  expect(execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 }).trim()).toBe(
    "StreamsMockError: [ioredis-mock-streams] 'ioredis-mock-streams/vitest' is the vitest setup file; under jest use " +
      "setupFilesAfterEnv: ['ioredis-mock-streams/jest'] (or jest.mock('ioredis', () => require('ioredis-mock-streams')) in a test file)",
  );
});

// skip: dist/ not built (npm test builds it first)
(built ? it : it.skip)('import of the vitest entry still resolves to the ES module', () => {
  const script = `console.log(import.meta.resolve('ioredis-mock-streams/vitest'))`;
  expect(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 }).trim()).toMatch(/\/esm\/vitest\.mjs$/);
});
