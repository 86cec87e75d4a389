/**
 * The package's entries as Node loads them from the build (dist/, made by `npm test` before
 * jest runs): the main entry never loads msw or the Upstash front end; the upstash entry loads
 * no msw; the msw entry works with msw 2 on this Node.
 */
import { execFileSync } from 'child_process';
import { existsSync } from 'fs';
import { join } from 'path';

const ROOT = join(__dirname, '..', '..');
const built = existsSync(join(ROOT, 'dist', 'upstash', 'index.js'));
if (!built) console.warn('dist/ not built (run `npm run build`): package entry checks skipped');

/** Loads `entry` in a fresh Node process; answers which of msw / the Upstash front end got loaded. */
function loaded(entry: string): { msw: boolean; upstash: boolean; exports: string[] } {
  const script = `
    const m = require(${JSON.stringify(entry)});
    const files = Object.keys(require.cache);
    console.log(JSON.stringify({
      msw: files.some((f) => /[\\\\/]node_modules[\\\\/]msw[\\\\/]/.test(f)),
      upstash: files.some((f) => /[\\\\/]dist[\\\\/]upstash[\\\\/]/.test(f)),
      exports: Object.keys(m).sort(),
    }));`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 }));
}

// skip: the package entries are files of dist/: skipped until `npm run build` made them (`npm test` builds first)
(built ? describe : describe.skip)('package entries (from dist/)', () => {
  it('the main entry loads neither msw nor the Upstash front end', () => {
    const r = loaded('ioredis-mock-streams');
    expect(r).toMatchObject({ msw: false, upstash: false });
    expect(r.exports).toContain('createFakeClock');
  });

  it('ioredis-mock-streams/upstash loads no msw', () => {
    expect(loaded('ioredis-mock-streams/upstash')).toEqual({ msw: false, upstash: true, exports: ['createUpstashHandler'] });
  });

  it('ioredis-mock-streams/msw loads msw and exports upstashHandlers', () => {
    expect(loaded('ioredis-mock-streams/msw')).toEqual({ msw: true, upstash: true, exports: ['upstashHandlers'] });
  });
});
