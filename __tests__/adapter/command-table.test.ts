/**
 * The method list of a fake client is the installed ioredis's command table's keys, read off the
 * data file's lines (lib/adapter/command-table.ts `topLevelKeys`) instead of parsing 100 KB of
 * JSON in every jest test file: the same names, in the same order, as `JSON.parse` gives.
 */
import { readFileSync } from 'fs';
import { dirname, join } from 'path';
import { commandTable, topLevelKeys } from '../../lib/adapter/command-table';
import { commandSpec } from '../../lib/commands/command-data';

const ROOT = join(__dirname, '..', '..');
/** Every @ioredis/commands in this repository: ours (1.5.0), ioredis 6.0's (2.0.0), ioredis 5.11's, ioredis 6.1's (2.4.0) and ioredis-mock's (1.10.0). */
const TABLES = [
  require.resolve('@ioredis/commands/built/commands.json', { paths: [ROOT] }),
  require.resolve('@ioredis/commands/built/commands.json', { paths: [dirname(require.resolve('ioredis/package.json', { paths: [ROOT] }))] }),
  require.resolve('@ioredis/commands/built/commands.json', { paths: [dirname(require.resolve('ioredis5/package.json', { paths: [ROOT] }))] }),
  require.resolve('@ioredis/commands/built/commands.json', { paths: [dirname(require.resolve('ioredis61/package.json', { paths: [ROOT] }))] }),
  require.resolve('@ioredis/commands/built/commands.json', {
    paths: [dirname(require.resolve('ioredis-mock/package.json', { paths: [dirname(require.resolve('@ioredis-mock-streams/mock-runtime/package.json', { paths: [ROOT] }))] }))],
  }),
];

describe('command table keys', () => {
  it.each(TABLES)('reads the same command names as JSON.parse from %s', (file) => {
    const text = readFileSync(file, 'utf8');
    const expected = Object.keys(JSON.parse(text));
    expect(expected.length).toBeGreaterThan(200);
    expect(topLevelKeys(text)).toEqual(expected);
  });

  it('parses JSON that is not written one key per line', () => {
    expect(topLevelKeys('{"xadd":{"arity":-5},"get":{"arity":2}}')).toEqual(['xadd', 'get']);
    expect(topLevelKeys('{\n  "a": {\n    "b": {\n      "c": 1\n    }\n  },\n  "d": [1, 2]\n}')).toEqual(['a', 'd']);
    expect(topLevelKeys('{\r\n  "a": {\r\n    "x": 1\r\n  },\r\n  "b": 2\r\n}')).toEqual(['a', 'b']);
    expect(topLevelKeys('{\n  "q\\"uote": 1,\n  "c": 2\n}')).toEqual(['q"uote', 'c']); // an escape: parsed
  });

  it("lists the commands of the ioredis the suite runs on (6.0.0, 5.11.1 under test:ioredis5, 6.1.0 with IOREDIS_VERSION=6.1)", () => {
    const table = process.env.IOREDIS_MAJOR === '5' ? TABLES[2] : process.env.IOREDIS_VERSION === '6.1' ? TABLES[3] : TABLES[1];
    expect(commandTable().list).toEqual(Object.keys(JSON.parse(readFileSync(table, 'utf8'))));
    expect(commandTable().list).toContain('xautoclaim');
  });

  it("finds each command's arity, flags and key positions in our own table one entry at a time, as JSON.parse of the whole file gives them", () => {
    const whole = JSON.parse(readFileSync(TABLES[0], 'utf8')) as Record<string, unknown>;
    const names = Object.keys(whole);
    expect(names.length).toBeGreaterThan(200);
    for (const name of names) expect([name, commandSpec(name)]).toEqual([name, whole[name]]);
    expect(commandSpec('xadd')).toEqual({ arity: -5, flags: ['write', 'denyoom', 'fast'], keyStart: 1, keyStop: 1, step: 1 });
    expect(commandSpec('no-such-command')).toBeUndefined();
    expect(commandSpec('__proto__')).toBeUndefined();
    expect(commandSpec('XADD')).toBeUndefined(); // lower-case names only, as the table's keys
  });
});
