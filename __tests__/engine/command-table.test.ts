/**
 * The engine's command table (lib/engine/commands/index.ts) is data: each command's name and
 * flags are written there and its module loads on the first use of one of its commands. The
 * table must say exactly what the modules say.
 */
describe('engine command table (lib/engine/commands/index.ts)', () => {
  type Spec = { name: string; arity: number; noAuth?: boolean; immediate?: boolean; noScript?: boolean; since?: string; run?: unknown; subcommands?: unknown };
  const flagsOf = (s: Spec) => ({ arity: s.arity, noAuth: s.noAuth ?? false, immediate: s.immediate ?? false, noScript: s.noScript ?? false, since: s.since });

  it('lists every command of every engine command module with the module’s own arity and flags', () => {
    const { CONNECTION_COMMANDS, loadAllConnectionCommandModules } = require('../../lib/engine/commands/index');
    const fromModules = new Map<string, ReturnType<typeof flagsOf>>();
    for (const m of loadAllConnectionCommandModules()) for (const s of m.specs as Spec[]) fromModules.set(s.name, flagsOf(s));
    const fromTable = new Map([...(CONNECTION_COMMANDS as Map<string, Spec>).values()].map((s) => [s.name, flagsOf(s)]));
    expect(fromTable).toEqual(fromModules);
    expect(fromTable.size).toBe(59); // + MONITOR, SHUTDOWN, ACL, PUBLISH, PUBSUB, SPUBLISH, SSUBSCRIBE, SUNSUBSCRIBE, LATENCY, SLOWLOG, CLUSTER, READONLY, READWRITE, ASKING, FCALL, FCALL_RO, SYNC, PSYNC, REPLICAOF, SLAVEOF, ROLE, LOLWUT, MODULE, FAILOVER, REPLCONF, BGREWRITEAOF
  });

  it('hands out the module’s handler and subcommand table', () => {
    const { CONNECTION_COMMANDS } = require('../../lib/engine/commands/index');
    const server = require('../../lib/engine/commands/server');
    const client = require('../../lib/engine/commands/client');
    expect(CONNECTION_COMMANDS.get('flushall').run).toBe(server.specs.find((s: Spec) => s.name === 'flushall').run);
    expect(CONNECTION_COMMANDS.get('client').subcommands).toBe(client.specs[0].subcommands);
    expect(CONNECTION_COMMANDS.get('client').run).toBeUndefined();
  });
});
