#!/usr/bin/env node
/**
 * Dev-only generator of the COMMAND INFO / COMMAND DOCS / COMMAND LIST data the engine answers
 * (lib/commands/server/command-table-*.ts), recorded from real servers over raw RESP sockets:
 *
 *   node scripts/record-command-table.js [7.0=redis://127.0.0.1:6399] [8=redis://127.0.0.1:6400]
 *
 * (defaults as shown; each `key=url` names the data file `command-table-<key without dots>.ts`.) Read-only on
 * the servers: HELLO 3 / HELLO 2, COMMAND INFO, COMMAND DOCS, COMMAND LIST, INFO server.
 *
 * What is recorded, per server: every command's COMMAND INFO entry and COMMAND DOCS entry as the
 * RESP3 reply gives it (maps, sets, simple strings kept as such), and COMMAND LIST. The RESP2
 * replies are derived (map → flat array, set → array, as networking.c's addReplyMapLen /
 * addReplySetLen do under RESP2), and this script checks that derivation byte for byte against
 * the server's own RESP2 replies before writing anything (it exits non-zero on a difference).
 *
 * Encoding (compact JSON): a bulk string is `"$text"`, a simple string `"+text"`, an integer a
 * number, an array `["*", …]`, a map `["%", key, value, …]`, a set `["~", …]`, the null `null`.
 * Strings are bytes as latin1 (all ASCII in practice).
 *
 * Subcommand order: a container's subcommands come in the order of its dict on the server, which
 * depends on the process (hash seed) and can change while the dict is still being rehashed
 * (incrementally, on lookups) shortly after start: then the RESP2 check below fails, and a second
 * run (after those lookups) records a stable order. Clients must not depend on it; the engine
 * answers the recorded order, and a server restarted since needs a new recording for the
 * byte-for-byte tests (__tests__/server/command-info-docs.test.ts) to pass.
 *
 * The files are written as TypeScript modules holding one JSON string (parsed on first use): the
 * engine requires them lazily, on the first COMMAND INFO/DOCS/LIST/COUNT, so they are in no
 * bundle (scripts/bundle-dist.js groups top-level requires only) and ship as dist files.
 */
'use strict';
const fs = require('fs');
const net = require('net');
const path = require('path');

const OUT_DIR = path.join(__dirname, '..', 'lib', 'commands', 'server');
const targets = process.argv.slice(2).length ? process.argv.slice(2) : ['7.0=redis://127.0.0.1:6399', '8=redis://127.0.0.1:6400'];
/** What each server is, for the header (its INFO gives no commit: the build says 255.255.255, sha1 00000000). */
const NOTES = {
  '7.0': 'Debian redis-server 7.0.15',
  8: 'the build after 7.4 this project checks against (answers as 8.x; source tree 4f8cdc2a, as lib/commands/server/key-specs.ts records)',
};

/** A raw RESP connection: send commands, read one typed reply each. */
function connect(url) {
  const u = new URL(url);
  const socket = net.connect(Number(u.port || 6379), u.hostname);
  let buf = Buffer.alloc(0);
  const waiting = [];
  socket.on('data', (d) => {
    buf = Buffer.concat([buf, d]);
    for (;;) {
      if (!waiting.length) return;
      const r = parse(buf, 0);
      if (!r) return;
      const raw = buf.subarray(0, r.end);
      buf = buf.subarray(r.end);
      waiting.shift()({ value: r.value, raw: Buffer.from(raw) });
    }
  });
  const send = (...args) =>
    new Promise((resolve, reject) => {
      waiting.push(resolve);
      socket.once('error', reject);
      socket.write(`*${args.length}\r\n` + args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join(''));
    });
  return { send, close: () => socket.end() };
}

/** Parse one RESP2/RESP3 reply at `i` into the encoding above; null when incomplete. */
function parse(b, i) {
  const nl = b.indexOf('\r\n', i, 'latin1');
  if (nl < 0) return null;
  const t = String.fromCharCode(b[i]);
  const line = b.toString('latin1', i + 1, nl);
  let p = nl + 2;
  const aggregate = (n, tag) => {
    const out = [tag];
    for (let k = 0; k < n; k++) {
      const r = parse(b, p);
      if (!r) return null;
      out.push(r.value);
      p = r.end;
    }
    return { value: out, end: p };
  };
  switch (t) {
    case '+':
      return { value: `+${line}`, end: p };
    case '-':
      return { value: { error: line }, end: p };
    case ':':
      return { value: Number(line), end: p };
    case '_':
      return { value: null, end: p };
    case '$': {
      const n = Number(line);
      if (n < 0) return { value: null, end: p };
      if (b.length < p + n + 2) return null;
      return { value: `$${b.toString('latin1', p, p + n)}`, end: p + n + 2 };
    }
    case '*':
      if (Number(line) < 0) return { value: null, end: p };
      return aggregate(Number(line), '*');
    case '~':
      return aggregate(Number(line), '~');
    case '%':
      return aggregate(2 * Number(line), '%');
    default:
      throw new Error(`record-command-table: RESP type ${t} not expected`);
  }
}

