// The README's jest + msw 2 route: three of msw 2's dependencies ship only ES modules; babel-jest
// turns them into CommonJS.
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.m?js$': ['babel-jest', { plugins: ['@babel/plugin-transform-modules-commonjs'] }] },
  transformIgnorePatterns: ['/node_modules/(?!(rettime|until-async|@open-draft/deferred-promise)/)'],
};
