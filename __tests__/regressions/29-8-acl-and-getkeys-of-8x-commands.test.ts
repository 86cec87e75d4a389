/**
 * The commands newer than the post-7.4 build (HGETDEL, HGETEX, HSETEX of 8.0; XACKDEL, XDELEX of
 * 8.2; XNACK of 8.8) were missing from the fake's table of key specs and, the hash ones, from its
 * ACL universe (found by a differential helper): a user limited to `%R~r*` could HSETEX a key it
 * may only read, `+@hash` did not allow HGETDEL (NOPERM), ACL CAT hash left them out, and COMMAND
 * GETKEYS refused them. Key specs and categories now as redis/docs data/commands_core.json (8.x)
 * gives them (RW, @write @hash|@stream @fast).
 */
import { servedClient } from '../helpers/served-client';

describe('8.x commands in ACL and COMMAND GETKEYS', () => {
  const s = servedClient();

  it('checks key permissions: a read-only key pattern refuses HSETEX and HGETDEL', async () => {
    expect(await s.c.call('ACL', 'SETUSER', 'ro', 'on', '>p', '%R~r*', '+@all')).toBe('+OK\r\n');
    expect(await s.c.call('AUTH', 'ro', 'p')).toBe('+OK\r\n');
    expect(await s.c.call('HSETEX', 'r1', 'FIELDS', '1', 'f', 'v')).toBe("-NOPERM No permissions to access a key\r\n");
    expect(await s.c.call('HGETDEL', 'r1', 'FIELDS', '1', 'f')).toBe("-NOPERM No permissions to access a key\r\n");
    expect(await s.c.call('HGETALL', 'r1')).toBe('*0\r\n');
  });

  it('+@hash allows the 8.0 hash commands, and ACL CAT hash lists them', async () => {
    expect(await s.c.call('ACL', 'SETUSER', 'h', 'on', '>p', '~*', '+@hash')).toBe('+OK\r\n');
    expect(await s.c.call('ACL', 'DRYRUN', 'h', 'HGETDEL', 'k', 'FIELDS', '1', 'f')).toBe('+OK\r\n');
    expect(await s.c.call('ACL', 'DRYRUN', 'h', 'XACKDEL', 's', 'g', 'IDS', '1', '1-1')).toContain("User h has no permissions to run the 'xackdel' command"); // @stream
    const cat = await s.c.call('ACL', 'CAT', 'hash');
    for (const name of ['hgetdel', 'hgetex', 'hsetex']) expect(cat).toContain(`\r\n${name}\r\n`);
    expect(await s.c.call('ACL', 'CAT', 'stream')).toContain('\r\nxackdel\r\n');
  });

  it('COMMAND GETKEYS finds their key', async () => {
    expect(await s.c.call('COMMAND', 'GETKEYS', 'HGETDEL', 'k', 'FIELDS', '1', 'f')).toBe('*1\r\n$1\r\nk\r\n');
    expect(await s.c.call('COMMAND', 'GETKEYS', 'HSETEX', 'k', 'FIELDS', '1', 'f', 'v')).toBe('*1\r\n$1\r\nk\r\n');
    expect(await s.c.call('COMMAND', 'GETKEYS', 'XDELEX', 's', 'IDS', '1', '1-1')).toBe('*1\r\n$1\r\ns\r\n');
  });
});
