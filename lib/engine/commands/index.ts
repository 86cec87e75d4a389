/**
 * The engine's own commands, as data: every module's `specs` by lower-case name. The
 * connection looks names up here first, then among the stream commands (lib/commands), then
 * among ioredis-mock's built-ins.
 */
import type { ConnectionCommandSpec } from '../command-types';
import * as client from './client';
import * as connection from './connection';
import * as keyspace from './keyspace';
import * as pubsub from './pubsub';
import * as scripting from './scripting';
import * as server from './server';
import * as transaction from './transaction';

const modules: { specs: readonly ConnectionCommandSpec[] }[] = [transaction, connection, client, scripting, pubsub, server, keyspace];

/** Connection-level commands by lower-case name. */
export const CONNECTION_COMMANDS: ReadonlyMap<string, ConnectionCommandSpec> = new Map(
  modules.flatMap((m) => m.specs).map((spec) => [spec.name, spec] as const),
);
