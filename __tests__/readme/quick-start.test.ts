/**
 * The README's Quick start, run as written: the jest setup file (here required first, as
 * `setupFilesAfterEnv: ['ioredis-mock-streams/jest']` loads it before each test file), then the
 * test it shows.
 */
require('ioredis-mock-streams/jest');
// README:begin
import Redis from 'ioredis';
import { createFakeClock } from 'ioredis-mock-streams';

const clock = createFakeClock({ now: Date.UTC(2024, 0, 1) });

it('hands a job nobody acknowledged to another worker once it has been idle 30 s', async () => {
  const redis = new Redis({ streams: { clock } }); // ioredis is the fake in every test file
  await redis.xgroup('CREATE', 'jobs', 'workers', '$', 'MKSTREAM');
  const id = await redis.xadd('jobs', '*', 'task', 'email');
  expect(id).toBe('1704067200000-0'); // the ID comes from the fake clock

  const read = await redis.xreadgroup('GROUP', 'workers', 'w1', 'STREAMS', 'jobs', '>');
  expect(read).toEqual([['jobs', [[id, ['task', 'email']]]]]);

  // w1 never sends XACK; after 30 s of fake time (no real waiting) w2 claims the job
  expect(await redis.xautoclaim('jobs', 'workers', 'w2', 30_000, '0-0')).toEqual(['0-0', [], []]);
  await clock.tickAsync(30_000);
  expect(await redis.xautoclaim('jobs', 'workers', 'w2', 30_000, '0-0')).toEqual(['0-0', [[id, ['task', 'email']]], []]);
});
// README:end

import { readFileSync } from 'fs';
import { join } from 'path';

describe('README: Quick start', () => {
  const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
  const quickStart = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('\n## ', readme.indexOf('## Quick start') + 1));

  it('shows the one-line jest setup and this test file, as written', () => {
    const self = readFileSync(__filename, 'utf8');
    const code = self.slice(self.indexOf('// README:begin\n') + '// README:begin\n'.length, self.indexOf('// README:end'));
    const blocks = [...quickStart.matchAll(/```(?:ts|js)\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks).toContain(code);
    const config = "// jest.config.js\nmodule.exports = {\n  setupFilesAfterEnv: ['ioredis-mock-streams/jest'],\n};\n";
    expect(blocks).toContain(config);
    // a whole jest.config.js, not a fragment (a trial user had to wrap it)
    const mod = { exports: {} as Record<string, unknown> };
    new Function('module', config)(mod);
    expect(mod.exports).toEqual({ setupFilesAfterEnv: ['ioredis-mock-streams/jest'] });
  });

  it('shows usage code before any benchmark table', () => {
    const firstCode = readme.indexOf('```ts\n' + "import Redis from 'ioredis';");
    const benchTable = readme.indexOf('| Measure | Result | Target |');
    expect(firstCode).toBeGreaterThan(readme.indexOf('## Quick start'));
    expect(quickStart).not.toContain('| Measure |');
    expect(benchTable).toBeGreaterThan(firstCode); // kept, lower down
  });
});
