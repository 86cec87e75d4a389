/**
 * The CONFIG parameter table (lib/config/params.ts) against the real servers: CONFIG GET *
 * answers the same names, with the same defaults (but the values that differ per server), in
 * each emulated version; CONFIG SET validates and normalises the stored-only parameters added
 * from config.c as Redis does (special formats included), and without a real server the
 * per-server values and round-trips are checked on the fake alone.
 */
import { createConnection } from '../../lib/engine';
import { toResp2Plain } from '../../lib/reply/reply';
import { connectReal, describeOnRealServers, expectSameOutcomes, type AnyClient } from '../helpers/real-server';

let port = 46_300;

/**
 * Values that differ between two real servers (or from a server started without a config file):
 * the port, the working directory, the pid file and daemonize (the real ones run daemonized),
 * and `save` (the real ones are started with `save ""`).
 */
// what the server's command line sets (CI's servers: --port --bind --dir --pidfile --logfile --daemonize --save '')
const PER_SERVER = new Set(['port', 'bind', 'dir', 'pidfile', 'logfile', 'daemonize', 'save']);

function pairs(flat: unknown): Map<string, string> {
  const list = (flat as (Buffer | string)[]).map((v) => (Buffer.isBuffer(v) ? v.toString('latin1') : v));
  const m = new Map<string, string>();
  for (let i = 0; i < list.length; i += 2) m.set(list[i], list[i + 1]);
  return m;
}

async function fakeConfigGetAll(fake: { execute(argv: string[]): unknown }): Promise<Map<string, string>> {
  return pairs(toResp2Plain((await fake.execute(['CONFIG', 'GET', '*'])) as never));
}

