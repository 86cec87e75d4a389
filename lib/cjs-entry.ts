/**
 * CommonJS entry: `require('ioredis-mock-streams')` is the client class itself, with every
 * named export attached, exactly like `require('ioredis')`. So
 * `jest.mock('ioredis', () => require('ioredis-mock-streams'))` serves `import Redis from
 * 'ioredis'`, `import { Redis } from 'ioredis'` and `const Redis = require('ioredis')`.
 */
import * as api from './index';

const Redis = api.default;
// Like Object.assign(Redis, api, { default: Redis }), but lazy exports (getters such as
// `ReplyError`) stay lazy instead of being read here.
for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(api))) {
  if (descriptor.enumerable) Object.defineProperty(Redis, name, { ...descriptor, configurable: true });
}
Object.defineProperty(Redis, 'default', { value: Redis, enumerable: true, writable: true, configurable: true });
const entry = Redis as typeof Redis & typeof api;
export = entry;
