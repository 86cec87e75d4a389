/**
 * JSON data files (package manifests, command tables) read with `fs` and parsed once per path.
 * A `require()` of a data file does the same in Node, but under jest it goes through the module
 * registry, the resolver and the transform cache again in every test file.
 */
import { readFileSync } from 'fs';

const cache = new Map<string, unknown>();

/**
 * The parsed contents of the JSON file at absolute path `file` (cached; callers must not mutate
 * it). Throws as `fs.readFileSync` / `JSON.parse` do (a missing file: ENOENT).
 */
export function readJsonFile(file: string): unknown {
  let data = cache.get(file);
  if (data === undefined) {
    data = JSON.parse(readFileSync(file, 'utf8'));
    cache.set(file, data);
  }
  return data;
}