/** Each step leaves the real server's configuration as it found it (defaults restored). */
const SET_STEPS: string[][] = [
  ['CONFIG', 'SET', 'dir', '/tmp'],
  ['CONFIG', 'SET', 'port', 'abc'],
  ['CONFIG', 'SET', 'port', '70000'],
  ['CONFIG', 'SET', 'tcp-backlog', '5'],
  ['CONFIG', 'SET', 'pidfile', '/x'],
  ['CONFIG', 'SET', 'cluster-enabled', 'yes'],
  ['CONFIG', 'SET', 'server_cpulist', '1'],
  ['CONFIG', 'SET', 'server-cpulist', '1'],
  ['CONFIG', 'SET', 'client-output-buffer-limit', 'foo 1 2 3'],
  ['CONFIG', 'SET', 'client-output-buffer-limit', 'normal 1 2'],
  ['CONFIG', 'SET', 'client-output-buffer-limit', 'normal 1x 2 3'],
  ['CONFIG', 'SET', 'client-output-buffer-limit', 'master 1 2 3'],
  ['CONFIG', 'SET', 'client-output-buffer-limit', 'normal 1 2 -1'],
  ['CONFIG', 'SET', 'client-output-buffer-limit', 'Replica 1mb 2gb 30 pubsub 1k 2kb 5'],
  ['CONFIG', 'GET', 'client-output-buffer-limit'],
  ['CONFIG', 'SET', 'client-output-buffer-limit', ''],
  ['CONFIG', 'GET', 'client-output-buffer-limit'],
  ['CONFIG', 'SET', 'client-output-buffer-limit', 'normal 99999999999999999999 1 0'],
  ['CONFIG', 'SET', 'client-output-buffer-limit', 'normal 18446744073709551615 1 4294967297'],
  ['CONFIG', 'GET', 'client-output-buffer-limit'],
  ['CONFIG', 'SET', 'client-output-buffer-limit', 'normal 1 1 2147483648'],
  ['CONFIG', 'SET', 'client-output-buffer-limit', 'normal 1GB 1Kb 00'],
  ['CONFIG', 'GET', 'client-output-buffer-limit'],
  ['CONFIG', 'SET', 'client-output-buffer-limit', 'normal 1 1  1'],
  ['CONFIG', 'SET', 'client-output-buffer-limit', 'normal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60'],
  ['CONFIG', 'SET', 'oom-score-adj-values', '1 2'],
  ['CONFIG', 'SET', 'oom-score-adj-values', '1 2 3000'],
  ['CONFIG', 'SET', 'oom-score-adj-values', '-5 +10 20'],
  ['CONFIG', 'GET', 'oom-score-adj-values'],
  ['CONFIG', 'SET', 'oom-score-adj-values', '1  2'],
  ['CONFIG', 'GET', 'oom-score-adj-values'],
  ['CONFIG', 'SET', 'oom-score-adj-values', ' 1 2 3'],
  ['CONFIG', 'SET', 'oom-score-adj-values', '0 200 800'],
  ['CONFIG', 'SET', 'oom-score-adj', 'maybe'],
  ['CONFIG', 'SET', 'oom-score-adj', 'relative'],
  ['CONFIG', 'GET', 'oom-score-adj'],
  ['CONFIG', 'SET', 'oom-score-adj', 'no'],
  ['CONFIG', 'SET', 'shutdown-on-sigint', 'save nosave'],
  ['CONFIG', 'SET', 'shutdown-on-sigint', 'bogus'],
  ['CONFIG', 'SET', 'shutdown-on-sigint', ''],
  ['CONFIG', 'SET', 'shutdown-on-sigint', 'NOW save force'],
  ['CONFIG', 'GET', 'shutdown-on-sigint'],
  ['CONFIG', 'SET', 'shutdown-on-sigint', 'default save'],
  ['CONFIG', 'GET', 'shutdown-on-sigint'],
  ['CONFIG', 'SET', 'shutdown-on-sigint', 'default'],
  ['CONFIG', 'SET', 'latency-tracking-info-percentiles', '101'],
  ['CONFIG', 'SET', 'latency-tracking-info-percentiles', 'x'],
  ['CONFIG', 'SET', 'latency-tracking-info-percentiles', '1.50 99.999 100 0'],
  ['CONFIG', 'GET', 'latency-tracking-info-percentiles'],
  ['CONFIG', 'SET', 'latency-tracking-info-percentiles', ''],
  ['CONFIG', 'GET', 'latency-tracking-info-percentiles'],
  ['CONFIG', 'SET', 'latency-tracking-info-percentiles', '1e1 .5 5.'],
  ['CONFIG', 'GET', 'latency-tracking-info-percentiles'],
  ['CONFIG', 'SET', 'latency-tracking-info-percentiles', '50 99 99.9'],
  ['CONFIG', 'SET', 'activedefrag', 'yes'],
  ['CONFIG', 'SET', 'activedefrag', 'no'],
  ['CONFIG', 'SET', 'cluster-announce-hostname', 'a_b'],
  ['CONFIG', 'SET', 'cluster-announce-hostname', 'host-1.example'],
  ['CONFIG', 'GET', 'cluster-announce-hostname'],
  ['CONFIG', 'SET', 'cluster-announce-hostname', ''],
  ['CONFIG', 'SET', 'cluster-announce-human-nodename', 'a#b'],
  ['CONFIG', 'SET', 'locale-collate', 'bogus'],
  ['CONFIG', 'SET', 'proc-title-template', '{bogus}'],
  ['CONFIG', 'SET', 'proc-title-template', '{title}'],
  ['CONFIG', 'SET', 'proc-title-template', '{title} {port} {{x'],
  ['CONFIG', 'GET', 'proc-title-template'],
  ['CONFIG', 'SET', 'proc-title-template', '{title} {listen-addr} {server-mode}'],
  ['CONFIG', 'SET', 'unixsocketperm', '1'],
  ['CONFIG', 'SET', 'cluster-node-timeout', '20000'],
  ['CONFIG', 'GET', 'cluster-node-timeout'],
  ['CONFIG', 'SET', 'cluster-node-timeout', '15000'],
  ['CONFIG', 'SET', 'replica-priority', '5'],
  ['CONFIG', 'GET', 'slave-priority'],
  ['CONFIG', 'SET', 'slave-priority', '100'],
  ['CONFIG', 'SET', 'active-defrag-ignore-bytes', '0'],
  ['CONFIG', 'SET', 'active-defrag-ignore-bytes', '200mb'],
  ['CONFIG', 'GET', 'active-defrag-ignore-bytes'],
  ['CONFIG', 'SET', 'active-defrag-ignore-bytes', '104857600'],
  ['CONFIG', 'SET', 'tls-auth-clients', 'optional'],
  ['CONFIG', 'GET', 'tls-auth-clients'],
  ['CONFIG', 'SET', 'tls-auth-clients', 'yes'],
  ['CONFIG', 'GET', 'aof-disable-auto-gc'],
  ['CONFIG', 'GET', 'max-new-connections-per-cycle'],
  ['CONFIG', 'SET', 'max-new-connections-per-cycle', '0'],
  ['CONFIG', 'SET', 'cluster-link-sendbuf-limit', '1k'],
  ['CONFIG', 'GET', 'cluster-link-sendbuf-limit'],
  ['CONFIG', 'SET', 'cluster-link-sendbuf-limit', '0'],
];

