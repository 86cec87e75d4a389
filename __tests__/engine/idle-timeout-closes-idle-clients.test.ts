/**
 * CONFIG `timeout`: a client idle for more than that many seconds is closed (Redis
 * clientsCronHandleTimeout), except a blocked one, a subscriber, a MONITOR or a replica. Seen on
 * redis-server 7.0.15 with `CONFIG SET timeout 1` (a fresh-user trial): an idle client's socket
 * closed ~1.5 s later, a SUBSCRIBEd client and one blocked in `BLPOP … 0` stayed open; the fake
 * left every client open. On the fake it follows the keyspace's clock: closed at the first whole
 * second past the timeout (Redis counts whole seconds; its cron then closes it within a second).
 * A reply or push written to a client is an interaction (Redis writeToClient sets
 * lastinteraction): a blocked reader served after 3 s showed CLIENT LIST idle=0 on both real
 * servers (the fake said idle=3), a subscriber that got a message idle=0/1 (the fake: 2).
 */
import { spawnSync } from 'child_process';
import * as path from 'path';
import Redis, { createFakeClock } from 'ioredis-mock-streams';
import { serve } from 'ioredis-mock-streams/server';
import { RawClient } from '../server/raw-client';

async function closedWithin(c: RawClient, ms: number): Promise<boolean> {
  return Promise.race([c.whenClosed().then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);
}

describe('CONFIG SET timeout', () => {
  it('closes an idle client once the clock passes the timeout in whole seconds, and no other', async () => {
    const clock = createFakeClock({ now: 1_000_000 }); // a whole second
    const server = await serve({ clock });
    const admin = await RawClient.connect(server.port);
    const idle = await RawClient.connect(server.port);
    const subscriber = await RawClient.connect(server.port);
    const blocked = await RawClient.connect(server.port);
    try {
      expect(await admin.call('CONFIG', 'SET', 'timeout', '10')).toBe('+OK\r\n');
      expect(await idle.call('PING')).toBe('+PONG\r\n');
      await subscriber.call('SUBSCRIBE', 'ch');
      blocked.write('*3\r\n$5\r\nBLPOP\r\n$6\r\nnolist\r\n$1\r\n0\r\n');
      await server.waitForBlocked(1);

      await server.tick(10_999); // 10 s idle and 999 ms: not past 10 whole seconds yet
      expect(await closedWithin(idle, 50)).toBe(false);
      expect(await admin.call('PING')).toBe('+PONG\r\n'); // admin's idleness starts again
      await server.tick(1); // 11 whole seconds since its last command: closed
      expect(await closedWithin(idle, 1000)).toBe(true);
      expect(subscriber.closed).toBe(false);
      expect(blocked.closed).toBe(false);
      expect(admin.closed).toBe(false);
    } finally {
      for (const c of [admin, idle, subscriber, blocked]) c.close();
      await server.close();
    }
  });

  it('a blocked client whose call ends is idle from its reply on; timeout 0 closes nothing', async () => {
    const clock = createFakeClock({ now: 2_000_000 });
    const server = await serve({ clock });
    const admin = await RawClient.connect(server.port);
    const reader = await RawClient.connect(server.port);
    const clients = [admin, reader];
    try {
      await admin.call('CONFIG', 'SET', 'timeout', '5');
      reader.write('*3\r\n$5\r\nBLPOP\r\n$1\r\nl\r\n$1\r\n0\r\n');
      await server.waitForBlocked(1);
      await server.tick(30_000); // blocked: not closed; the idle admin is
      expect(await closedWithin(admin, 1000)).toBe(true);
      expect(reader.closed).toBe(false);
      const pusher = await RawClient.connect(server.port);
      clients.push(pusher);
      expect(await pusher.call('RPUSH', 'l', 'x')).toBe(':1\r\n');
      expect((await reader.read())[0]).toBe('*2\r\n$1\r\nl\r\n$1\r\nx\r\n');
      // the reply written is an interaction (Redis writeToClient sets lastinteraction; 7.0.15
      // and the post-7.4 build closed such a reader ~timeout after it was served, CLIENT LIST
      // idle=0 right after): idle from now
      expect(await pusher.call('CLIENT', 'LIST')).toMatch(/ idle=0 flags=N [^\n]* cmd=blpop /);
      await server.tick(5_999);
      expect(await closedWithin(reader, 50)).toBe(false);
      await server.tick(1_000);
      expect(await closedWithin(reader, 1000)).toBe(true);

      const other = await RawClient.connect(server.port);
      clients.push(other);
      expect(await other.call('CONFIG', 'SET', 'timeout', '0')).toBe('+OK\r\n');
      await server.tick(3_600_000);
      expect(await closedWithin(other, 50)).toBe(false);
    } finally {
      for (const c of clients) c.close();
      await server.close();
    }
  });

  it('the connection that moves the clock (MOCKCLOCK TICK) is not closed by the move it makes', async () => {
    const server = await serve({ clock: createFakeClock({ now: 3_000_000 }) });
    const control = await RawClient.connect(server.port);
    const idle = await RawClient.connect(server.port);
    try {
      await control.call('CONFIG', 'SET', 'timeout', '1');
      expect(await control.call('MOCKCLOCK', 'TICK', '5000')).toBe(':3005000\r\n');
      expect(await closedWithin(idle, 1000)).toBe(true);
      expect(control.closed).toBe(false);
      expect(await control.call('PING')).toBe('+PONG\r\n');
    } finally {
      control.close();
      idle.close();
      await server.close();
    }
  });

  it('CLIENT LIST idle counts whole seconds (unixtime − lastinteraction), as the timeout does', async () => {
    const server = await serve({ clock: createFakeClock({ now: 2_000_000_000_900 }) });
    const a = await RawClient.connect(server.port);
    const b = await RawClient.connect(server.port);
    try {
      await b.call('CLIENT', 'SETNAME', 'b');
      await server.tick(1_200); // 1.2 s later, two second boundaries apart: idle=2 (Redis), as age
      expect(await a.call('CLIENT', 'LIST')).toMatch(/ name=b age=2 idle=2 /);
    } finally {
      a.close();
      b.close();
      await server.close();
    }
  });

  it('an in-process subscriber that gets a message is active (CLIENT LIST idle=0)', async () => {
    const server = await serve({ clock: createFakeClock({ now: 4_000_000 }) });
    const sub = new Redis({ port: server.port });
    const admin = await RawClient.connect(server.port);
    try {
      await sub.client('SETNAME', 'sub');
      const got = new Promise((resolve) => sub.on('message', resolve));
      await sub.subscribe('ch');
      await server.tick(5_000);
      await admin.call('PUBLISH', 'ch', 'hi');
      await got;
      expect(await admin.call('CLIENT', 'LIST')).toMatch(/ name=sub age=5 idle=0 /);
    } finally {
      sub.disconnect();
      admin.close();
      await server.close();
    }
  });

  it('a clock whose schedule() throws does not end the process: connections are served, nothing closes', async () => {
    const throwing = { now: () => 5_000_000, schedule: () => { throw new Error('boom'); }, kind: 'custom' as const };
    const server = await serve({ clock: throwing as never, config: { timeout: '1' } });
    const c = await RawClient.connect(server.port);
    try {
      expect(await c.call('PING')).toBe('+PONG\r\n');
      expect(await c.call('CONFIG', 'SET', 'timeout', '2')).toBe('+OK\r\n');
    } finally {
      c.close();
      await server.close();
    }
  });

  it('a timeout set on an in-process server does not keep the process alive once the clients are gone', () => {
    const entry = path.join(__dirname, '../../dist/cjs-entry.js');
    const script = `const Redis = require(${JSON.stringify(entry)}); (async () => { const a = new Redis({ port: 58_330 }); await a.config('SET', 'timeout', '30'); await a.ping(); a.disconnect(); })();`;
    const started = Date.now();
    const run = spawnSync(process.execPath, ['-e', script], { timeout: 20_000, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000); // (it waited the 30 s of the timeout)
  }, 30_000);
});
