/**
 * ioredis 6.1's one change to reply shapes (built/Command.js `caseInsensitiveReplyTransformers`):
 * a Command whose exact name has no reply transformer gets its lowercase name's when that one is
 * the RESP3 pair, stream-read or VSIM transformer — so `call('XREAD', …)` and
 * `callBuffer('ZRANGE', …, 'WITHSCORES')` are shaped as `xread()` / `zrangeBuffer()` are;
 * `call('HGETALL')` still is not (hgetall's transformer is not one of them). ioredis 6.0 and 5
 * look the exact name up only.
 *
 * The recordings (__tests__/ioredis-replies/recorded.json) were made with ioredis 6.0.0; a
 * recorded 6.0 client's forms become 6.1's by that rule: `call` (the name as written) answers
 * as 6.0's `callLower`, `callBuffer` as 6.0's `methodBuffer`. The differential test
 * __tests__/adapter/ioredis61-call-transformers.test.ts checks the rule itself against real
 * ioredis 6.1.0 on the real servers.
 */
import { installedIoredisAtLeast, installedIoredisMajor } from '../../lib/adapter/command-table';

/** Lowercase names whose transformer ioredis 6.1 also finds from another casing. */
export const CASE_INSENSITIVE_TRANSFORMED = new Set([
  'xread', 'xreadgroup', 'vsim', 'hrandfield',
  'zdiff', 'zinter', 'zpopmax', 'zpopmin', 'zunion', 'zrandmember', 'zrange', 'zrangebyscore', 'zrevrange', 'zrevrangebyscore',
]);

/** Whether the suite runs on ioredis 6.1 or later (IOREDIS_VERSION=6.1 maps ioredis to the `ioredis61` alias). */
export const onIoredis61 = installedIoredisMajor() === 6 && installedIoredisAtLeast(6, 1);

/** A recorded ioredis 6.0 client's forms of `name` as ioredis 6.1 delivers them. */
export function formsAs61<T>(forms: Record<string, T>, name: string): Record<string, T> {
  const lower = name.toLowerCase();
  if (name === lower || !CASE_INSENSITIVE_TRANSFORMED.has(lower)) return forms;
  const out = { ...forms };
  if (forms.callLower !== undefined) out.call = forms.callLower;
  if (forms.callBuffer !== undefined && forms.methodBuffer !== undefined) out.callBuffer = forms.methodBuffer;
  return out;
}
