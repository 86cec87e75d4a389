/**
 * A fresh engine connection for tests that compare replies as text: each command's reply made
 * plain (RESP2 shapes) and written by `format` (`String` by default), an error reply as its
 * message. `port` gives it a server of its own, so no key outlives the test that uses it.
 */
import { createConnection } from '../../lib/engine';
import { CommandError } from '../../lib/errors';
import { toResp2Plain } from '../../lib/reply/reply';
import type { RedisVersion } from '../../lib/version';

export type Exec = (argv: string[]) => Promise<string>;

export function fakeExec(port: number, version: RedisVersion, format: (plain: unknown) => string = String): { exec: Exec; close: () => void } {
  const fake = createConnection({ port, streams: { redisVersion: version } });
  return {
    exec: async (argv) => {
      try {
        return format(toResp2Plain((await fake.execute(argv)) as never));
      } catch (e) {
        if (e instanceof CommandError) return e.message;
        throw e;
      }
    },
    close: () => fake.close(),
  };
}
