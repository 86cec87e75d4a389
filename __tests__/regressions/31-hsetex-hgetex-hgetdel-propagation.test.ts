/**
 * HSETEX, HGETEX and HGETDEL (Redis 8.0) reach replicas in the form Redis's newer
 * tests/unit/type/hash-field-expire.tcl expects (`Test Command propagated to replica as
 * expected`, `All TTLs in commands are propagated as absolute timestamp …`): HSETEX's EX, PX and
 * EXAT become PXAT <absolute ms> in their place, a past time sends the HDELs alone; HGETEX is sent
 * as HPEXPIREAT key <ms> FIELDS …, HPERSIST key FIELDS … or the HDELs; HGETDEL as HDEL. The fake
 * propagated all three as sent (a replica re-applied a relative TTL from its own clock).
 */
import type { Clock } from '../../lib/clock/clock';
import { Connection, createConnection } from '../../lib/engine';
import { commandsOf } from '../helpers/replication-commands';

let port = 55_700;
const open: Connection[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});

const NOW = 1_800_000_000_000;
const clock: Clock = { now: () => NOW, schedule: () => ({ cancel: () => undefined }), kind: 'custom' };

async function propagated(commands: string[][]): Promise<string[][]> {
  const c = createConnection({ port: ++port, streams: { clock } });
  const rep = createConnection({ port });
  open.push(c, rep);
  await rep.execute(['SYNC']);
  let stream = '';
  rep.replicaFeed!.connect((d) => {
    stream += d;
  });
  stream = '';
  for (const argv of commands) await c.execute(argv);
  return commandsOf(stream).filter((a) => a[0] !== 'SELECT' && a[0] !== 'PING');
}

describe('HSETEX / HGETEX / HGETDEL on a master with a replica (8.0+)', () => {
  it('HSETEX: a relative or EXAT time as PXAT in its place, a past time as the HDELs', async () => {
    expect(await propagated([
      ['hsetex', 'h3', 'FIELDS', '1', 'f1', 'v1'],
      ['hsetex', 'h3', 'KEEPTTL', 'FIELDS', '1', 'f1', 'v1'],
      ['hsetex', 'h3', 'FNX', 'FIELDS', '2', 'f1', 'v1', 'f2', 'v2'], // refused: not propagated
      ['hsetex', 'h3', 'EX', '10000', 'FIELDS', '1', 'f1', 'v111'],
      ['hsetex', 'h3', 'FXX', 'PX', '10000', 'FIELDS', '1', 'f1', 'v111'],
      ['hsetex', 'h3', 'EXAT', String(NOW / 1000 + 1000), 'FIELDS', '1', 'f1', 'v111'],
      ['hsetex', 'h3', 'PXAT', String(NOW + 5), 'FIELDS', '1', 'f1', 'v111'],
      ['hsetex', 'h3', 'PX', '0', 'FIELDS', '1', 'f1', 'v111'],
      ['hsetex', 'h3', 'PX', '0', 'FIELDS', '3', 'f1', 'v2', 'f2', 'v2', 'f3', 'v3'],
    ])).toEqual([
      ['hsetex', 'h3', 'FIELDS', '1', 'f1', 'v1'],
      ['hsetex', 'h3', 'KEEPTTL', 'FIELDS', '1', 'f1', 'v1'],
      ['hsetex', 'h3', 'PXAT', String(NOW + 10_000_000), 'FIELDS', '1', 'f1', 'v111'],
      ['hsetex', 'h3', 'FXX', 'PXAT', String(NOW + 10_000), 'FIELDS', '1', 'f1', 'v111'],
      ['hsetex', 'h3', 'PXAT', String(NOW + 1_000_000), 'FIELDS', '1', 'f1', 'v111'],
      ['hsetex', 'h3', 'PXAT', String(NOW + 5), 'FIELDS', '1', 'f1', 'v111'],
      ['HDEL', 'h3', 'f1'],
      ['MULTI'],
      ['HDEL', 'h3', 'f1'],
      ['HDEL', 'h3', 'f2'],
      ['HDEL', 'h3', 'f3'],
      ['EXEC'],
    ]);
  });

  it('HGETEX as HPEXPIREAT, HPERSIST or the HDELs; HGETDEL as HDEL; nothing when nothing changed', async () => {
    expect(await propagated([
      ['hsetex', 'h4', 'FIELDS', '3', 'f1', 'v1', 'f2', 'v2', 'f3', 'v3'],
      ['hgetex', 'h4', 'FIELDS', '1', 'f1'],
      ['hgetex', 'h4', 'EX', '10000', 'FIELDS', '1', 'f1'],
      ['hgetex', 'h4', 'PX', '10000', 'FIELDS', '2', 'f1', 'f2'],
      ['hgetex', 'h4', 'PX', '0', 'FIELDS', '1', 'f1'],
      ['hgetex', 'h4', 'PX', '0', 'FIELDS', '3', 'f1', 'f2', 'f3'],
      ['hsetex', 'h4', 'EX', '1000', 'FIELDS', '1', 'f4', 'v4'],
      ['hgetex', 'h4', 'PERSIST', 'FIELDS', '1', 'f4'],
      ['hgetex', 'h4', 'PERSIST', 'FIELDS', '1', 'f4'],
      ['hgetdel', 'h4', 'FIELDS', '1', 'f4'],
      ['hgetdel', 'h4', 'FIELDS', '1', 'f4'],
    ])).toEqual([
      ['hsetex', 'h4', 'FIELDS', '3', 'f1', 'v1', 'f2', 'v2', 'f3', 'v3'],
      ['HPEXPIREAT', 'h4', String(NOW + 10_000_000), 'FIELDS', '1', 'f1'],
      ['HPEXPIREAT', 'h4', String(NOW + 10_000), 'FIELDS', '2', 'f1', 'f2'],
      ['HDEL', 'h4', 'f1'],
      ['MULTI'],
      ['HDEL', 'h4', 'f2'],
      ['HDEL', 'h4', 'f3'],
      ['EXEC'],
      ['hsetex', 'h4', 'PXAT', String(NOW + 1_000_000), 'FIELDS', '1', 'f4', 'v4'],
      ['HPERSIST', 'h4', 'FIELDS', '1', 'f4'],
      ['HDEL', 'h4', 'f4'],
    ]);
  });
});
