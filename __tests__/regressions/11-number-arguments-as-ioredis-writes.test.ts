/**
 * Found by a new-user trial (real ioredis 6.0.0 seen through redis-cli MONITOR): ioredis 6 writes
 * a number argument that is an integer past 2^53 with all its digits (utils toArg:
 * `BigInt(n).toString()`: 2 ** 70 goes out as `1180591620717411303424`, 1e23 as
 * `99999999999999991611392`), ioredis 5 as `String(n)` (`1.1805916207174113e+21`, `1e+23`). The
 * fake wrote `String(n)` for both, so SET/GET, stream fields and INCRBYFLOAT stored other text
 * than a server receives. Smaller numbers and fractions are written the same by both.
 * The new-user trial of the numeric ID storage found the same with `keyPrefix`: the prefixing
 * step turned every argument into `String(n)`, so stream fields went out as `1e+21`.
 */
import { type AnyClient, ioredisMajor, itOnFakeAndServer } from '../helpers/real-server';

async function script(r: AnyClient, k: string): Promise<unknown[]> {
  const [s, x, f] = [`${k}:s`, `${k}:x`, `${k}:f`];
  await r.del(s, x, f);
  await r.set(s, 2 ** 70);
  const out: unknown[] = [await r.get(s)];
  await r.set(s, 1e21);
  out.push(await r.get(s));
  await r.xadd(x, '1-1', 'f', 1e23, 'g', 0.1, 'h', 2 ** 53 + 2);
  out.push((await r.xrange(x, '-', '+'))[0][1]);
  out.push(await r.incrbyfloat(f, 2 ** 70));
  out.push(await r.call('GET', s));
  await r.del(s, x, f);
  return out;
}

const EXPECTED =
  ioredisMajor >= 6
    ? ['1180591620717411303424', '1000000000000000000000', ['f', '99999999999999991611392', 'g', '0.1', 'h', '9007199254740994'], '1180591620717411303424', '1000000000000000000000']
    : ['1.1805916207174113e+21', '1e+21', ['f', '1e+23', 'g', '0.1', 'h', '9007199254740994'], '1180591620717411299968', '1e+21'];

/** Stream commands of a client with `keyPrefix`: only the keys get the prefix, the numbers are written as without it. */
async function prefixedScript(r: AnyClient, k: string): Promise<unknown[]> {
  await r.del(k);
  await r.xadd(k, '1-1', 'f', 1e21, 'g', 2 ** 64, 'h', 0.5);
  await r.call('XADD', k, '2-1', 'f', 1e23);
  const out: unknown[] = (await r.xrange(k, '-', '+')).map((e: [string, string[]]) => e[1]);
  await r.del(k);
  return out;
}

const PREFIXED_EXPECTED =
  ioredisMajor >= 6
    ? [['f', '1000000000000000000000', 'g', '18446744073709551616', 'h', '0.5'], ['f', '99999999999999991611392']]
    : [['f', '1e+21', 'g', '18446744073709552000', 'h', '0.5'], ['f', '1e+23']];

describe('number arguments', () => {
  itOnFakeAndServer('are written as the installed ioredis writes them (ioredis 6: integers past 2^53 in full)', 'number arguments', { port: 50_916, key: 'numargs' }, script, EXPECTED);
  itOnFakeAndServer(
    'are written the same way by a client with keyPrefix (only its keys change)',
    'number arguments with keyPrefix',
    { port: 50_927, key: 'numargs-prefixed', options: { keyPrefix: 'np:' } },
    prefixedScript,
    PREFIXED_EXPECTED,
  );
});
