import { RequestParser, splitInlineArgs, string2ll } from '../../lib/server/resp-parser';

/** Feed `chunks` one by one and collect every request taken. */
function parseAll(chunks: (string | Buffer)[], parser = new RequestParser()) {
  const out: ReturnType<RequestParser['next']>[] = [];
  for (const c of chunks) {
    parser.push(Buffer.isBuffer(c) ? c : Buffer.from(c, 'latin1'));
    for (let r = parser.next(); r; r = parser.next()) out.push(r);
  }
  return out;
}

describe('RESP request parser (networking.c processMultibulkBuffer / processInlineBuffer)', () => {
  it('parses pipelined multibulk requests, binary-safe', () => {
    const bin = Buffer.from([0, 13, 10, 255, 42]);
    const req = Buffer.concat([
      Buffer.from('*2\r\n$4\r\nPING\r\n$3\r\nabc\r\n*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$5\r\n'),
      bin,
      Buffer.from('\r\n'),
    ]);
    expect(parseAll([req])).toEqual([{ argv: ['PING', 'abc'] }, { argv: ['SET', 'k', bin.toString('latin1')] }]);
  });

  it('waits for half-sent frames, whatever the split point', () => {
    const req = '*3\r\n$4\r\nXADD\r\n$1\r\ns\r\n$10\r\n0123456789\r\n';
    for (let cut = 1; cut < req.length; cut++) {
      expect(parseAll([req.slice(0, cut), req.slice(cut)])).toEqual([{ argv: ['XADD', 's', '0123456789'] }]);
    }
    // byte by byte
    expect(parseAll([...req])).toEqual([{ argv: ['XADD', 's', '0123456789'] }]);
  });

  it('ignores *0, *-1 and empty inline lines', () => {
    expect(parseAll(['*0\r\n*-1\r\n\r\n   \r\nPING\r\n'])).toEqual([{ argv: ['PING'] }]);
  });

  it('splits inline requests like redis-cli arguments (quotes, escapes, \\n or \\r\\n)', () => {
    expect(parseAll(['SET k "a b\\x41\\n" \'it\\\'s\'\nGET k\r\n'])).toEqual([
      { argv: ['SET', 'k', 'a bA\n', "it's"] },
      { argv: ['GET', 'k'] },
    ]);
  });

  it('answers Redis\'s protocol errors and stops', () => {
    const err = (input: string) => parseAll([input]);
    expect(err('*abc\r\n')).toEqual([{ protocolError: 'Protocol error: invalid multibulk length' }]);
    expect(err('*2147483648\r\n')).toEqual([{ protocolError: 'Protocol error: invalid multibulk length' }]);
    expect(err('*1\r\n$-1\r\n')).toEqual([{ protocolError: 'Protocol error: invalid bulk length' }]);
    expect(err('*1\r\n$x\r\n')).toEqual([{ protocolError: 'Protocol error: invalid bulk length' }]);
    expect(err('*1\r\n$536870913\r\n')).toEqual([{ protocolError: 'Protocol error: invalid bulk length' }]);
    expect(err('*1\r\nfoo\r\n')).toEqual([{ protocolError: "Protocol error: expected '$', got 'f'" }]);
    expect(err('SET k "unbalanced\r\n')).toEqual([{ protocolError: 'Protocol error: unbalanced quotes in request' }]);
    expect(err('SET k "closed"x\r\n')).toEqual([{ protocolError: 'Protocol error: unbalanced quotes in request' }]);
    // requests before the bad one are still returned
    expect(err('PING\r\n*1\r\nx\r\n')).toEqual([{ argv: ['PING'] }, { protocolError: "Protocol error: expected '$', got 'x'" }]);
    const p = new RequestParser();
    p.push(Buffer.from('*x\r\nPING\r\n'));
    expect(p.next()).toEqual({ protocolError: 'Protocol error: invalid multibulk length' });
    expect(p.next()).toBeNull();
    expect(p.stopped).toBe(true);
  });

  it('limits inline lines and count lines to 64 KiB', () => {
    expect(parseAll(['A'.repeat(64 * 1024 + 1)])).toEqual([{ protocolError: 'Protocol error: too big inline request' }]);
    expect(parseAll(['*' + '1'.repeat(64 * 1024 + 1)])).toEqual([{ protocolError: 'Protocol error: too big mbulk count string' }]);
    expect(parseAll(['*1\r\n$' + '1'.repeat(64 * 1024 + 1)])).toEqual([{ protocolError: 'Protocol error: too big bulk count string' }]);
    // 64 KiB exactly still waits for the line end
    expect(parseAll(['A'.repeat(64 * 1024)])).toEqual([]);
  });

  it('applies the unauthenticated limits while AUTH is required', () => {
    let required = true;
    const parser = () => new RequestParser({ authRequired: () => required });
    expect(parseAll(['*11\r\n'], parser())).toEqual([{ protocolError: 'Protocol error: unauthenticated multibulk length' }]);
    expect(parseAll(['*1\r\n$16385\r\n'], parser())).toEqual([{ protocolError: 'Protocol error: unauthenticated bulk length' }]);
    required = false;
    expect(parseAll(['*1\r\n$16385\r\n'], parser())).toEqual([]);
  });

  it('honours a smaller proto-max-bulk-len', () => {
    expect(parseAll(['*1\r\n$11\r\n'], new RequestParser({ maxBulkLen: 10 }))).toEqual([
      { protocolError: 'Protocol error: invalid bulk length' },
    ]);
  });

  it('keeps a large bulk as chunks until it is complete (no quadratic copying)', () => {
    const p = new RequestParser();
    p.push(Buffer.from('*1\r\n$1000000\r\n'));
    expect(p.next()).toBeNull();
    for (let i = 0; i < 1000; i++) {
      p.push(Buffer.alloc(1000, 97));
      expect(p.next()).toBeNull();
    }
    expect(p.buffered).toBe(1_000_000);
    p.push(Buffer.from('\r\n'));
    const r = p.next() as { argv: string[] };
    expect(r.argv[0].length).toBe(1_000_000);
  });
});

describe('string2ll (util.c)', () => {
  it('accepts only canonical signed 64-bit decimals', () => {
    expect(string2ll('0')).toBe(0n);
    expect(string2ll('-12')).toBe(-12n);
    expect(string2ll('9223372036854775807')).toBe(9223372036854775807n);
    expect(string2ll('-9223372036854775808')).toBe(-9223372036854775808n);
    for (const bad of ['', '-', '+1', '01', '-0', ' 1', '1 ', '9223372036854775808', '1e3', '0x10']) {
      expect(string2ll(bad)).toBeNull();
    }
  });
});

describe('splitInlineArgs (sds.c sdssplitargs)', () => {
  it('handles escapes in double quotes and \\\' in single quotes', () => {
    expect(splitInlineArgs('a "\\t\\r\\b\\a\\\\\\"" \'x\\ny\'')).toEqual(['a', '\t\r\b\x07\\"', 'x\\ny']);
    expect(splitInlineArgs('"" \'\'')).toEqual(['', '']);
  });
  it('ends the line at a NUL byte, like the C string it reads', () => {
    expect(splitInlineArgs('GET a\0b')).toEqual(['GET', 'a']);
  });
  it('rejects a closing quote followed by a non-space', () => {
    expect(splitInlineArgs('"a"b')).toBeNull();
    expect(splitInlineArgs("'a'b")).toBeNull();
    expect(splitInlineArgs('"a')).toBeNull();
  });
});
