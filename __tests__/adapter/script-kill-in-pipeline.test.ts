/**
 * SCRIPT KILL / FUNCTION KILL sent in a pipeline (or a pipeline sent while a script keeps the
 * server busy): past busy-reply-threshold each of the pipeline's commands is answered as the
 * server answers it then — BUSY, or run when Redis runs it (SCRIPT KILL ends the script) — and a
 * MULTI of that time aborts with EXECABORT … BUSY. A fresh-user trial found the whole pipeline
 * refused with BUSY, so the script ran on for ever and every later command got BUSY. The
 * expected values are real ioredis 6.0.0 against redis-server 7.0.15 (busy-reply-threshold 300):
 * `[BUSY, 'OK', BUSY]` for PING, SCRIPT KILL, GET, then the EVAL rejected with the kill error.
 */
import Redis from 'ioredis-mock-streams';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Client = Record<string, any>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const answers = (pairs: [Error | null, unknown][] | null) => (pairs ?? []).map(([err, v]) => (err ? err.message.split('.')[0] : v));
const BUSY = 'BUSY Redis is busy running a script';

describe('a busy script and a pipeline', () => {
  it('SCRIPT KILL in a pipeline ends the script; the commands around it get BUSY', async () => {
    const c = new Redis({ port: 56_200 }) as unknown as Client;
    const r = new Redis({ port: 56_200 }) as unknown as Client;
    try {
      await c.config('SET', 'busy-reply-threshold', '300');
      const running = r.eval('local i = 0 while true do i = i + 1 end', 0).then(
        () => 'resolved',
        (e: Error) => e.message,
      );
      await sleep(50);
      const pipe = await c.pipeline().ping().script('kill').get('k').exec();
      expect(answers(pipe)).toEqual([BUSY, 'OK', BUSY]);
      expect(await running).toMatch(/^ERR Script killed by user with SCRIPT KILL\.\.\. script: [0-9a-f]{40}, on @user_script:1\.$/);
      expect(await c.ping()).toBe('PONG');
    } finally {
      c.disconnect();
      r.disconnect();
    }
  });

  it('a MULTI sent then aborts with EXECABORT … BUSY, and SCRIPT KILL still ends the script', async () => {
    const c = new Redis({ port: 56_201 }) as unknown as Client;
    const r = new Redis({ port: 56_201 }) as unknown as Client;
    try {
      await c.config('SET', 'busy-reply-threshold', '300');
      const running = r.eval('local i = 0 while true do i = i + 1 end', 0).catch((e: Error) => e.message);
      await sleep(50);
      await expect(c.multi().set('a', '1').exec()).rejects.toThrow('EXECABORT Transaction discarded because of: BUSY Redis is busy running a script.');
      expect(await c.script('KILL')).toBe('OK');
      expect(await running).toMatch(/^ERR Script killed by user/);
      expect(await c.exists('a')).toBe(0);
    } finally {
      c.disconnect();
      r.disconnect();
    }
  });

  it('FUNCTION KILL in a pipeline ends a busy FCALL', async () => {
    const c = new Redis({ port: 56_202 }) as unknown as Client;
    const r = new Redis({ port: 56_202 }) as unknown as Client;
    try {
      await c.config('SET', 'busy-reply-threshold', '300');
      await c.function('LOAD', "#!lua name=spin\nredis.register_function('spin', function() local i = 0 while true do i = i + 1 end end)");
      const running = r.fcall('spin', 0).catch((e: Error) => e.message);
      await sleep(50);
      const pipe = await c.pipeline().function('kill').exec();
      expect(answers(pipe)).toEqual(['OK']);
      // Redis's text names SCRIPT KILL for both (redis-server 7.0.15: the same line after FUNCTION KILL)
      expect(await running).toBe('ERR Script killed by user with SCRIPT KILL... script: spin, on @user_function:2.');
    } finally {
      c.disconnect();
      r.disconnect();
    }
  });
});