/** The RESP bytes (latin1 string) of an encoded value under protocol 2 or 3. */
function encode(v, proto) {
  if (v === null) return proto === 3 ? '_\r\n' : '$-1\r\n';
  if (typeof v === 'number') return `:${v}\r\n`;
  if (typeof v === 'string') {
    const s = v.slice(1);
    return v[0] === '+' ? `+${s}\r\n` : `$${Buffer.byteLength(s, 'latin1')}\r\n${s}\r\n`;
  }
  const [tag, ...items] = v;
  const head = proto === 2 ? '*' : tag;
  const n = tag === '%' && proto === 3 ? items.length / 2 : items.length;
  return `${head}${n}\r\n` + items.map((x) => encode(x, proto)).join('');
}

/** The INFO and DOCS entries of subcommand `name` (`container|sub`) inside its container's. */
function subEntries(data, name) {
  const parent = name.split('|')[0];
  const info = data.info[parent][10].slice(1).find((e) => e[1] === `$${name}`);
  const pd = data.docs[parent];
  const k = pd.indexOf('$subcommands');
  const sub = k < 0 ? null : pd[k + 1];
  const j = sub ? sub.indexOf(`$${name}`) : -1;
  return [info, j < 0 ? undefined : sub[j + 1]];
}

async function record(url) {
  const c = connect(url);
  const info = (await c.send('INFO', 'server')).value.slice(1);
  const field = (k) => (new RegExp(`^${k}:(.*)$`, 'm').exec(info) || [])[1]?.trim();
  const out = { server: { version: field('redis_version'), git_sha1: field('redis_git_sha1'), git_dirty: field('redis_git_dirty'), build_id: field('redis_build_id'), url } };
  const names = (await c.send('COMMAND', 'LIST')).value.slice(1).map((s) => s.slice(1)).sort();
  const byProto = {};
  for (const proto of [3, 2]) {
    await c.send('HELLO', String(proto));
    const infoR = await c.send('COMMAND', 'INFO', ...names);
    const docsR = await c.send('COMMAND', 'DOCS', ...names);
    byProto[proto] = { info: infoR, docs: docsR };
  }
  c.close();
  // RESP3 values are the record; the RESP2 bytes must follow from them
  const info3 = byProto[3].info.value.slice(1);
  const docs3 = byProto[3].docs.value;
  for (const [what, v, raw2, raw3] of [
    ['INFO', byProto[3].info.value, byProto[2].info.raw, byProto[3].info.raw],
    ['DOCS', docs3, byProto[2].docs.raw, byProto[3].docs.raw],
  ]) {
    if (encode(v, 3) !== raw3.toString('latin1')) throw new Error(`${url}: COMMAND ${what} RESP3 does not re-encode to the server's bytes`);
    const e2 = encode(v, 2);
    const r2 = raw2.toString('latin1');
    if (e2 !== r2) {
      let k = 0;
      while (e2[k] === r2[k]) k++;
      // a subcommand order that changed between the two replies: see "Subcommand order" above
      throw new Error(`${url}: COMMAND ${what} RESP2 differs from the RESP3 record flattened at byte ${k}: ${JSON.stringify(e2.slice(k - 80, k + 80))} vs ${JSON.stringify(r2.slice(k - 80, k + 80))}`);
    }
  }
  out.info = {};
  info3.forEach((entry, k) => {
    if (entry === null) throw new Error(`${url}: COMMAND INFO ${names[k]} is null`);
    out.info[names[k]] = entry;
  });
  out.docs = {};
  for (let k = 1; k < docs3.length; k += 2) out.docs[docs3[k].slice(1)] = docs3[k + 1];
  out.list = names;
  // a subcommand's entries are its container's (INFO: in its subcommands, DOCS: in its
  // `subcommands` map): kept only there, after checking they are the same
  for (const name of names.filter((n) => n.includes('|'))) {
    const [i, d] = subEntries(out, name);
    if (JSON.stringify(i) !== JSON.stringify(out.info[name]) || JSON.stringify(d) !== JSON.stringify(out.docs[name])) throw new Error(`${url}: ${name}'s entries differ from its container's`);
    delete out.info[name];
    delete out.docs[name];
  }
  return out;
}

async function main() {
  for (const t of targets) {
    const [key, url] = t.split('=');
    const data = await record(url);
    const file = path.join(OUT_DIR, `command-table-${key.replace(/\./g, '')}.ts`);
    const s = data.server;
    const header = [
      '/**',
      ` * GENERATED by scripts/record-command-table.js -- do not edit. Recorded ${new Date().toISOString().slice(0, 10)} from`,
      ` * ${NOTES[key] ?? 'a redis-server'} at ${s.url}: redis_version ${s.version}, redis_git_sha1 ${s.git_sha1}, redis_git_dirty ${s.git_dirty}, redis_build_id ${s.build_id}.`,
      ` * COMMAND INFO / COMMAND DOCS entries (RESP3 shapes, encoding in the script's header) and COMMAND LIST`,
      ` * (${data.list.length} commands). Required lazily by ./command-table.ts.`,
      ' */',
      '/* eslint-disable */',
    ].join('\n');
    const json = JSON.stringify({ server: s, list: data.list, info: data.info, docs: data.docs });
    fs.writeFileSync(file, `${header}\nconst DATA: string = ${JSON.stringify(json)};\nexport default DATA;\n`);
    console.log(`${file}: ${data.list.length} commands, ${json.length} bytes (RESP2 and RESP3 checked byte for byte)`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
