/**
 * Start-up cost, as Node loads the build (dist/, made by `npm test` before jest runs): importing
 * the package loads none of the adapter, the engine, the model, the command modules, Lua,
 * fake-timers, redis-errors or a validation library; the first client loads what it needs and
 * every instance — of the default export, of ioredis-mock's own class, of its Cluster — has
 * the engine from its first command on.
 */
import { execFileSync } from 'child_process';
import { existsSync } from 'fs';
import { join } from 'path';

const ROOT = join(__dirname, '..', '..');
const built = existsSync(join(ROOT, 'dist', 'adapter', 'bootstrap.js'));
if (!built) console.warn('dist/ not built (run `npm run build`): start-up checks skipped');

/** Runs `body` in a fresh Node process after requiring the package; answers its JSON output. */
function inFreshProcess(body: string): any {
  const script = `
    const Redis = require('ioredis-mock-streams');
    const loaded = () => Object.keys(require.cache)
      .map((f) => f.slice(${JSON.stringify(ROOT)}.length + 1))
      .filter((f) => f.startsWith('dist/') || f.startsWith('node_modules/'))
      .map((f) => f.startsWith('dist/') ? f : f.split('/').slice(0, f.split('/')[1].startsWith('@') ? 3 : 2).join('/'));
    (async () => { ${body} })().then((r) => console.log(JSON.stringify(r)), (e) => { console.error(e); process.exit(1); });`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 }));
}

// skip: dist/ not built (a bare `npx jest` on a fresh clone); `npm test` builds it first
(built ? describe : describe.skip)('start-up (from dist/)', () => {
  it("importing the package loads only its entry, the clocks (and Node's own timers) and the version table", () => {
    const files: string[] = inFreshProcess('return [...new Set(loaded())].sort();');
    const ours = files.filter((f) => f.startsWith('dist/'));
    // the entry's stub, the import bundle (scripts/bundle-dist.js) and ioredis-mock's runtime
    // (scripts/bundle-runtime.js), nothing of the client's
    expect(ours).toEqual(['dist/bundle/import.js', 'dist/bundle/runtime.js', 'dist/cjs-entry.js']);
    expect(Object.keys(require(join(ROOT, 'dist', 'bundle', 'import.js')).modules).sort()).toEqual([
      'adapter/bootstrap',
      'adapter/client-options',
      'cjs-entry',
      'clock/clock',
      'clock/fake-clock',
      'clock/fake-timers-long',
      'clock/global-clock',
      'clock/real-clock',
      'clock/real-timers', // Node's own timers, taken with the import: before a test can fake them
      'code-cache', // the loader of the other bundles (V8 code cache), node builtins only
      'index',
      'keyspace/view',
      'version',
    ]);
    for (const heavy of ['node_modules/zod', 'node_modules/@sinonjs', 'node_modules/redis-errors', 'node_modules/sorted-btree']) {
      expect(files).not.toContain(heavy);
    }
    // ioredis-mock, its ioredis 5 and their dependencies are the runtime bundle's: no file of
    // node_modules (fengari, ioredis-mock's Lua VM, 25 ms of CPU, least of all)
    expect(files.filter((f) => f.startsWith('node_modules/'))).toEqual([]);
  });

  it('installs the engine with the first instance, whichever ioredis-mock class it is of', () => {
    const r = inFreshProcess(`
      const RedisMock = require('./dist/bundle/runtime.js'); // ioredis-mock as the package ships it
      const before = typeof Redis.prototype.xreadgroup;
      const plain = new RedisMock({ port: 7001 });
      const id = await plain.xadd('s', '*', 'f', 'v');
      const cluster = new Redis.Cluster([{ port: 7001 }], { redisOptions: { port: 7001 } });
      const ours = new Redis({ port: 7001 });
      return {
        before,
        after: typeof Redis.prototype.xreadgroup,
        clockId: Number(id.split('-')[0]) > 1e12,
        ownXadd: Object.prototype.hasOwnProperty.call(plain, 'xadd'),
        lens: [await ours.xlen('s'), await cluster.xlen('s')],
        replyError: Redis.ReplyError.name,
        // the adapter's bundle: read by require, or compiled from the V8 code cache (lib/code-cache.ts)
        adapterLoaded: [...loaded(), ...Object.keys(require('./dist/code-cache.js').codeCacheReport()).map((f) => f.slice(${JSON.stringify(ROOT)}.length + 1))].includes('dist/bundle/client.js'),
      };`);
    expect(r).toEqual({ before: 'undefined', after: 'function', clockId: true, ownXadd: false, lens: [1, 1], replyError: 'ReplyError', adapterLoaded: true });
  });
});
