// Types of the ESM entry (esm/index.mjs): the default export is the client class itself, as in
// the CommonJS build, so `import Redis from 'ioredis-mock-streams'; new Redis()` type-checks under
// moduleResolution nodenext and bundler (an ESM file importing the CommonJS .d.ts would get its
// module object as the default export).
import { Redis as RedisClass } from '../dist/index.js';

declare const Redis: typeof RedisClass;
export default Redis;
export * from '../dist/index.js';
