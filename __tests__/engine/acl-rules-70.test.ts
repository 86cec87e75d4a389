/**
 * ACL LIST / ACL GETUSER in 7.0 mode: 7.0.15 does not keep the rules as given but rebuilds them
 * from the permission bitmap (acl.c ACLDescribeSelectorCommandRules): +@all or -@all, the
 * categories that best fit, then single-command fixes, then first-arg rules. Expected lines
 * recorded on redis-server 7.0.15 for these SETUSER sequences; its single-command fixes come in
 * the order of a seeded hash (it changes between server starts), so they are compared as a set,
 * the rest (prefix, categories, positions) exactly. 8.x mode keeps the rules as given.
 */
import Redis from 'ioredis-mock-streams';

type Client = Record<string, any>;

const SEQUENCES: [string, string, string][] = [
  // [setuser args, 7.0.15's ACL LIST line, the post-7.4 build's]
  ['u1 on >p ~* +@all', 'user u1 on #148de9c5a7a44d19e56cd9ae1a554bf67847afb0c58f6e12fa29ac7ddfca9940 ~* resetchannels +@all', 'user u1 on sanitize-payload #148de9c5a7a44d19e56cd9ae1a554bf67847afb0c58f6e12fa29ac7ddfca9940 ~* resetchannels +@all'],
  ['u2 on nopass +get +set ~k1 ~k2', 'user u2 on nopass ~k1 ~k2 resetchannels -@all +set +get', 'user u2 on nopass sanitize-payload ~k1 ~k2 resetchannels -@all +get +set'],
  ['u3 +@read -get +@write ~a* &ch*', 'user u3 off ~a* resetchannels &ch* -@all +@write +@read -get', 'user u3 off sanitize-payload ~a* resetchannels &ch* -@all +@read -get +@write'],
  ['u4 on +@all -@dangerous +keys ~*', 'user u4 on ~* resetchannels +@all -@admin -sort_ro -info -sort -restore -swapdb -flushdb -restore-asking -flushall -migrate', 'user u4 on sanitize-payload ~* resetchannels +@all -@dangerous +keys'],
  ['u5 +get|x +client|list +config|get', 'user u5 off resetchannels -@all +client|list +config|get +get|x', 'user u5 off sanitize-payload resetchannels -@all +get|x +client|list +config|get'],
  ['u6 resetkeys %R~r* %W~w* allchannels', 'user u6 off %R~r* %W~w* &* -@all', 'user u6 off sanitize-payload %R~r* %W~w* &* -@all'],
  ['u7 on >p +@all -@all +ping', 'user u7 on #148de9c5a7a44d19e56cd9ae1a554bf67847afb0c58f6e12fa29ac7ddfca9940 resetchannels -@all +ping', 'user u7 on sanitize-payload #148de9c5a7a44d19e56cd9ae1a554bf67847afb0c58f6e12fa29ac7ddfca9940 resetchannels -@all +ping'],
  ['u8 +@hash -hset +@string -@write', 'user u8 off resetchannels -@all +@hash -hsetnx -hmset +getrange +mget -hincrbyfloat -hincrby +lcs -hdel -hset +get +substr +strlen', 'user u8 off sanitize-payload resetchannels -@all +@hash -hset +@string -@write'],
  ['u9 on allkeys allcommands -flushall', 'user u9 on ~* resetchannels +@all -flushall', 'user u9 on sanitize-payload ~* resetchannels +@all -flushall'],
  ['u10 +set (+get ~x) (+hset ~h*)', 'user u10 off resetchannels -@all +set (~x resetchannels -@all +get) (~h* resetchannels -@all +hset)', 'user u10 off sanitize-payload resetchannels -@all +set (~x resetchannels -@all +get) (~h* resetchannels -@all +hset)'],
  ['u11 -@all +@read +@write -@admin ~*', 'user u11 off ~* resetchannels -@all +@read +@write -pfdebug', 'user u11 off sanitize-payload ~* resetchannels -@all +@read +@write -@admin'],
  ['u12 +acl|whoami +acl +acl|list -acl|setuser', 'user u12 off resetchannels -@all +acl -acl|setuser', 'user u12 off sanitize-payload resetchannels -@all +acl +acl|list -acl|setuser'],
  // a first-arg rule right after its command's own (Redis's unit/acl 'ACL GETUSER is able to translate back command permissions')
  ['u13 on ~* +@all -@string +incr -debug +debug|digest', 'user u13 on ~* resetchannels +@all -@string -debug +debug|digest +incr', 'user u13 on sanitize-payload ~* resetchannels +@all -@string +incr -debug +debug|digest'],
];

