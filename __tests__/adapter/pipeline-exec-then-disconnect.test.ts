/**
 * `pipeline().exec()` followed in the same tick by `disconnect()`: the commands were sent with
 * exec(), so every one is answered (results and errors per command), as real ioredis 5.11.1 and
 * 6.0.0 deliver them from redis-server 7.0.15 and the post-7.4 build (recorded; compared live with
 * the installed ioredis when REDIS_URL is set). A pipeline still held for `ready` (exec() before
 * the connection is up) resolves with "Connection is closed." for each command; a multi() then
 * rejects.
 */
import Redis from 'ioredis-mock-streams';
import { itOnServer, type AnyClient } from '../helpers/real-server';

const pairs = (x: unknown): unknown => (x as [Error | null, unknown][]).map(([e, v]) => (e ? `ERR:${e.message}` : v));

async function execThenDisconnect(r: AnyClient, key: string): Promise<unknown> {
  await r.ping();
  const out = r.pipeline().set(key, '1').get(key).incr(key).call('nosuch').get(key).del(key).exec();
  r.disconnect();
  return pairs(await out);
}

const RECORDED = ['OK', '1', 2, "ERR:ERR unknown command 'nosuch', with args beginning with: ", '2', 1];

it('answers every command of a pipeline exec() followed at once by disconnect()', async () => {
  expect(await execThenDisconnect(new Redis({ port: 36_800 }) as unknown as AnyClient, 'pk')).toEqual(RECORDED);
});

itOnServer('as real ioredis on redis-server', 'pipeline exec() then disconnect()', {}, async (client) => {
  expect(await execThenDisconnect(client, `pk:${process.pid}`)).toEqual(RECORDED);
});

it("a pipeline held for ready when disconnect() comes resolves with 'Connection is closed.' per command; a multi() rejects", async () => {
  const r = new Redis({ port: 36_801 });
  const p = r.pipeline().set('pk', '1').get('pk').exec();
  r.disconnect();
  expect(pairs(await p)).toEqual(['ERR:Connection is closed.', 'ERR:Connection is closed.']);
  const m = new Redis({ port: 36_801 });
  const t = m.multi().set('pk', '1').get('pk').exec();
  m.disconnect();
  await expect(t).rejects.toThrow('Connection is closed.');
});
