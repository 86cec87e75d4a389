/**
 * The V8 code cache of the package's bundles (lib/code-cache.ts): in a Node process that loads
 * the package itself (node:test, vitest's external dependencies, scripts), the client and
 * command bundles are compiled from a cache written at the first process's exit, with the same
 * replies; a cache of another build, a damaged one, `--enable-source-maps`, the switch-off value
 * and jest's own sandbox all load the bundles as before. Checked in fresh Node processes on the build.
 */
import { execFileSync } from 'child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

const ROOT = join(__dirname, '..', '..');
const DIST = join(ROOT, 'dist');
const built = existsSync(join(DIST, 'bundle', 'client.js'));
if (!built) console.warn('dist/bundle not built (run `npm run build`): code cache checks skipped');

/** A worker's first commands, their replies, and how each bundle was loaded. */
const SCRIPT = `
  const Redis = require(${JSON.stringify(join(DIST, 'cjs-entry.js'))});
  const redis = new Redis({ port: 47_901 });
  (async () => {
    const replies = [
      await redis.set('k', 'v'), await redis.get('k'), await redis.hset('h', 'f', 'x'), await redis.hgetall('h'), await redis.rpush('l', 'a'), await redis.lrange('l', 0, -1),
      await redis.xadd('s', '1-1', 'f', 'v'), await redis.xrange('s', '-', '+'),
    ];
    let stack = '';
    try { await redis.xadd('s', 'bad-id', 'f', 'v'); } catch (err) { stack = String(err.message); }
    redis.disconnect();
    const report = require(${JSON.stringify(join(DIST, 'code-cache.js'))}).codeCacheReport();
    const uses = {};
    for (const [file, use] of Object.entries(report)) uses[file.replace(/.*\\//, '')] = use;
    console.log(JSON.stringify({ replies, stack, uses }));
    if (process.env.KEEP_ALIVE) setInterval(() => {}, 1000); // a worker that a runner ends with a signal
  })();`;

function run(env: Record<string, string | undefined>, nodeArgs: string[] = []): { replies: unknown[]; stack: string; uses: Record<string, string> } {
  const out = execFileSync(process.execPath, [...nodeArgs, '-e', SCRIPT], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, ...env },
  });
  return JSON.parse(out.trim());
}

const REPLIES = ['OK', 'v', 1, { f: 'x' }, 1, ['a'], '1-1', [['1-1', ['f', 'v']]]];

