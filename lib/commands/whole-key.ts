/** Whole-key access for DUMP, RESTORE and COPY: the optional `Db` members, or a loud error. */
import { StreamsMockError } from '../clock/clock';
import type { Db } from './types';

export type WholeKeyDb = Db & Required<Pick<Db, 'getValue' | 'setValue' | 'deleteKey' | 'expireAt'>>;

/** `db` with its whole-key members, or a StreamsMockError naming the command. */
export function wholeKeyDb(db: Db, command: string): WholeKeyDb {
  if (!db.getValue || !db.setValue || !db.deleteKey || !db.expireAt) {
    throw new StreamsMockError(`${command} needs whole-key access, which this front end's keyspace does not provide`);
  }
  return db as WholeKeyDb;
}
