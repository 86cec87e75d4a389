// Setup module for vitest (side effects only): see esm/vitest.mjs.
export {};
