// BullMQ's own vitest settings (its vitest.config.ts at v6.2.0: 10 s per test and hook, files one
// at a time, its vitest.setup.ts), with the target chosen by BULLMQ_TARGET:
// - redis, serve: BullMQ's setup as is; REDIS_HOST/REDIS_PORT name the server (a real one, or
//   `ioredis-mock-streams serve`);
// - fake: in-process; `ioredis` is this package in every module, BullMQ's included (the vitest
//   entry mocks it; bullmq is inlined so that its own `import 'ioredis'` is mocked too).
import { defineConfig } from 'vitest/config';

const fake = process.env.BULLMQ_TARGET === 'fake';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 10000,
    hookTimeout: 10000,
    setupFiles: fake ? ['ioredis-mock-streams/vitest', './fake-setup.ts', './vitest.setup.ts'] : ['./vitest.setup.ts'],
    sequence: { concurrent: false },
    fileParallelism: false,
    server: fake ? { deps: { inline: [/bullmq/] } } : undefined,
  },
});
