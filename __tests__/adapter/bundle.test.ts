/**
 * The build's bundles (scripts/bundle-dist.js, run by `npm run build` after tsc, and so by
 * `npm test` before jest): the modules the import, the first client and the command modules
 * load at their top level are in dist/bundle/*.js, and each one's own dist file is a stub
 * returning the bundled instance. Checked in fresh Node processes on the build.
 */
import { execFileSync } from 'child_process';
import { existsSync, readdirSync, readFileSync } from 'fs';
import { join } from 'path';

const ROOT = join(__dirname, '..', '..');
const DIST = join(ROOT, 'dist');
const built = existsSync(join(DIST, 'bundle', 'client.js'));
if (!built) console.warn('dist/bundle not built (run `npm run build`): bundle checks skipped');

const STUB_MARK = '/* ioredis-mock-streams bundle stub */';
const isStub = (file: string) => readFileSync(join(DIST, file), 'utf8').includes(STUB_MARK);

function run(script: string, nodeArgs: string[] = []): string {
  return execFileSync(process.execPath, [...nodeArgs, '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 }).trim();
}

// skip: dist/ not built (a bare `npx jest` on a fresh clone); `npm test` builds it first
(built ? describe : describe.skip)('dist bundles', () => {
  it('gives one module instance whether reached through its own file or its bundle', () => {
    const out = run(`
      const install = require('./dist/adapter/install.js');
      const xpending = require('./dist/commands/xpending.js');
      console.log(JSON.stringify([
        install === require('./dist/bundle/import.js').link.get('client')['adapter/install'](),
        xpending === require('./dist/bundle/import.js').link.get('cmd-stream-more')['commands/xpending'](),
        require('./dist/clock/clock.js').StreamsMockError === require('ioredis-mock-streams').StreamsMockError,
      ]));`);
    expect(JSON.parse(out)).toEqual([true, true, true]);
  });

  it('leaves the entries loaded on demand (CLI, scenarios, front ends, jest setup) in files of their own', () => {
    for (const file of ['cli.js', 'jest/setup.js', 'upstash/index.js', 'server/index.js', 'scenarios/replay.js']) {
      expect([file, isStub(file)]).toEqual([file, false]);
    }
    expect(isStub('adapter/install.js')).toBe(true);
    expect(isStub('commands/xadd.js')).toBe(true);
    expect(isStub('scripting/index.js')).toBe(true); // loaded lazily from bundled code: bundled too (the rare bundle)
  });

  it('writes the bundles in ASCII (Node reads an ASCII file without UTF-8 decoding)', () => {
    for (const file of readdirSync(join(DIST, 'bundle')).filter((f) => f.endsWith('.js'))) {
      const text = readFileSync(join(DIST, 'bundle', file), 'utf8');
      expect([file, /[^\x00-\x7f]/.test(text)]).toEqual([file, false]);
    }
  });

  it('keeps the names of exported classes and functions (esbuild renames self-referencing classes)', () => {
    const out = run(`
      const renamed = [];
      for (const group of ['import', 'client', 'commands']) {
        const modules = require('./dist/bundle/import.js').link.get(group);
        for (const id of Object.keys(modules)) {
          for (const [key, value] of Object.entries(modules[id]())) {
            if (typeof value === 'function' && value.name !== key && value.name.startsWith('_')) renamed.push(id + ':' + key + '=' + value.name);
          }
        }
      }
      console.log(JSON.stringify({ renamed, names: [require('ioredis-mock-streams').name, require('./dist/model/stream.js').Stream.name] }));`);
    expect(JSON.parse(out)).toEqual({ renamed: [], names: ['Redis', 'Stream'] });
  });

  it('keeps a client on its own copy of the package when the module cache is cleared before its first commands', () => {
    // what jest.resetModules() does between a beforeAll that made the client and a test using
    // it: the modules the client loads on first use (commands, Lua, INFO) must be its copy's
    const out = run(`
      const Redis = require('ioredis-mock-streams');
      const r = new Redis({ port: 7100 });
      for (const f of Object.keys(require.cache)) if (f.includes('/dist/')) delete require.cache[f];
      (async () => {
        const replies = [await r.ping(), await r.xadd('s', '1-1', 'f', 'v'), await r.eval('return redis.call("xlen", KEYS[1])', 1, 's')];
        const err = await r.xpending('s', 'nogroup').catch((e) => e);
        replies.push(err instanceof Redis.ReplyError, err.message);
        console.log(JSON.stringify(replies));
        r.disconnect();
      })();`);
    expect(JSON.parse(out)).toEqual(['PONG', '1-1', 1, true, "NOGROUP No such key 's' or consumer group 'nogroup'"]);
  });

  it('reads a family\'s bundle of command modules on the first command of that family (the stream cycle none (its commands are in the client\'s bundle, as SET\'s), XPENDING the rarer stream commands\' one, SET, INCR and HINCRBY none (strings, keys and hashes are in the client\'s), LPUSH the list one, FLUSHALL the server commands\' one), and the rare one (Lua, DUMP/RESTORE/COPY, INFO, COMMAND) only when one of their commands runs', () => {
    const out = run(`
      const Redis = require('ioredis-mock-streams');
      // read by require, or compiled from the V8 code cache (lib/code-cache.ts: not in require.cache)
      const loaded = () => [...Object.keys(require.cache), ...Object.keys(require('./dist/code-cache.js').codeCacheReport())];
      const bundles = () => [...new Set(loaded().filter((f) => f.includes('bundle')).map((f) => f.split(/[\\\\/]/).pop()))].sort();
      (async () => {
        const r = new Redis({ port: 7101 });
        const atStart = bundles();
        await r.xadd('s', '1-1', 'f', 'v');
        await r.xgroup('CREATE', 's', 'g', '0');
        await r.xreadgroup('GROUP', 'g', 'c', 'STREAMS', 's', '>');
        await r.xack('s', 'g', '1-1');
        const cycle = bundles();
        await r.xpending('s', 'g');
        const afterXpending = bundles();
        await r.set('k', 'v');
        const before = bundles();
        await r.incr('n'); // an engine command (lib/commands/incr.ts): in the client bundle, as SET
        const afterIncr = bundles();
        await r.hincrby('h', 'f', 1); // hashes: in the client's bundle too
        await r.lpush('l', 'x'); // an engine command of the list family (lib/commands/list*.ts)
        const afterHincrbyLpush = bundles();
        await r.flushall(); // a test's afterEach: the server commands' own small bundle
        const afterFlushall = bundles();
        const info = await r.info('server');
        console.log(JSON.stringify([atStart, cycle, afterXpending, before, afterIncr, afterHincrbyLpush, afterFlushall, bundles(), info.includes('redis_version')]));
        r.disconnect();
      })();`);
    expect(JSON.parse(out)).toEqual([
      ['client.js', 'import.js', 'runtime.js'],
      // a worker's XADD/XREADGROUP/XACK: in the client's bundle, as SET (no file read at the first XADD)
      ['client.js', 'import.js', 'runtime.js'],
      ['client.js', 'cmd-stream-more.js', 'import.js', 'runtime.js'],
      ['client.js', 'cmd-stream-more.js', 'import.js', 'runtime.js'],
      ['client.js', 'cmd-stream-more.js', 'import.js', 'runtime.js'],
      ['client.js', 'cmd-list.js', 'cmd-stream-more.js', 'import.js', 'runtime.js'],
      ['client.js', 'cmd-list.js', 'cmd-server.js', 'cmd-stream-more.js', 'import.js', 'runtime.js'],
      ['client.js', 'cmd-list.js', 'cmd-server.js', 'cmd-stream-more.js', 'import.js', 'rare.js', 'runtime.js'],
      true,
    ]);
  });

  it('maps a stack trace through the bundle back to lib/*.ts (--enable-source-maps)', () => {
    const out = run(
      `
      const { connectionOf } = require('./dist/adapter/install.js');
      try { connectionOf({}); } catch (e) { console.log(e.stack.split('\\n').slice(0, 3).join('\\n')); }`,
      ['--enable-source-maps'],
    );
    expect(out).toMatch(/this client was not set up by installStreams\(\)/);
    expect(out).toMatch(/lib[\\/]adapter[\\/]install\.ts:\d+/);
  });
});
