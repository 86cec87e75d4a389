// Setup module for node (side effects only): see esm/register.mjs.
export {};
