/**
 * A script of stream commands (and bad requests) whose raw reply bytes are compared with those of
 * a real redis-server: the same requests in RESP2 and, after HELLO 3, in RESP3. Every value is
 * deterministic (explicit IDs, no idle times). `runRawScript` returns one entry per step: the
 * frame(s) the server wrote, or `closed` for a connection the server closed.
 *
 * Record a real server's bytes with:
 *   npx ts-node --transpile-only __tests__/server/record-raw-replies.ts <port> > __tests__/server/raw-replies-7.0.15.json
 */
import { RawClient, request } from './raw-client';

type Step = string[] | { raw: string; closes: true };

/** The commands, run once per protocol. */
export const STREAM_STEPS: string[][] = [
  ['DEL', 's', 's2', 't', 'str'],
  ['XADD', 's', '1-1', 'a', '1', 'b', '2'],
  ['XADD', 's', '1-2', 'c', '3'],
  ['XADD', 's', '2-0', 'd', '\x00\xff'],
  ['XADD', 's', '1-0', 'x', 'y'],
  ['XADD', 's', '0-0', 'x', 'y'],
  ['XADD', 't', 'NOMKSTREAM', '*', 'x', 'y'],
  ['XADD', 's', 'MAXLEN', '-1', '*', 'x', 'y'],
  ['XADD', 's'],
  ['XLEN', 's'],
  ['XRANGE', 's', '-', '+'],
  ['XRANGE', 's', '-', '+', 'COUNT', '1'],
  ['XRANGE', 's', '(1-1', '+'],
  ['XREVRANGE', 's', '+', '-'],
  ['XRANGE', 's', 'x', '+'],
  ['XGROUP', 'CREATE', 's', 'g', '0'],
  ['XGROUP', 'CREATE', 's', 'g', '0'],
  ['XGROUP', 'CREATE', 't', 'g', '$'],
  ['XGROUP', 'CREATECONSUMER', 's', 'g', 'alice'],
  ['XREADGROUP', 'GROUP', 'g', 'alice', 'COUNT', '2', 'STREAMS', 's', '>'],
  ['XREADGROUP', 'GROUP', 'g', 'alice', 'STREAMS', 's', '0'],
  ['XREADGROUP', 'GROUP', 'g', 'bob', 'STREAMS', 's', '>'],
  ['XREADGROUP', 'GROUP', 'g', 'bob', 'STREAMS', 's', '>'],
  ['XREADGROUP', 'GROUP', 'g', 'alice', 'STREAMS', 's', '$'],
  ['XREADGROUP', 'GROUP', 'nope', 'x', 'STREAMS', 's', '>'],
  ['XREAD', 'STREAMS', 's', 's2', '0', '0'],
  ['XREAD', 'COUNT', '1', 'STREAMS', 's', '1-1'],
  ['XREAD', 'STREAMS', 's', '$'],
  ['XREAD', 'STREAMS', 's', 's2', '0'],
  ['XPENDING', 's', 'g'],
  ['XPENDING', 's', 'nope'],
  ['XACK', 's', 'g', '1-1', '9-9'],
  ['XCLAIM', 's', 'g', 'carol', '0', '1-2', 'JUSTID'],
  ['XAUTOCLAIM', 's', 'g', 'dave', '0', '0-0', 'COUNT', '10', 'JUSTID'],
  ['XDEL', 's', '2-0'],
  ['XAUTOCLAIM', 's', 'g', 'dave', '0', '0-0', 'JUSTID'],
  ['XAUTOCLAIM', 's', 'g', 'dave', '0', '0-0', 'COUNT', '0'],
  ['XINFO', 'STREAM', 's'],
  ['XINFO', 'GROUPS', 's'],
  ['XINFO', 'CONSUMERS', 's', 'nope'],
  ['XINFO', 'STREAM', 'missing'],
  ['XINFO', 'HELP'],
  ['XGROUP', 'HELP'],
  ['XGROUP', 'FOO'],
  ['XSETID', 's', '5-0'],
  ['XSETID', 's', '1-0'],
  ['XTRIM', 's', 'MAXLEN', '1'],
  ['XTRIM', 's', 'MINID', '~', '0', 'LIMIT', '5'],
  ['MULTI'],
  ['XADD', 's', '6-0', 'm', '1'],
  ['XADD', 's', '6-0', 'm', '2'],
  ['XLEN', 's'],
  ['EXEC'],
  ['XGROUP', 'DESTROY', 's', 'g'],
  ['XGROUP', 'SETID', 's', 'g', '0'],
  ['SET', 'str', 'x'],
  ['XADD', 'str', '*', 'a', 'b'],
  ['XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', 'str', '>'],
  ['FOOBAR', 'a'],
  ['DEL', 's', 's2', 't', 'str'],
  // blocking list pops that answer at once
  ['DEL', 'l', 'l2', 'l3'],
  ['RPUSH', 'l', 'a', 'b', 'c', 'd', 'e'],
  ['BLPOP', 'l2', 'l', '0'],
  ['BRPOP', 'l', '0.5'],
  ['BLMOVE', 'l', 'l3', 'LEFT', 'RIGHT', '0'],
  ['BRPOPLPUSH', 'l3', 'l', '0'],
  ['BLMPOP', '0', '2', 'l2', 'l', 'RIGHT', 'COUNT', '5'],
  ['BLPOP', 'l', 'x'],
  ['BLPOP', 'l', '-1'],
  ['BLMOVE', 'l', 'l3', 'UP', 'RIGHT', '0'],
  ['BLMPOP', '0', '0', 'l', 'LEFT'],
  ['BLMPOP', '0', '1', 'l', 'LEFT', 'COUNT', '0'],
  ['BLMPOP', '0', '1', 'l', 'LEFT', 'FOO'],
  ['XADD', 'l2', '1-1', 'f', 'v'],
  ['BLPOP', 'l2', '0'],
  ['MULTI'],
  ['BLPOP', 'none', '0'],
  ['BLMOVE', 'none', 'l', 'LEFT', 'LEFT', '0'],
  ['BRPOPLPUSH', 'none', 'l', '0'],
  ['BLMPOP', '0', '1', 'none', 'LEFT'],
  ['EXEC'],
  ['DEL', 'l', 'l2', 'l3'],
];

