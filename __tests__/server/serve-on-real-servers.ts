/**
 * `describeOnRealServers` with a `serve` of each real server's emulated version: started before
 * the describe's tests, closed after them; `fake()` is the running server.
 */
import { type RedisServer, serve } from 'ioredis-mock-streams/server';
import { type RealServer, describeOnRealServers } from '../helpers/real-server';

export function describeServeOnRealServers(subject: string, body: (server: RealServer & { fake: () => RedisServer }) => void, verb?: string): void {
  describeOnRealServers(
    subject,
    (real) => {
      let server: RedisServer | undefined;
      beforeAll(async () => {
        server = await serve({ redisVersion: real.version });
      });
      afterAll(async () => {
        await server?.close();
      });
      body({ ...real, fake: () => server! });
    },
    verb,
  );
}
