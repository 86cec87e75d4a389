/**
 * COMMAND DOCS of the commands the engine answers that neither recorded server has (8.0's
 * HGETDEL/HGETEX/HSETEX, 8.2's XACKDEL/XDELEX, 8.4's DELEX/DIGEST/MSETEX, 8.8's XNACK)
 * (./command-table.ts records 7.0.15 and the post-7.4 build), rendered from the fields of their
 * Redis src/commands/<name>.json as server.c addReplyCommandDocs / addReplyCommandArgList do in
 * the post-7.4 build (map: summary, since, group, complexity, [arguments]; an argument: name,
 * type, display_text (not for oneof/block: the json's `display`, else its name), key_spec_index,
 * token, summary, since, deprecated_since, flags (optional, multiple, multiple_token), arguments).
 * Where each came from is noted per command. MOCKCLOCK (the fake's own) has none: COMMAND DOCS
 * leaves it out, as a server leaves out a command it does not document.
 */
import { MapReply, type Reply, SetReply, SimpleString } from '../../reply/reply';

export interface Arg {
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
export interface Doc {
  summary: string;
  since: string;
  group: string;
  complexity: string;
  arguments?: Arg[];
}

/** The `IDS numids id [id ...]` block of XDELEX, XACKDEL and XNACK. */
const ID_LIST: Arg = {
  name: 'ids',
  token: 'IDS',
  type: 'block',
  arguments: [
    { name: 'numids', type: 'integer' },
    { name: 'id', type: 'string', multiple: true },
  ],
};

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
  ID_LIST,
];

/** HGETDEL's and HGETEX's `FIELDS numfields field [field ...]` block. */
const FIELD_NAMES: Arg = {
  name: 'fields',
  token: 'FIELDS',
  type: 'block',
  arguments: [
    { name: 'numfields', type: 'integer' },
    { name: 'field', type: 'string', multiple: true },
  ],
};

const EXPIRATION = (last: Arg): Arg => ({
  name: 'expiration',
  type: 'oneof',
  optional: true,
  arguments: [
    { name: 'seconds', type: 'integer', token: 'EX' },
    { name: 'milliseconds', type: 'integer', token: 'PX' },
    { name: 'unix-time-seconds', type: 'unix-time', token: 'EXAT' },
    { name: 'unix-time-milliseconds', type: 'unix-time', token: 'PXAT' },
    last,
  ],
});

