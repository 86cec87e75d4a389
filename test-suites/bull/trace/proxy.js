// Recording RESP2 proxy, for a differential replay of Bull's suite (see replay.js):
//   FULL=1 node proxy.js LISTEN_PORT UPSTREAM_PORT TRACE.jsonl [BULL_LIB/scripts ...]
// Forwards bytes unchanged between clients and the server at UPSTREAM_PORT and logs one JSON line
// per (command, reply) pair in the order replies arrive ({c: connection, cmd, args, r: reply
// summary, at: ms with a fraction, full: the parsed reply when FULL=1}) and one per pub/sub push.
// EVAL/EVALSHA are named after Bull's script when its lib/scripts folder is given. Run the suite
// through it with BULL_REDIS_PORT=LISTEN_PORT (redirect.js).
'use strict';
const net = require('net');
const fs = require('fs');
const crypto = require('crypto');
const { Parser } = require('./resp-parser');
const [, , lport, uport, logfile, ...scriptDirs] = process.argv;
const shaName = {};
for (const d of scriptDirs) {
  const idx = require(d + '/index.js');
  for (const v of Object.values(idx)) shaName[crypto.createHash('sha1').update(v.content).digest('hex')] = v.name;
}
const out = fs.createWriteStream(logfile);
let nconn = 0;

function summary(v) {
  if (v.t === '-') return '-' + v.v;
  if (v.t === '+' ) return '+' + v.v;
  if (v.t === ':') return ':' + (Math.abs(+v.v) < 1000 ? v.v : 'N');
  if (v.t === 'nil' || v.t === 'nilarr') return v.t;
  if (v.t === '$') return '$' + (v.v.length <= 12 ? JSON.stringify(v.v) : 'str');
  if (v.t === '*') return '[' + v.v.map(summary).join(',').slice(0, 300) + ']';
  return '?';
}
function plain(v) { return v.t === '*' ? v.v.map(plain) : v.v; }

net.createServer((c) => {
  const id = ++nconn;
  const u = net.connect(+uport, '127.0.0.1');
  const pending = [];
  let subscribed = false;
  const pc = Parser(), ps = Parser();
  c.on('data', (d) => {
    u.write(d);
    for (const v of pc(d)) {
      const args = plain(v).map(String);
      const name = (args[0] || '').toUpperCase();
      let detail = name;
      if (name === 'EVALSHA') detail = 'EVALSHA ' + (shaName[args[1]] || args[1].slice(0, 8));
      else if (name === 'EVAL') detail = 'EVAL ' + (shaName[crypto.createHash('sha1').update(args[1]).digest('hex')] || 'anon');
      else if (['CLIENT', 'SCRIPT', 'CONFIG', 'OBJECT', 'XINFO', 'COMMAND', 'MEMORY', 'FUNCTION'].includes(name)) detail = name + ' ' + (args[1] || '').toUpperCase();
      let n = 1;
      if (/^P?(UN)?SUBSCRIBE$/.test(name)) { subscribed = true; n = Math.max(1, args.length - 1); }
      for (let i = 0; i < n; i++) pending.push({ detail, args, t: Date.now(), sent: performance.timeOrigin + performance.now() });
    }
  });
  u.on('data', (d) => {
    c.write(d);
    for (const v of ps(d)) {
      if (subscribed && v.t === '*' && v.v[0] && /^p?message$/.test(v.v[0].v)) {
        out.write(JSON.stringify({ c: id, push: v.v[0].v, ch: v.v[v.v.length - 2].v }) + '\n');
        continue;
      }
      const p = pending.shift() || { detail: '??', args: [] };
      const rec = { c: id, cmd: p.detail, r: summary(v), ms: Date.now() - p.t, at: performance.timeOrigin + performance.now() };
      if (process.env.FULL) { rec.args = p.args; rec.full = v; } else rec.args = p.args.slice(0, 12).map((a) => a.slice(0, 80));
      out.write(JSON.stringify(rec) + '\n');
    }
  });
  const end = () => { c.destroy(); u.destroy(); };
  c.on('error', end); u.on('error', end); c.on('close', end); u.on('close', end);
}).listen(+lport, '127.0.0.1', () => console.log('proxy', lport, '->', uport));
