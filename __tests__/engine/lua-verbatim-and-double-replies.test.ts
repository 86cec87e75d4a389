/**
 * A script's `{verbatim_string={format=…, string=…}}` is a verbatim reply (script_lua.c, after
 * big_number): it was read as an empty array. `{double=…}` is written as the emulated version's
 * addReplyDouble writes it: 7.0 `%.17g` (3.14 is 3.1400000000000001, Lua's 0/0 is "-nan"), 7.2+
 * the shortest round trip. Expected values recorded over raw RESP3 on redis-server 7.0.15 and the
 * post-7.4 build (`=6\r\ntxt:hi`, `,3.1400000000000001`, `,-nan` / `,nan`).
 */
import { DoubleReply, VerbatimReply } from '../../lib/reply/reply';
import { encodeToString } from '../../lib/server/resp-encoder';
import { engineConnections } from '../helpers/engine-connections';

const engine = engineConnections(36_800);
const evalIn = async (version: '7.0' | '8.10', script: string) => {
  const c = engine.conn({ streams: { redisVersion: version } });
  await c.execute(['HELLO', '3']);
  return c.execute(['EVAL', script, '0']);
};

describe('verbatim strings returned by a script', () => {
  it('keep their string and format: =6 txt:hi in RESP3, the bulk string hi in RESP2', async () => {
    const r = await evalIn('8.10', "return {verbatim_string={format='txt', string='hi'}}");
    expect(r).toEqual(new VerbatimReply('hi', 'txt'));
    expect(encodeToString(r as VerbatimReply, 3)).toBe('=6\r\ntxt:hi\r\n');
    expect(encodeToString(r as VerbatimReply, 2)).toBe('$2\r\nhi\r\n');
  });

  it('use the format’s first three characters, blanks for missing ones', async () => {
    expect(await evalIn('8.10', "return {verbatim_string={format='markdown', string='x'}}")).toEqual(new VerbatimReply('x', 'mar'));
    expect(await evalIn('7.0', "return {verbatim_string={format='a', string='x'}}")).toEqual(new VerbatimReply('x', 'a  '));
  });

  it('without a string field the table is an array (empty here), as Redis reads it', async () => {
    expect(await evalIn('8.10', "return {verbatim_string={format='txt'}}")).toEqual([]);
  });
});

describe('doubles returned by a script', () => {
  it('7.0 writes %.17g (3.1400000000000001), 8.x the shortest text (3.14)', async () => {
    expect(((await evalIn('7.0', 'return {double=3.14}')) as DoubleReply).text).toBe('3.1400000000000001');
    expect(((await evalIn('8.10', 'return {double=3.14}')) as DoubleReply).text).toBe('3.14');
    expect(((await evalIn('7.0', 'return {double=0.1}')) as DoubleReply).text).toBe('0.10000000000000001');
  });

  it('a NaN made by Lua arithmetic is "-nan" on 7.0 (glibc, x86 default NaN) and "nan" on 8.x', async () => {
    expect(((await evalIn('7.0', 'return {double=0/0}')) as DoubleReply).text).toBe('-nan');
    expect(((await evalIn('8.10', 'return {double=0/0}')) as DoubleReply).text).toBe('nan');
  });
});
