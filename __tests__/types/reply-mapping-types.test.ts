/**
 * The package's own class types its clients as ioredis's constructor does (lib/index.ts,
 * `StreamsRedisConstructor`): with ioredis 6, `new Redis({ replyMapping: 'resp3' })` is ioredis's
 * `Redis<'resp3'>`, so XREADGROUP and XREAD are typed `Record<key, entries>` (what the client
 * answers at run time), XINFO as ioredis 6 types it; without the option it is `Redis`
 * (`'legacy'`), and with ioredis 5 (no such option) always ioredis 5's `Redis`.
 *
 * Each check compiles a small consumer program with the TypeScript API, the way a user's
 * project compiles: CommonJS (`moduleResolution` node10) against the sources, ESM `nodenext`
 * against the built package (`esm/index.d.mts` → `dist/`, so `npm run build` first, as `npm
 * test` does), and CommonJS against ioredis 5.11.1 (the `ioredis5` dev alias).
 */
import * as path from 'node:path';
import * as ts from 'typescript';
import Redis from 'ioredis-mock-streams';
import { installedIoredisMajor } from '../../lib/adapter/command-table';

const root = path.resolve(__dirname, '../..');

/** Type errors (with line numbers) of a one-file program written at `file` (relative to the repository). */
function typeErrors(file: string, source: string, options: ts.CompilerOptions): string[] {
  const fileName = path.join(root, file);
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, version, ...rest) =>
    path.resolve(name) === fileName ? ts.createSourceFile(name, source, version) : getSourceFile.call(host, name, version, ...rest);
  host.fileExists = (name) => path.resolve(name) === fileName || fileExists.call(host, name);
  host.readFile = (name) => (path.resolve(name) === fileName ? source : readFile.call(host, name));
  const program = ts.createProgram([fileName], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : '';
    return where + ts.flattenDiagnosticMessageText(d.messageText, '\n');
  });
}

const common: ts.CompilerOptions = { strict: true, noEmit: true, skipLibCheck: false, target: ts.ScriptTarget.ES2022, types: ['node'] };
const cjs: ts.CompilerOptions = {
  ...common,
  esModuleInterop: true,
  module: ts.ModuleKind.CommonJS,
  moduleResolution: ts.ModuleResolutionKind.Node10,
  baseUrl: root,
  paths: { 'ioredis-mock-streams': ['lib/index.ts'] },
};
const esm: ts.CompilerOptions = { ...common, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext };
const cjsIoredis5: ts.CompilerOptions = {
  ...cjs,
  paths: { ...cjs.paths, ioredis: ['node_modules/ioredis5'], 'ioredis/*': ['node_modules/ioredis5/*'] },
};

const equal = 'type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;';

/** Checks that hold with ioredis 6: the fake's clients have the types of ioredis 6's own. */
const ioredis6Checks = `
${equal}
type Entries<Fields> = [id: string, fields: Fields][];

export async function resp3(): Promise<void> {
  const fake = new Fake({ replyMapping: 'resp3', streams: { redisVersion: '7.0' } });
  const real = new Redis({ replyMapping: 'resp3' });
  const sameClient: Equal<typeof fake, typeof real> = true;
  const isResp3: Equal<typeof fake, Redis<'resp3'>> = true;

  const group = await fake.xreadgroup('GROUP', 'g', 'c', 'STREAMS', 's', '>');
  const groupReal = await real.xreadgroup('GROUP', 'g', 'c', 'STREAMS', 's', '>');
  const groupIsMap: Equal<typeof group, Record<string, Entries<string[] | null>> | null> = true;
  const groupSame: Equal<typeof group, typeof groupReal> = true;
  const entries: Entries<string[] | null> | undefined = group?.['s'];

  const read = await fake.xread('COUNT', 10, 'STREAMS', 's', '0');
  const readIsMap: Equal<typeof read, Record<string, Entries<string[]>> | null> = true;
  const readSame: Equal<typeof read, Awaited<ReturnType<typeof real.xread>>> = true;

  const info = await fake.xinfo('STREAM', 's');
  const infoSame: Equal<typeof info, Awaited<ReturnType<typeof real.xinfo>>> = true;

  // the other constructor forms, duplicate() and pipelines follow the mapping too
  const byPort = new Fake(6379, 'localhost', { replyMapping: 'resp3' });
  const byPortIsResp3: Equal<typeof byPort, Redis<'resp3'>> = true;
  const dup = fake.duplicate();
  const dupIsResp3: Equal<typeof dup, Redis<'resp3'>> = true;
  const back = fake.duplicate({ replyMapping: 'legacy' });
  const backIsLegacy: Equal<typeof back, Redis> = true;
  streamsKeyspace(fake).setRedisVersion('8.10'); // takes a resp3 client too
  void [sameClient, isResp3, groupIsMap, groupSame, entries, readIsMap, readSame, infoSame, byPortIsResp3, dupIsResp3, backIsLegacy];
}

export async function legacy(): Promise<void> {
  const fake = new Fake({ port: 6380, streams: { redisVersion: '8.10' }, data: { k: 'v' } });
  const explicit = new Fake({ replyMapping: 'legacy' });
  const plain = new Fake();
  const isLegacy: Equal<typeof fake, Redis> = true;
  const explicitIsLegacy: Equal<typeof explicit, Redis> = true;
  const plainIsLegacy: Equal<typeof plain, Redis> = true;
  const group = await fake.xreadgroup('GROUP', 'g', 'c', 'STREAMS', 's', '>');
  const groupIsArray: Equal<typeof group, [key: string, entries: Entries<string[] | null>][] | null> = true;
  const read = await fake.xread('STREAMS', 's', '0');
  const readIsArray: Equal<typeof read, [key: string, items: Entries<string[]>][] | null> = true;
  void [isLegacy, explicitIsLegacy, plainIsLegacy, groupIsArray, readIsArray];
}

// @ts-expect-error no such reply mapping
new Fake({ replyMapping: 'resp2' });
// @ts-expect-error redisVersion is a string
new Fake({ replyMapping: 'resp3', streams: { redisVersion: 7 } });
`;

