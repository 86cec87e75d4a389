/**
 * Constructor options of ioredis 6's reply mapping: `replyMapping: 'resp3'` needs `protocol: 3`
 * (ioredis 6.0.0 Redis.js parseOptions throws 'The "resp3" replyMapping is only supported with
 * protocol 3' from the constructor); ioredis 5 has no such option and ignores it.
 */
import Redis from 'ioredis-mock-streams';
import { installedIoredisMajor } from '../../lib/adapter/command-table';
import { asIoredis5 } from '../helpers/as-ioredis5';

const major = installedIoredisMajor();
// Each case is about one ioredis major: the ioredis-5 case runs under both, as the fake answers
// for ioredis 5 (helpers/as-ioredis5.ts).
// skip: the ioredis-6 cases under `npm run test:ioredis5` (CI's matrix, on 5.11.1): ioredis 5 lacks what they check
const onIoredis6 = major === 6 ? it : it.skip;

describe('replyMapping and protocol in the constructor', () => {
  // skip: under ioredis 5 (npm run test:ioredis5, CI matrix): ioredis 6 behaviour only; runs on ioredis 6
  onIoredis6('ioredis 6: replyMapping resp3 with protocol 2 throws as real ioredis 6 does', () => {
    expect(() => new Redis({ replyMapping: 'resp3', protocol: 2 } as never)).toThrow(
      new Error('The "resp3" replyMapping is only supported with protocol 3'),
    );
  });

  // skip: under ioredis 5 (npm run test:ioredis5, CI matrix): ioredis 6 behaviour only; runs on ioredis 6
  onIoredis6('ioredis 6: replyMapping resp3 alone (protocol 3 by default) answers maps as objects', async () => {
    const r = new Redis({ replyMapping: 'resp3' } as never);
    await r.xadd('s', '1-1', 'f', 'v');
    expect(await r.xread('STREAMS', 's', '0')).toEqual({ s: [['1-1', ['f', 'v']]] });
    r.disconnect();
  });

  // skip: under ioredis 5 (npm run test:ioredis5, CI matrix): ioredis 6 behaviour only; runs on ioredis 6
  onIoredis6('ioredis 6: protocol 2 with the legacy mapping is accepted', async () => {
    const r = new Redis({ replyMapping: 'legacy', protocol: 2 } as never);
    expect(await r.ping()).toBe('PONG');
    r.disconnect();
  });

  it('ioredis 5: replyMapping resp3 with protocol 2 is ignored (no such option in ioredis 5)', () =>
    asIoredis5(async () => {
      // a keyspace of its own: the ioredis-6 cases above wrote `s` on the default one
      const r = new Redis({ replyMapping: 'resp3', protocol: 2, port: 50_921 } as never);
      await r.xadd('s', '1-1', 'f', 'v');
      expect(await r.xread('STREAMS', 's', '0')).toEqual([['s', [['1-1', ['f', 'v']]]]]);
      r.disconnect();
    }));
});
