/**
 * The layering of lib/: the pure model imports nothing outside itself (but the B-tree
 * library); command modules never import ioredis, ioredis-mock or the adapter; only
 * lib/adapter knows ioredis-mock. (What an ESLint no-restricted-imports rule would enforce.)
 */
import { readFileSync, readdirSync } from 'fs';
import { join } from 'path';

const LIB = join(__dirname, '..', '..', 'lib');

function importsOf(dir: string): [string, string][] {
  return readdirSync(join(LIB, dir))
    .filter((f) => f.endsWith('.ts'))
    .flatMap((f) => {
      const text = readFileSync(join(LIB, dir, f), 'utf8');
      return [...text.matchAll(/(?:from|import)\s+'([^']+)'|require\('([^']+)'\)/g)].map((m) => [f, m[1] ?? m[2]] as [string, string]);
    });
}

describe('layering of lib/', () => {
  it('keeps the stream model pure: only its own files and sorted-btree', () => {
    const outside = importsOf('model').filter(([, spec]) => !spec.startsWith('./') && spec !== 'sorted-btree');
    expect(outside).toEqual([]);
  });

  it('keeps command modules free of ioredis, ioredis-mock and the adapter', () => {
    const bad = importsOf('commands').filter(([, spec]) => /ioredis|adapter|(^|\/)(keyspace|blocking)(\/|$)/.test(spec));
    expect(bad).toEqual([]);
  });

  it('keeps the engine, the commands, the keyspace and the byte helpers free of every front end', () => {
    // the front ends (and the entries that assemble them)
    const FRONT_ENDS = ['adapter', 'server', 'upstash', 'scenarios', 'jest', 'runners', 'msw', 'cli', 'index', 'cjs-entry'];
    const dirs = ['engine', 'engine/connection', 'engine/commands', 'engine/emulated', 'commands', 'commands/server', 'keyspace', 'bytes', 'blocking', 'clock', 'config', 'rdb', 'reply', 'stats'];
    const bad = dirs.flatMap((d) =>
      importsOf(d)
        .filter(([, spec]) => spec.startsWith('.') && FRONT_ENDS.some((fe) => join(LIB, d, spec) === join(LIB, fe) || join(LIB, d, spec).startsWith(join(LIB, fe) + '/')))
        .map(([f, spec]) => `${d}/${f} → ${spec}`),
    );
    expect(bad).toEqual([]);
  });

  it('keeps the engine free of the ioredis front end, and ioredis-mock to its emulator table', () => {
    const engine = [...importsOf('engine'), ...importsOf('engine/connection'), ...importsOf('engine/commands'), ...importsOf('engine/emulated')];
    expect(engine.filter(([f, spec]) => (spec === 'ioredis-mock' || spec === '@ioredis-mock-streams/mock-runtime') && f !== 'emulators.ts')).toEqual([]);
    expect(engine.filter(([f, spec]) => spec === 'ioredis' || (spec === 'fengari' && f !== 'lua.ts'))).toEqual([]);
  });

  it('keeps server-level command modules (INFO, COMMAND, MOCKCLOCK) free of ioredis, the adapter and the server', () => {
    // (Redis's command table as @ioredis/commands ships it is data, not the client)
    const bad = importsOf('commands/server').filter(
      ([, spec]) => /ioredis|adapter|keyspace|blocking|\/server\//.test(spec) && !spec.startsWith('@ioredis/commands/'),
    );
    expect(bad).toEqual([]);
  });

  it('keeps the RESP server (lib/server) off every import path but the CLI, which loads it on demand', () => {
    const dirs = ['', 'model', 'commands', 'commands/server', 'clock', 'blocking', 'keyspace', 'scenarios', 'scenarios/targets', 'adapter', 'jest', 'reply', 'stats', 'engine', 'engine/connection', 'engine/commands', 'config', 'rdb', 'upstash', 'msw'];
    const serverDir = join(LIB, 'server');
    const bad = dirs.flatMap((d) =>
      importsOf(d)
        .filter(([, spec]) => spec.startsWith('.') && (join(LIB, d, spec) === serverDir || join(LIB, d, spec).startsWith(`${serverDir}/`)))
        .filter(([f, spec]) => !(d === '' && f === 'cli.ts' && spec === './server/index'))
        .map(([f, spec]) => `${d}/${f} → ${spec}`),
    );
    expect(bad).toEqual([]);
    // the CLI loads it with a dynamic import, inside the serve command only
    expect(readFileSync(join(LIB, 'cli.ts'), 'utf8')).toMatch(/await import\('\.\/server\/index'\)/);
  });

  it('lets only the adapter (and the public entry) import ioredis-mock', () => {
    const dirs = ['model', 'commands', 'clock', 'blocking', 'keyspace', 'scenarios'];
    const bad = dirs.flatMap((d) => importsOf(d).filter(([, spec]) => spec === 'ioredis-mock' || spec === '@ioredis-mock-streams/mock-runtime').map(([f]) => `${d}/${f}`));
    expect(bad).toEqual([]);
  });
});

describe('optional front ends stay off the main import path', () => {
  it('lets only lib/msw import msw, and nothing import @upstash/redis', () => {
    const dirs = ['model', 'commands', 'clock', 'blocking', 'keyspace', 'scenarios', 'scenarios/targets', 'adapter', 'reply', 'upstash', 'jest', '.'];
    const bad = dirs.flatMap((d) =>
      importsOf(d)
        .filter(([, spec]) => spec === 'msw' || spec.startsWith('msw/') || spec.startsWith('@upstash/'))
        .map(([f, spec]) => `${d}/${f}: ${spec}`),
    );
    expect(bad).toEqual([]);
  });

  it('keeps lib/upstash and lib/msw out of the main entry and the jest setup', () => {
    const entryFiles = [...importsOf('.'), ...importsOf('jest'), ...importsOf('adapter')];
    expect(entryFiles.filter(([, spec]) => /(^|\/)(upstash|msw)(\/|$)/.test(spec))).toEqual([]);
  });
});
