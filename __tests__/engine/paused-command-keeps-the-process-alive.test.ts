/**
 * CLIENT PAUSE on the real clock: a command waiting for the pause's end keeps a Node process alive
 * until the end runs it, as the client's socket does against a server (`OK` after the pause), and a
 * pause nobody waits for lets the process exit at once (a test that paused and finished). Found by
 * a fresh-user trial: the paused SET never answered and the process ended with "unsettled
 * top-level await" (exit code 13). Run in fresh processes from dist/.
 */
import { execFileSync } from 'child_process';
import { existsSync } from 'fs';
import { join } from 'path';

const ROOT = join(__dirname, '..', '..');
const built = existsSync(join(ROOT, 'dist', 'cjs-entry.js'));
if (!built) console.warn('dist/ not built (run `npm run build`): the paused-command process checks are skipped');

/** Runs `body` (an async function body with `Redis` in scope) in a fresh Node process; answers its stdout lines. */
function inFreshProcess(body: string): string[] {
  const script = `
    const Redis = require(${JSON.stringify(join(ROOT, 'dist', 'cjs-entry.js'))});
    (async () => { ${body} })().catch((e) => { console.error(e); process.exit(1); });`;
  return execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 }).trim().split('\n');
}

// skip: dist/ not built (a bare `npx jest` on a fresh clone); `npm test` builds it first
(built ? describe : describe.skip)('a command paused by CLIENT PAUSE (real clock, fresh process)', () => {
  it.each(['WRITE', 'ALL'])('keeps the process alive until the pause (%s) ends, then answers', (mode) => {
    const lines = inFreshProcess(`
      const a = new Redis(), b = new Redis();
      const started = Date.now();
      await a.client('PAUSE', 150, '${mode}');
      const got = await b.set('k', 'v');
      console.log(got);
      console.log(Date.now() - started >= 140 ? 'after the pause' : 'before the pause ended');
      a.disconnect(); b.disconnect();`);
    expect(lines).toEqual(['OK', 'after the pause']);
  });

  it('lets the process exit when no command waits for the end of a long pause', () => {
    const lines = inFreshProcess(`
      const a = new Redis();
      await a.client('PAUSE', 600000, 'WRITE');
      console.log(await a.get('k'));
      console.log('done');`);
    // a held timer of 600 s would outlast execFileSync's 60 s timeout (it throws then)
    expect(lines).toEqual(['null', 'done']);
  });
});
