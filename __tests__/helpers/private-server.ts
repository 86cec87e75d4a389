/**
 * A redis-server of a test file's own (the CLI's destructive checks must never touch the shared
 * REDIS_URL server): whether one can run here, and starting/stopping it on a free port.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import IORedis from 'ioredis';

export const serverBin = process.env.REDIS_SERVER_BIN ?? 'redis-server';

/**
 * True when REDIS_URL is set (CI provides a real server and its binary) and `serverBin` runs;
 * otherwise prints why the tests named `what` are skipped.
 */
export function privateServerAvailable(what: string): boolean {
  let haveBin = false;
  try {
    haveBin = spawnSync(serverBin, ['--version'], { timeout: 10_000 }).status === 0;
  } catch {
    haveBin = false;
  }
  const ok = Boolean(process.env.REDIS_URL) && haveBin;
  if (!ok) {
    console.warn(process.env.REDIS_URL ? `${serverBin} not found (REDIS_SERVER_BIN): ${what} skipped` : `REDIS_URL not set: ${what} skipped`);
  }
  return ok;
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export interface PrivateServer {
  port: number;
  /** Its --dir (a fresh temporary folder, removed by `stop`). */
  dir: string;
  /** A client connected once the server accepts connections. */
  admin: IORedis;
  stop(): void;
}

/** Start `serverBin` on a free port with its own --dir; resolves once a client connects. */
export async function startPrivateServer(dirPrefix: string): Promise<PrivateServer> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), dirPrefix));
  const server: ChildProcess = spawn(serverBin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
  // Until the server accepts connections: a fresh client per attempt, no reconnecting.
  for (let i = 0; ; i++) {
    const c = new IORedis(port, '127.0.0.1', { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    c.on('error', () => undefined);
    try {
      await c.connect();
      return {
        port,
        dir,
        admin: c,
        stop() {
          server.kill('SIGKILL');
          fs.rmSync(dir, { recursive: true, force: true });
        },
      };
    } catch (e) {
      c.disconnect();
      if (i > 200) {
        server.kill('SIGKILL');
        throw e;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
