import { defineConfig } from 'vitest/config';

// The jest setup file under vitest must fail loudly (it cannot mock ioredis there).
export default defineConfig({ test: { setupFiles: ['ioredis-mock-streams/jest'], include: ['tests/file.test.*'] } });
