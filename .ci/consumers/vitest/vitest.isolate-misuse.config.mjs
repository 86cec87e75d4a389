import { defineConfig } from 'vitest/config';

// With isolate: false an `import 'ioredis-mock-streams/vitest'` in a test file would take effect
// in the first file of a worker only: it must fail loudly, naming setupFiles.
export default defineConfig({ test: { isolate: false, maxWorkers: 1, include: ['tests/file.test.*'] } });