/** The defaults SET_STEPS change, put back on the real server whatever happened. */
const RESTORE: string[] = [
  'client-output-buffer-limit', 'normal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60',
  'oom-score-adj-values', '0 200 800',
  'oom-score-adj', 'no',
  'shutdown-on-sigint', 'default',
  'latency-tracking-info-percentiles', '50 99 99.9',
  'cluster-announce-hostname', '',
  'proc-title-template', '{title} {listen-addr} {server-mode}',
  'cluster-node-timeout', '15000',
  'replica-priority', '100',
  'active-defrag-ignore-bytes', '104857600',
  'tls-auth-clients', 'yes',
  'cluster-link-sendbuf-limit', '0',
];

// skip: skips (with the helper's message) without REDIS_URL / REDIS_UNSTABLE_URL: nothing to
// compare with; CI sets both
describeOnRealServers('CONFIG GET * and CONFIG SET of the parameter table', ({ url, version }) => {
  let real: AnyClient;
  beforeAll(async () => {
    real = await connectReal(url, 15, {}, false);
  });
  afterAll(() => real.disconnect());

  it('answers the same parameter names, with the same defaults but the per-server values', async () => {
    const fake = createConnection({ port: port++, streams: { redisVersion: version } });
    const realAll = pairs(await real.call('CONFIG', 'GET', '*'));
    const fakeAll = await fakeConfigGetAll(fake);
    expect([...fakeAll.keys()].sort()).toEqual([...realAll.keys()].sort());
    const values = (m: Map<string, string>) => [...m].filter(([n]) => !PER_SERVER.has(n)).sort(([a], [b]) => (a < b ? -1 : 1));
    expect(values(fakeAll)).toEqual(values(realAll));
  });

  it('validates, normalises and stores CONFIG SET values of the stored-only parameters', async () => {
    const fake = createConnection({ port: port++, streams: { redisVersion: version } });
    try {
      await expectSameOutcomes(real, fake, SET_STEPS);
    } finally {
      for (let i = 0; i < RESTORE.length; i += 2) await real.call('CONFIG', 'SET', RESTORE[i], RESTORE[i + 1]).catch(() => undefined);
    }
  });
});

describe('CONFIG per-server values and new parameters on the fake', () => {
  it('answers port as the server port, dir as the working directory, pidfile empty, daemonize no', async () => {
    const fake = createConnection({ port: 46_399 });
    const all = await fakeConfigGetAll(fake);
    expect([all.get('port'), all.get('dir'), all.get('pidfile'), all.get('daemonize')]).toEqual(['46399', process.cwd(), '', 'no']);
    expect(all.get('client-output-buffer-limit')).toBe('normal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60');
  });

  it('round-trips CONFIG SET of mutable new parameters and refuses immutable and protected ones', async () => {
    const fake = createConnection({ port: port++ });
    const run = async (...argv: string[]) => {
      try {
        return toResp2Plain((await fake.execute(argv)) as never);
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(await run('CONFIG', 'SET', 'client-output-buffer-limit', 'pubsub 64mb 16mb 90', 'tls-port', '6380', 'port', '7000')).toBe('OK');
    expect(await run('CONFIG', 'GET', 'client-output-buffer-limit')).toEqual([
      'client-output-buffer-limit', 'normal 0 0 0 slave 268435456 67108864 60 pubsub 67108864 16777216 90',
    ]);
    expect(await run('CONFIG', 'GET', 'tls-port')).toEqual(['tls-port', '6380']);
    expect(await run('CONFIG', 'GET', 'port')).toEqual(['port', '7000']);
    expect(await run('CONFIG', 'SET', 'port', '6379', 'tcp-backlog', '10')).toBe(
      "ERR CONFIG SET failed (possibly related to argument 'tcp-backlog') - can't set immutable config",
    );
    expect(await run('CONFIG', 'SET', 'dir', '/')).toBe("ERR CONFIG SET failed (possibly related to argument 'dir') - can't set protected config");
  });

  it('keeps parameters 7.0.15 lacks unknown in 7.0 mode, and its underscore cpulist names', async () => {
    const fake = createConnection({ port: port++, streams: { redisVersion: '7.0' } });
    const get = async (name: string) => toResp2Plain((await fake.execute(['CONFIG', 'GET', name])) as never);
    expect(await get('locale-collate')).toEqual([]);
    expect(await get('max-new-connections-per-cycle')).toEqual([]);
    expect(await get('server-cpulist')).toEqual([]);
    expect(await get('server_cpulist')).toEqual(['server_cpulist', '']);
    expect(await get('aof-disable-*')).toEqual(['aof-disable-auto-gc', 'no']);
  });
});
