/**
 * A hash field found expired by a command (before active expiry removed it) is deleted and an
 * HDEL per field goes to the replicas, in the command's unit ahead of the command (t_hash.c
 * propagateHashFieldDeletion). Recorded on the post-7.4 build with active expiry off (DEBUG
 * SET-ACTIVE-EXPIRE 0, a replica attached by SYNC): HSET h f v g w x y; HPEXPIRE h 50 FIELDS 2 f g;
 * 200 ms later HGET h f → nil, the stream `HDEL h f`. The fake removes every due field of the hash
 * at once (as if active expiry had just run), so HGET sends an HDEL for g too, each HDEL a unit of
 * its own as active expiry's.
 * Here the keyspace clock has no timers (active expiry never fires): the lazy path alone.
 */
import type { Clock } from '../../lib/clock/clock';
import { Connection, createConnection } from '../../lib/engine';
import { commandsOf } from '../helpers/replication-commands';

let port = 55_300;
beforeEach(() => {
  port++;
});
const open: Connection[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});

let now = 1_800_000_000_000;
const clock: Clock = { now: () => now, schedule: () => ({ cancel: () => undefined }), kind: 'custom' };

describe('lazy hash field expiry on a master with a replica', () => {
  it('sends an HDEL per field removed by a command, ahead of that command; nothing more for an HSET after', async () => {
    const c = createConnection({ port, streams: { clock } });
    const rep = createConnection({ port });
    open.push(c, rep);
    await rep.execute(['SYNC']);
    let stream = '';
    rep.replicaFeed!.connect((d) => {
      stream += d;
    });
    stream = '';
    await c.execute(['HSET', 'h', 'f', 'v', 'g', 'w', 'x', 'y']);
    await c.execute(['HPEXPIRE', 'h', '50', 'FIELDS', '2', 'f', 'g']);
    now += 200;
    expect(await c.execute(['HGET', 'h', 'f'])).toBeNull();
    await c.execute(['HSET', 'h', 'z', '1']);
    expect(((await c.execute(['HGETALL', 'h'])) as { items: unknown[] }).items).toEqual(['x', 'y', 'z', '1']);
    const cmds = commandsOf(stream).filter((a) => a[0] !== 'SELECT' && a[0] !== 'PING');
    expect(cmds).toEqual([
      ['HSET', 'h', 'f', 'v', 'g', 'w', 'x', 'y'],
      ['HPEXPIREAT', 'h', String(1_800_000_000_050), 'FIELDS', '2', 'f', 'g'],
      ['HDEL', 'h', 'g'], // listpack order: fields with a TTL sit at its end, by TTL (as active expiry sends them)
      ['HDEL', 'h', 'f'],
      ['HSET', 'h', 'z', '1'],
    ]);
  });
});
