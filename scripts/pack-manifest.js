#!/usr/bin/env node
/**
 * npm pack / npm publish helper (prepack: `pack`, postpack: `restore`).
 *
 * The package bundles `@ioredis-mock-streams/mock-runtime` (packages/mock-runtime: ioredis-mock
 * 8.13.1 with a private ioredis 5.11.1 nested inside it). In this repository the runtime is a
 * `file:` dependency, copied into node_modules (`install-links=true` in .npmrc); a bundled
 * dependency whose spec is `file:…` would be reported invalid by `npm ls` in every project that
 * installs the tarball, so the packed manifest names it by version instead. `pack`:
 *  1. checks the layout the bundle must have: the runtime is a real directory (not a link) and
 *     ioredis-mock and ioredis 5 sit inside it (node_modules/@ioredis-mock-streams/mock-runtime/
 *     node_modules/), so that in a user's project ioredis-mock resolves that ioredis 5 while
 *     this package (its runtime code and its .d.ts files) resolves the project's own ioredis;
 *  2. rewrites the dependency spec to the runtime's version, keeping the original in
 *     `.package.json.prepack` for `restore` (run by postpack, and first by any later `pack`).
 */
'use strict';
const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '..');
const MANIFEST = path.join(ROOT, 'package.json');
const BACKUP = path.join(ROOT, '.package.json.prepack');
const RUNTIME = '@ioredis-mock-streams/mock-runtime';
const RUNTIME_DIR = path.join(ROOT, 'node_modules', RUNTIME);

function fail(message) {
  console.error(`[pack-manifest] ${message}`);
  process.exit(1);
}

function restore() {
  if (!fs.existsSync(BACKUP)) return;
  fs.copyFileSync(BACKUP, MANIFEST);
  fs.unlinkSync(BACKUP);
}

function versionAt(dir) {
  const file = path.join(dir, 'package.json');
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')).version : undefined;
}

function checkLayout() {
  if (!fs.existsSync(RUNTIME_DIR)) fail(`${RUNTIME} is not installed: run npm ci first`);
  if (fs.lstatSync(RUNTIME_DIR).isSymbolicLink()) {
    fail(`node_modules/${RUNTIME} is a link; install with install-links=true (.npmrc) so it can be bundled`);
  }
  const nested = path.join(RUNTIME_DIR, 'node_modules');
  const mock = versionAt(path.join(nested, 'ioredis-mock'));
  const ioredis = versionAt(path.join(nested, 'ioredis'));
  if (!mock || !ioredis || !ioredis.startsWith('5.')) {
    fail(
      `ioredis-mock (${mock ?? 'missing'}) and ioredis 5 (${ioredis ?? 'missing'}) must be nested in node_modules/${RUNTIME}/node_modules; ` +
        'they are hoisted when the root devDependency ioredis satisfies ^5 — keep it on another major (6.x)',
    );
  }
  return { mock, ioredis };
}

const mode = process.argv[2];
if (mode === 'restore') {
  restore();
} else if (mode === 'pack') {
  restore();
  const { mock, ioredis } = checkLayout();
  const text = fs.readFileSync(MANIFEST, 'utf8');
  const pkg = JSON.parse(text);
  const version = versionAt(RUNTIME_DIR);
  if (!String(pkg.dependencies?.[RUNTIME] ?? '').startsWith('file:')) fail(`package.json has no file: dependency on ${RUNTIME}`);
  fs.writeFileSync(BACKUP, text);
  pkg.dependencies[RUNTIME] = version;
  fs.writeFileSync(MANIFEST, JSON.stringify(pkg, null, 2) + '\n');
  console.error(`[pack-manifest] bundling ${RUNTIME}@${version} (ioredis-mock ${mock}, private ioredis ${ioredis})`);
} else {
  fail('usage: pack-manifest.js pack|restore');
}
