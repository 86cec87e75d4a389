/**
 * Issue 23 item 13: recording a fixture again on another server replaces the old server's
 * expectations where the new server answers otherwise (before, the recorder failed on the old
 * matchers — "expected 8 element(s) (with matchers), got 6" — until they were stripped by hand).
 * On the server the file was recorded on, a violated matcher still fails the recording.
 * The file was recorded on redis-server 7.0.15; it is recorded again on the fake's RESP server
 * emulating 8.0, and on the post-7.4 build at REDIS_UNSTABLE_URL when set.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { serve, type RedisServer } from '../../lib/server';
import { recordFiles } from '../../lib/scenarios/record';

/** XINFO CONSUMERS as 7.0.15 answers it (7.2 added `inactive`). */
const from70 = {
  name: 'rerecord',
  description: 'a consumer created by XGROUP CREATECONSUMER, seen by XINFO CONSUMERS',
  source: 'recorded',
  recordedOn: '7.0.15',
  redisVersion: '7.0',
  steps: [
    { cmd: ['XGROUP', 'CREATE', 's', 'g', '$', 'MKSTREAM'], reply: 'OK' },
    { cmd: ['XGROUP', 'CREATECONSUMER', 's', 'g', 'c'], reply: 1 },
    { cmd: ['XADD', 's', '*', 'f', 'v'], reply: { id: true, capture: 'id1' } },
    {
      cmd: ['XINFO', 'CONSUMERS', 's', 'g'],
      reply: [['name', 'c', 'pending', 0, 'idle', { int: [0, 1000] }]],
    },
    { cmd: ['XRANGE', 's', { ref: 'id1' }, '+'], reply: [[{ ref: 'id1' }, ['f', 'v']]] },
  ],
};

type Server = [label: string, open: () => Promise<string>, close: () => Promise<void>, opts: { redisVersion?: string; server?: string; flush?: boolean }];
const servers: Server[] = [];
let fake: RedisServer | undefined;
servers.push([
  'the fake served as 8.0',
  async () => {
    fake = await serve({ redisVersion: '8.0' });
    return `redis://127.0.0.1:${fake.port}/0`;
  },
  async () => fake?.close(),
  // serve answers no COMMAND GETKEYS, so the recorder cannot delete what it created there: flush
  { flush: true },
]);
if (process.env.REDIS_UNSTABLE_URL) {
  const u = new URL(process.env.REDIS_UNSTABLE_URL);
  u.pathname = '/2'; // a database no other test file uses
  servers.push(['REDIS_UNSTABLE_URL', async () => u.toString(), async () => undefined, { redisVersion: '8.0', server: 'redis 4f8cdc2a (7.4+ unstable)' }]);
} else {
  console.warn('REDIS_UNSTABLE_URL not set: re-recording checked on the fake served as 8.0 only');
}

describe.each(servers)('re-recording on another server (%s)', (_label, open, close, opts) => {
  let url: string;
  let dir: string;
  beforeAll(async () => {
    url = await open();
  });
  afterAll(close);
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rerecord-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("replaces the old server's expectations the new server answers otherwise, and says so", async () => {
    const file = path.join(dir, 'rerecord.json');
    fs.writeFileSync(file, JSON.stringify(from70));
    const [r] = await recordFiles([file], url, opts);
    expect(r.status).toBe('updated');
    expect(r.messages).toContain(
      'step 3: the expectation recorded on 7.0.15 replaced (matcher not satisfied at [0]: expected 6 element(s) (with matchers), got 8)',
    );
    const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(doc.recordedOn).not.toBe('7.0.15');
    expect(doc.redisVersion).toBe('8.0');
    expect(doc.server).toBe(opts.server);
    expect(doc.steps[3].reply).toEqual([['name', 'c', 'pending', 0, 'idle', { int: [0, 1000] }, 'inactive', -1]]);
    // the expectations the new server satisfies are kept as they were
    expect(doc.steps[2].reply).toEqual({ id: true, capture: 'id1' });
    expect(doc.steps[4].reply).toEqual([[{ ref: 'id1' }, ['f', 'v']]]);

    const [again] = await recordFiles([file], url, opts);
    expect(again.status).toBe('unchanged');
  });

  it('still refuses a violated matcher on the server the file was recorded on', async () => {
    const file = path.join(dir, 'rerecord.json');
    fs.writeFileSync(file, JSON.stringify(from70));
    await recordFiles([file], url, opts); // now recorded on this server
    const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
    doc.steps[1] = { cmd: ['XGROUP', 'CREATECONSUMER', 's', 'g', 'c'], reply: { int: [5, 10] } };
    fs.writeFileSync(file, JSON.stringify(doc));
    const before = fs.readFileSync(file, 'utf8');
    const [r] = await recordFiles([file], url, opts);
    expect(r).toMatchObject({ status: 'failed', messages: ['step 1: matcher not satisfied at (reply): expected an integer in [5, 10], got 1'] });
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
  });
});
