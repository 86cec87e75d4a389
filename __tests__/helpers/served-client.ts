/**
 * A `serve()` server and one raw RESP client of it for each test of a describe block:
 * `const s = servedClient({ config })`, then `s.server`, `s.c` inside the tests (both made in
 * beforeEach, closed in afterEach).
 */
import { type RedisServer, type ServeOptions, serve } from '../../lib/server';
import { RawClient } from '../server/raw-client';

export function servedClient(options: Omit<ServeOptions, 'port'> = {}): { readonly server: RedisServer; readonly c: RawClient } {
  let server: RedisServer | undefined;
  let c: RawClient | undefined;
  beforeEach(async () => {
    server = await serve({ port: 0, ...options });
    c = await RawClient.connect(server.port);
  });
  afterEach(async () => {
    c?.close();
    await server?.close();
  });
  return {
    get server() {
      return server!;
    },
    get c() {
      return c!;
    },
  };
}
