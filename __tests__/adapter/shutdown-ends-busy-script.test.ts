/**
 * SHUTDOWN NOSAVE from an ioredis client while another client's script keeps the server busy:
 * the server ends as redis-server exits (README "SHUTDOWN"): the script stops, both callers
 * reject with `Connection is closed.`, and the next client of that host:port finds an empty
 * server. ioredis sends the commands a lost connection interrupted again once it reconnects
 * (autoResendUnfulfilledCommands), but not those of a server that shut down: resending the
 * endless EVAL to the fresh server kept it busy for ever (user trial).
 */
import Redis from 'ioredis-mock-streams';

const PORT = 51_950;

it('SHUTDOWN NOSAVE stops another client’s busy script: its EVAL rejects and is not sent again, the next client finds an empty server', async () => {
  const a = new Redis({ port: PORT });
  const b = new Redis({ port: PORT });
  let c: InstanceType<typeof Redis> | undefined;
  try {
    await a.set('k', 'v');
    await a.config('SET', 'busy-reply-threshold', '100');
    const running = a.eval('while true do end', 0).then(
      () => 'resolved',
      (e: Error) => e.message,
    );
    await new Promise((r) => setTimeout(r, 250));
    await expect(b.get('k')).rejects.toThrow(/^BUSY Redis is busy running a script/);
    await expect(b.shutdown('NOSAVE')).rejects.toThrow('Connection is closed.');
    expect(await running).toBe('Connection is closed.');
    await new Promise((r) => setTimeout(r, 100));
    c = new Redis({ port: PORT });
    expect(await c.get('k')).toBeNull();
    expect(await c.ping()).toBe('PONG');
  } finally {
    a.disconnect();
    b.disconnect();
    c?.disconnect();
  }
});
