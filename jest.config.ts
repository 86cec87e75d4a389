import { existsSync } from 'fs';
import { join } from 'path';
import type { Config } from 'jest';

/**
 * IOREDIS_MAJOR=5 runs the suite against ioredis 5.11.1 (the `ioredis5` dev alias) in place of
 * the ioredis 6 dev dependency: `ioredis` resolves to it everywhere (tests, the fake's command
 * table, the real-server clients) and types come from it (tsconfig.ioredis5.json).
 */
const ioredis5 = process.env.IOREDIS_MAJOR === '5';
/**
 * IOREDIS_VERSION=6.1 runs it against ioredis 6.1.0 (the `ioredis61` dev alias) the same way;
 * types stay ioredis 6.0.0's (6.1 only adds to them).
 */
const ioredis61 = !ioredis5 && process.env.IOREDIS_VERSION === '6.1';

/**
 * ioredis-mock as the package ships it: one file of the build (scripts/bundle-runtime.js, without
 * ioredis-mock's Lua VM and COMMAND/INFO data), once `npm run build` has written it; before that
 * (a bare `npx jest` on a fresh clone) the dev dependency it is made from.
 */
const runtimeBundle = existsSync(join(__dirname, 'dist', 'bundle', 'runtime.js'));

const config: Config = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/__tests__'],
  // a run whose process a leaked handle keeps alive names the handle and exits (see the file)
  reporters: ['default', '<rootDir>/__tests__/helpers/open-handles-reporter.js'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: ioredis5 ? 'tsconfig.ioredis5.json' : 'tsconfig.test.json', diagnostics: { warnOnly: false } }],
    // msw 2 on Node 20 under jest's CommonJS mode: three of its dependencies ship only ES
    // modules; babel-jest turns them into CommonJS (the configuration the README gives users).
    '^.+\\.m?js$': ['babel-jest', { plugins: ['@babel/plugin-transform-modules-commonjs'] }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(rettime|until-async|@open-draft/deferred-promise)/)', '/dist/bundle/runtime\\.js$'],
  // Tests import the package by its public name, resolved to the sources.
  moduleNameMapper: {
    '^ioredis-mock-streams$': '<rootDir>/lib/cjs-entry.ts',
    '^ioredis-mock-streams/jest$': '<rootDir>/lib/jest/setup.ts',
    '^ioredis-mock-streams/upstash$': '<rootDir>/lib/upstash/index.ts',
    '^ioredis-mock-streams/msw$': '<rootDir>/lib/msw/index.ts',
    '^ioredis-mock-streams/server$': '<rootDir>/lib/server/index.ts',
    ...(runtimeBundle ? { '^@ioredis-mock-streams/mock-runtime$': '<rootDir>/dist/bundle/runtime.js' } : {}),
    ...(ioredis5 ? { '^ioredis$': '<rootDir>/node_modules/ioredis5', '^ioredis/(.*)$': '<rootDir>/node_modules/ioredis5/$1' } : {}),
    ...(ioredis61 ? { '^ioredis$': '<rootDir>/node_modules/ioredis61', '^ioredis/(.*)$': '<rootDir>/node_modules/ioredis61/$1' } : {}),
  },
};

export default config;
