/**
 * Issue 23 item 11: stack frames of the package (warnings name where a client was created, errors
 * where they were thrown) went through its source maps to `lib/*.ts`, which the package did not
 * ship. Every file a map of dist/ names must be one the package ships (package.json `files`),
 * holding the text the map was made from.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const built = existsSync(join(ROOT, 'dist', 'bundle', 'client.js.map'));
if (!built) console.warn('dist/ not built (run `npm run build`): source map checks skipped');

/** package.json `files` as a test: a folder name ships the folder, a glob its matches. */
const files: string[] = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).files;
const patterns = files.map((f) =>
  f.includes('*')
    ? new RegExp(`^${f.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*\*\//g, '\0').replace(/\*/g, '[^/]*').replace(/\0/g, '(?:.*/)?')}$`)
    : new RegExp(`^${f.replace(/[.+?^${}()|[\]\\]/g, '\\$&')}(?:/|$)`),
);
const shipped = (file: string) => {
  const rel = relative(ROOT, file).split('\\').join('/');
  return !rel.startsWith('..') && patterns.some((p) => p.test(rel));
};
const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));

// skip: dist/ not built (npm test builds it first)
(built ? describe : describe.skip)('source maps of the package', () => {
  it('name only files the package ships, with the text they were made from', () => {
    const maps = walk(join(ROOT, 'dist')).filter((f) => f.endsWith('.js.map'));
    expect(maps.length).toBeGreaterThan(20);
    const wrong: string[] = [];
    let checked = 0;
    for (const map of maps) {
      const m = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[]; sourceRoot?: string; sourcesContent?: (string | null)[] };
      m.sources.forEach((source, i) => {
        const file = resolve(dirname(map), m.sourceRoot ?? '', source);
        checked++;
        if (!existsSync(file) || !shipped(file)) wrong.push(`${relative(ROOT, map)}: ${source} (not shipped)`);
        else if (m.sourcesContent?.[i] != null && readFileSync(file, 'utf8') !== m.sourcesContent[i]) wrong.push(`${relative(ROOT, map)}: ${source} (other text)`);
      });
    }
    expect(checked).toBeGreaterThan(200);
    expect(wrong).toEqual([]);
  });

  it("maps a package error's frame to a shipped file under node --enable-source-maps", () => {
    const out = execFileSync(
      process.execPath,
      ['--enable-source-maps', '-e', "try { require('./dist/cjs-entry.js').createFakeClock('bad') } catch (e) { console.log(e.stack) }"],
      { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
    );
    const frame = /at (?:\w+\.)?createFakeClock \((.+):(\d+):\d+\)/.exec(out);
    expect(frame).not.toBeNull();
    const [, file, line] = frame!;
    expect(relative(ROOT, file)).toBe(join('lib', 'clock', 'fake-clock.ts'));
    expect(shipped(file)).toBe(true);
    expect(readFileSync(file, 'utf8').split('\n')[Number(line) - 1]).toContain('throw');
  });
  it("maps a frame of a lazily instantiated bundle (the client's) to its own file, not the next module's", () => {
    // the wrapper before such a bundle's first line shifts its code: the map's columns must follow
    // (the new-user trial saw `newReplyError (lib/json-file.ts:15:1)`)
    const script =
      "const R = require('./dist/cjs-entry.js'); const r = new R({ port: 7 }); r.call('nosuch').catch((e) => { console.log(e.stack); r.disconnect(); })";
    const out = execFileSync(process.execPath, ['--enable-source-maps', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    const frame = /at newReplyError \((.+):(\d+):\d+\)/.exec(out);
    expect(frame).not.toBeNull();
    const [, file, line] = frame!;
    expect(relative(ROOT, file)).toBe(join('lib', 'adapter', 'reply-error.ts'));
    expect(readFileSync(file, 'utf8').split('\n')[Number(line) - 1]).toContain('return new (');
  });
});
