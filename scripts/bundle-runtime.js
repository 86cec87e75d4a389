'use strict';
/**
 * The runtime ioredis-mock runs on, as one file of the package: `dist/bundle/runtime.js`.
 *
 * `@ioredis-mock-streams/mock-runtime` (packages/mock-runtime, a dev dependency) is ioredis-mock
 * 8.13.1 with a private ioredis 5.11.1 nested inside it (ioredis-mock reaches into
 * `ioredis/built/Command` and `ioredis/built/utils`, which must be ioredis 5's whatever ioredis the
 * project has). esbuild puts it, that ioredis 5's modules and their dependencies into one
 * CommonJS file, so the package needs no dependency of its own for it: every package manager
 * installs it as plain files (Yarn 1 and Yarn 2+ fetch a bundled dependency from the registry
 * and fail: yarnpkg/yarn#5998), and jest reads one file per test file instead of ~60.
 *
 * Left out, as stubs that throw when used (never, by this package: the engine answers every
 * command whose emulator needs them):
 * - fengari and fengari-interop, ioredis-mock's Lua VM, loaded at its top level (25 ms of CPU
 *   at every import, more than half of it): EVAL, EVALSHA, FCALL and defineCommand run on the
 *   engine's Lua (lib/scripting, wasm/redis-lua.wasm);
 * - ioredis-mock's data/command-info.json, command-docs.json and info.json (300 KB), read by its
 *   COMMAND and INFO emulators: the engine answers COMMAND and INFO.
 * And ioredis 5's `debug` logger is one that is never enabled (DEBUG_SOURCE below).
 *
 * The licence texts of everything bundled go to `dist/bundle/runtime.LICENSES.txt`.
 */
const fs = require('fs');
const path = require('path');
const esbuild = require('esbuild');

const ROOT = path.resolve(__dirname, '..');
const RUNTIME = '@ioredis-mock-streams/mock-runtime';
/** The hidden property of the runtime's class holding ioredis 5's `built/Command` module. */
const PRIVATE_COMMAND = '__ioredisMockStreamsPrivateCommand';

const STUB_SOURCE = (what, why) => `'use strict';
// ${what} is not in ioredis-mock-streams' bundle of ioredis-mock (scripts/bundle-runtime.js): ${why}
const message = ${JSON.stringify(`ioredis-mock-streams: ${what} is not bundled (${why}); this is a bug of ioredis-mock-streams, please report it`)};
function unavailable() {
  return new Proxy(function () {}, {
    get(target, key) {
      if (key === 'prototype') return target.prototype;
      return unavailable();
    },
    apply() {
      throw new Error(message);
    },
    construct() {
      throw new Error(message);
    },
  });
}
module.exports = new Proxy({}, {
  get(target, key) {
    if (key === '__esModule' || typeof key === 'symbol') return undefined;
    return unavailable();
  },
});
`;

/**
 * The `debug` package of the private ioredis 5 (its utils wrap it for DEBUG=ioredis:* logging):
 * only its connection code logs, which ioredis-mock never runs; loading it (with Node's tty) cost
 * ~4 ms of every import. A logger that is never enabled instead.
 */
const DEBUG_SOURCE = `'use strict';
// ioredis 5's debug logging, never enabled inside ioredis-mock (scripts/bundle-runtime.js)
function createDebug(namespace) {
  const log = function () {};
  log.enabled = false;
  log.namespace = namespace;
  log.extend = (sub, delimiter = ':') => createDebug(namespace + delimiter + sub);
  log.log = function () {};
  return log;
}
createDebug.enabled = () => false;
createDebug.enable = function () {};
createDebug.disable = () => '';
createDebug.default = createDebug;
module.exports = createDebug;
`;

const STUBS = [
  { filter: /^fengari(-interop)?$/, what: "ioredis-mock's Lua VM (fengari)", why: 'the engine runs Lua scripts' },
  { filter: /\/data\/(command-info|command-docs|info)\.json$/, what: "ioredis-mock's COMMAND and INFO data", why: 'the engine answers COMMAND and INFO' },
];

/** The package folder and manifest of a bundled input file (under some node_modules). */
function packageOf(file) {
  let dir = path.dirname(file);
  while (dir !== path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8'));
      if (pkg.name) return { dir, pkg };
    }
    dir = path.dirname(dir);
  }
  return null;
}

