// Incremental RESP2 parser shared by proxy.js and replay.js: Parser() returns feed(chunk) -> the
// values complete so far ({t, v}); a line that is no RESP type is an inline command.
'use strict';

function Parser() {
  let buf = Buffer.alloc(0);
  function parse(pos) {
    if (pos >= buf.length) return null;
    const t = String.fromCharCode(buf[pos]);
    const eol = buf.indexOf('\r\n', pos);
    if (eol < 0) return null;
    const line = buf.toString('latin1', pos + 1, eol);
    if (t === '+') return [{ t: '+', v: line }, eol + 2];
    if (t === '-') return [{ t: '-', v: line }, eol + 2];
    if (t === ':') return [{ t: ':', v: line }, eol + 2];
    if (t === '$') {
      const n = +line;
      if (n < 0) return [{ t: 'nil' }, eol + 2];
      if (eol + 2 + n + 2 > buf.length) return null;
      return [{ t: '$', v: buf.toString('latin1', eol + 2, eol + 2 + n) }, eol + 2 + n + 2];
    }
    if (t === '*') {
      const n = +line;
      if (n < 0) return [{ t: 'nilarr' }, eol + 2];
      const items = [];
      let p = eol + 2;
      for (let i = 0; i < n; i++) {
        const r = parse(p);
        if (!r) return null;
        items.push(r[0]);
        p = r[1];
      }
      return [{ t: '*', v: items }, p];
    }
    // inline command
    return [{ t: 'inline', v: buf.toString('latin1', pos, eol).split(' ').map((v) => ({ t: '$', v })) }, eol + 2];
  }
  return (chunk) => {
    buf = Buffer.concat([buf, chunk]);
    const res = [];
    let pos = 0;
    for (;;) {
      const r = parse(pos);
      if (!r) break;
      res.push(r[0]);
      pos = r[1];
    }
    buf = buf.subarray(pos);
    return res;
  };
}

module.exports = { Parser };
