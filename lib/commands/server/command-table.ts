/**
 * The COMMAND INFO / COMMAND DOCS entries and the COMMAND LIST of real servers, recorded by
 * scripts/record-command-table.js into ./command-table-70.ts (redis-server 7.0.15: the truth of
 * the 7.0 mode) and ./command-table-8.ts (the post-7.4 build: the truth of 7.2 and later, see
 * APPROXIMATIONS in ./command.ts). Each file is one JSON string, required and parsed on the
 * first COMMAND INFO/DOCS/LIST/COUNT of its version (never at import: it is in no bundle), and
 * an entry is turned into a Reply on first use (cached: replies are not mutated by encoders).
 *
 * Encoding (the script's header): `"$text"` bulk string, `"+text"` simple string, a number an
 * integer, `["*", …]` array, `["%", k, v, …]` map, `["~", …]` set, null the null. A
 * subcommand's entries are stored inside its container's only.
 */
import { MapReply, type Reply, SetReply, SimpleString } from '../../reply/reply';
import { predates, type RedisVersion } from '../../version';

type Enc = string | number | null | Enc[];
interface Recorded {
  readonly server: Record<string, string>;
  readonly list: readonly string[];
  readonly info: Record<string, Enc>;
  readonly docs: Record<string, Enc>;
}

interface Table {
  readonly data: Recorded;
  readonly info: Map<string, Reply | undefined>;
  readonly docs: Map<string, Reply | undefined>;
}

let t70: Table | undefined;
let t8: Table | undefined;

const load = (text: string): Table => ({ data: JSON.parse(text) as Recorded, info: new Map(), docs: new Map() });

/** The recorded table of `version`: 7.0.15's for 7.0, the post-7.4 build's for 7.2 and later. */
function table(version: RedisVersion): Table {
  if (predates(version, '7.2')) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (t70 ??= load((require('./command-table-70') as typeof import('./command-table-70')).default));
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (t8 ??= load((require('./command-table-8') as typeof import('./command-table-8')).default));
}

function decode(v: Enc): Reply {
  if (v === null || typeof v === 'number') return v;
  if (typeof v === 'string') return v[0] === '+' ? new SimpleString(v.slice(1)) : v.slice(1);
  const items = v.slice(1).map(decode);
  return v[0] === '%' ? new MapReply(items) : v[0] === '~' ? new SetReply(items) : items;
}

const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/** The encoded INFO and DOCS entries of `name` (lower case; `container|sub` too), undefined when not recorded. */
function encoded(data: Recorded, name: string, kind: 'info' | 'docs'): Enc | undefined {
  const bar = name.indexOf('|');
  if (bar < 0) return own(data[kind], name) ? data[kind][name] : undefined;
  const parent = name.slice(0, bar);
  if (!own(data[kind], parent)) return undefined;
  const p = data[kind][parent] as Enc[];
  if (kind === 'info') {
    const subs = p[10] as Enc[];
    return subs.slice(1).find((e) => (e as Enc[])[1] === `$${name}`);
  }
  const k = p.indexOf('$subcommands');
  if (k < 0) return undefined;
  const sub = p[k + 1] as Enc[];
  const j = sub.indexOf(`$${name}`);
  return j < 0 ? undefined : sub[j + 1];
}

function entry(version: RedisVersion, name: string, kind: 'info' | 'docs'): Reply | undefined {
  const t = table(version);
  const cache = t[kind];
  if (cache.has(name)) return cache.get(name);
  const e = encoded(t.data, name, kind);
  const r = e === undefined ? undefined : decode(e);
  cache.set(name, r);
  return r;
}

/** COMMAND INFO's entry of `name` (lower case) as the server of `version` answers it, undefined when not recorded. */
export function recordedInfo(version: RedisVersion, name: string): Reply | undefined {
  return entry(version, name, 'info');
}

/** COMMAND DOCS's entry (the map after the name) of `name` as the server of `version` answers it, undefined when not recorded. */
export function recordedDocs(version: RedisVersion, name: string): Reply | undefined {
  return entry(version, name, 'docs');
}

const versionNumber = (v: string) => {
  const [major, minor] = v.split('.').map(Number);
  return major * 1000 + (minor || 0);
};

/**
 * COMMAND LIST of the server of `version` (containers' subcommands as `container|sub`), sorted:
 * 7.0.15's for 7.0; for later versions the post-7.4 build's, without the commands whose DOCS
 * `since` is newer than `version` (none today: the build's commands are all 7.4 or older).
 */
export function recordedList(version: RedisVersion): string[] {
  const t = table(version);
  const v = versionNumber(version);
  return t.data.list.filter((name) => {
    const docs = encoded(t.data, name, 'docs') as Enc[] | undefined;
    const k = docs ? docs.indexOf('$since') : -1;
    return k < 0 || versionNumber(String(docs![k + 1]).slice(1)) <= v;
  });
}

