/**
 * CommonJS entry: `require('ioredis-mock-streams')` is the client class itself, with every
 * named export attached, exactly like `require('ioredis')`. So
 * `jest.mock('ioredis', () => require('ioredis-mock-streams'))` serves `import Redis from
 * 'ioredis'`, `import { Redis } from 'ioredis'` and `const Redis = require('ioredis')`.
 */
import * as api from './index';

const Redis = api.default;
const entry = Object.assign(Redis, api, { default: Redis });
export = entry;
