/**
 * The boundary between ioredis values and the model's byte strings. Arguments (strings are
 * sent as UTF-8 by ioredis; Buffers as their bytes) become byte strings, one char per byte,
 * so names compare in byte order and any binary value round-trips. Replies go back as UTF-8
 * strings, or as Buffers for the `…Buffer` twins.
 */
import type { Reply } from '../commands/types';

const ASCII = /^[\x00-\x7f]*$/;

/** One argument as ioredis would send it, as a byte string. */
export function toByteString(arg: unknown): string {
  if (Buffer.isBuffer(arg)) return arg.toString('latin1');
  if (arg instanceof Uint8Array) return Buffer.from(arg).toString('latin1');
  const s = arg === null || arg === undefined ? '' : String(arg);
  return ASCII.test(s) ? s : Buffer.from(s, 'utf8').toString('latin1');
}

/** Flatten arguments the way ioredis does (arrays are spread one level). */
export function flattenArgs(args: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const a of args) {
    if (Array.isArray(a)) out.push(...a);
    else out.push(a);
  }
  return out;
}

/** A byte string as a UTF-8 decoded JS string (what ioredis returns by default). */
export function decodeBytes(s: string): string {
  return ASCII.test(s) ? s : Buffer.from(s, 'latin1').toString('utf8');
}

export interface ReplyEncoding {
  /** `…Buffer` twin: strings become Buffers. */
  buffers: boolean;
  /** ioredis `stringNumbers`: integers become strings. */
  stringNumbers: boolean;
}

/** Encode a reply for the client. 64-bit integers become numbers as ioredis parses them. */
export function encodeReply(reply: Reply, enc: ReplyEncoding): unknown {
  if (reply === null) return null;
  if (typeof reply === 'string') return enc.buffers ? Buffer.from(reply, 'latin1') : decodeBytes(reply);
  if (typeof reply === 'number' || typeof reply === 'bigint') return enc.stringNumbers ? String(reply) : Number(reply);
  return reply.map((r) => encodeReply(r, enc));
}
