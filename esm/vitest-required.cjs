// `require('ioredis-mock-streams/vitest')`: what jest does with
// `setupFilesAfterEnv: ['ioredis-mock-streams/vitest']` (jest loads setup files with require).
// The vitest entry is an ES module that imports 'vitest'; under jest it would fail with jest's
// generic "Cannot use import statement outside a module". Say which entry to use instead.
const { StreamsMockError } = require('../dist/clock/clock.js');

throw new StreamsMockError(
  "'ioredis-mock-streams/vitest' is the vitest setup file; under jest use setupFilesAfterEnv: ['ioredis-mock-streams/jest'] " +
    "(or jest.mock('ioredis', () => require('ioredis-mock-streams')) in a test file)",
);
