/**
 * Helpers for the commands Redis propagates to replicas in another form than as sent (see
 * `Propagation` in ./types.ts). Each returns at once when no replica is attached.
 */
import type { CommandContext, Db, Propagation } from './types';
import { supports } from '../version';

/** The replication stream while a replica is attached, else null. */
export function propagationOf(db: Db): Propagation | null {
  return db.propagation?.() ?? null;
}

/**
 * DEL, or UNLINK when the lazyfree option `option` is yes (Redis shared.del / shared.unlink),
 * for an implicit deletion; 7.0 propagates DEL whatever the option (checked on 7.0.15).
 */
export function deletionName(ctx: CommandContext, option: 'lazyfree-lazy-server-del' | 'lazyfree-lazy-expire'): string {
  if (option === 'lazyfree-lazy-server-del' && !supports(ctx.version, 'lazyServerDelPropagation')) return 'DEL';
  return ctx.db.config?.get(option) === 'yes' ? 'UNLINK' : 'DEL';
}

