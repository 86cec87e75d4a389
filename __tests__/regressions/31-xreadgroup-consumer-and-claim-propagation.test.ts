/**
 * What XREADGROUP sends to replicas, from Redis's newer tests/unit/type/stream-cgroups.tcl and
 * the real servers here:
 * - a consumer it creates with NOACK goes as XGROUP CREATECONSUMER ahead of the XGROUP SETID
 *   (streamPropagateConsumerCreation, 6.2+: checked on redis-server 7.0.15 and the post-7.4
 *   build); the fake sent the SETID alone, so the replica lacked the consumer, in every version;
 * - 8.8+ (redis #14963, `XREADGROUP propagates new consumer to replica`): a consumer created
 *   without NOACK by a read that delivers nothing goes as XGROUP CREATECONSUMER too; before,
 *   nothing (as both real servers);
 * - 8.4+ CLAIM: each claimed entry goes as the idempotent XCLAIM with its new owner, delivery
 *   time and count (`XREADGROUP CLAIM delivery count increments replicated correctly`); the fake
 *   sent nothing, so the replica's delivery counts stayed behind.
 */
import type { Clock } from '../../lib/clock/clock';
import { Connection, createConnection } from '../../lib/engine';
import { commandsOf } from '../helpers/replication-commands';

let port = 55_800;
const open: Connection[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});

let now = 1_800_000_000_000;
const clock: Clock = { now: () => now, schedule: () => ({ cancel: () => undefined }), kind: 'custom' };

/** The commands propagated while `steps` run (each a command, or a number of ms to advance). */
async function propagated(redisVersion: string, steps: (string[] | number)[]): Promise<string[][]> {
  const c = createConnection({ port: ++port, streams: { clock, redisVersion: redisVersion as never } });
  const rep = createConnection({ port });
  open.push(c, rep);
  await rep.execute(['SYNC']);
  let stream = '';
  rep.replicaFeed!.connect((d) => {
    stream += d;
  });
  stream = '';
  for (const s of steps) {
    if (typeof s === 'number') now += s;
    else await c.execute(s);
  }
  return commandsOf(stream).filter((a) => a[0] !== 'SELECT' && a[0] !== 'PING');
}

const SETUP = [['XADD', 's', '1-0', 'f', 'v'], ['XGROUP', 'CREATE', 's', 'grp', '$']];

describe('XREADGROUP propagation of consumers and claims', () => {
  it.each(['7.0', '8.0', '8.10'])('%s: a consumer created with NOACK goes as XGROUP CREATECONSUMER before the SETID', async (version) => {
    const cmds = await propagated(version, [...SETUP, ['XADD', 's', '2-0', 'f', 'v'], ['XREADGROUP', 'GROUP', 'grp', 'c3', 'NOACK', 'STREAMS', 's', '>']]);
    expect(cmds.slice(-4)).toEqual([
      ['MULTI'],
      ['XGROUP', 'CREATECONSUMER', 's', 'grp', 'c3'],
      ['XGROUP', 'SETID', 's', 'grp', '2-0', 'ENTRIESREAD', '2'],
      ['EXEC'],
    ]);
  });

  it('8.10: a consumer created by a read that delivers nothing goes as XGROUP CREATECONSUMER', async () => {
    const cmds = await propagated('8.10', [...SETUP, ['XREADGROUP', 'GROUP', 'grp', 'c2', 'STREAMS', 's', '>']]);
    expect(cmds.slice(2)).toEqual([['XGROUP', 'CREATECONSUMER', 's', 'grp', 'c2']]);
  });

  it('8.0: such a consumer is not propagated (as the post-7.4 build and 7.0.15)', async () => {
    const cmds = await propagated('8.0', [...SETUP, ['XREADGROUP', 'GROUP', 'grp', 'c2', 'STREAMS', 's', '>']]);
    expect(cmds.slice(2)).toEqual([]);
  });

  it('8.10: each entry XREADGROUP CLAIM claims goes as XCLAIM with its new delivery count', async () => {
    const t0 = now;
    const cmds = await propagated('8.10', [
      ['XADD', 's', '1-0', 'f', 'v'],
      ['XGROUP', 'CREATE', 's', 'grp', '0'],
      ['XREADGROUP', 'GROUP', 'grp', 'c1', 'STREAMS', 's', '>'],
      100,
      ['XREADGROUP', 'GROUP', 'grp', 'c2', 'CLAIM', '50', 'STREAMS', 's', '>'],
      100,
      ['XREADGROUP', 'GROUP', 'grp', 'c3', 'CLAIM', '50', 'STREAMS', 's', '>'],
    ]);
    const claim = (consumer: string, at: number, count: number) => ['XCLAIM', 's', 'grp', consumer, '0', '1-0', 'TIME', String(at), 'RETRYCOUNT', String(count), 'FORCE', 'JUSTID', 'LASTID', '1-0'];
    expect(cmds.slice(-2)).toEqual([claim('c2', t0 + 100, 2), claim('c3', t0 + 200, 3)]);
  });
});
