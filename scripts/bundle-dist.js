#!/usr/bin/env node
/*
 * Start-up cost under jest. jest evaluates every module again for each test file, and each
 * module file costs it a resolution per `require` call, a stat, a read, a wrapper and a compile
 * on top of the module's own code. The package's import and its first client load some 60 of
 * this package's modules, so after `tsc`, `npm run build` runs this script: esbuild puts the
 * modules each group below loads *at their top level* into one file (`dist/bundle/<name>.js`),
 * and the module's own file becomes a one-line stub that returns the bundled instance:
 *
 *   module.exports = require("../bundle/import.js").link.get("client")["engine/registry"]();
 *
 * so every path into a module (other dist files, the stubs, the subpath exports, a user's deep
 * require) reaches the same module instance, and every module still runs on its first require,
 * as from its own file: laziness is unchanged. Modules only some tests need are in the
 * `cmd-*` bundles (the command modules by family, each read with the first command of its family)
 * and the `commands` one (the other command modules), and the `rare` one (Lua,
 * DUMP/RESTORE, INFO, COMMAND), each module evaluated on its first use; the other entries (CLI, scenarios, the Upstash and RESP front ends,
 * the jest setup file) stay files of their own. esbuild keeps each CommonJS module in its own
 * closure (no renaming, no hoisting) and chains tsc's source maps, so stack traces map back to
 * lib/*.ts (Node `--enable-source-maps`, jest, debuggers).
 *
 * One copy of the package, one set of modules: the root bundle (`import`) holds a link, and the
 * other bundles are functions of a link, instantiated once per link. A module reaches another
 * group's module through its own copy's link, never through `require` — so when jest resets its
 * module registry between a `beforeAll` that made a client and the test that uses it, the
 * modules that client loads on first use still belong to its copy (a second `require` would
 * hand back the reset registry's copy: other classes, failing `instanceof`, unencoded replies).
 *
 * Usage: node scripts/bundle-dist.js [distDir] — on fresh tsc output (`npm run build` runs both).
 */
'use strict';
const fs = require('fs');
const path = require('path');
const ts = require('typescript');
const esbuild = require('esbuild');

const DIST = path.resolve(process.argv[2] || path.join(__dirname, '..', 'dist'));

/**
 * The groups, in order: a module goes into the first group whose roots reach it through
 * top-level requires (a root ending in `/*` is every module of that folder). `import`: what
 * `require('ioredis-mock-streams')` loads (kept small: a plain import loads only this);
 * `client`: what the first client loads; `commands`: the stream and engine command modules,
 * each loaded on the first use of one of its commands (one file read for all of them, each
 * still evaluated on its first require); `rare`: the commands few test files run (Lua scripts,
 * DUMP/RESTORE/COPY with the RDB codec, INFO, COMMAND), read on the first use of one of them —
 * half of what the `commands` bundle held, no longer read and compiled in every test file.
 */
const RARE = [
  'commands/dump',
  'commands/whole-key',
  'commands/restore',
  'commands/copy',
  'commands/server/info',
  'commands/server/command',
  'commands/server/command-table',
  'commands/server/command-docs-extra',
  'scripting/index',
];
/**
 * The recorded COMMAND INFO/DOCS data (scripts/record-command-table.js, ~300 KB each): in no
 * bundle, files of their own, required by commands/server/command-table on the first COMMAND
 * INFO/DOCS/LIST/COUNT of their version.
 */
