/**
 * What server-level command modules (INFO, COMMAND, MOCKCLOCK) need from the front end that
 * runs them: a snapshot of the server for INFO, the command table for COMMAND, and the clock
 * control (null when MOCKCLOCK is disabled). Front ends pass it as `CommandContext.server`.
 */
import type { CommandTableSource } from './command';
import type { InfoSource } from './info';
import type { ClockControl } from './mockclock';

export interface ServerView {
  /** The INFO data at this moment. */
  info(): InfoSource;
  /** The commands this server answers (COMMAND COUNT/LIST/INFO/DOCS). */
  commandTable(): CommandTableSource;
  /** Clock control for MOCKCLOCK; null when the command is disabled (unknown command). */
  clockControl(): ClockControl | null;
}
