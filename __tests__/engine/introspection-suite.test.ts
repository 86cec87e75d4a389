/**
 * What Redis's unit/introspection suite found missing, with replies recorded on redis-server
 * 7.0.15 and the post-7.4 build: MIGRATE's argument checks and NOKEY (the MONITOR redaction test
 * migrates a missing key), CONFIG parameters maxmemory-clients (memory or percent), daemonize and
 * replicaof (immutable), bind, the hidden key-load-delay / rdb-key-save-delay, and a BGSAVE that
 * lasts keys × rdb-key-save-delay µs on the keyspace clock (INFO rdb_bgsave_in_progress).
 */
import { Connection, createConnection } from '../../lib/engine';
import { MapReply, SimpleString, VerbatimReply } from '../../lib/reply/reply';

let port = 54_900;
beforeEach(() => {
  port++;
});
const open: Connection[] = [];
function conn(version?: string): Connection {
  const c = createConnection({ port, ...(version ? { streams: { redisVersion: version } } : {}) } as never);
  open.push(c);
  return c;
}
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});
async function run(c: Connection, ...argv: string[]): Promise<unknown> {
  try {
    const r = await c.execute(argv);
    if (r instanceof MapReply) return r.items;
    return r instanceof SimpleString ? `+${r.value}` : r;
  } catch (e) {
    return `-${(e as Error).message}`;
  }
}
const info = async (c: Connection, field: string) => {
  const r = await c.execute(['INFO', 'persistence']);
  const text = r instanceof VerbatimReply ? r.text : String(r);
  return new RegExp(`${field}:(\\S+)`).exec(text)![1];
};

describe('MIGRATE (cluster.c migrateCommand)', () => {
  it.each([
    [['k', '9', '5000'], '+NOKEY'],
    [['k', '9', '5000', 'AUTH', 'pw'], '+NOKEY'],
    [['k', '9', '5000', 'AUTH2', 'u', 'pw'], '+NOKEY'],
    [['k', '9', '5000', 'COPY', 'REPLACE', 'COPY'], '+NOKEY'],
    [['', '9', '5000', 'KEYS', 'a', 'b'], '+NOKEY'],
    [['', '9', '5000', 'KEYS'], '+NOKEY'],
    [['', '9', '5000'], '+NOKEY'],
    [['k', '9', '5000', 'AUTH'], '-ERR syntax error'],
    [['k', '9', '5000', 'AUTH2', 'u'], '-ERR syntax error'],
    [['k', '9', '5000', 'bogus'], '-ERR syntax error'],
    [['k', '9', '5000', 'KEYS', 'a'], '-ERR When using MIGRATE KEYS option, the key argument must be set to the empty string'],
    [['k', 'x', '5000'], '-ERR value is not an integer or out of range'],
    [['k', '9', 'x'], '-ERR value is not an integer or out of range'],
    [['k', '9'], "-ERR wrong number of arguments for 'migrate' command"],
  ])('MIGRATE host port %j answers %s', async (args, reply) => {
    expect(await run(conn(), 'MIGRATE', '127.0.0.1', '1', ...args)).toBe(reply);
  });

  it('shows AUTH and AUTH2 arguments redacted in MONITOR', async () => {
    const m = conn();
    const c = conn();
    const lines: string[] = [];
    m.onPush((msg) => lines.push(String(msg instanceof SimpleString ? msg.value : msg)));
    await m.execute(['MONITOR']);
    await run(c, 'MIGRATE', '127.0.0.1', '1', 'k', '9', '5000', 'AUTH2', 'user', 'pw');
    expect(lines.at(-1)).toMatch(/"MIGRATE" "127.0.0.1" "1" "k" "9" "5000" "AUTH2" "\(redacted\)" "\(redacted\)"$/);
  });
});