// skip: dist/ not built (a bare `npx jest` on a fresh clone); `npm test` builds it first
(built ? describe : describe.skip)('V8 code cache of the bundles', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'code-cache-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const cacheFiles = () => readdirSync(dir).filter((f) => f.endsWith('.bin')).sort();

  it('compiles the bundles a process loads, writes their cache at exit, and the next process takes it with the same replies', () => {
    const first = run({ IOREDIS_MOCK_STREAMS_CODE_CACHE: dir });
    expect(first.replies).toEqual(REPLIES);
    expect(first.uses).toEqual({ 'client.js': 'compiled', 'cmd-list.js': 'compiled' });
    expect(cacheFiles().map((f) => f.replace(/-[0-9a-f]{8}\.bin$/, ''))).toEqual(['client', 'cmd-list']);
    const second = run({ IOREDIS_MOCK_STREAMS_CODE_CACHE: dir });
    expect(second).toEqual({ ...first, uses: { 'client.js': 'cached', 'cmd-list.js': 'cached' } });
    // nothing is rewritten when V8 took every cache
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('names a cache file per Node flag set: a process with other flags neither takes nor overwrites it', () => {
    run({ IOREDIS_MOCK_STREAMS_CODE_CACHE: dir });
    const plainFiles = cacheFiles();
    const other = run({ IOREDIS_MOCK_STREAMS_CODE_CACHE: dir }, ['--max-semi-space-size=8']);
    expect(other.uses['client.js']).toBe('compiled');
    expect(cacheFiles()).toHaveLength(plainFiles.length * 2);
    expect(run({ IOREDIS_MOCK_STREAMS_CODE_CACHE: dir }).uses['client.js']).toBe('cached');
    // a `node -e` script's code is not a flag: another script takes the same cache
    const otherScript = execFileSync(process.execPath, ['-e', `${SCRIPT}\n// another script`], { cwd: ROOT, encoding: 'utf8', timeout: 60_000, env: { ...process.env, IOREDIS_MOCK_STREAMS_CODE_CACHE: dir } });
    expect(JSON.parse(otherScript.trim()).uses['client.js']).toBe('cached');
  });

  it('ignores a cache of another build of the bundle, and rewrites it', () => {
    run({ IOREDIS_MOCK_STREAMS_CODE_CACHE: dir });
    const client = join(dir, cacheFiles().find((f) => f.startsWith('client-'))!);
    const saved = readFileSync(client);
    const end = saved.indexOf(10);
    const header = saved.toString('latin1', 0, end);
    // another build: the same data under another content hash
    writeFileSync(client, Buffer.concat([Buffer.from(`0000${header.slice(4)}\n`, 'latin1'), saved.subarray(end + 1)]));
    const again = run({ IOREDIS_MOCK_STREAMS_CODE_CACHE: dir });
    expect(again.replies).toEqual(REPLIES);
    expect(again.uses['client.js']).toBe('compiled');
    // rewritten for this build (the payload's digest, last in the header, differs from run to run)
    const rewritten = readFileSync(client);
    const withoutDigest = (h: string) => h.slice(0, h.lastIndexOf(':'));
    expect(withoutDigest(rewritten.toString('latin1', 0, rewritten.indexOf(10)))).toBe(withoutDigest(header));
  });

  it('refuses a damaged cache before V8 reads it (a flipped bit, a cut file), runs as without one, and replaces it', () => {
    run({ IOREDIS_MOCK_STREAMS_CODE_CACHE: dir });
    const client = join(dir, cacheFiles().find((f) => f.startsWith('client-'))!);
    const saved = readFileSync(client);
    // one bit of the payload flipped, the header intact: V8 itself would take it and could crash
    for (const at of [saved.indexOf(10) + 1 + 64, saved.length >> 1, saved.length - 3]) {
      const flipped = Buffer.from(saved);
      flipped[at] ^= 0x10;
      writeFileSync(client, flipped);
      const damaged = run({ IOREDIS_MOCK_STREAMS_CODE_CACHE: dir });
      expect([at, damaged.replies, damaged.uses['client.js']]).toEqual([at, REPLIES, 'rejected']);
      expect(run({ IOREDIS_MOCK_STREAMS_CODE_CACHE: dir }).uses['client.js']).toBe('cached');
    }
    writeFileSync(client, saved.subarray(0, saved.length >> 1)); // cut in half
    const cut = run({ IOREDIS_MOCK_STREAMS_CODE_CACHE: dir });
    expect([cut.replies, cut.uses['client.js']]).toEqual([REPLIES, 'rejected']);
    expect(run({ IOREDIS_MOCK_STREAMS_CODE_CACHE: dir }).uses['client.js']).toBe('cached');
  });

  it('writes the cache 40 ms after loading, so a worker ended by a signal soon after (vitest) leaves it too', async () => {
    const { spawn } = await import('child_process');
    const child = spawn(process.execPath, ['-e', SCRIPT], {
      cwd: ROOT,
      env: { ...process.env, IOREDIS_MOCK_STREAMS_CODE_CACHE: dir, KEEP_ALIVE: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    for (let i = 0; i < 200 && !out.includes('\n'); i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 150)); // the first write comes 40 ms after a bundle loaded
    child.kill('SIGTERM');
    await new Promise((r) => child.on('exit', r));
    expect(cacheFiles().map((f) => f.replace(/-[0-9a-f]{8}\.bin$/, ''))).toEqual(['client', 'cmd-list']);
    expect(run({ IOREDIS_MOCK_STREAMS_CODE_CACHE: dir }).uses).toEqual({ 'client.js': 'cached', 'cmd-list.js': 'cached' });
  });

  it('keeps one file per Node flag set, NODE_OPTIONS included, and removes what a killed write left', () => {
    const stale = join(dir, 'client-00000000.bin.12345.tmp');
    writeFileSync(stale, 'left by a write that was killed');
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(stale, hourAgo, hourAgo);
    const fresh = join(dir, 'client-00000000.bin.12346.tmp');
    writeFileSync(fresh, 'a write in progress elsewhere');
    run({ IOREDIS_MOCK_STREAMS_CODE_CACHE: dir });
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    const withOptions = run({ IOREDIS_MOCK_STREAMS_CODE_CACHE: dir, NODE_OPTIONS: '--max-old-space-size=512' });
    expect(withOptions.uses['client.js']).toBe('compiled');
    expect(run({ IOREDIS_MOCK_STREAMS_CODE_CACHE: dir, NODE_OPTIONS: '--max-old-space-size=512' }).uses['client.js']).toBe('cached');
    expect(run({ IOREDIS_MOCK_STREAMS_CODE_CACHE: dir }).uses['client.js']).toBe('cached');
  });

  it('keeps at most 8 cache files per bundle: a write removes the oldest (runs with ever other flags do not grow the directory)', () => {
    // ten files of the client bundle from earlier flag sets, an hour apart, and one of another bundle
    const old = Array.from({ length: 10 }, (_, i) => `client-${(0xa0 + i).toString(16).padStart(8, '0')}.bin`);
    old.forEach((name, i) => {
      const file = join(dir, name);
      writeFileSync(file, 'a cache of other flags');
      const at = new Date(Date.now() - (10 - i) * 3_600_000); // the last one the newest
      utimesSync(file, at, at);
    });
    writeFileSync(join(dir, 'cmd-list-000000ff.bin'), 'a cache of another bundle');
    const first = run({ IOREDIS_MOCK_STREAMS_CODE_CACHE: dir });
    expect(first.uses['client.js']).toBe('compiled');
    const clientFiles = cacheFiles().filter((f) => /^client-[0-9a-f]{8}\.bin$/.test(f));
    expect(clientFiles).toHaveLength(8);
    // the seven newest of the old ones stay, with the one just written
    expect(clientFiles.filter((f) => old.includes(f))).toEqual(old.slice(3));
    expect(existsSync(join(dir, 'cmd-list-000000ff.bin'))).toBe(true);
    expect(run({ IOREDIS_MOCK_STREAMS_CODE_CACHE: dir }).uses['client.js']).toBe('cached');
  });

  it('loads the bundles with require when switched off, with --enable-source-maps, or when the directory cannot be written', () => {
    for (const off of ['0', 'false', 'off', 'no', ' OFF ']) {
      const out = run({ IOREDIS_MOCK_STREAMS_CODE_CACHE: off });
      expect([off, out.uses['client.js'], out.replies]).toEqual([off, 'required', REPLIES]);
    }
    // coverage collected by V8 (c8, NODE_V8_COVERAGE): a function from the cache has no counters
    const covered = run({ IOREDIS_MOCK_STREAMS_CODE_CACHE: dir, NODE_V8_COVERAGE: join(dir, 'coverage') });
    expect(covered.uses['client.js']).toBe('required');
    const mapped = run({ IOREDIS_MOCK_STREAMS_CODE_CACHE: dir }, ['--enable-source-maps']);
    expect(mapped.uses['client.js']).toBe('required');
    expect(cacheFiles()).toEqual([]);
    // the values that keep the default location are not a directory's name
    const on = execFileSync(process.execPath, ['-e', SCRIPT], { cwd: dir, encoding: 'utf8', timeout: 60_000, env: { ...process.env, IOREDIS_MOCK_STREAMS_CODE_CACHE: '1' } });
    expect(JSON.parse(on.trim()).replies).toEqual(REPLIES);
    expect(readdirSync(dir).filter((f) => f !== 'coverage')).toEqual([]);
    // a cache directory that cannot be made (a file stands in its path): no cache, same replies
    writeFileSync(join(dir, 'a-file'), '');
    const unwritable = run({ IOREDIS_MOCK_STREAMS_CODE_CACHE: join(dir, 'a-file', 'below') });
    expect([unwritable.replies, unwritable.uses['client.js']]).toEqual([REPLIES, 'compiled']);
    expect(readdirSync(dir).filter((f) => f !== 'coverage')).toEqual(['a-file']);
  });

  it('keeps stack traces at the bundle file and its columns (the wrapper is taken back)', () => {
    const script = `
      const Redis = require('./dist/cjs-entry.js');
      const redis = new Redis({ port: 47_902 });
      const link = require('./dist/bundle/import.js').link;
      const errors = link.get('client')['errors']();
      let frame = '';
      try { errors.fail('ERR x'); } catch (err) { frame = err.stack.split('\\n').find((l) => l.includes('client.js')); }
      redis.disconnect();
      console.log(JSON.stringify({ frame, uses: require('./dist/code-cache.js').codeCacheReport() }));`;
    const frameOf = (env: Record<string, string>) =>
      JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000, env: { ...process.env, ...env } }).trim());
    const required = frameOf({ IOREDIS_MOCK_STREAMS_CODE_CACHE: 'off' });
    const compiled = frameOf({ IOREDIS_MOCK_STREAMS_CODE_CACHE: dir });
    expect(Object.values(compiled.uses)).toContain('compiled');
    expect(required.frame).toMatch(/dist\/bundle\/client\.js:\d+:\d+\)$/);
    expect(compiled.frame).toBe(required.frame);
  });

  it('is not used inside jest: each test file compiles the bundles in its own sandbox', () => {
    // this test file runs in jest's vm context: the package loaded here went through jest's require
    const Redis = require('../../dist/cjs-entry.js');
    const redis = new Redis({ port: 47_903 });
    const report = require('../../dist/code-cache.js').codeCacheReport();
    redis.disconnect();
    expect(Object.values(report).length).toBeGreaterThan(0);
    expect(new Set(Object.values(report))).toEqual(new Set(['required']));
  });
});
