/**
 * `node --require ioredis-mock-streams/register` (a CommonJS preload, as `NODE_OPTIONS` or
 * mocha's `require:` give it): the register entry was an ES module with a top-level await, so
 * `--require` failed before any test ran (Node 20 ERR_REQUIRE_ESM, Node 22/24
 * ERR_REQUIRE_ASYNC_MODULE). Now its `require` condition (esm/register.cjs) does the same
 * synchronously: `require('ioredis')` and `import 'ioredis'` give the fake, and under
 * `node --test` each test starts on an empty keyspace, with one test report (a hook registered
 * from the runner's own process would start a second, empty one). With test isolation "none" a
 * preload's hooks never reach the tests: a StreamsMockError says to use `--import`.
 */
import { spawnSync } from 'child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

const ROOT = join(__dirname, '..', '..');
const ENTRY = join(ROOT, 'esm', 'register.cjs');
const [major, minor] = process.versions.node.split('.').map(Number);
/** `--experimental-test-isolation` exists from Node 22.8 (`--test-isolation` from 23.6). */
const hasIsolationFlag = major > 22 || (major === 22 && minor >= 8);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'register-cjs-'));
  // two tests per file: the second sees the keyspace the reset emptied
  writeFileSync(
    join(dir, 'a.test.cjs'),
    `const test = require('node:test');
const assert = require('node:assert');
const Redis = require('ioredis');
test('cjs writes', async () => {
  const r = new Redis();
  await r.xadd('s', '*', 'f', 'v');
  assert.equal(await r.xlen('s'), 1);
  assert.equal(typeof Redis.prototype.xautoclaim, 'function');
});
test('cjs starts empty', async () => {
  assert.equal(await new Redis().xlen('s'), 0);
});
`,
  );
  writeFileSync(
    join(dir, 'b.test.mjs'),
    `import test from 'node:test';
import assert from 'node:assert';
import Redis from 'ioredis';
test('esm writes', async () => {
  const r = new Redis();
  await r.set('k', 'v');
  assert.equal(await r.get('k'), 'v');
});
test('esm starts empty', async () => {
  assert.equal(await new Redis().get('k'), null);
});
`,
  );
  writeFileSync(join(dir, 'plain.cjs'), `const Redis = require('ioredis');\nnew Redis().xadd('s', '1-1', 'f', 'v').then((id) => { console.log('id', id); process.exit(0); });\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function node(args: string[]) {
  // a child of no test runner (node:test reads NODE_TEST_CONTEXT's presence)
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '' };
  delete env.NODE_TEST_CONTEXT;
  return spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8', timeout: 60_000, env });
}

describe('node --require ioredis-mock-streams/register', () => {
  it('runs node:test files with the fake, reset between tests, in one test report', () => {
    const run = node(['--require', ENTRY, '--test', '--test-reporter=tap', 'a.test.cjs', 'b.test.mjs']);
    expect(run.stderr).not.toMatch(/ERR_REQUIRE/);
    expect(run.stdout).toMatch(/^# pass 4$/m);
    expect(run.stdout).toMatch(/^# fail 0$/m);
    expect(run.stdout.match(/^TAP version/gm)).toHaveLength(1);
    expect(run.status).toBe(0);
  });

  it('gives a plain program the fake for require("ioredis")', () => {
    const run = node(['--require', ENTRY, 'plain.cjs']);
    expect(run.stdout.trim()).toBe('id 1-1');
    expect(run.status).toBe(0);
  });

  // skip: the test isolation flag exists from Node 22.8 (this process runs an older line)
  (hasIsolationFlag ? it : it.skip)('refuses test isolation "none" with a StreamsMockError that says to use --import', () => {
    const run = node(['--require', ENTRY, '--test', '--experimental-test-isolation=none', 'a.test.cjs']);
    expect(run.stderr).toContain('StreamsMockError');
    expect(run.stderr).toContain('use --import ioredis-mock-streams/register');
    expect(run.status).not.toBe(0);
  });
  // skip: the test isolation flag exists from Node 22.8 (this process runs an older line)
  (hasIsolationFlag ? it : it.skip)('refuses test isolation "none" given in NODE_OPTIONS too', () => {
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '--experimental-test-isolation=none' };
    delete env.NODE_TEST_CONTEXT;
    const run = spawnSync(process.execPath, ['--require', ENTRY, '--test', 'a.test.cjs'], { cwd: dir, encoding: 'utf8', timeout: 60_000, env });
    expect(run.stderr).toContain('use --import ioredis-mock-streams/register');
    expect(run.status).not.toBe(0);
  });
  if (!hasIsolationFlag) console.log(`skipped: node:test's isolation flag needs Node >= 22.8 (this is ${process.version})`);
});
