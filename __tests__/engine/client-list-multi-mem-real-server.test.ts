/**
 * CLIENT LIST / CLIENT INFO `multi-mem`: the bytes of the commands MULTI queued (multi.c
 * queueMultiCommand adds each argument's length and a pointer per argument to `argv_len_sums`),
 * shown while the transaction is open, still while EXEC runs the commands, 0 after. It was always
 * 0. Compared with both real servers on the same sequences (arguments with non-ASCII bytes too).
 */
import { createConnection } from '../../lib/engine';
import { toResp2Plain } from '../../lib/reply/reply';
import { connectReal, describeOnRealServers, type AnyClient } from '../helpers/real-server';

const fieldOf = (line: string, name: string): string | undefined => line.split(/[ \n]/).find((f) => f.startsWith(`${name}=`))?.slice(name.length + 1);

/** The `multi-mem` and `multi` fields of the connection named `name` in a CLIENT LIST reply. */
function listed(list: string, name: string): [string | undefined, string | undefined] {
  const line = list.split('\n').find((l) => fieldOf(l, 'name') === name) ?? '';
  return [fieldOf(line, 'multi'), fieldOf(line, 'multi-mem')];
}

interface Side {
  a(argv: string[]): Promise<unknown>;
  b(argv: string[]): Promise<unknown>;
}

const asText = (v: unknown): unknown => (Buffer.isBuffer(v) ? v.toString('latin1') : Array.isArray(v) ? v.map(asText) : v);

/** The observations: multi-mem seen by another connection while queueing, by the client itself inside EXEC, and after. */
async function observe(side: Side): Promise<unknown[]> {
  const out: unknown[] = [];
  await side.a(['CLIENT', 'SETNAME', 'queuer']);
  await side.a(['MULTI']);
  await side.a(['SET', 'a', '1']);
  out.push(listed(String(asText(await side.b(['CLIENT', 'LIST']))), 'queuer'));
  await side.a(['LPUSH', 'l', 'x', 'yy', '\xff\xfe\xc3\xa9']);
  out.push(listed(String(asText(await side.b(['CLIENT', 'LIST']))), 'queuer'));
  await side.a(['CLIENT', 'INFO']);
  const replies = asText(await side.a(['EXEC'])) as unknown[];
  out.push([fieldOf(String(replies[2]), 'multi'), fieldOf(String(replies[2]), 'multi-mem')]);
  out.push(listed(String(asText(await side.b(['CLIENT', 'LIST']))), 'queuer'));
  // a transaction bound to fail (an unknown command): what was queued before stays counted
  await side.a(['MULTI']);
  await side.a(['SET', 'k', 'v']);
  await side.a(['NOSUCHCOMMAND', 'x']).catch(() => undefined);
  await side.a(['GET', 'k']);
  out.push(listed(String(asText(await side.b(['CLIENT', 'LIST']))), 'queuer'));
  await side.a(['DISCARD']);
  out.push(listed(String(asText(await side.b(['CLIENT', 'LIST']))), 'queuer'));
  return out;
}

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers('CLIENT LIST multi-mem', (server) => {
  let realA: AnyClient;
  let realB: AnyClient;
  beforeAll(async () => {
    realA = await connectReal(server.url, 14);
    realB = await connectReal(server.url, 14, {}, false);
  });
  afterAll(() => {
    realA?.disconnect();
    realB?.disconnect();
  });

  it('counts the queued commands as multi.c does, while queueing and inside EXEC, and 0 after', async () => {
    const call = (c: AnyClient) => (argv: string[]) => c.callBuffer(argv[0], ...argv.slice(1).map((a) => Buffer.from(a, 'latin1')));
    const expected = await observe({ a: call(realA), b: call(realB) });
    const port = server.version === '7.0' ? 47_961 : 47_962;
    const a = createConnection({ port, streams: { redisVersion: server.version } });
    const b = createConnection({ port, streams: { redisVersion: server.version } });
    try {
      await a.execute(['SELECT', '14']);
      const run = (c: typeof a) => async (argv: string[]) => toResp2Plain(await c.execute(argv));
      const got = await observe({ a: run(a), b: run(b) });
      expect(got).toEqual(expected);
      // the figures themselves: argument bytes + 8 per argument (SET a 1: 5 + 24; LPUSH l x yy
      // and a 4-byte element: 13 + 40; CLIENT INFO: 10 + 16); the command after the error is not kept
      expect(expected).toEqual([
        ['1', '29'],
        ['2', '82'],
        ['3', '108'],
        ['-1', '0'],
        ['1', '29'],
        ['-1', '0'],
      ]);
    } finally {
      a.close();
      b.close();
    }
  });
});
