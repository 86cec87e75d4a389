/**
 * ioredis sends CLIENT SETINFO LIB-NAME `ioredis(<clientInfoTag>)` in its handshake and ignores a
 * refusal; from 7.2 a server refuses a value with spaces or special characters ("ERR LIB-NAME
 * cannot contain spaces, newlines or special characters."), so CLIENT INFO / CLIENT LIST keep
 * `lib-name=` empty. The fake's handshake set it anyway when it skipped sending the commands (no
 * MONITOR open), and left it empty when a MONITOR was open. Found by a fresh-user trial.
 */
import Redis from 'ioredis-mock-streams';

type Client = Record<string, any>;

/** CLIENT INFO's lib-name field of a client made with `clientInfoTag` (on an 8.0 keyspace). */
async function libNameOf(port: number, clientInfoTag: string, monitor: boolean): Promise<string> {
  const admin = new Redis({ port, streams: { redisVersion: '8.0' } } as never) as unknown as Client;
  const m = monitor ? await admin.duplicate().monitor() : null;
  const client = new Redis({ port, clientInfoTag } as never) as unknown as Client;
  const info = String(await client.client('INFO'));
  [client, m, admin].forEach((c) => c?.disconnect());
  return / lib-name=(\S*)/.exec(info)?.[1] ?? '?';
}

it('a clientInfoTag CLIENT SETINFO refuses leaves lib-name empty, with or without a MONITOR open', async () => {
  expect(await libNameOf(36_740, 'my tag', false)).toBe('');
  expect(await libNameOf(36_741, 'my tag', true)).toBe('');
  expect(await libNameOf(36_742, 'tag-1', false)).toBe('ioredis(tag-1)');
  expect(await libNameOf(36_743, 'tag-1', true)).toBe('ioredis(tag-1)');
});
