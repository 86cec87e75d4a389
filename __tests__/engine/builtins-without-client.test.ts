/**
 * A connection created without an ioredis client (the RESP server's and the Upstash handler's
 * kind) runs ioredis-mock's built-ins that emit keyspace notifications (DEL, EXPIRE …): they
 * answer as Redis does.
 */
import { createConnection } from '../../lib/engine';

let port = 41000;

describe('built-ins on an engine connection without a client', () => {
  it('DEL answers the number of keys deleted (emulators read the keyspace-event flags)', async () => {
    const c = createConnection({ port: port++ });
    await c.execute(['SET', 'a', '1']);
    await c.execute(['XADD', 's', '1-1', 'f', 'v']);
    expect(await c.execute(['DEL', 'a', 's', 'missing'])).toBe(2);
    expect(await c.execute(['EXISTS', 'a', 's'])).toBe(0);
    c.close();
  });
});
