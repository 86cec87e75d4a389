/**
 * Upstash target: runs a scenario on this library through its Upstash REST front end — every
 * command is one raw `POST /` request (JSON array body, `Upstash-Encoding: base64`, bearer
 * token) handed to `createUpstashHandler`, and the JSON answer is decoded as a RESP2 client
 * sees it (`{"result"}` base64 strings back to UTF-8 text, a top-level "OK" as is;
 * `{"error"}` as the error). The keyspace is the handler's own, on a fake clock starting at
 * the scenario's `clock`; `advance` is `clock.tickAsync(ms)`.
 *
 * What REST cannot do is skipped, with the reason (never emulated, so a pass means the REST
 * front end gave exactly the recorded replies):
 * - `async` steps and XREAD/XREADGROUP with BLOCK: Upstash documents blocking reads as
 *   unsupported over REST (the handler answers them with an error), and a request has no
 *   connection to stay blocked on;
 * - commands the REST API does not serve (MULTI/EXEC as commands, WATCH, SELECT, CLIENT …):
 *   REST has no connection state; transactions are the `/multi-exec` endpoint.
 * Every scenario client is the same REST caller: without blocking, a client is only a label.
 */
import { createFakeClock } from '../../clock/fake-clock';
import { parseRedisVersion } from '../../version';
import { createUpstashHandler, type UpstashHandler } from '../../upstash/handler';
import { restRefusal } from '../../upstash/rest-rules';
import { DEFAULT_CLOCK, isCommandStep, type Scenario } from '../format';
import { bytesValue, isBytes } from '../matchers';
import type { Target, TargetSession } from './target';

const TOKEN = 'scenario-token';

/** Each run gets its own base URL (and the handler its own keyspace). */
let nextRun = 1;

/**
 * Why the REST front end cannot replay `scenario`, or null. Synchronous, so a test can list the
 * skipped scenarios before it runs any.
 */
export function upstashSkipReason(scenario: Scenario): string | null {
  for (let i = 0; i < scenario.steps.length; i++) {
    const step = scenario.steps[i];
    if (!isCommandStep(step)) continue;
    if (step.async !== undefined) return `step ${i} waits for a blocked command (async); the REST API has no connection to block`;
    if (step.cmd.some((a) => isBytes(a) && typeof bytesValue(Buffer.from(a.hex, 'hex')) !== 'string')) {
      return `step ${i} sends bytes that are not UTF-8 text ({"hex"}); a REST request's arguments are JSON text`;
    }
    const argv = step.cmd.map((a) => (typeof a === 'string' ? a : ''));
    const refusal = restRefusal(argv);
    if (refusal !== null) {
      const name = argv[0].toUpperCase();
      return name === 'XREAD' || name === 'XREADGROUP'
        ? `step ${i} uses ${name} with BLOCK, which Upstash's REST API does not support`
        : `step ${i} uses ${name}, which Upstash's REST API does not serve (no connection state; transactions are /multi-exec)`;
    }
  }
  return null;
}

/** A decoded `result`: base64 strings back to bytes at every depth (normalizeReply reads them); the top-level "OK" as is. */
function decodeResult(v: unknown, top: boolean): unknown {
  if (typeof v === 'string') return top && v === 'OK' ? v : Buffer.from(v, 'base64');
  if (Array.isArray(v)) return v.map((x) => decodeResult(x, false));
  return v;
}

export class UpstashTarget implements Target {
  readonly kind = 'upstash' as const;
  readonly callTimeoutMs: number;

  constructor(opts: { callTimeoutMs?: number } = {}) {
    this.callTimeoutMs = opts.callTimeoutMs ?? 1000;
  }

  async skipReason(scenario: Scenario): Promise<string | null> {
    return upstashSkipReason(scenario);
  }

  async open(scenario: Scenario): Promise<TargetSession> {
    const clock = createFakeClock({ now: scenario.clock ?? DEFAULT_CLOCK });
    const url = `https://scenario-${nextRun++}.upstash.test`;
    const handler: UpstashHandler = createUpstashHandler({
      url,
      token: TOKEN,
      streams: { clock, redisVersion: parseRedisVersion(scenario.redisVersion) },
    });
    return {
      async call(_client, argv): Promise<unknown> {
        // a {"ref"} to captured bytes (a {"hex"} argument skips the scenario, upstashSkipReason)
        if (argv.some((a) => typeof a !== 'string' && typeof bytesValue(a) !== 'string')) {
          throw new Error('[ioredis-mock-streams] an argument holds bytes that are not UTF-8 text; a REST request\'s arguments are JSON text');
        }
        const res = await handler(
          new Request(url, {
            method: 'POST',
            headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'upstash-encoding': 'base64' },
            body: JSON.stringify(argv.map((a) => (typeof a === 'string' ? a : a.toString('utf8')))),
          }),
        );
        const body = (await res.json()) as { result?: unknown; error?: string };
        if (typeof body.error === 'string') throw new Error(body.error);
        if (res.status !== 200 || !('result' in body)) throw new Error(`[ioredis-mock-streams] HTTP ${res.status} without a result`);
        return decodeResult(body.result, true);
      },
      advance: async (ms) => {
        await clock.tickAsync(ms);
      },
      async settleAsync(): Promise<void> {
        // Scenarios with async steps are skipped (see upstashSkipReason).
      },
      async close(): Promise<void> {
        handler.keyspace.reset();
        handler.close();
      },
    };
  }

  async dispose(): Promise<void> {
    // Nothing target-wide to release.
  }
}
