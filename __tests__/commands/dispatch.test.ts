import { Harness } from '../helpers/harness';

describe('command dispatch (server.c processCommand)', () => {
  it('checks arity with the command name counted, naming subcommands as container|sub', () => {
    const h = new Harness();
    expect(h.error('XADD', 's', '*')).toBe("ERR wrong number of arguments for 'xadd' command");
    expect(h.error('XGROUP', 'CREATE', 's')).toBe("ERR wrong number of arguments for 'xgroup|create' command");
    expect(h.error('XGROUP')).toBe("ERR wrong number of arguments for 'xgroup' command");
  });

  it('echoes an unknown subcommand as typed, cut at 128 bytes, with the container upper-cased', () => {
    const h = new Harness();
    expect(h.error('xgroup', 'foo')).toBe("ERR unknown subcommand 'foo'. Try XGROUP HELP.");
    expect(h.error('XINFO', 'x'.repeat(200))).toBe(`ERR unknown subcommand '${'x'.repeat(128)}'. Try XINFO HELP.`);
  });

  it('reports commands the emulated version lacks as unknown, quoting arguments up to 128 bytes', () => {
    const h = new Harness();
    h.version = '7.0';
    expect(h.error('XNACK', 's', 'g')).toBe("ERR unknown command 'XNACK', with args beginning with: 's' 'g' ");
    expect(h.error('XACKDEL', 'b'.repeat(100), 'c'.repeat(100), 'd')).toBe(
      `ERR unknown command 'XACKDEL', with args beginning with: '${'b'.repeat(100)}' '${'c'.repeat(25)}' `,
    );
  });
});

describe('command registry (lib/commands/index.ts)', () => {
  it('lists every command of every command module with the module’s own name, arity and write flag', () => {
    const { COMMANDS, loadAllCommandModules } = require('../../lib/commands/index');
    const fromModules = new Map<string, { arity: number; write: boolean }>();
    for (const m of loadAllCommandModules()) for (const s of m.specs) fromModules.set(s.name, { arity: s.arity, write: s.write });
    const fromTable = new Map([...COMMANDS.values()].map((s: { name: string; arity: number; write: boolean }) => [s.name, { arity: s.arity, write: s.write }]));
    expect(fromTable).toEqual(fromModules);
    // 27 stream and keyspace commands, WAIT/WAITAOF (issue 23), 29 string and bitmap commands (issue 19), …
    expect(fromTable.size).toBeGreaterThanOrEqual(58);
  });

  it('hands out the module’s handler and subcommand table', () => {
    const { COMMANDS } = require('../../lib/commands/index');
    const xadd = require('../../lib/commands/xadd');
    const xgroup = require('../../lib/commands/xgroup');
    expect(COMMANDS.get('xadd').run).toBe(xadd.specs[0].run);
    expect(COMMANDS.get('xgroup').subcommands).toBe(xgroup.specs[0].subcommands);
  });
});
