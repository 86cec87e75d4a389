/**
 * MSETEX's numkeys must be an integer in 1..INT_MAX: Redis's newer tests/unit/type/string.tcl
 * (`MSETEX - error cases`, `MSETEX - overflow protection in numkeys`) expects
 * `ERR invalid numkeys value` for `MSETEX key1 val1 ex 10` and for numkeys 2147483648, and the
 * pairs error for 2147483647. The fake answered `ERR numkeys should be greater than 0` (an assumed
 * text) and, for 2147483648, the pairs error.
 */
import Redis from 'ioredis-mock-streams';

type Client = any; // eslint-disable-line @typescript-eslint/no-explicit-any
let port = 53_900;
const client = (redisVersion = '8.10'): Client => new Redis({ port: ++port, streams: { redisVersion } } as never);

async function error(r: Client, ...args: string[]): Promise<string> {
  try {
    await r.call('MSETEX', ...args);
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
}

describe('MSETEX numkeys (Redis 8.4+)', () => {
  it('a non-integer, zero, negative or above INT_MAX numkeys is ERR invalid numkeys value', async () => {
    const r = client();
    for (const n of ['key1', '0', '-1', '2147483648', '9223372036854775808']) {
      expect([n, await error(r, n, 'key1', 'val1', 'ex', '10')]).toEqual([n, 'ERR invalid numkeys value']);
    }
    r.disconnect();
  });

  it('INT_MAX itself is accepted as a number, then short of pairs', async () => {
    const r = client();
    expect(await error(r, '2147483647', 'key1', 'val1', 'ex', '10')).toBe('ERR wrong number of key-value pairs');
    expect(await error(r, '2', 'key1', 'val1', 'key2')).toBe('ERR wrong number of key-value pairs');
    expect(await r.call('MSETEX', '1', 'key1', 'val1', 'ex', '10')).toBe(1);
    r.disconnect();
  });

  it('is still an unknown command before 8.4', async () => {
    const r = client('8.2');
    expect(await error(r, 'key1', 'val1', 'ex', '10')).toBe("ERR unknown command 'MSETEX', with args beginning with: 'key1' 'val1' 'ex' '10' ");
    r.disconnect();
  });
});
