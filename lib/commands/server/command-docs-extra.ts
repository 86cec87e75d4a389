/**
 * COMMAND DOCS of the commands the engine answers that neither recorded server has
 * (./command-table.ts records 7.0.15 and the post-7.4 build): rendered from the fields of their
 * Redis src/commands/<name>.json as server.c addReplyCommandDocs / addReplyCommandArgList do in
 * the post-7.4 build (map: summary, since, group, complexity, [arguments]; an argument: name,
 * type, display_text (not for oneof/block: the json's `display`, else its name), key_spec_index,
 * token, summary, since, deprecated_since, flags (optional, multiple, multiple_token), arguments).
 * Where each came from is noted per command. MOCKCLOCK (the fake's own) has none: COMMAND DOCS
 * leaves it out, as a server leaves out a command it does not document.
 */
import { MapReply, type Reply, SetReply, SimpleString } from '../../reply/reply';

interface Arg {
  name: string;
  type: 'key' | 'string' | 'integer' | 'double' | 'pattern' | 'unix-time' | 'pure-token' | 'oneof' | 'block';
  display?: string;
  key_spec_index?: number;
  token?: string;
  summary?: string;
  since?: string;
  deprecated_since?: string;
  optional?: boolean;
  multiple?: boolean;
  multiple_token?: boolean;
  arguments?: Arg[];
}
interface Doc {
  summary: string;
  since: string;
  group: string;
  complexity: string;
  arguments?: Arg[];
}

const STREAM_DELETE_ARGS: Arg[] = [
  {
    name: 'condition',
    type: 'oneof',
    optional: true,
    arguments: [
      { name: 'keepref', type: 'pure-token', token: 'KEEPREF' },
      { name: 'delref', type: 'pure-token', token: 'DELREF' },
      { name: 'acked', type: 'pure-token', token: 'ACKED' },
    ],
  },
  {
    name: 'ids',
    token: 'IDS',
    type: 'block',
    arguments: [
      { name: 'numids', type: 'integer' },
      { name: 'id', type: 'string', multiple: true },
    ],
  },
];

const DOCS: Record<string, Doc> = {
  // redis/redis src/commands/xackdel.json at 563d69e0 (8.2)
  xackdel: {
    summary: 'Acknowledges and deletes one or multiple messages for a stream consumer group.',
    since: '8.2.0',
    group: 'stream',
    complexity: 'O(1) for each message ID processed.',
    arguments: [{ name: 'key', type: 'key', key_spec_index: 0 }, { name: 'group', type: 'string' }, ...STREAM_DELETE_ARGS],
  },
  // redis/redis src/commands/xdelex.json at 05f7a142 (8.2), its condition optional as in
  // xackdel.json at 563d69e0 and the 8.2 syntax `XDELEX key [KEEPREF | DELREF | ACKED] IDS …`
  xdelex: {
    summary:
      'Returns the number of messages after removing them from a stream. The command can be used to remove entries from the stream based on the PEL or the ACKED status.',
    since: '8.2.0',
    group: 'stream',
    complexity: 'O(1) for each single item to delete in the stream, regardless of the stream size.',
    arguments: [{ name: 'key', type: 'key', key_spec_index: 0 }, ...STREAM_DELETE_ARGS],
  },
};

function argReply(a: Arg): Reply {
  const m: Reply[] = ['name', a.name, 'type', a.type];
  if (a.type !== 'oneof' && a.type !== 'block') m.push('display_text', a.display ?? a.name);
  if (a.key_spec_index !== undefined) m.push('key_spec_index', a.key_spec_index);
  if (a.token !== undefined) m.push('token', a.token);
  if (a.summary !== undefined) m.push('summary', a.summary);
  if (a.since !== undefined) m.push('since', a.since);
  if (a.deprecated_since !== undefined) m.push('deprecated_since', a.deprecated_since);
  const flags = [a.optional && 'optional', a.multiple && 'multiple', a.multiple_token && 'multiple_token'].filter((f): f is string => typeof f === 'string');
  if (flags.length) m.push('flags', new SetReply(flags.map((f) => new SimpleString(f))));
  if (a.arguments) m.push('arguments', a.arguments.map(argReply));
  return new MapReply(m);
}

const cache = new Map<string, Reply>();

/** COMMAND DOCS's map for `name` when it is one of DOCS, else undefined. */
export function extraDocs(name: string): Reply | undefined {
  if (!Object.prototype.hasOwnProperty.call(DOCS, name)) return undefined;
  let r = cache.get(name);
  if (r === undefined) {
    const d = DOCS[name];
    const m: Reply[] = ['summary', d.summary, 'since', d.since, 'group', d.group, 'complexity', d.complexity];
    if (d.arguments) m.push('arguments', d.arguments.map(argReply));
    r = new MapReply(m);
    cache.set(name, r);
  }
  return r;
}
