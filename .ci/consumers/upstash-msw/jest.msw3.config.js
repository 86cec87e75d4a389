// The README's jest + msw 3 route (Node >= 22.12): msw 3 and the packages it loads under
// msw/node ship only ES modules, one of them reads import.meta.url; babel-jest turns them into
// CommonJS, with babel-plugin-transform-import-meta for import.meta.
module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.m?js$': ['babel-jest', { plugins: ['babel-plugin-transform-import-meta', '@babel/plugin-transform-modules-commonjs'] }],
  },
  transformIgnorePatterns: [
    '/node_modules/(?!(msw|@msw|@mswjs|@open-draft|rettime|until-async|cookie|headers-polyfill|set-cookie-parser|tough-cookie)/)',
  ],
};
