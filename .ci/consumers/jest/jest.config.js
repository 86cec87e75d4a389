// Two projects, the two documented jest routes: the one-line jest.mock, and the setup file.
module.exports = {
  projects: [
    { displayName: 'one-line', testEnvironment: 'node', testMatch: ['<rootDir>/tests/one-line.test.js'] },
    { displayName: 'setup-file', testEnvironment: 'node', setupFilesAfterEnv: ['ioredis-mock-streams/jest'], testMatch: ['<rootDir>/tests/setup-*.test.js'] },
  ],
};
