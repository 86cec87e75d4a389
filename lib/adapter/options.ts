/**
 * Validation of the `streams` constructor option (library misuse is loud: StreamsMockError).
 */
import { z } from 'zod';
import { StreamsMockError } from '../clock/clock';
import type { KeyspaceOptions } from '../keyspace/keyspace';
import { parseRedisVersion } from '../version';

const clockSchema = z.custom<NonNullable<KeyspaceOptions['clock']>>(
  (v) => typeof v === 'object' && v !== null && typeof (v as { now?: unknown }).now === 'function' && typeof (v as { schedule?: unknown }).schedule === 'function',
  { message: 'clock must implement now() and schedule(fn, ms) — use createFakeClock(), globalClock or realClock' },
);

const streamsSchema = z
  .object({
    clock: clockSchema.optional(),
    redisVersion: z.union([z.string(), z.number()]).optional(),
  })
  .strict();

/** Parse `options.streams`; undefined when absent. Throws StreamsMockError when malformed. */
export function parseStreamsOptions(input: unknown): KeyspaceOptions | undefined {
  if (input === undefined || input === null) return undefined;
  const parsed = streamsSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.length ? `streams.${issue.path.join('.')}` : 'streams';
    throw new StreamsMockError(`invalid option ${where}: ${issue.message}`);
  }
  const { clock, redisVersion } = parsed.data;
  return { clock, redisVersion: redisVersion === undefined ? undefined : parseRedisVersion(redisVersion) };
}
