/**
 * JSON data files (package manifests, command tables) read with `fs` and parsed once per path.
 * A `require()` of a data file does the same in Node, but under jest it goes through the module
 * registry, the resolver and the transform cache again in every test file. A test that mocks
 * `fs` (`jest.mock('fs')`, memfs) gets the file through `require()` instead, as jest loads it.
 */
import { readFileSync } from 'fs';

const cache = new Map<string, unknown>();

/**
 * The text of the package file at absolute path `file`, or undefined when `fs` cannot give it
 * (a test mocked `fs`: jest's automock answers undefined, memfs throws ENOENT).
 */
export function readPackageFile(file: string): string | undefined {
  try {
    const text: unknown = readFileSync(file, 'utf8');
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The parsed contents of the JSON file at absolute path `file` (cached; callers must not mutate
 * it). Read with `fs`, else (fs mocked) through `require()`. Throws as `require()` of a missing
 * or malformed file does.
 */
export function readJsonFile(file: string): unknown {
  let data = cache.get(file);
  if (data === undefined) {
    const text = readPackageFile(file);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    data = text === undefined ? require(file) : JSON.parse(text);
    cache.set(file, data);
  }
  return data;
}
