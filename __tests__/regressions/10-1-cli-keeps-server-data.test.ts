/**
 * Issue 10, item 1: `replay --url` / `record --url` never destroy data they did not create.
 * They used to run FLUSHDB on the user's database (and a fixture's FLUSHALL emptied every
 * database). Now a database with keys is refused unless `--flush` allows emptying it, the keys
 * the scenarios create are deleted afterwards, and a scenario that reaches other databases runs
 * only when they are empty. Needs REDIS_URL (skipped with a warning otherwise); uses the
 * database three after REDIS_URL's (fixtures.test.ts uses REDIS_URL's, record.test.ts the next).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import IORedis from 'ioredis';
import { main } from '../../lib/cli';

const REDIS_URL = process.env.REDIS_URL;

/** Runs the CLI, capturing console output; returns the exit code and the lines. */
async function cli(...args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((line: string) => void out.push(line));
  const error = jest.spyOn(console, 'error').mockImplementation((line: string) => void err.push(line));
  const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (out.push(String(chunk)), true));
  try {
    return { code: await main(['node', 'cli', ...args]), out, err };
  } finally {
    log.mockRestore();
    error.mockRestore();
    write.mockRestore();
  }
}

describe('--help says what --url does to the server', () => {
  it.each([['replay'], ['record']])('%s --help names the empty-database rule, --flush and the clean-up', async (command) => {
    const { code, out } = await cli(command, '--help');
    const text = out.join('');
    expect(code).toBe(0);
    expect(text).toContain('--flush');
    expect(text).toMatch(/must be empty; a database\s+with keys is refused/);
    expect(text).toMatch(/The keys the\s+scenarios create are deleted afterwards/);
  });
});

if (!REDIS_URL) console.warn('REDIS_URL not set: CLI data-safety tests against a real server skipped');

// skip: no real server URL (REDIS_URL / REDIS_UNSTABLE_URL): nothing to compare with; CI sets both
(REDIS_URL ? describe : describe.skip)('replay/record --url on a server with data (REDIS_URL)', () => {
  const base = REDIS_URL ? new URL(REDIS_URL) : new URL('redis://x');
  const db = Number(base.pathname.replace(/^\//, '') || '0') + 3;
  const url = (() => {
    const u = new URL(base.toString());
    u.pathname = `/${db}`;
    return u.toString();
  })();
  let redis: IORedis;
  let dir: string;
  let fixture: string;
  let flushallFixture: string;

  beforeAll(async () => {
    redis = new IORedis(url);
  });
  afterAll(() => redis.disconnect());
  beforeEach(async () => {
    await redis.flushdb(); // this test's own database
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-safety-'));
    const scenario = (name: string, steps: unknown[]) => {
      const file = path.join(dir, `${name}.json`);
      fs.writeFileSync(file, JSON.stringify({ name, description: 'x', source: 'recorded', recordedOn: '7.0.15', redisVersion: '7.0', steps }));
      return file;
    };
    fixture = scenario('creates-keys', [
      { cmd: ['XADD', 'cli-safety:s', '1-0', 'f', 'v'], reply: '1-0' },
      { cmd: ['XGROUP', 'CREATE', 'cli-safety:t', 'g', '$', 'MKSTREAM'], reply: 'OK' },
    ]);
    flushallFixture = scenario('sends-flushall', [{ cmd: ['FLUSHALL'], reply: 'OK' }]);
  });
  afterEach(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await redis.flushdb();
  });

  it('replay --url refuses a database with keys, touches nothing, and says how to proceed (exit code 2)', async () => {
    await redis.set('user:keep', 'precious');
    const { code, err } = await cli('replay', '--url', url, fixture);
    expect(code).toBe(2);
    expect(err.join('\n')).toMatch(new RegExp(`database ${db} of .* holds 1 key; .*pass --flush`));
    expect(await redis.get('user:keep')).toBe('precious');
    expect(await redis.dbsize()).toBe(1);
  });

  it('record --url refuses it the same way and leaves the file as it was', async () => {
    await redis.set('user:keep', 'precious');
    const before = fs.readFileSync(fixture, 'utf8');
    const { code } = await cli('record', '--url', url, fixture);
    expect(code).toBe(2);
    expect(await redis.get('user:keep')).toBe('precious');
    expect(fs.readFileSync(fixture, 'utf8')).toBe(before);
  });

  it('replay --url on an empty database deletes the keys its scenarios created', async () => {
    const { code, out } = await cli('replay', '--url', url, fixture);
    expect(out).toEqual(['PASS creates-keys', '1 passed, 0 failed']);
    expect(code).toBe(0);
    expect(await redis.dbsize()).toBe(0);
  });

  it('--flush allows emptying the database first', async () => {
    await redis.set('user:gone', 'x');
    const { code } = await cli('replay', '--url', url, '--flush', fixture);
    expect(code).toBe(0);
    expect(await redis.dbsize()).toBe(0);
  });

  // Since issue 23 a FLUSHALL scenario is skipped without --allow-whole-server whatever the other
  // databases hold (23-1-cli-reaches-only-what-it-creates.test.ts has the rest).
  it('skips a scenario sending FLUSHALL while another database holds keys', async () => {
    const other = new IORedis(url.replace(/\/\d+$/, `/${db + 1}`));
    try {
      await other.set('cli-safety:other-db', 'kept');
      const { code, out } = await cli('replay', '--url', url, flushallFixture);
      expect(code).toBe(0);
      expect(out[0]).toMatch(/^SKIP sends-flushall: sends FLUSHALL, which reaches beyond database \d+; --allow-whole-server runs it on an empty server with no other client$/);
      expect(await other.get('cli-safety:other-db')).toBe('kept');
    } finally {
      await other.del('cli-safety:other-db');
      other.disconnect();
    }
  });
});
