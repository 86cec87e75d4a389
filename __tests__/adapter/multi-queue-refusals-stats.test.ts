/**
 * ioredis `multi()` refused at queue time (an unknown command, a wrong arity) is counted in INFO
 * as a server counts it: MULTI and EXEC in commandstats (EXEC failed), the refused command's
 * rejected_calls when it exists, errorstats ERR and EXECABORT, total_error_replies. Recorded with
 * real ioredis (5.11.1 and 6.0.0 alike) on redis-server 7.0.15 and the post-7.4 build (own
 * instances, after CONFIG RESETSTAT): both gave the same counters.
 */
import Redis from 'ioredis-mock-streams';

/** INFO lines of the counters this test is about (usec dropped), sorted. */
function counters(info: string): string[] {
  return info
    .split('\r\n')
    .filter((l) => /^(errorstat_|total_error_replies|cmdstat_(set|get|multi|exec|nosuch))/.test(l))
    .map((l) => l.replace(/,usec=\d+,usec_per_call=[\d.]+/, ''))
    .sort();
}

const RECORDED = [
  'cmdstat_exec:calls=3,rejected_calls=0,failed_calls=2',
  'cmdstat_get:calls=0,rejected_calls=1,failed_calls=0',
  'cmdstat_multi:calls=3,rejected_calls=0,failed_calls=0',
  'cmdstat_set:calls=1,rejected_calls=0,failed_calls=0',
  'errorstat_ERR:count=2',
  'errorstat_EXECABORT:count=2',
  'total_error_replies:4',
];

for (const redisVersion of ['7.0', '8.10'] as const) {
  it(`counts multi() queue-time refusals, MULTI and EXEC in INFO as a real server does (${redisVersion})`, async () => {
    const r = new Redis({ port: 36_700 + (redisVersion === '7.0' ? 1 : 0), streams: { redisVersion } });
    try {
      await r.config('RESETSTAT');
      const replies: unknown[] = [];
      for (const tx of [r.multi().set('a', '1').call('nosuch', 'x').get('a'), r.multi().set('a', '1').get('a', 'b' as never), r.multi().set('a', '1')]) {
        replies.push(await tx.exec().catch((e: Error) => e.message));
      }
      expect(replies).toEqual(['EXECABORT Transaction discarded because of previous errors.', 'EXECABORT Transaction discarded because of previous errors.', [[null, 'OK']]]);
      expect(counters(await r.info('all'))).toEqual(RECORDED);
    } finally {
      r.disconnect();
    }
  });
}
