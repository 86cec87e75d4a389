/**
 * The engine: one implementation of a Redis connection that every front end (the ioredis
 * adapter, the RESP server, the Upstash REST handler, the scenario replayer) translates to.
 * Contract: ENGINE-API.md (a front end uses this barrel and lib/reply/reply.ts only).
 */
export { Connection, connectionClosedError, createConnection, openConnections, streamLane } from './connection';
export type { StreamLane } from './connection';
export type { ConnectionOptions } from './connection';
export { allKeyspaces, keyspaceFor, serverFor, ServerState, DATABASES } from './registry';
export { CONNECTION_COMMANDS } from './commands/index';
export { NO_REPLY } from './commands/pubsub';
export type { ConnectionCommandSpec, ConnectionHandler, ConnectionSubcommand } from './command-types';
export { harvestEmulators, defaultEmulators } from './emulators';
export type { Emulator, EmulatorTable } from './emulators';