const COMMAND_DATA = ['commands/server/command-table-70', 'commands/server/command-table-8'];
const CMD = (names) => names.map((n) => `commands/${n}`);
const GROUPS = [
  // (with the loader of the other groups' bundles through the V8 code cache: lib/code-cache.ts)
  { name: 'import', roots: ['cjs-entry', 'code-cache'] },
  // with the argument helpers every command family requires (11 KB): one file fewer to read
  // at a test file's first command, whatever its family; the strings, keys and expiry commands
  // (25 KB) nearly every test file sends (SET/GET/DEL/EXPIRE): their own bundle cost a fresh
  // process's first SET ~0.4 ms more (a file's stat, read and compile) than the client's; the
  // stream commands of a worker's loop (40 KB: every user of this package) and the hash
  // commands (22 KB: job records, BullMQ), whose own bundles cost the first XADD and the first
  // HSET ~0.6 ms each
  {
    name: 'client',
    roots: [
      'adapter/install',
      ...CMD(['args', 'strtod', 'long-double', 'string-value', 'scan-args', 'propagate', 'strings', 'incr', 'keys', 'expire']),
      ...CMD(['xadd', 'xlen', 'xrange', 'xread', 'xreadgroup', 'xack', 'xdel', 'xgroup', 'xtrim', 'read-common', 'trim-args']),
      ...CMD(['hash', 'hash-common', 'hash-expire', 'hash-getset-ex', 'hash-random-scan']),
    ],
  },
  // The command modules by family, each family read and compiled on the first use of one of its
  // commands (a test file of XADDs and GETs compiles ~10% of them, not all).
  { name: 'cmd-list', roots: CMD(['list', 'list-common', 'list-blocking']) },
  { name: 'cmd-set', roots: CMD(['sets', 'set-common', 'set-algebra']) },
  { name: 'cmd-zset', roots: CMD(['zset-common', 'zadd', 'zrange', 'zset-read', 'zset-ops', 'zset-pop']) },
  // the stream commands a worker's loop does not send (claiming, inspection, 8.2's deletions):
  // read with the first of them, not with the first XADD
  { name: 'cmd-stream-more', roots: CMD(['xackdel', 'xautoclaim', 'xclaim', 'xdelex', 'xinfo', 'xnack', 'xpending', 'xsetid']) },
  // the server commands (FLUSHALL/FLUSHDB in a test's afterEach, TIME, SAVE, DEBUG, MONITOR …):
  // read with the first of them, not with the 190 KB of the other command modules
  { name: 'cmd-server', roots: ['engine/commands/server'] },
  { name: 'commands', roots: ['commands/*', 'commands/server/*', 'engine/commands/*'], except: [...RARE, ...COMMAND_DATA] },
  { name: 'rare', roots: RARE },
];
const ROOT_GROUP = GROUPS[0].name;
// Not the jest setup file: its `jest.mock('ioredis', () => require('../cjs-entry'))` must stay a
// plain `require` inside the factory (babel-jest rejects a factory naming an outer variable, and
// after `jest.resetModules()` the factory must load the package again through jest).

const STUB_MARK = '/* ioredis-mock-streams bundle stub */';

/** The root bundle's stand-in for a group bundle's content hash (as long as the hash: the map stays). */
const HASH_LENGTH = 24;
const hashPlaceholder = (name) => `@${name}`.padEnd(HASH_LENGTH, '@');

/**
 * ASCII for the non-ASCII characters of comments. esbuild writes code as ASCII (\u escapes) but
 * copies comments as they are, and one non-ASCII character makes Node decode the whole file
 * the slow way (UTF-8 instead of Latin-1: ~1 ms for the client bundle, in every jest test file).
 * So any non-ASCII left in a bundle is in a comment, and is spelled in ASCII there.
 */
const ASCII_FOR = { '\u2014': '--', '\u2013': '-', '\u2026': '...', '\u2192': '->', '\u2190': '<-', '\u00a7': 'S', '\u2212': '-', '\u00d7': 'x', '\u00b7': '.', '\u2265': '>=', '\u2264': '<=', '\u00b5': 'u' };
const asciiComments = (text, edits) => replaceRecorded(text, /[^\x00-\x7f]/g, (c) => ASCII_FOR[c] ?? '?', edits);

/**
 * esbuild writes a class that names itself in its body as `Stream=class _Stream{` (`var Stream = class _Stream {` unminified), so its
 * `name` would be `_Stream` (`util.inspect`, jest diffs, stack frames, `constructor.name`
 * checks). A static block gives it back its own name, as esbuild's keepNames does for classes
 * (keepNames itself would also wrap every arrow function, hot paths included).
 */
