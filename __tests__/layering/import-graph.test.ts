/**
 * The architecture as an import graph: the engine (the connection, the commands, the model, the
 * keyspace, the clock, blocking, scripting, bytes, replies, stats, config, RDB) never reaches a
 * front end (the ioredis adapter, the RESP server, the Upstash handler and msw, the scenario CLI,
 * the in-process cluster, the test-runner setups, the package's entries), directly or through
 * another module — static imports, `import type`, `require()` and `import()` alike. Every module
 * of lib/ is one or the other, so a new folder has to say which side it is on.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'fs';
import { dirname, join, relative } from 'path';

const LIB = join(__dirname, '..', '..', 'lib');

/** lib/ paths (folders or files, relative, without .ts) of each side. */
const ENGINE = ['engine', 'scripting', 'commands', 'model', 'keyspace', 'clock', 'blocking', 'bytes', 'config', 'rdb', 'reply', 'stats', 'version', 'errors', 'json-file'];
const FRONT_ENDS = ['adapter', 'server', 'upstash', 'msw', 'scenarios', 'cluster', 'jest', 'runners', 'cli', 'index', 'cjs-entry', 'code-cache', 'ioredis-augment'];

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return tsFiles(p);
    return f.endsWith('.ts') ? [p] : [];
  });
}

/** The side of a lib file (by its first path segment), or undefined when unclassified. */
function sideOf(file: string): 'engine' | 'front end' | undefined {
  const rel = relative(LIB, file).replace(/\.ts$/, '');
  const top = rel.split('/')[0];
  if (ENGINE.includes(top)) return 'engine';
  if (FRONT_ENDS.includes(top)) return 'front end';
  return undefined;
}

/** The lib files a module imports (relative specifiers resolved; packages left out). */
function importedFiles(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s+'([^']+)'|require\('([^']+)'\)|import\('([^']+)'\)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
  return specs
    .filter((s) => s.startsWith('.'))
    .map((s) => {
      const base = join(dirname(file), s);
      return [`${base}.ts`, join(base, 'index.ts')].find((p) => existsSync(p));
    })
    .filter((p): p is string => p !== undefined);
}

describe('import graph of lib/', () => {
  const files = tsFiles(LIB);

  it('classifies every module as engine or front end', () => {
    expect(files.filter((f) => sideOf(f) === undefined).map((f) => relative(LIB, f))).toEqual([]);
  });

  it('resolves the imports it follows (the check sees real edges)', () => {
    const conn = importedFiles(join(LIB, 'engine', 'connection.ts')).map((f) => relative(LIB, f));
    expect(conn).toEqual(expect.arrayContaining(['engine/connection/dispatch.ts', 'engine/connection/transactions.ts', 'engine/connection/pubsub.ts', 'engine/connection/stats.ts']));
    expect(importedFiles(join(LIB, 'adapter', 'install.ts')).length).toBeGreaterThan(0);
  });

  it('never reaches a front end from the engine, directly or transitively', () => {
    const bad: string[] = [];
    for (const root of files.filter((f) => sideOf(f) === 'engine')) {
      // breadth-first over engine modules only: the first front-end module reached is the offence
      const seen = new Set([root]);
      const queue: [string, string[]][] = [[root, [relative(LIB, root)]]];
      while (queue.length > 0) {
        const [file, path] = queue.shift()!;
        for (const next of importedFiles(file)) {
          if (seen.has(next)) continue;
          seen.add(next);
          const via = [...path, relative(LIB, next)];
          if (sideOf(next) !== 'engine') bad.push(via.join(' → '));
          else queue.push([next, via]);
        }
      }
    }
    expect([...new Set(bad)]).toEqual([]);
  });

  it('splits the connection by concern: Connection composes lib/engine/connection/*', () => {
    const modules = readdirSync(join(LIB, 'engine', 'connection')).sort();
    expect(modules).toEqual(['acl-checks.ts', 'builtin-host.ts', 'dispatch.ts', 'lane.ts', 'monitor.ts', 'order.ts', 'propagation.ts', 'pubsub.ts', 'scripting.ts', 'server-state.ts', 'stats.ts', 'transactions.ts']);
  });
});
