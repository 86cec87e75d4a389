// The two documented jest routes (the one-line jest.mock, and the setup file), and the setup file
// under configurations users have: babel-jest transforming node_modules, resetModules.
module.exports = {
  projects: [
    { displayName: 'one-line', testEnvironment: 'node', testMatch: ['<rootDir>/tests/one-line*.test.js'] },
    { displayName: 'setup-file', testEnvironment: 'node', setupFilesAfterEnv: ['ioredis-mock-streams/jest'], testMatch: ['<rootDir>/tests/setup-*.test.js'] },
    {
      displayName: 'setup-file, babel-jest on node_modules',
      testEnvironment: 'node',
      setupFilesAfterEnv: ['ioredis-mock-streams/jest'],
      transformIgnorePatterns: [], // babel-jest (jest's default transform) also runs on the package
      testMatch: ['<rootDir>/tests/setup-file.test.js'],
    },
    {
      displayName: 'setup-file, resetModules',
      testEnvironment: 'node',
      setupFilesAfterEnv: ['ioredis-mock-streams/jest'],
      resetModules: true,
      testMatch: ['<rootDir>/tests/reset-modules*.test.js'],
    },
  ],
};
