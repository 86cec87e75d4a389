/**
 * A test file run by a child jest with the package's jest setup file (lib/jest/setup.ts) and its
 * source (lib/cjs-entry.ts) as `ioredis-mock-streams`: what a user's jest run does, for tests of
 * the per-test lifecycle (resets, leaked loops and scripts, clients of beforeAll). The file is
 * written to a temporary folder, jest runs it there (60 s at most) and the folder is removed.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

export interface ChildJestOptions {
  /** jest's testTimeout in the child (ms); jest's default when absent. */
  testTimeout?: number;
  /** `--verbose`: each test's line with its time. */
  verbose?: boolean;
  /** Under IOREDIS_MAJOR=5, `ioredis` in the child is ioredis 5.11.1 too. */
  followIoredisMajor?: boolean;
}

/** Run `testSource` as the one test file of a child jest: its exit status, its output, whether it ran past 60 s. */
export function runChildJest(testSource: string, options: ChildJestOptions = {}): { status: number | null; output: string; timedOut: boolean } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'child-jest-'));
  try {
    fs.writeFileSync(path.join(dir, 'file.child.js'), testSource);
    const config = {
      rootDir: dir,
      testMatch: ['**/*.child.js'],
      testEnvironment: 'node',
      ...(options.testTimeout === undefined ? {} : { testTimeout: options.testTimeout }),
      modulePaths: [path.join(ROOT, 'node_modules')],
      setupFilesAfterEnv: [path.join(ROOT, 'lib', 'jest', 'setup.ts')],
      moduleNameMapper: {
        '^ioredis-mock-streams$': path.join(ROOT, 'lib', 'cjs-entry.ts'),
        ...(options.followIoredisMajor && process.env.IOREDIS_MAJOR === '5' ? { '^ioredis$': path.join(ROOT, 'node_modules', 'ioredis5') } : {}),
      },
      transform: {
        '^.+\\.ts$': [require.resolve('ts-jest'), { tsconfig: path.join(ROOT, 'tsconfig.test.json'), isolatedModules: true }],
      },
    };
    const args = [require.resolve('jest/bin/jest'), '--config', JSON.stringify(config), '--ci', '--colors=false', ...(options.verbose ? ['--verbose'] : [])];
    const r = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8', timeout: 60_000, env: { ...process.env, FORCE_COLOR: '0' } });
    return { status: r.status, output: `${r.stdout}\n${r.stderr}`, timedOut: r.error !== undefined };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
