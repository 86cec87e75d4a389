/**
 * The engine's own commands, as data: every command by lower-case name, with the flags the
 * connection checks before running it (arity, no-auth, immediate in MULTI, noscript). The
 * connection looks names up here first, then among the stream commands (lib/commands), then
 * among ioredis-mock's built-ins.
 *
 * A command module loads on the first use of one of its commands (its `run`/`subcommands`),
 * not with the first client: a test file pays only for the commands it runs (jest evaluates
 * every module again per test file). The name and flags written here must equal the module's
 * own `specs` (a test checks that).
 */
import type { ConnectionCommandSpec } from '../command-types';
import { lazySpec } from '../../commands/lazy-spec';

/** What every engine command module exports. */
export interface ConnectionCommandModule {
  readonly specs: readonly ConnectionCommandSpec[];
}

type Flags = Pick<ConnectionCommandSpec, 'noAuth' | 'immediate' | 'noScript' | 'since' | 'protectedBy' | 'available'>;

/** MOCKCLOCK (the fake's own) exists on a server given a clock control (`serve`'s `clockCommand`). */
const CLOCK_COMMAND: Flags = { noScript: true, available: (conn) => conn.server.clockControl !== null };

/* eslint-disable @typescript-eslint/no-require-imports -- lazy loading: each module on first use */
const transaction = (): ConnectionCommandModule => require('./transaction');
const connection = (): ConnectionCommandModule => require('./connection');
const client = (): ConnectionCommandModule => require('./client');
const scripting = (): ConnectionCommandModule => require('./scripting');
const pubsub = (): ConnectionCommandModule => require('./pubsub');
const server = (): ConnectionCommandModule => require('./server');
const diagnostics = (): ConnectionCommandModule => require('./diagnostics');
const moduleCommand = (): ConnectionCommandModule => require('./module');
const functions = (): ConnectionCommandModule => require('./functions');
const cluster = (): ConnectionCommandModule => require('./cluster');
const acl = (): ConnectionCommandModule => require('./acl');
const replication = (): ConnectionCommandModule => require('./replication');
const role = (): ConnectionCommandModule => require('./role');
/* eslint-enable @typescript-eslint/no-require-imports */

const MULTI: Flags = { immediate: true, noScript: true };
const AUTH: Flags = { noAuth: true, noScript: true };
const NOSCRIPT: Flags = { noScript: true };
const NONE: Flags = {};

const TABLE: [name: string, arity: number, flags: Flags, load: () => ConnectionCommandModule][] = [
  ['multi', 1, MULTI, transaction],
  ['exec', 1, MULTI, transaction],
  ['discard', 1, MULTI, transaction],
  ['watch', -2, MULTI, transaction],
  ['unwatch', 1, NOSCRIPT, transaction],
  ['ping', -1, NONE, connection],
  ['echo', 2, NONE, connection],
  ['select', 2, NONE, connection],
  ['quit', -1, { noAuth: true, immediate: true, noScript: true }, connection],
  ['reset', 1, { noAuth: true, immediate: true, noScript: true }, connection],
  ['auth', -2, AUTH, connection],
  ['hello', -1, AUTH, connection],
  ['client', -2, NOSCRIPT, client],
  ['eval', -3, NOSCRIPT, scripting],
  ['evalsha', -3, NOSCRIPT, scripting],
  ['eval_ro', -3, NOSCRIPT, scripting],
  ['evalsha_ro', -3, NOSCRIPT, scripting],
  ['script', -2, NOSCRIPT, scripting],
  ['subscribe', -2, NOSCRIPT, pubsub],
  ['psubscribe', -2, NOSCRIPT, pubsub],
  ['unsubscribe', -1, NOSCRIPT, pubsub],
  ['punsubscribe', -1, NOSCRIPT, pubsub],
  ['publish', 3, NONE, pubsub],
  ['pubsub', -2, NONE, pubsub],
  ['spublish', 3, NONE, pubsub],
  ['ssubscribe', -2, NOSCRIPT, pubsub],
  ['sunsubscribe', -1, NOSCRIPT, pubsub],
  ['info', -1, NONE, server],
  ['command', -1, NOSCRIPT, server],
  ['mockclock', -2, CLOCK_COMMAND, server],
  ['time', 1, NONE, server],
  ['flushall', -1, NONE, server],
  ['flushdb', -1, NONE, server],
  ['save', 1, NOSCRIPT, server],
  ['bgsave', -1, NOSCRIPT, server],
  ['lastsave', 1, NONE, server],
  ['debug', -2, { noScript: true, protectedBy: 'enable-debug-command' }, server],
  ['monitor', 1, NOSCRIPT, server],
  ['shutdown', -1, NOSCRIPT, server],
  ['function', -2, NOSCRIPT, functions],
  ['fcall', -3, NOSCRIPT, functions],
  ['fcall_ro', -3, NOSCRIPT, functions],
  ['latency', -2, NONE, diagnostics],
  ['slowlog', -2, NONE, diagnostics],
  ['module', -2, NONE, moduleCommand],
  ['cluster', -2, NONE, cluster],
  ['readonly', 1, NONE, cluster],
  ['readwrite', 1, NONE, cluster],
  ['asking', 1, NONE, cluster],
  ['acl', -2, NOSCRIPT, acl],
  ['sync', 1, NOSCRIPT, replication],
  ['psync', -3, NOSCRIPT, replication],
  ['replicaof', 3, NOSCRIPT, replication],
  ['slaveof', 3, NOSCRIPT, replication],
  ['failover', -1, NOSCRIPT, replication],
  ['replconf', -1, NOSCRIPT, replication],
  ['bgrewriteaof', 1, NOSCRIPT, server],
  ['role', 1, NOSCRIPT, role],
  ['lolwut', -1, NONE, role],
];

/** Connection-level commands by lower-case name. */
export const CONNECTION_COMMANDS: ReadonlyMap<string, ConnectionCommandSpec> = new Map(
  TABLE.map(([name, arity, flags, load]) => [name, lazySpec<ConnectionCommandSpec>({ name, arity, ...flags }, load)] as const),
);

/** The modules behind the table, loaded (for tests that compare the table with them). */
export function loadAllConnectionCommandModules(): ConnectionCommandModule[] {
  return [...new Set(TABLE.map(([, , , load]) => load))].map((load) => load());
}
