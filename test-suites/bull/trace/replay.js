// node replay.js TRACE.jsonl PORT : replay a FULL=1 proxy.js trace of a real server, in reply
// order, one command at a time, on `serve --clock manual` at PORT (MOCKCLOCK SET to each reply's
// time less EPS ms, 0.3 fits a local server), and print the replies that differ. Blocking pops
// are replayed as their non-blocking forms (one served by a later push is retried after each of
// the next 30 commands); pub/sub, INFO, CLIENT, PING and QUIT are skipped; hash replies compared
// as field sets (a real hashtable's order depends on a per-process seed). Env: EPS, FIRST=1 (only
// the first difference after each FLUSHDB: later ones usually follow from it), MAXSHOW.
// What remains on Bull's suite is replay order (pipelined replies logged by socket, not by
// execution; which blocked worker got a job) and SCAN/KEYS order of a real server's keyspace.
'use strict';
const fs = require('fs');
const net = require('net');
const readline = require('readline');
const { Parser } = require('./resp-parser');
const [, , trace, port] = process.argv;
const SKIP = new Set(['SUBSCRIBE', 'PSUBSCRIBE', 'UNSUBSCRIBE', 'PUNSUBSCRIBE', 'QUIT', 'INFO', 'CLIENT', 'MONITOR', 'PING']);
const BLOCK = { BRPOPLPUSH: (a) => ['RPOPLPUSH', a[1], a[2]], BLMOVE: (a) => ['LMOVE', a[1], a[2], a[3], a[4]],
  BRPOP: (a) => ['RPOP', a[1]], BLPOP: (a) => ['LPOP', a[1]] };
const UNORDERED = new Set(['KEYS', 'SMEMBERS', 'HKEYS', 'HVALS', 'SCAN']);

function conn() {
  const s = net.connect(+port, '127.0.0.1');
  const p = Parser();
  const waiters = [];
  s.on('data', (d) => { for (const v of p(d)) waiters.shift()(v); });
  return {
    send(args) {
      const parts = ['*' + args.length + '\r\n'];
      for (const a of args) parts.push('$' + Buffer.byteLength(a, 'latin1') + '\r\n' + a + '\r\n');
      s.write(Buffer.from(parts.join(''), 'latin1'));
      return new Promise((r) => waiters.push(r));
    },
    end() { s.destroy(); },
  };
}
function pairsSorted(v) {
  const pairs = [];
  for (let i = 0; i + 1 < v.v.length; i += 2) pairs.push([v.v[i], v.v[i + 1]]);
  pairs.sort((a, b) => (a[0].v < b[0].v ? -1 : 1));
  return { t: '*', v: pairs.flat() };
}
function norm(v, cmd, depth = 0) {
  if (process.env.HASHORDER !== '1' && v.t === '*' && v.v.length % 2 === 0 && v.v.length && (cmd === 'HGETALL' || (depth === 1 && /^EVAL/.test(cmd))) && v.v.every((x) => x.t === '$')) return pairsSorted(v);
  if (v.t === '*' && /^EVAL/.test(cmd)) return { t: '*', v: v.v.map((x) => norm(x, cmd, depth + 1)) };
  if (v.t === '*' && UNORDERED.has(cmd)) return { t: '*', v: v.v.map((x) => norm(x)).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)) };
  if (v.t === '*') return { t: '*', v: v.v.map((x) => norm(x)) };
  return v;
}
const show = (v) => { const s = JSON.stringify(v.t === '*' ? v.v.map((x) => (x.t === '*' ? show(x) : x.t === 'nil' ? null : x.t + (x.v ?? ''))) : v.t + (v.v ?? '')); return s.length > 300 ? s.slice(0, 300) + '…' : s; };

(async () => {
  const ctl = conn();
  let clock = 0;
  const conns = new Map();
  const rl = readline.createInterface({ input: fs.createReadStream(trace) });
  let n = 0, diffs = 0, replayed = 0;
  const byCmd = {};
  let seg = 0;
  const deferred = [];
  const firstSeen = new Set();
  for await (const line of rl) {
    n++;
    if (!line) continue;
    const o = JSON.parse(line);
    if (o.push || !o.args) continue;
    let args = o.args;
    const name = args[0].toUpperCase();
    if (SKIP.has(name)) continue;
    if (BLOCK[name]) args = BLOCK[name](args);
    const t = Math.floor(o.at - +(process.env.EPS || 0));
    if (t > clock) { await ctl.send(['MOCKCLOCK', 'SET', String(t)]); clock = t; }
    if (!conns.has(o.c)) conns.set(o.c, conn());
    let r = await conns.get(o.c).send(args);
    replayed++;
    // a blocked pop served by a later push (its reply logged before the pusher's): retry it after
    // each of the next commands
    for (const d of deferred.slice()) {
      const rr = await conns.get(d.o.c).send(d.args);
      d.left--;
      if (rr.t !== 'nil') { deferred.splice(deferred.indexOf(d), 1); if (JSON.stringify(rr) !== JSON.stringify(d.o.full)) { diffs++; console.log(`#${d.n} (deferred) ${d.o.cmd} real ${show(d.o.full)} fake ${show(rr)}`); } }
      else if (d.left <= 0) { deferred.splice(deferred.indexOf(d), 1); diffs++; byCmd[d.o.cmd] = (byCmd[d.o.cmd] || 0) + 1; console.log(`#${d.n} c${d.o.c} ${d.o.cmd} ${JSON.stringify(d.args)} real ${show(d.o.full)} fake never served`); }
    }
    if (BLOCK[name] && o.full.t === 'nilarr') o.full = { t: 'nil' };
    if (BLOCK[name] && r.t === 'nil' && o.full.t !== 'nil') { deferred.push({ n, o, args, left: 30 }); continue; }
    const a = JSON.stringify(norm(o.full, name)), b = JSON.stringify(norm(r, name));
    if (name === 'FLUSHDB' || name === 'FLUSHALL') seg = n;
    if (a !== b && process.env.FIRST === '1' && firstSeen.has(seg)) { diffs++; continue; }
    if (a !== b) {
      firstSeen.add(seg);
      diffs++;
      byCmd[o.cmd] = (byCmd[o.cmd] || 0) + 1;
      if (diffs <= +(process.env.MAXSHOW || 60)) {
        console.log(`#${n} c${o.c} ${o.cmd} ${JSON.stringify(args.slice(name.startsWith('EVAL') ? 2 : 1)).slice(0, 400)}`);
        console.log('   real: ' + show(o.full));
        console.log('   fake: ' + show(r));
      }
    }
  }
  console.log(`replayed ${replayed} commands, ${diffs} replies differ`, byCmd);
  ctl.end();
  for (const c of conns.values()) c.end();
})();