/**
 * Writes `<dist>/bundle/runtime.js` (and its licence file); returns a one-line report.
 * @throws Error when the runtime is not installed, or its ioredis is not 5.x (hoisted: the
 *   project's devDependency ioredis must stay on another major)
 */
async function bundleRuntime(dist) {
  const entry = require.resolve(RUNTIME, { paths: [ROOT] });
  const runtimeDir = path.dirname(entry);
  const ioredisManifest = require.resolve('ioredis/package.json', { paths: [path.dirname(require.resolve('ioredis-mock/package.json', { paths: [runtimeDir] }))] });
  const ioredisVersion = JSON.parse(fs.readFileSync(ioredisManifest, 'utf8')).version;
  if (!ioredisVersion.startsWith('5.')) {
    throw new Error(`bundle-runtime: ioredis-mock resolves ioredis ${ioredisVersion} (must be the private 5.x nested in node_modules/${RUNTIME}/node_modules; keep the root ioredis devDependency on another major)`);
  }
  const outfile = path.join(dist, 'bundle', 'runtime.js');
  const result = await esbuild.build({
    // the runtime's class, with ioredis 5's Command module on it (hidden): the package's adapter
    // applies its argument and reply transformers as ioredis-mock does (lib/adapter/command-table.ts)
    stdin: {
      contents: [
        "'use strict';",
        'const RedisMock = require(' + JSON.stringify(entry) + ');',
        'Object.defineProperty(RedisMock, ' + JSON.stringify(PRIVATE_COMMAND) + ", { value: require('ioredis/built/Command') });",
        'module.exports = RedisMock;',
      ].join('\n'),
      resolveDir: runtimeDir,
      sourcefile: 'runtime-entry.js',
      loader: 'js',
    },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'es2022',
    minifyWhitespace: true,
    lineLimit: 500, // as the other bundles (scripts/bundle-dist.js): short source lines in error output
    charset: 'ascii',
    legalComments: 'none', // the licences: runtime.LICENSES.txt beside the file
    metafile: true,
    logLevel: 'warning',
    plugins: [
      {
        name: 'runtime-stubs',
        setup(build) {
          for (const [i, stub] of STUBS.entries()) {
            build.onResolve({ filter: stub.filter }, (args) => ({ path: `${i}:${args.path}`, namespace: 'runtime-stub' }));
          }
          build.onResolve({ filter: /^debug$/ }, () => ({ path: 'debug', namespace: 'runtime-debug' }));
          build.onLoad({ filter: /.*/, namespace: 'runtime-debug' }, () => ({ contents: DEBUG_SOURCE, loader: 'js' }));
          build.onLoad({ filter: /.*/, namespace: 'runtime-stub' }, (args) => {
            const stub = STUBS[Number(args.path.split(':')[0])];
            return { contents: STUB_SOURCE(stub.what, stub.why), loader: 'js' };
          });
        },
      },
    ],
  });
  // licences of every package with code in the bundle
  const packages = new Map();
  for (const input of Object.keys(result.metafile.inputs)) {
    if (input.startsWith('runtime-stub:') || input.startsWith('runtime-debug:')) continue;
    const owner = packageOf(path.resolve(ROOT, input));
    if (owner && !packages.has(`${owner.pkg.name}@${owner.pkg.version}`)) packages.set(`${owner.pkg.name}@${owner.pkg.version}`, owner);
  }
  const sections = [];
  for (const [id, { dir, pkg }] of [...packages].sort(([a], [b]) => a.localeCompare(b))) {
    const licenceFile = fs.readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
    const text = licenceFile ? fs.readFileSync(path.join(dir, licenceFile), 'utf8').trim() : `(no licence file; package.json: ${pkg.license ?? 'none'})`;
    sections.push(`${id} (${pkg.license ?? 'see below'})\n\n${text}\n`);
  }
  fs.writeFileSync(
    path.join(dist, 'bundle', 'runtime.LICENSES.txt'),
    `dist/bundle/runtime.js bundles the following packages (ioredis-mock and the private ioredis 5 it runs on, with their dependencies):\n\n${sections.join('\n' + '-'.repeat(78) + '\n\n')}`,
  );
  const size = fs.statSync(outfile).size;
  return `runtime: ${packages.size} packages (ioredis ${ioredisVersion}), ${Math.round(size / 1024)} KB`;
}

module.exports = { bundleRuntime };
