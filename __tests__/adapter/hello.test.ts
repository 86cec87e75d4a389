/**
 * HELLO on the fake (the engine's, lib/engine/commands/connection.ts) through each client's
 * ioredis reply encoding (ground truth: __tests__/ioredis-replies/recorded.json, real ioredis
 * against redis-server 7.0.15), and what the protocol switch does to later replies.
 */
import Redis, { createFakeClock, type StreamsMockOptions } from 'ioredis-mock-streams';
import recorded from '../ioredis-replies/recorded.json';
import { installedIoredisMajor } from '../../lib/adapter/command-table';
import { maskTimes, toJson, type Json } from '../helpers/ioredis-values';
import { asIoredis5 } from '../helpers/as-ioredis5';

type Client = Record<string, any>;
let port = 43_000;
const make = (opts: Record<string, unknown> = {}): Client =>
  new Redis({ port: port++, streams: { redisVersion: '7.0' }, ...opts } as StreamsMockOptions) as unknown as Client;

interface Recording {
  clients: { id: string; ioredis: string; options: Record<string, unknown> }[];
  cases: { name: string; results: Record<string, Record<string, { reply?: Json; error?: Json }>> }[];
}
const doc = recorded as unknown as Recording;
const major = installedIoredisMajor();
const clients = doc.clients.filter((c) => Number(c.ioredis.split('.')[0]) === major);

describe.each(['hello 3', 'hello 2'])('%s on a fake client answers as real ioredis did', (name) => {
  const rec = doc.cases.find((c) => c.name === name)!;
  it.each(clients)('$id', async (client) => {
    for (const form of ['method', 'methodBuffer', 'call', 'callBuffer', 'pipeline']) {
      const want = rec.results[client.id][form];
      const r = make(client.options);
      const proto = name.split(' ')[1];
      const got = await Promise.resolve()
        .then(() =>
          form === 'method' ? r.hello(proto)
          : form === 'methodBuffer' ? r.helloBuffer(proto)
          : form === 'call' ? r.call('HELLO', proto)
          : form === 'callBuffer' ? r.callBuffer('HELLO', proto)
          : r.pipeline().hello(proto).exec(),
        )
        .then((reply: unknown) => ({ reply }), (error: Error) => ({ error }));
      r.disconnect();
      if (want.error) expect({ form, error: (got as { error?: Error }).error?.message }).toEqual({ form, error: (want.error as { $error: string }).$error });
      else expect({ form, reply: maskTimes(toJson((got as { reply: unknown }).reply)) }).toEqual({ form, reply: maskTimes(want.reply!) });
    }
  });
});

// skip: under ioredis 5 (npm run test:ioredis5): ioredis 5 speaks RESP2 only; runs on ioredis 6
(major === 6 ? describe : describe.skip)('HELLO switches what an ioredis 6 connection receives (checked with real ioredis 6.0.0)', () => {
  // skip: under ioredis 5 (npm run test:ioredis5, CI matrix): ioredis 6 behaviour only; runs on ioredis 6
  // skip: with its describe under ioredis 5 (npm run test:ioredis5): an ioredis 6 behaviour; runs on ioredis 6
  it('a protocol-2 client after HELLO 3 gets RESP3 decoded with the legacy mapping and no stream transformer', async () => {
    const r = make({ protocol: 2, streams: { redisVersion: '7.0', clock: createFakeClock({ now: 0 }) } });
    await r.xadd('s', '1-1', 'f', 'v');
    expect(await r.xread('STREAMS', 's', '0')).toEqual([['s', [['1-1', ['f', 'v']]]]]);
    await r.hello(3);
    expect(await r.xread('STREAMS', 's', '0')).toEqual(['s', [['1-1', ['f', 'v']]]]);
    r.disconnect();
  });

  // skip: under ioredis 5 (npm run test:ioredis5, CI matrix): ioredis 6 behaviour only; runs on ioredis 6
  // skip: with its describe under ioredis 5 (npm run test:ioredis5): an ioredis 6 behaviour; runs on ioredis 6
  it('a resp3 client after HELLO 2 gets RESP2 shapes', async () => {
    const r = make({ replyMapping: 'resp3' });
    await r.xadd('s', '1-1', 'f', 'v');
    await r.hello(2);
    expect(await r.xread('STREAMS', 's', '0')).toEqual([['s', [['1-1', ['f', 'v']]]]]);
    expect(await r.call('XINFO', 'GROUPS', 's')).toEqual([]);
    r.disconnect();
  });

  // skip: under ioredis 5 (npm run test:ioredis5, CI matrix): ioredis 6 behaviour only; runs on ioredis 6
  // skip: with its describe under ioredis 5 (npm run test:ioredis5): an ioredis 6 behaviour; runs on ioredis 6
  it('numbers the clients and keeps the id per connection', async () => {
    const a = make();
    const b = make();
    const idOf = (m: unknown[]) => m[m.indexOf('id') + 1];
    const first = idOf(await a.hello());
    expect(idOf(await a.hello())).toBe(first);
    expect(idOf(await b.hello())).not.toBe(first);
    a.disconnect();
    b.disconnect();
  });
});

// ioredis 5's behaviour, under either installed major (helpers/as-ioredis5.ts)
describe('HELLO 3 on ioredis 5', () => {
  it('fails as ioredis 5 fails on a server (it cannot read RESP3); the connection stays RESP2', () =>
    asIoredis5(async () => {
      const r = make();
      await expect(r.hello(3)).rejects.toThrow('Protocol error, got "%" as reply type byte. Please report this.');
      const reply = (await r.hello()) as unknown[];
      expect(reply[reply.indexOf('proto') + 1]).toBe(2);
      r.disconnect();
    }));
});