const classNames = (text, edits) =>
  replaceRecorded(
    text,
    /\b(\w+)=class _\1((?: extends [^{\n]+)?)\{/g,
    (_, name, heritage) => `${name}=class _${name}${heritage}{static{Object.defineProperty(this,"name",{value:${JSON.stringify(name)},configurable:true})}`,
    edits,
  );

/**
 * `text.replace(re, fn)` that records each change as `[offset in text, length removed, length
 * inserted]` in `edits` (offsets of `text`, in order): the bundle's source map is then moved to
 * match (`moveMappings`). The bundles are minified to a few long lines, so a change of length
 * shifts the code of the rest of its line, and without this every later frame of that line maps
 * to the wrong module (the new-user trial: `newReplyError (lib/json-file.ts:15:1)`).
 */
function replaceRecorded(text, re, fn, edits) {
  return text.replace(re, (...args) => {
    const match = args[0];
    const offset = args[args.length - 2];
    const out = fn(...args);
    if (out.length !== match.length) edits.push([offset, match.length, out.length]);
    return out;
  });
}

const idOf = (file) => path.relative(DIST, file).split(path.sep).join('/').replace(/\.js$/, '');
const fileOf = (id) => path.join(DIST, ...id.split('/')) + '.js';

/** The dist module a relative specifier in module `fromId` names, or null (a folder, JSON …). */
function resolveId(fromId, spec) {
  const base = path.resolve(path.dirname(fileOf(fromId)), spec);
  for (const candidate of [base, `${base}.js`, path.join(base, 'index.js')]) {
    if (candidate.endsWith('.js') && fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return idOf(candidate);
  }
  return null;
}

/** Relative specifiers `id` requires when it is evaluated (not those inside functions). */
function topLevelRequires(id) {
  const text = fs.readFileSync(fileOf(id), 'utf8');
  if (text.includes(STUB_MARK)) throw new Error(`bundle-dist: ${id}.js is already a stub; run tsc first (npm run build)`);
  const source = ts.createSourceFile(`${id}.js`, text, ts.ScriptTarget.ES2022, false, ts.ScriptKind.JS);
  const found = [];
  const visit = (node) => {
    if (ts.isFunctionLike(node)) return; // runs later, if ever
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'require' &&
      node.arguments.length === 1 &&
      ts.isStringLiteral(node.arguments[0]) &&
      node.arguments[0].text.startsWith('.')
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function assignGroups() {
  const groupOf = new Map();
  for (const group of GROUPS) {
    const stack = group.roots.flatMap((root) =>
      root.endsWith('/*')
        ? fs
            .readdirSync(path.join(DIST, root.slice(0, -2)))
            .filter((f) => f.endsWith('.js'))
            .map((f) => `${root.slice(0, -1)}${f.slice(0, -3)}`)
            .sort()
            .reverse()
        : [root],
    ).filter((id) => !group.except?.includes(id));
    while (stack.length) {
      const id = stack.pop();
      if (groupOf.has(id)) continue;
      groupOf.set(id, group.name);
      for (const spec of topLevelRequires(id)) {
        const dep = resolveId(id, spec);
        if (dep && !groupOf.has(dep)) stack.push(dep);
      }
    }
  }
  return groupOf;
}

/** `./x.js`-style specifier of dist module `toId` from the folder of file `fromFile`. */
function specifierFrom(fromFile, toId) {
  const rel = path.relative(path.dirname(fromFile), fileOf(toId)).split(path.sep).join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** What a non-root bundle's code is wrapped in (its first line starts with this). */
const WRAP_START = 'module.exports = (function (__link) { "use strict"; const module = { exports: {} }; const exports = module.exports; ';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** Base64 VLQ (source map v3): the values of one segment, and a value's text. */
function vlqDecode(text) {
  const values = [];
  let value = 0;
  let shift = 0;
  for (const c of text) {
    const digit = B64.indexOf(c);
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}
function vlqEncode(n) {
  let v = n < 0 ? (-n << 1) | 1 : n << 1;
  let out = '';
  do {
    let digit = v & 31;
    v >>>= 5;
    if (v > 0) digit |= 32;
    out += B64[digit];
  } while (v > 0);
  return out;
}
/**
 * `mappings` of a text moved by `edits` made to it (`[offset, removed, inserted]` in order, offsets
 * of the text before them; `text`: that text): a generated column after an edit on its line moves
 * by the edit's change of length; one inside a removed span goes to the span's start.
 */
function moveMappings(mappings, text, edits) {
  if (edits.length === 0) return mappings;
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const lineOf = (offset) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const byLine = new Map();
  for (const [offset, removed, inserted] of edits) {
    const line = lineOf(offset);
    if (!byLine.has(line)) byLine.set(line, []);
    byLine.get(line).push([offset - lineStarts[line], removed, inserted]);
  }
  return mappings
    .split(';')
    .map((line, i) => {
      const lineEdits = byLine.get(i);
      if (!lineEdits || line === '') return line;
      let column = 0;
      let movedBefore = 0;
      return line
        .split(',')
        .map((segment) => {
          const [delta, ...rest] = vlqDecode(segment);
          column += delta;
          let moved = column;
          for (const [at, removed, inserted] of lineEdits) {
            if (column >= at + removed) moved += inserted - removed;
            else if (column > at) moved += at - column;
          }
          const out = [moved - movedBefore, ...rest].map(vlqEncode).join('');
          movedBefore = moved;
          return out;
        })
        .join(',');
    })
    .join(';');
}

async function bundleGroup(group, ids, groupOf) {
  const outfile = path.join(DIST, 'bundle', `${group.name}.js`);
  const root = group.name === ROOT_GROUP;
  const entry = ['"use strict";', 'const modules = {'];
  for (const id of ids) entry.push(`  ${JSON.stringify(id)}: () => require(${JSON.stringify(`./${id}.js`)}),`);
  entry.push('};');
  if (root) {
    // the link of this copy of the package: each other group's bundle instantiated once for it
    entry.push('const loaded = { [' + JSON.stringify(ROOT_GROUP) + ']: modules };');
    // each other group's bundle through the code cache (lib/code-cache.ts), keyed by its content
    // hash: a placeholder of the same length here, the hash once every bundle is written (main)
    entry.push('const { requireBundle } = require("./code-cache.js");');
    entry.push('const load = {');
    for (const g of GROUPS.slice(1)) {
      entry.push(`  ${JSON.stringify(g.name)}: () => requireBundle(() => require(${JSON.stringify(`./${g.name}.js`)}), __dirname, ${JSON.stringify(`${g.name}.js`)}, ${JSON.stringify(hashPlaceholder(g.name))}),`);
    }
    entry.push('};');
    entry.push('__link = { get: (name) => (loaded[name] ??= load[name]()(__link)) };');
    entry.push('module.exports = { link: __link, modules };');
  } else {
    entry.push('module.exports = modules;');
  }
  const result = await esbuild.build({
    stdin: { contents: entry.join('\n'), resolveDir: DIST, sourcefile: `bundle/${group.name}.entry.js`, loader: 'js' },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'es2022',
    packages: 'external',
    sourcemap: true,
    // whitespace only: a third less for jest to read and compile in every test file; names stay
    // (stack traces without source maps), and syntax minification saved little more.
    // BUNDLE_MINIFY=0 keeps the lines (for line-level CPU profiles; class names then read `_Name`)
    minifyWhitespace: process.env.BUNDLE_MINIFY !== '0',
    // lines of at most ~500 characters: Node prints the source line of an uncaught exception's
    // throw site before its message (a StreamsMockError thrown from a one-line bundle printed
    // ~200 KB of code first)
    lineLimit: 500,
    charset: 'ascii',
    write: false,
    // the root bundle holds this copy's link; the others are instantiated for a link (wrap below)
    footer: root ? { js: 'var __link; // hoisted: the link of this copy (set by the entry above)' } : undefined,
    logLevel: 'warning',
    plugins: [
      {
        name: 'dist-modules',
        setup(build) {
          // ioredis-mock with its private ioredis 5: the package's own file (scripts/bundle-runtime.js)
          build.onResolve({ filter: /^@ioredis-mock-streams\/mock-runtime$/ }, () => ({ path: './runtime.js', external: true }));
          build.onResolve({ filter: /^\./ }, (args) => {
            const fromEntry = args.importer.endsWith('.entry.js') || args.importer === '<stdin>';
            // the root's loaders of the other groups' bundles
            if (fromEntry && GROUPS.some((g) => args.path === `./${g.name}.js`)) return { path: args.path, external: true };
            const fromId = fromEntry ? null : idOf(args.importer);
            const id = fromId === null ? resolveId('index', args.path) : resolveId(fromId, args.path);
            if (id === null) return undefined; // esbuild's own resolution (JSON, folders)
            const owner = groupOf.get(id);
            if (owner === group.name) return { path: fileOf(id) };
            // another group's module: straight from that group's bundle (not through its stub,
            // which jest would load as one more module in every test file)
            if (owner !== undefined) return { path: id, namespace: 'other-group', pluginData: owner };
            // a module loaded on demand: its own file
            return { path: specifierFrom(outfile, id), external: true };
          });
          build.onLoad({ filter: /.*/, namespace: 'other-group' }, (args) => ({
            contents: `module.exports = __link.get(${JSON.stringify(args.pluginData)})[${JSON.stringify(args.path)}]();\n`,
            resolveDir: path.dirname(outfile),
            loader: 'js',
          }));
        },
      },
    ],
  });
  fs.mkdirSync(path.dirname(outfile), { recursive: true });
  // the entry's own code, which the map names as bundle/<name>.entry.js: shipped beside the bundle
  fs.writeFileSync(path.join(DIST, 'bundle', `${group.name}.entry.js`), entry.join('\n'));
  // the code first (its edits recorded), then its map moved to match
  const outputs = [...result.outputFiles].sort((a, b) => Number(a.path.endsWith('.map')) - Number(b.path.endsWith('.map')));
  const edits = [];
  for (const out of outputs) {
    let text = out.text;
    if (out.path.endsWith('.map')) {
      // A module of another group appears in the map as esbuild's virtual `other-group:<id>` (the
      // one-line loader above): name that module's stub, dist/<id>.js, which does the same and
      // exists in the package (issue 23 item 11: every source a map names is a shipped file).
      const map = JSON.parse(text);
      map.sources = map.sources.map((source, i) => {
        if (!source.startsWith('other-group:')) return source;
        if (map.sourcesContent) map.sourcesContent[i] = null;
        return specifierFrom(outfile, source.slice('other-group:'.length));
      });
      // the code's edits below (ASCII comments, class names, the wrapper of a non-root bundle)
      // moved its columns: the mappings move with them (replaceRecorded)
      for (const step of edits) map.mappings = moveMappings(map.mappings, step.text, step.edits);
      text = JSON.stringify(map);
    }
    if (out.path.endsWith('.js')) {
      // edits recorded against esbuild's text: the comments first, then the class names (of
      // that result), so each list is applied to the map in turn below
      const commentEdits = [];
      const ascii = asciiComments(text, commentEdits);
      const nameEdits = [];
      text = classNames(ascii, nameEdits);
      edits.push({ text: out.text, edits: commentEdits }, { text: ascii, edits: nameEdits });
      // a non-root bundle is a function of the link: every copy of the package (a jest module
      // registry reset loads a second one) instantiates its own modules, bound to its own link,
      // whichever registry the file is read in. On the first line: the source map's lines stay.
      // The function is parenthesized: V8 then compiles it with the file (a parenthesized
      // function is taken as one called at once) instead of pre-parsing its whole text there and
      // parsing it all again on its first call, which is the instantiation: the client bundle
      // cost ~25% less CPU from read to instantiated (~2.5 ms of ~10 ms here, in every jest test
      // file), a family's bundle ~0.3 ms of its first command. Its modules stay lazy (each its own function).
      if (!root) {
        const mapComment = /\n\/\/# sourceMappingURL=[^\n]*\n?$/.exec(text);
        const code = mapComment ? text.slice(0, mapComment.index) : text;
        edits.push({ text, edits: [[0, 0, WRAP_START.length]] });
        text = `${WRAP_START}${code}\nreturn module.exports; });\n${mapComment ? mapComment[0].trim() + '\n' : ''}`;
      }
    }
    fs.writeFileSync(out.path, text);
  }
  for (const id of ids) {
    const file = fileOf(id);
    const rootBundle = JSON.stringify(specifierFrom(file, `bundle/${ROOT_GROUP}`));
    const stub = `"use strict";\n${STUB_MARK}\nmodule.exports = require(${rootBundle}).link.get(${JSON.stringify(group.name)})[${JSON.stringify(id)}]();\n`;
    fs.writeFileSync(file, stub);
    fs.rmSync(`${file}.map`, { force: true });
  }
  return fs.statSync(outfile).size;
}

async function main() {
  const groupOf = assignGroups();
  fs.rmSync(path.join(DIST, 'bundle'), { recursive: true, force: true }); // no group's file left from an earlier build
  const report = [];
  for (const group of GROUPS) {
    const ids = [...groupOf].filter(([, g]) => g === group.name).map(([id]) => id).sort();
    const size = await bundleGroup(group, ids, groupOf);
    report.push(`${group.name}: ${ids.length} modules, ${Math.round(size / 1024)} KB`);
  }
  // the content hash of each group's bundle into the root bundle, where the code cache's loader
  // keys that bundle's cache with it (lib/code-cache.ts)
  const rootFile = path.join(DIST, 'bundle', `${ROOT_GROUP}.js`);
  let rootText = fs.readFileSync(rootFile, 'utf8');
  for (const group of GROUPS.slice(1)) {
    const text = fs.readFileSync(path.join(DIST, 'bundle', `${group.name}.js`));
    const hash = require('crypto').createHash('sha256').update(text).digest('hex').slice(0, HASH_LENGTH);
    // the placeholder's string literal, which esbuild's lineLimit may have continued on the next
    // line (a backslash-newline inside it): each of its characters replaced in place, the
    // continuation kept (same length and lines: the source map stays)
    const placeholder = JSON.stringify(hashPlaceholder(group.name));
    const pattern = new RegExp(placeholder.split('').map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('(?:\\\\\n)?'), 'g');
    const found = rootText.match(pattern) ?? [];
    if (found.length !== 1) throw new Error(`bundle-dist: ${group.name}'s hash placeholder is not once in ${ROOT_GROUP}.js`);
    const value = JSON.stringify(hash);
    let at = 0;
    rootText = rootText.replace(pattern, (m) => m.replace(/\\\n|[^]/g, (c) => (c.length === 2 ? c : value[at++])));
  }
  fs.writeFileSync(rootFile, rootText);
  report.push(await require('./bundle-runtime').bundleRuntime(DIST));
  // The recorded COMMAND data: one string literal each, read only by COMMAND INFO/DOCS/LIST/COUNT.
  // A source map of it (its source inlined: the same 300 KB again) maps nothing worth a stack trace.
  for (const id of COMMAND_DATA) {
    const file = path.join(DIST, `${id}.js`);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/\n\/\/# sourceMappingURL=.*\n?$/, '\n'));
    fs.rmSync(`${file}.map`, { force: true });
  }
  console.log(`bundle-dist: ${report.join('; ')}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
