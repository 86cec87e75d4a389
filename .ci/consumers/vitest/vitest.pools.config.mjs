import { defineConfig } from 'vitest/config';

// The setup entry and the vi.mock one-liner in both pools, with and without isolation, and the
// setup entry in the vm pools (one worker, so that with isolate: false the test files share a
// worker and its module graph); files that expect a fresh fake where each file has a worker of its own.
const project = (name, pool, isolate, test) => ({ test: { name, pool, isolate, maxWorkers: 1, ...test } });
const suite = { setupFiles: ['ioredis-mock-streams/vitest'], include: ['tests/suite-*.test.*'] };
const oneLine = { include: ['tests/one-line.test.*'] };
// files that each expect a fresh fake: the pools that give each test file a worker of its own
// (the vm pools keep ES modules, this package among them, for every file of a worker: shared)
const fresh = { setupFiles: ['ioredis-mock-streams/vitest'], include: ['tests/fresh-file-*.test.*'] };
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
      project('fresh-threads', 'threads', true, fresh),
      project('fresh-forks', 'forks', true, fresh),
      project('one-line-threads-shared', 'threads', false, oneLine),
      project('one-line-forks-shared', 'forks', false, oneLine),
    ],
  },
});