/** Bad requests, each on its own connection: the error frame, then the server closes. */
export const PROTOCOL_STEPS: { raw: string; closes: true }[] = [
  { raw: '*abc\r\n', closes: true },
  { raw: '*1\r\n$-5\r\n', closes: true },
  { raw: '*2\r\n$4\r\nECHO\r\nxx\r\n', closes: true },
  { raw: 'ECHO "abc\r\n', closes: true },
  { raw: 'ECHO \'a\'b\r\n', closes: true },
  { raw: '*3000000000\r\n', closes: true },
];

export interface RawResult {
  step: Step;
  proto?: 2 | 3;
  frames?: string[];
  closed?: boolean;
}

/** Replies a step writes: SUBSCRIBE-like commands are not in the script, so one frame each. */
export async function runRawScript(port: number, db = 12): Promise<RawResult[]> {
  const out: RawResult[] = [];
  const c = await RawClient.connect(port);
  try {
    await c.call('SELECT', String(db));
    for (const proto of [2, 3] as const) {
      if (proto === 3) await c.call('HELLO', '3'); // its reply carries the client id: not compared
      for (const argv of STREAM_STEPS) {
        c.write(request(...argv.map((a) => Buffer.from(a, 'latin1'))));
        out.push({ step: argv, proto, frames: await c.read(1) });
      }
    }
  } finally {
    c.close();
  }
  for (const step of PROTOCOL_STEPS) {
    const p = await RawClient.connect(port);
    p.write(step.raw);
    const frames = await p.read(1);
    await Promise.race([p.whenClosed(), new Promise((r) => setTimeout(r, 2000))]);
    out.push({ step, frames, closed: p.closed });
    p.close();
  }
  return out;
}
