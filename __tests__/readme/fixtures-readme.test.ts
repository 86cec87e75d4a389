/**
 * fixtures/README.md ships in the npm package: it is written for users of the package (issue 23
 * item 12). It names nothing that only the source repository has, every command it shows is the
 * installed `ioredis-mock-streams` command with options that command has, and its example
 * scenario replays on the fake.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { parseScenario } from '../../lib/scenarios/format';
import { replayScenario } from '../../lib/scenarios/replay';
import { FakeTarget } from '../../lib/scenarios/targets/fake';

const root = join(__dirname, '..', '..');
const text = readFileSync(join(root, 'fixtures', 'README.md'), 'utf8');
const blocks = (lang: string) => [...text.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]);

describe('fixtures/README.md (shipped in the package)', () => {
  it('names no source-repository file, build machine path or maintainers\' notes', () => {
    const found = ['dist/cli.js', 'ts-node', 'lib/cli.ts', '__tests__', 'npx jest', 'npm run build', '/work/', 'this repository', 'maintainers', '§']
      .filter((s) => text.includes(s));
    expect(found).toEqual([]);
  });

  it('shows only the installed command, with subcommands and options it has', () => {
    const cli = readFileSync(join(root, 'lib', 'cli.ts'), 'utf8');
    const commands = blocks('sh')
      .join('\n')
      .replace(/\\\n\s*/g, ' ')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    expect(commands.length).toBeGreaterThanOrEqual(7);
    for (const line of commands) {
      expect(line).toMatch(/^npx ioredis-mock-streams (replay|record|format) /);
      for (const option of line.match(/--[a-z-]+/g) ?? []) expect([line, cli.includes(`.option('${option}`)]).toEqual([line, true]);
    }
    expect(commands).toContain('npx ioredis-mock-streams replay node_modules/ioredis-mock-streams/fixtures/');
  });

  it('gives an example scenario that passes on the fake', async () => {
    const example = blocks('json').find((b) => b.includes('"steps"'))!;
    const result = await replayScenario(parseScenario(JSON.parse(example)), new FakeTarget());
    expect(result.status).toBe('pass');
    expect(result.outcomes.length).toBe(6);
  });
});