describe("the package's class follows ioredis 6's reply-mapping types", () => {
  it('CommonJS: new Redis({ replyMapping: "resp3" }) is ioredis 6\'s Redis<"resp3">; the default stays Redis', () => {
    const source = `import Fake, { streamsKeyspace } from 'ioredis-mock-streams';\nimport Redis from 'ioredis';\n${ioredis6Checks}`;
    expect(typeErrors('__tests__/types/reply-mapping.virtual.ts', source, cjs)).toEqual([]);
  }, 60_000);

  it('ESM nodenext (the built package): the same types; ioredis\'s own default import is not constructable there', () => {
    const source = `import Fake, { streamsKeyspace } from 'ioredis-mock-streams';\nimport { Redis } from 'ioredis';\n${ioredis6Checks}`;
    expect(typeErrors('__tests__/types/reply-mapping.virtual.mts', source, esm)).toEqual([]);
    // what the README says about ioredis 6 under nodenext (its typings, not this package's)
    const defaultImport = `import IORedis from 'ioredis';\nexport const client = new IORedis();\n`;
    expect(typeErrors('__tests__/types/ioredis-default.virtual.mts', defaultImport, esm).join('\n')).toMatch(/This expression is not constructable/);
  }, 60_000);

  it('ioredis 5: the class gives ioredis 5\'s Redis and replyMapping stays an unknown option', () => {
    const source = `import Fake from 'ioredis-mock-streams';
import Redis from 'ioredis';
${equal}
export async function legacy(): Promise<void> {
  const fake = new Fake({ port: 6380, streams: { redisVersion: '7.0' } });
  const plain = new Fake();
  const isRedis: Equal<typeof fake, Redis> = true;
  const plainIsRedis: Equal<typeof plain, Redis> = true;
  const group = await fake.xreadgroup('GROUP', 'g', 'c', 'STREAMS', 's', '>');
  const groupIsArray: Equal<typeof group, [key: string, entries: [id: string, fields: string[] | null][]][] | null> = true;
  void [isRedis, plainIsRedis, groupIsArray];
}
// @ts-expect-error ioredis 5 has no replyMapping option
new Fake({ replyMapping: 'resp3' });
`;
    expect(typeErrors('__tests__/types/reply-mapping-5.virtual.ts', source, cjsIoredis5)).toEqual([]);
  }, 60_000);

  // skip: ioredis 5 has no replyMapping option: skipped under `npm run test:ioredis5`
  (installedIoredisMajor() === 6 ? it : it.skip)('at run time a resp3 client answers XREADGROUP with the map its type says', async () => {
    const redis = new Redis({ port: 27_001, replyMapping: 'resp3' } as never);
    await redis.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM');
    await redis.xadd('s', '1-0', 'f', 'v');
    expect(await redis.xreadgroup('GROUP', 'g', 'c', 'STREAMS', 's', '>')).toEqual({ s: [['1-0', ['f', 'v']]] });
    redis.disconnect();
  });
});
