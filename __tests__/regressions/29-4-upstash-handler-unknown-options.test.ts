/**
 * createUpstashHandler / upstashHandlers took unknown options silently: `{ url, tokn: 'secret' }`
 * (a typo) made a handler that answered every request, the token unchecked (found by a
 * fresh-user trial). Now an unknown option, and a `fallback` that is no function, are refused with
 * a StreamsMockError naming what the handler takes (as serve() and the client's `streams` do).
 */
import { StreamsMockError } from '../../lib/clock/clock';
import { createUpstashHandler } from '../../lib/upstash';
import { upstashHandlers } from '../../lib/msw';

const URL_ = 'https://fake.upstash.io';

describe('Upstash handler options', () => {
  it('refuses a misspelt option instead of serving without the token', () => {
    const make = () => createUpstashHandler({ url: URL_, tokn: 'secret' } as never);
    expect(make).toThrow(StreamsMockError);
    expect(make).toThrow('createUpstashHandler: unknown option "tokn"; it takes url, token, redis, streams, fallback');
    expect(() => upstashHandlers({ url: URL_, tokn: 1 } as never)).toThrow('unknown option "tokn"');
  });

  it('refuses a fallback that is no function', () => {
    expect(() => createUpstashHandler({ url: URL_, fallback: 'fetch' } as never)).toThrow('createUpstashHandler: fallback must be a function such as the original fetch');
  });

  it('still checks the token it is given', async () => {
    const handler = createUpstashHandler({ url: URL_, token: 'secret' });
    const res = await handler(new Request(URL_, { method: 'POST', body: '["PING"]' }));
    expect(res.status).toBe(401);
    const ok = await handler(new Request(URL_, { method: 'POST', body: '["PING"]', headers: { authorization: 'Bearer secret' } }));
    expect(await ok.json()).toEqual({ result: 'PONG' });
    handler.close();
  });
});