describe('CONFIG parameters of unit/introspection', () => {
  it.each(['8.10', '7.0'])('maxmemory-clients takes a memory or a percent value up to 100%% (%s)', async (v) => {
    const c = conn(v);
    const fails = (reason: string) => `-ERR CONFIG SET failed (possibly related to argument 'maxmemory-clients') - ${reason}`;
    const steps: [string, unknown, string][] = [
      ['200%', fails('percentage argument must be less or equal to 100'), '0'],
      ['100%', '+OK', '100%'],
      ['50%', '+OK', '50%'],
      ['-1', fails('argument must be a memory or percent value'), '50%'],
      ['10mb', '+OK', '10485760'],
      ['10%', '+OK', '10%'],
      ['abc', fails('argument must be a memory or percent value'), '10%'],
      ['5%%', fails('argument must be a memory or percent value'), '10%'],
      ['0%', '+OK', '0'],
    ];
    for (const [value, reply, after] of steps) {
      expect(await run(c, 'CONFIG', 'SET', 'maxmemory-clients', value)).toEqual(reply);
      expect(await run(c, 'CONFIG', 'GET', 'maxmemory-clients')).toEqual(['maxmemory-clients', after]);
    }
  });

  it('refuses daemonize and replicaof as immutable; a failed multi-SET changes nothing', async () => {
    const c = conn();
    expect(await run(c, 'CONFIG', 'SET', 'daemonize', 'no')).toBe("-ERR CONFIG SET failed (possibly related to argument 'daemonize') - can't set immutable config");
    expect(await run(c, 'CONFIG', 'SET', 'replicaof', 'a 1')).toBe("-ERR CONFIG SET failed (possibly related to argument 'replicaof') - can't set immutable config");
    expect(await run(c, 'CONFIG', 'SET', 'maxmemory', '10000001', 'maxmemory-clients', '200%', 'client-query-buffer-limit', 'invalid')).toBe(
      "-ERR CONFIG SET failed (possibly related to argument 'maxmemory-clients') - percentage argument must be less or equal to 100",
    );
    expect(await run(c, 'CONFIG', 'GET', 'maxmemory')).toEqual(['maxmemory', '0']);
  });

  it('answers hidden parameters by name only, replicaof/slaveof from REPLICAOF, bind', async () => {
    const c = conn();
    expect(await run(c, 'CONFIG', 'GET', 'key-load-delay')).toEqual(['key-load-delay', '0']);
    expect(await run(c, 'CONFIG', 'GET', 'rdb-key-save-delay')).toEqual(['rdb-key-save-delay', '0']);
    // a pattern leaves them out (Redis answers in dict order: compared as a set of names)
    const names = ((await run(c, 'CONFIG', 'GET', '*delay*')) as string[]).filter((_, i) => i % 2 === 0);
    expect(names.sort()).toEqual(['repl-disable-tcp-nodelay', 'repl-diskless-sync-delay']);
    expect(await run(c, 'CONFIG', 'SET', 'key-load-delay', '5')).toBe('+OK');
    expect(await run(c, 'CONFIG', 'GET', 'key-load-delay')).toEqual(['key-load-delay', '5']);
    expect(await run(c, 'CONFIG', 'GET', 'bind', '*of')).toEqual(['bind', '* -::*', 'replicaof', '', 'slaveof', '']);
    await run(c, 'REPLICAOF', '10.0.0.1', '6390');
    expect(await run(c, 'CONFIG', 'GET', 'replicaof')).toEqual(['replicaof', '10.0.0.1 6390']);
    await run(c, 'REPLICAOF', 'NO', 'ONE');
    expect(await run(c, 'CONFIG', 'GET', 'slaveof')).toEqual(['slaveof', '']);
  });
});

describe('BGSAVE with rdb-key-save-delay', () => {
  it('runs keys × delay µs on the keyspace clock; SAVE/BGSAVE refused meanwhile; FLUSHALL kills it', async () => {
    const c = conn();
    await c.execute(['SET', 'k', 'v']);
    await c.execute(['CONFIG', 'SET', 'rdb-key-save-delay', '10000000']);
    expect(await run(c, 'BGSAVE')).toBe('+Background saving started');
    expect(await info(c, 'rdb_bgsave_in_progress')).toBe('1');
    expect(await run(c, 'BGSAVE')).toBe('-ERR Background save already in progress');
    expect(await run(c, 'SAVE')).toBe('-ERR Background save already in progress');
    expect(await run(c, 'BGSAVE', 'SCHEDULE')).toBe('-ERR Background save already in progress');
    expect(await run(c, 'BGSAVE', 'foo')).toBe('-ERR syntax error');
    expect(await info(c, 'rdb_changes_since_last_save')).toBe('1');
    await c.execute(['CONFIG', 'SET', 'rdb-key-save-delay', '0']);
    expect(await info(c, 'rdb_bgsave_in_progress')).toBe('1'); // the child keeps its delay
    expect(await run(c, 'FLUSHALL')).toBe('+OK');
    expect(await info(c, 'rdb_bgsave_in_progress')).toBe('0');
    expect(await info(c, 'rdb_changes_since_last_save')).toBe('2');
    expect(await run(c, 'BGSAVE')).toBe('+Background saving started');
    expect(await info(c, 'rdb_changes_since_last_save')).toBe('0');
  });
});

describe('SLOWLOG redaction of secret parameters (unit/slowlog)', () => {
  // 7.0.15 logs `config set tls-key-file-pass {}` (not redacted); the post-7.4 build redacts the
  // TLS passphrases too; both redact masteruser, masterauth, requirepass
  it.each([
    ['8.10', ['(redacted)', '(redacted)', '(redacted)', '(redacted)', '(redacted)']],
    ['7.0', ['(redacted)', '(redacted)', '(redacted)', '', '']],
  ] as const)('%s', async (v, shown) => {
    const c = conn(v);
    await c.execute(['CONFIG', 'SET', 'slowlog-log-slower-than', '0']);
    await c.execute(['SLOWLOG', 'RESET']);
    const names = ['masteruser', 'masterauth', 'requirepass', 'tls-key-file-pass', 'tls-client-key-file-pass'];
    for (const n of names) expect(await run(c, 'CONFIG', 'SET', n, '')).toBe('+OK');
    const entries = (await c.execute(['SLOWLOG', 'GET', '-1'])) as unknown[][];
    const logged = entries.map((e) => (e[3] as string[]).join(' ')).filter((l) => l.startsWith('CONFIG SET')).reverse();
    expect(logged).toEqual(names.map((n, i) => `CONFIG SET ${n} ${shown[i]}`));
  });
});
