/**
 * A transformer set on real ioredis's Command (ioredis loaded before the fake's first client,
 * without going through the fake's `Command` export) applies to the fake's clients made
 * afterwards, as it applies to every ioredis client of the process. Own file: the fake must not
 * have been asked for `Command` before.
 */
import * as IORedisModule from 'ioredis';

type AnyClient = Record<string, any>;
const real = jest.requireActual('ioredis') as typeof IORedisModule;

describe('a reply transformer set through real ioredis', () => {
  it('applies to a fake client made afterwards (by the exact name: call("GET") skips it)', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const Redis = require('ioredis-mock-streams') as new (o: object) => AnyClient;
    (real.Command as any).setReplyTransformer('get', (v: unknown) => `<${String(v)}>`);
    const r = new Redis({ port: 50_962 });
    try {
      await r.set('k', 'v');
      expect([await r.get('k'), await r.call('GET', 'k'), await r.pipeline().get('k').exec()]).toEqual(['<v>', 'v', [[null, '<v>']]]);
    } finally {
      delete (real.Command as any)._transformer.reply.get;
      r.disconnect();
    }
  });
});
