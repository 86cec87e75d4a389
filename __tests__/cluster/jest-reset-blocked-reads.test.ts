/**
 * The fake Cluster under the jest setup file, trial 7: the per-test reset empties the data as
 * FLUSHALL does, so a blocked read of a cluster made in beforeAll stays blocked and is served in
 * the next test; the blocked read of a cluster a test made is ended ("Connection is closed.")
 * and its command named in the warning (the cluster is closed once its test is over).
 */
require('ioredis-mock-streams/jest');
export {}; // a module: its names stay its own

// eslint-disable-next-line @typescript-eslint/no-var-requires
const IORedis = require('ioredis');

type Settled = ['ok', unknown] | ['err', string] | 'pending';
const track = (p: Promise<unknown>) => {
  const state: { v: Settled } = { v: 'pending' };
  p.then(
    (r) => (state.v = ['ok', r]),
    (e: Error) => (state.v = ['err', e.message]),
  );
  return state;
};
const settleWithin = async (state: { v: Settled }, ms = 500) => {
  const end = Date.now() + ms;
  while (state.v === 'pending' && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
  return state.v;
};

const warnings: string[] = [];
let warn: jest.SpyInstance;
let lasting: any;
let lastingReader: any;
let lastingRead: { v: Settled };
let inTestRead: { v: Settled };
beforeAll(async () => {
  warn = jest.spyOn(console, 'warn').mockImplementation((...a: unknown[]) => void warnings.push(a.map(String).join(' ')));
  lasting = new IORedis.Cluster([{ host: '127.0.0.1', port: 7960 }]);
  lastingReader = lasting.duplicate();
  await lasting.set('warm', '1');
  lastingRead = track(lastingReader.blpop('{q}list', 0));
  await new Promise((r) => setTimeout(r, 20));
});
afterAll(async () => {
  warn.mockRestore();
  lastingReader.disconnect();
  lasting.disconnect();
});

describe('fake Cluster blocked reads across the per-test reset', () => {
  it('a cluster made in this test blocks on BZPOPMIN', async () => {
    const own = new IORedis.Cluster([{ host: '127.0.0.1', port: 7960 }]);
    await own.set('x', '1');
    inTestRead = track(own.bzpopmin('{q}zset', 0));
    await new Promise((r) => setTimeout(r, 20));
    expect(inTestRead.v).toBe('pending');
  });

  it("that read was ended and named; the beforeAll cluster's BLPOP still waits and is served now", async () => {
    // (over the cluster's node connection the rejection arrives as an error reply)
    expect(await settleWithin(inTestRead)).toEqual(['err', expect.stringMatching(/^(ERR )?Connection is closed\.$/)]);
    expect(warnings.filter((w) => w.includes('blocked call'))).toEqual([
      expect.stringContaining('ended with 1 blocked call (BLPOP, BZPOPMIN, XREAD … BLOCK and the like) of clients it created: BZPOPMIN.'),
    ]);
    expect(await lasting.exists('warm')).toBe(0);
    expect(lastingRead.v).toBe('pending');
    expect(await lasting.rpush('{q}list', 'a')).toBe(1);
    expect(await settleWithin(lastingRead)).toEqual(['ok', ['{q}list', 'a']]);
  });
});