/** The line with each run of single-command rules (+name / -name, no @) sorted: 7.0.15's order is a hash's. */
function normalized(line: string): string {
  const out: string[] = [];
  let run: string[] = [];
  const flush = () => {
    out.push(...run.sort());
    run = [];
  };
  for (const token of line.split(' ')) {
    if (/^[+-][^@]/.test(token) && !token.includes('|')) run.push(token);
    else {
      flush();
      out.push(token);
    }
  }
  flush();
  return out.join(' ');
}

/** setuser args with selectors in parentheses kept as one argument each. */
function args(text: string): string[] {
  return text.match(/\([^)]*\)|\S+/g)!.map((a) => a);
}

describe.each([
  ['7.0', 1],
  ['8.10', 2],
] as const)('ACL LIST in %s mode', (version, column) => {
  it('spells each user as that version does', async () => {
    const r = new Redis({ port: 35_500 + column, streams: { redisVersion: version } } as never) as unknown as Client;
    for (const row of SEQUENCES) await r.call('acl', 'setuser', ...args(row[0]));
    const list: string[] = (await r.call('acl', 'list')).filter((l: string) => !l.startsWith('user default'));
    // ACL LIST goes by user name (u1, u10, u11, u12, u2 …)
    expect(list.map(normalized)).toEqual(SEQUENCES.map((row) => normalized(row[column])).sort());
    r.disconnect();
  });
});

it('ACL GETUSER in 7.0 mode rebuilds the commands of the root and of each selector', async () => {
  const r = new Redis({ port: 35_510, streams: { redisVersion: '7.0' } } as never) as unknown as Client;
  await r.call('acl', 'setuser', 'g1', '+@hash', '-hset', '+@string', '-@write', '(+acl', '+acl|list', '-acl|setuser)');
  const info = await r.call('acl', 'getuser', 'g1');
  const at = (k: string) => info[info.indexOf(k) + 1];
  expect(normalized(at('commands'))).toBe(normalized('-@all +@hash -hsetnx -hmset +getrange +mget -hincrbyfloat -hincrby +lcs -hdel -hset +get +substr +strlen'));
  expect(at('selectors')[0][1]).toBe('-@all +acl -acl|setuser');
  r.disconnect();
});

it('ACL SETUSER reset sets sanitize-payload in 7.0 mode too (recorded on 7.0.15)', async () => {
  const r = new Redis({ port: 35_511, streams: { redisVersion: '7.0' } } as never) as unknown as Client;
  await r.call('acl', 'setuser', 'r1', 'reset');
  await r.call('acl', 'setuser', 'r2', 'reset', 'on', 'nopass', '+@all');
  const list: string[] = (await r.call('acl', 'list')).filter((l: string) => !l.startsWith('user default'));
  expect(list).toEqual([
    'user r1 off sanitize-payload resetchannels -@all',
    'user r2 on nopass sanitize-payload resetchannels +@all',
  ]);
  const info = await r.call('acl', 'getuser', 'r1');
  expect(info[info.indexOf('flags') + 1]).toEqual(['off', 'sanitize-payload']);
  r.disconnect();
});

// replies of redis-server 7.0.15 and the post-7.4 build (Redis's unit/acl-v2 'Test selector syntax error reports the error in the selector context')
it('ACL SETUSER in 7.0 mode starts a selector afresh at each opening parenthesis; 7.2+ keeps the first open', async () => {
  const r70 = new Redis({ port: 35_512, streams: { redisVersion: '7.0' } } as never) as unknown as Client;
  const r8 = new Redis({ port: 35_513, streams: { redisVersion: '8.10' } } as never) as unknown as Client;
  const nested = ['(+PING', '(+SELECT', '(+DEL'];
  await expect(r70.call('acl', 'setuser', 's1', 'on', ...nested)).rejects.toThrow("ERR Unmatched parenthesis in acl selector starting at '(+DEL'.");
  await expect(r8.call('acl', 'setuser', 's1', 'on', ...nested)).rejects.toThrow("ERR Unmatched parenthesis in acl selector starting at '(+PING'.");
  await expect(r70.call('acl', 'setuser', 's1', 'on', ...nested, ')', ')', ')')).rejects.toThrow("ERR Error in ACL SETUSER modifier ')': Syntax error");
  await expect(r8.call('acl', 'setuser', 's1', 'on', ...nested, ')', ')', ')')).rejects.toThrow("ERR Error in ACL SETUSER modifier '(+PING (+SELECT (+DEL )': Syntax error");
  expect(await r8.call('acl', 'getuser', 's1')).toBeNull();
  expect(await r70.call('acl', 'setuser', 's1', 'on', ...nested, ')')).toBe('OK');
  const info = await r70.call('acl', 'getuser', 's1');
  expect(info[info.indexOf('selectors') + 1]).toEqual([['commands', '-@all +del', 'keys', '', 'channels', '']]);
  r70.disconnect();
  r8.disconnect();
});