const DOCS: Record<string, Doc> = {
  // redis/redis src/commands/hgetdel.json at cf8a2976 (8.0; its empty `history` gives no field)
  hgetdel: {
    summary: 'Returns the value of a field and deletes it from the hash.',
    since: '8.0.0',
    group: 'hash',
    complexity: 'O(N) where N is the number of specified fields',
    arguments: [
      { name: 'key', type: 'key', key_spec_index: 0 },
      FIELD_NAMES,
    ],
  },
  // redis/redis src/commands/hgetex.json at 769babcb (8.0; its empty `history` gives no field)
  hgetex: {
    summary: 'Get the value of one or more fields of a given hash key, and optionally set their expiration.',
    since: '8.0.0',
    group: 'hash',
    complexity: 'O(N) where N is the number of specified fields',
    arguments: [
      { name: 'key', type: 'key', key_spec_index: 0 },
      EXPIRATION({ name: 'persist', type: 'pure-token', token: 'PERSIST' }),
      FIELD_NAMES,
    ],
  },
  // redis/redis src/commands/hsetex.json at 2a533473 (8.0)
  hsetex: {
    summary: 'Set the value of one or more fields of a given hash key, and optionally set their expiration.',
    since: '8.0.0',
    group: 'hash',
    complexity: 'O(N) where N is the number of fields being set.',
    arguments: [
      { name: 'key', type: 'key', key_spec_index: 0 },
      {
        name: 'condition',
        type: 'oneof',
        optional: true,
        arguments: [
          { name: 'fnx', type: 'pure-token', token: 'FNX' },
          { name: 'fxx', type: 'pure-token', token: 'FXX' },
        ],
      },
      EXPIRATION({ name: 'keepttl', type: 'pure-token', token: 'KEEPTTL' }),
      {
        name: 'fields',
        token: 'FIELDS',
        type: 'block',
        arguments: [
          { name: 'numfields', type: 'integer' },
          {
            name: 'data',
            type: 'block',
            multiple: true,
            arguments: [
              { name: 'field', type: 'string' },
              { name: 'value', type: 'string' },
            ],
          },
        ],
      },
    ],
  },
  // redis/docs data/commands_core.json (8.4.0 commands; the digest arguments typed string as
  // redis #15305 fixed them — 8.4.2's delex.json/set.json still said integer)
  delex: {
    summary: 'Conditionally removes the specified key based on value or digest comparison.',
    since: '8.4.0',
    group: 'string',
    complexity: 'O(1) for IFEQ/IFNE, O(N) for IFDEQ/IFDNE where N is the length of the string value.',
    arguments: [
      { name: 'key', type: 'key', key_spec_index: 0 },
      {
        name: 'condition',
        type: 'oneof',
        optional: true,
        arguments: [
          { name: 'ifeq-value', type: 'string', token: 'IFEQ' },
          { name: 'ifne-value', type: 'string', token: 'IFNE' },
          { name: 'ifdeq-digest', type: 'string', token: 'IFDEQ' },
          { name: 'ifdne-digest', type: 'string', token: 'IFDNE' },
        ],
      },
    ],
  },
  digest: {
    summary: 'Returns the XXH3 hash of a string value.',
    since: '8.4.0',
    group: 'string',
    complexity: 'O(N) where N is the length of the string value.',
    arguments: [{ name: 'key', type: 'key', key_spec_index: 0 }],
  },
  msetex: {
    summary:
      'Atomically sets multiple string keys with a shared expiration in a single operation. Supports flexible argument parsing where condition and expiration flags can appear in any order.',
    since: '8.4.0',
    group: 'string',
    complexity: 'O(N) where N is the number of keys to set.',
    arguments: [
      { name: 'numkeys', type: 'integer' },
      {
        name: 'data',
        type: 'block',
        multiple: true,
        arguments: [
          { name: 'key', type: 'key', key_spec_index: 0 },
          { name: 'value', type: 'string' },
        ],
      },
      {
        name: 'condition',
        type: 'oneof',
        optional: true,
        arguments: [
          { name: 'nx', type: 'pure-token', token: 'NX' },
          { name: 'xx', type: 'pure-token', token: 'XX' },
        ],
      },
      {
        name: 'expiration',
        type: 'oneof',
        optional: true,
        arguments: [
          { name: 'seconds', type: 'integer', token: 'EX' },
          { name: 'milliseconds', type: 'integer', token: 'PX' },
          { name: 'unix-time-seconds', type: 'unix-time', token: 'EXAT' },
          { name: 'unix-time-milliseconds', type: 'unix-time', token: 'PXAT' },
          { name: 'keepttl', type: 'pure-token', token: 'KEEPTTL' },
        ],
      },
    ],
  },
  // redis/docs content/commands/xcfgset.md (8.6)
  xcfgset: {
    summary: 'Sets the IDMP configuration parameters for a stream.',
    since: '8.6.0',
    group: 'stream',
    complexity: 'O(1)',
    arguments: [
      { name: 'key', type: 'key', key_spec_index: 0 },
      { name: 'idmp-duration', type: 'integer', token: 'IDMP-DURATION', optional: true },
      { name: 'idmp-maxsize', type: 'integer', token: 'IDMP-MAXSIZE', optional: true },
    ],
  },
  // redis/redis src/commands/xnack.json at a3e68716 (8.8)
  xnack: {
    summary: "Releases claimed messages back to the group's PEL without acknowledging them, making them available for re-delivery.",
    since: '8.8.0',
    group: 'stream',
    complexity: 'O(1) for each message ID processed.',
    arguments: [
      { name: 'key', type: 'key', key_spec_index: 0 },
      { name: 'group', type: 'string' },
      {
        name: 'mode',
        type: 'oneof',
        arguments: [
          { name: 'silent', type: 'pure-token', token: 'SILENT' },
          { name: 'fail', type: 'pure-token', token: 'FAIL' },
          { name: 'fatal', type: 'pure-token', token: 'FATAL' },
        ],
      },
      ID_LIST,
      { name: 'count', type: 'integer', token: 'RETRYCOUNT', optional: true },
      { name: 'force', type: 'pure-token', token: 'FORCE', optional: true },
    ],
  },
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

/** An argument's map, as addReplyCommandArgList writes it (exported for the test that checks it against the recorded DOCS). */
export function argReply(a: Arg): Reply {
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
    r = docReply(DOCS[name]);
    cache.set(name, r);
  }
  return r;
}

/** A command's DOCS map, as addReplyCommandDocs writes it for a command with no doc_flags, history or subcommands. */
export function docReply(d: Doc): Reply {
  const m: Reply[] = ['summary', d.summary, 'since', d.since, 'group', d.group, 'complexity', d.complexity];
  if (d.arguments) m.push('arguments', d.arguments.map(argReply));
  return new MapReply(m);
}
