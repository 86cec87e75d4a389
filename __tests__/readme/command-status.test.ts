/**
 * The README's command status table (issue 19: "the README lists every Redis command with its
 * status") is the one scripts/command-status.js makes from the command tables of dist/.
 */
import { spawnSync } from 'child_process';
import { existsSync } from 'fs';
import { join } from 'path';

const root = join(__dirname, '..', '..');
const built = existsSync(join(root, 'dist', 'commands', 'index.js'));

describe('README command status', () => {
  if (!built) {
    // `npm test` builds dist/ first; a bare `npx jest` on a fresh clone has none
    console.warn('dist/ not built (npm run build): the README command-status check is skipped');
    // skip: no server URL (REDIS_URL / REDIS_UNSTABLE_URL): skipped with the warning printed above; CI sets both
    it.skip('lists every command with the part of the fake that answers it', () => undefined);
    return;
  }
  it('lists every command with the part of the fake that answers it, as the command tables say', () => {
    const out = spawnSync(process.execPath, [join(root, 'scripts', 'command-status.js'), '--check', join(root, 'README.md')], { encoding: 'utf8', timeout: 60_000 });
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
  });
});
