import { defineConfig } from 'vitest/config';

// The setup entry and the vi.mock one-liner in both pools, with and without isolation, and the
// setup entry in the vm pools (one worker, so that with isolate: false the test files share a
// worker and its module graph).
const project = (name, pool, isolate, test) => ({ test: { name, pool, isolate, maxWorkers: 1, ...test } });
const suite = { setupFiles: ['ioredis-mock-streams/vitest'], include: ['tests/suite-*.test.*'] };
const oneLine = { include: ['tests/one-line.test.*'] };
export default defineConfig({
  test: {
    projects: [
      project('suite-threads', 'threads', true, suite),
      project('suite-forks', 'forks', true, suite),
      project('suite-threads-shared', 'threads', false, suite),
      project('suite-forks-shared', 'forks', false, suite),
      // vitest's own CommonJS loader in a vm context per file (dependencies' require('ioredis') too)
      project('suite-vm-threads', 'vmThreads', true, suite),
      project('suite-vm-forks', 'vmForks', true, suite),
      project('one-line-threads-shared', 'threads', false, oneLine),
      project('one-line-forks-shared', 'forks', false, oneLine),
    ],
  },
});
