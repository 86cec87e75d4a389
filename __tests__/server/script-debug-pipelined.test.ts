/**
 * SCRIPT DEBUG over RESP: several commands in one read leave replies not written yet when SCRIPT
 * DEBUG runs, and Redis then refuses it ("must be called outside a pipeline",
 * clientHasPendingReplies); alone in its read it answers OK. Byte for byte against both real
 * servers (serve of each one's version).
 */
import { describeServeOnRealServers } from './serve-on-real-servers';
import { transcript } from './raw-client';

describeServeOnRealServers(
  'SCRIPT DEBUG in a pipelined read',
  ({ url, fake }) => {
    it('behind a command of the same read: refused; alone: OK; the mode held for EVALSHA', async () => {
      const writes = [
        [['PING'], ['SCRIPT', 'DEBUG', 'NO']],
        [['SCRIPT', 'DEBUG', 'YES'], ['PING']],
        [['EVALSHA', 'e0e1f9fabfc9d4800c877a703b823ac0578ff8db', '0']],
        [['SCRIPT', 'DEBUG', 'NO']],
        [['MULTI'], ['SCRIPT', 'DEBUG', 'NO'], ['EXEC']],
      ];
      const real = new URL(url);
      const expected = await transcript(Number(real.port || 6379), real.hostname, writes);
      expect(await transcript(fake().port, '127.0.0.1', writes)).toBe(expected);
      expect(expected).toBe(
        '+PONG\r\n-ERR SCRIPT DEBUG must be called outside a pipeline\r\n+OK\r\n+PONG\r\n-ERR Please use EVAL instead of EVALSHA for debugging\r\n+OK\r\n+OK\r\n+QUEUED\r\n*1\r\n-ERR SCRIPT DEBUG must be called outside a pipeline\r\n',
      );
    });
  },
  'answers as Redis does',
);
