import { defineConfig } from 'vitest/config';

// The documented vitest routes: the setup entry for a suite, the same entry imported by one
// file, the vi.mock one-liner, and vi.unmock for a file that wants real ioredis.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'suite', setupFiles: ['ioredis-mock-streams/vitest'], include: ['tests/suite-*.test.*'] } },
      { test: { name: 'file', include: ['tests/file.test.*'] } },
      { test: { name: 'one-line', include: ['tests/one-line.test.*'] } },
    ],
  },
});
