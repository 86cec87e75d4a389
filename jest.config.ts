import type { Config } from 'jest';

const config: Config = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/__tests__'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', diagnostics: { warnOnly: false } }] },
  // Tests import the package by its public name, resolved to the sources.
  moduleNameMapper: {
    '^ioredis-mock-streams$': '<rootDir>/lib/cjs-entry.ts',
    '^ioredis-mock-streams/jest$': '<rootDir>/lib/jest/setup.ts',
  },
};

export default config;
