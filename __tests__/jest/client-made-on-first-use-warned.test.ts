/**
 * Under the jest setup file, a client made on first use inside a test and kept in a module (a
 * lazy `getRedis()`, unstorage's redis driver) is closed when that test ends, like every client a
 * test creates. A later test's command on it rejects with "Connection is closed." as before, and a
 * warning, once per client, names both tests and the fixes (a helper found unstorage's suite
 * failing from its second test with nothing but that rejection).
 */
require('ioredis-mock-streams/jest');
export {}; // a module: its names stay its own

// eslint-disable-next-line @typescript-eslint/no-var-requires
const Redis = require('ioredis');

let shared: any;
const getRedis = () => (shared ??= new Redis({ port: 33_095 }));
let warn: jest.SpyInstance;

beforeAll(() => {
  warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterAll(() => warn.mockRestore());

test('first test makes the shared client', async () => {
  expect(await getRedis().set('k', 'v')).toBe('OK');
  expect(warn).not.toHaveBeenCalled();
});

test('second test uses it: rejected, and warned once with both tests named', async () => {
  await expect(getRedis().get('k')).rejects.toThrow('Connection is closed.');
  const [[pipelineError]] = await getRedis().pipeline().incr('n').exec();
  expect(pipelineError.message).toBe('Connection is closed.');
  await expect(getRedis().xadd('s', '*', 'f', 'v')).rejects.toThrow('Connection is closed.');
  const warnings = warn.mock.calls.map((c) => String(c[0]));
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain('during test "second test uses it: rejected, and warned once with both tests named", GET was sent to a client created during test "first test makes the shared client"');
  expect(warnings[0]).toContain('__IOREDIS_MOCK_STREAMS_KEEP_CLIENTS__ = true');
  expect(warnings[0]).toContain('at module scope or in beforeAll');
});

let quitByTest: any;

test('a client closed by its own code is not warned about', async () => {
  const r = new Redis({ port: 33_095 });
  await r.quit();
  warn.mockClear();
  await expect(r.get('k')).rejects.toThrow('Connection is closed.');
  expect(warn).not.toHaveBeenCalled();
  quitByTest = r;
});

test('nor in a later test (the test closed it, not the setup)', async () => {
  await expect(quitByTest.get('k')).rejects.toThrow('Connection is closed.');
  expect(warn).not.toHaveBeenCalled();
});
