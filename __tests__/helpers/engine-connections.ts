/**
 * Engine connections for a test file (lib/engine's createConnection): each test runs on a port of
 * its own (a fresh server and keyspace), `conn()` opens a connection there that is closed after
 * the test; `errorOf` gives the error text a command answers.
 */
import { type Connection, createConnection } from '../../lib/engine';
import { CommandError } from '../../lib/errors';
import { toResp2Plain } from '../../lib/reply/reply';

export interface EngineConnections {
  /** The current test's port (the server its connections share). */
  readonly port: number;
  /** A connection on the current test's port (createConnection's options); closed after the test. */
  conn(opts?: Parameters<typeof createConnection>[0]): Connection;
}

/** Registers the per-test port (from `firstPort` + 1 on) and the closing of the test's connections. */
export function engineConnections(firstPort: number): EngineConnections {
  let port = firstPort;
  const open: Connection[] = [];
  beforeEach(() => {
    port++;
  });
  afterEach(() => {
    for (const c of open.splice(0)) c.close();
  });
  return {
    get port() {
      return port;
    },
    conn(opts = {}) {
      const c = createConnection({ port, ...opts });
      open.push(c);
      return c;
    },
  };
}

/** The text of the Redis error `p` rejects with; fails the test when `p` resolves or throws anything else. */
export async function errorOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof CommandError) return e.message;
    throw e;
  }
  throw new Error('expected an error reply');
}

/**
 * Subscribes `conn` to the keyevents of every database (PSUBSCRIBE __keyevent@*__:*) and returns the
 * list it fills: `event key`, with `db:` before the event for a database other than 0.
 */
export async function keyevents(conn: Connection): Promise<string[]> {
  const events: string[] = [];
  conn.onPush((msg) => {
    const m = toResp2Plain(msg) as string[];
    if (m[0] !== 'pmessage') return;
    const [, db, event] = /^__keyevent@(\d+)__:(.*)$/.exec(m[2])!;
    events.push(`${db === '0' ? '' : `${db}:`}${event} ${m[3]}`);
  });
  await conn.execute(['PSUBSCRIBE', '__keyevent@*__:*']);
  return events;
}
