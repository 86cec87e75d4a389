/**
 * A failure of the Lua VM itself (a WebAssembly trap such as "memory access out of bounds", which
 * leaves its memory in no known state) costs only the command that ran into it: that command gets
 * an error saying so, the VM is made anew, and later scripts, EVALSHA of cached scripts and
 * functions of loaded libraries run as before (lib/scripting/lua.ts vmFailed). The trap is
 * simulated: the VM's resume or load throws a WebAssembly.RuntimeError once.
 */
import Redis from 'ioredis-mock-streams';
import { theVm } from '../../lib/scripting/lua';

let port = 38_990;

/** WebAssembly's trap error class (no DOM typings here). */
const RuntimeError = (globalThis as unknown as { WebAssembly: { RuntimeError: new (message: string) => Error } }).WebAssembly.RuntimeError;

/** The next call of `method` on the VM in use throws a WebAssembly trap (once). */
function trapOnce(method: 'resume' | 'load'): void {
  const vm = theVm() as unknown as Record<string, unknown>;
  const original = vm[method];
  vm[method] = function trapped() {
    vm[method] = original;
    throw new RuntimeError('memory access out of bounds');
  };
}

const LIBRARY = "#!lua name=recoverylib\nredis.register_function('twice', function(keys, args) return tonumber(args[1]) * 2 end)";

describe('after the Lua VM failed', () => {
  it('the script that ran into it gets an error naming the failure; the next scripts, EVALSHA and FCALL run', async () => {
    const r = new Redis({ port: port++ });
    try {
      const sha = (await r.script('LOAD', 'return ARGV[1] .. "!"')) as string;
      await r.function('LOAD', LIBRARY);
      expect(await r.fcall('twice', 0, 21)).toBe(42);
      const before = theVm();
      trapOnce('resume');
      await expect(r.eval('redis.call("SET", KEYS[1], "written"); return 1', 1, 'k')).rejects.toThrow(
        'ERR [ioredis-mock-streams] the Lua VM failed (RuntimeError: memory access out of bounds) and was made anew',
      );
      expect(theVm()).not.toBe(before);
      expect(await r.eval('return redis.call("GET", KEYS[1])', 1, 'k')).toBe(null); // the trap came before the script ran
      expect(await r.evalsha(sha, 0, 'cached')).toBe('cached!');
      expect(await r.fcall('twice', 0, 5)).toBe(10);
      expect(await r.script('EXISTS', sha)).toEqual([1]);
      expect(await r.function('LIST')).toEqual([['library_name', 'recoverylib', 'engine', 'LUA', 'functions', [['name', 'twice', 'description', null, 'flags', []]]]]);
    } finally {
      r.disconnect();
    }
  });

  it('a failure while compiling a script or a library is an error too, and the VM serves the next command', async () => {
    const r = new Redis({ port: port++ });
    try {
      expect(await r.eval('return 0', 0)).toBe(0); // the server's engine made: the next load is the script's
      trapOnce('load');
      await expect(r.eval('return 1', 0)).rejects.toThrow('the Lua VM failed (RuntimeError: memory access out of bounds)');
      expect(await r.eval('return 2', 0)).toBe(2);
      trapOnce('load');
      await expect(r.function('LOAD', LIBRARY)).rejects.toThrow('the Lua VM failed');
      expect(await r.function('LIST')).toEqual([]);
      expect(await r.function('LOAD', LIBRARY)).toBe('recoverylib');
      expect(await r.fcall('twice', 0, 4)).toBe(8);
    } finally {
      r.disconnect();
    }
  });

  it("a failure while the VM makes a server's engine is an error too", async () => {
    const r = new Redis({ port: port++ });
    try {
      trapOnce('load');
      await expect(r.eval('return 1', 0)).rejects.toThrow('the Lua VM failed (RuntimeError: memory access out of bounds)');
      expect(await r.eval('return 3', 0)).toBe(3);
    } finally {
      r.disconnect();
    }
  });

  it("a script of another server suspended between its slices when the VM fails gets an error, and its server serves again", async () => {
    const a = new Redis({ port: port++ });
    const b = new Redis({ port: port++ });
    try {
      const long = a.eval('local n = 0 for i = 1, 3e7 do n = n + 1 end return n', 0);
      long.catch(() => undefined);
      await new Promise((resolve) => setImmediate(resolve));
      trapOnce('resume');
      await expect(b.eval('return 1', 0)).rejects.toThrow('the Lua VM failed (RuntimeError: memory access out of bounds)');
      await expect(long).rejects.toThrow('ERR [ioredis-mock-streams] the Lua VM failed while this script was suspended between its slices, and was made anew');
      expect(await a.eval('return "a again"', 0)).toBe('a again');
      expect(await b.eval('return "b again"', 0)).toBe('b again');
    } finally {
      a.disconnect();
      b.disconnect();
    }
  });

  it('a script running in slices past its first (a busy script) releases the server when the VM fails in a later slice', async () => {
    const r = new Redis({ port: port++ });
    const other = new Redis({ port: port - 1 });
    try {
      // a loop long enough to outlive its first slice, then the VM fails on its next resume
      const long = r.eval('local n = 0 for i = 1, 3e7 do n = n + 1 end return n', 0);
      long.catch(() => undefined);
      await new Promise((resolve) => setImmediate(resolve));
      trapOnce('resume');
      await expect(long).rejects.toThrow('the Lua VM failed');
      expect(await other.ping()).toBe('PONG');
      expect(await r.eval('return "again"', 0)).toBe('again');
    } finally {
      r.disconnect();
      other.disconnect();
    }
  });
});
