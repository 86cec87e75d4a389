#!/usr/bin/env node
/*
 * One benchmark measurement in a process of its own, so that plain ioredis-mock is never
 * touched by this package (importing the package installs the stream commands on ioredis-mock's
 * class for the whole process). Run by bench/run.js:
 *
 *   node --expose-gc bench/worker.js <task> <target> [json options]
 *
 * target: `plain` (ioredis-mock alone), `streams` (this package, from dist/) or `real` (ioredis
 * against REDIS_URL). Prints one JSON line with the results. Times are µs per call, heap in
 * bytes; every figure is the median of several batches after a warm-up.
 */
const fs = require('fs');
const path = require('path');
const { performance } = require('perf_hooks');

const [task, target, optionsJson] = process.argv.slice(2);
const options = optionsJson ? JSON.parse(optionsJson) : {};

/** ioredis-mock's entry file: the copy bundled with the package (packages/mock-runtime). */
function ioredisMockFile() {
  const runtime = path.dirname(require.resolve('@ioredis-mock-streams/mock-runtime/package.json', { paths: [path.join(__dirname, '..')] }));
  return require.resolve('ioredis-mock', { paths: [runtime] });
}

function load() {
  if (target === 'plain') return require(ioredisMockFile());
  if (target === 'streams') return require(path.join(__dirname, '..', 'dist', 'cjs-entry.js'));
  if (target === 'real') return require('ioredis');
  throw new Error(`unknown target ${target}`);
}

let nextPort = 46_000;
/** A client of a fresh keyspace (a port of its own), or of the real server's db 0. */
function client(Redis, opts = {}) {
  if (target === 'real') return new Redis(process.env.REDIS_URL, { lazyConnect: false, ...opts });
  return new Redis({ port: nextPort++, ...opts });
}

function gc() {
  if (!global.gc) throw new Error('run with --expose-gc');
  for (let i = 0; i < 4; i++) global.gc();
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** CPU µs (user + system) of this process so far: unlike wall time, not inflated by a busy machine. */
function cpuUs() {
  const c = process.cpuUsage();
  return c.user + c.system;
}

/**
 * CPU µs of the main thread alone (Linux: /proc/self/task/<pid>/schedstat, ns on the CPU), or
 * NaN elsewhere. process.cpuUsage() counts every thread, V8's background compilers and GC too.
 */
function mainThreadUs() {
  try {
    return Number(fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'latin1').split(' ')[0]) / 1000;
  } catch {
    return NaN;
  }
}

/**
 * CPU µs per call of `fn` (awaited one after another): median of `batches` batches of `calls`.
 * CPU time rather than wall time, so that other processes on the machine do not count; wall
 * time for a real server (whose work is in another process).
 */
async function timeIt(fn, { calls = 2000, batches = 7, warmup = 1000 } = {}) {
  const now = target === 'real' ? () => performance.now() * 1000 : cpuUs;
  for (let i = 0; i < warmup; i++) await fn(i);
  const out = [];
  let i = 0;
  for (let b = 0; b < batches; b++) {
    const t0 = now();
    for (let c = 0; c < calls; c++) await fn(i++);
    out.push((now() - t0) / calls);
  }
  return median(out);
}

/**
 * A copy of ioredis-mock that this package does not touch, in this process: loaded before the
 * package, then dropped from the module cache, so that the package's own require of ioredis-mock
 * (the one it installs the stream commands on) gets a fresh copy. Its dependencies are shared.
 */
function pristineIoredisMock() {
  const file = ioredisMockFile();
  const Mock = require(file);
  const dir = path.dirname(path.dirname(file)); // …/node_modules/ioredis-mock
  for (const key of Object.keys(require.cache)) if (key.startsWith(dir + path.sep)) delete require.cache[key];
  return Mock;
}

/** Issue 19 item 5: the data commands compared with ioredis-mock, per command (setup, then run). */
function perCommandCases() {
  const fields = [];
  for (let i = 0; i < 10; i++) fields.push(`field${i}`, `value${i}`);
  const keys = Array.from({ length: 10 }, (_, i) => `mk${i}`);
  return {
    GET: { setup: (r) => r.set('k', 'value'), run: (r) => r.get('k') },
    SET: { setup: async () => {}, run: (r) => r.set('k', 'value') },
    INCR: { setup: async () => {}, run: (r) => r.incr('counter') },
    HSET: { setup: async () => {}, run: (r) => r.hset('h', 'field', 'value') },
    'HGETALL 10 fields': { setup: (r) => r.hset('h10', ...fields), run: (r) => r.hgetall('h10') },
    'MGET 10 keys': { setup: (r) => r.mset(...keys.flatMap((k) => [k, 'value'])), run: (r) => r.mget(...keys) },
    'SET+GET pair': { setup: async () => {}, run: async (r, i) => { await r.set(`k${i & 15}`, 'value'); return r.get(`k${i & 15}`); } },
  };
}

/**
 * The stream commands' cold path (package only; ioredis-mock has no groups), and the cycle's
 * shape on ioredis-mock alone for reference: three GETs awaited in one async function.
 */
function coldStreamCases() {
  return {
    'GET GET GET': {
      setup: (r) => r.set('k', 'value'),
      run: async (r) => {
        await r.get('k');
        await r.get('k');
        await r.get('k');
      },
    },
    XADD: { setup: async () => {}, run: (r) => r.xadd('a', '*', 'f', 'v') },
    'XADD+XREADGROUP+XACK': {
      setup: (r) => r.xgroup('CREATE', 'c', 'g', '$', 'MKSTREAM'),
      run: async (r) => {
        await r.xadd('c', '*', 'f', 'v');
        const got = await r.xreadgroup('GROUP', 'g', 'c', 'COUNT', 1, 'STREAMS', 'c', '>');
        await r.xack('c', 'g', got[0][1][0][0]);
      },
    },
  };
}

const tasks = {
  /**
   * The per-command targets as ratios taken side by side: batches of ioredis-mock's own GET (a
   * pristine copy in this process) alternate with batches of the package's XADD and of its
   * XADD+XREADGROUP+XACK cycle, so that each ratio divides figures taken within the same few
   * milliseconds (this machine's speed drifts by tens of percent over seconds). Returns the
   * median of the per-round ratios and of each figure.
   */
  async ratios() {
    const Mock = pristineIoredisMock();
    const Redis = require(path.join(__dirname, '..', 'dist', 'cjs-entry.js'));
    if (Mock.prototype.xreadgroup !== undefined) throw new Error('the pristine ioredis-mock copy got the stream commands');
    const plain = new Mock({ port: nextPort++ });
    const r = new Redis({ port: nextPort++ });
    await plain.set('k', 'value');
    await r.xgroup('CREATE', 'c', 'g', '$', 'MKSTREAM');
    const get = () => plain.get('k');
    const xadd = () => r.xadd('a', '*', 'f', 'v');
    const cycle = async () => {
      await r.xadd('c', '*', 'f', 'v');
      const got = await r.xreadgroup('GROUP', 'g', 'c', 'COUNT', 1, 'STREAMS', 'c', '>');
      await r.xack('c', 'g', got[0][1][0][0]);
    };
    const batch = async (fn, calls) => {
      const t0 = cpuUs();
      for (let i = 0; i < calls; i++) await fn();
      return (cpuUs() - t0) / calls;
    };
    for (const fn of [get, xadd, cycle]) await batch(fn, 20_000); // warm-up: optimized paths
    const rounds = options.rounds ?? 15;
    const out = { get: [], xadd: [], cycle: [], xaddOverGet: [], cycleOverGet: [] };
    for (let i = 0; i < rounds; i++) {
      const g1 = await batch(get, 2000);
      const x = await batch(xadd, 2000);
      const c = await batch(cycle, 1000);
      const g2 = await batch(get, 2000);
      const g = (g1 + g2) / 2; // GET on both sides of the package's batches
      out.get.push(g);
      out.xadd.push(x);
      out.cycle.push(c);
      out.xaddOverGet.push(x / g);
      out.cycleOverGet.push(c / g);
    }
    plain.disconnect();
    r.disconnect();
    return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, median(v)]));
  },


  /**
   * Issue 19 item 5, steady state: each data command of the package next to the same command on
   * a pristine ioredis-mock in this process (as `ratios` does for GET), batches alternating
   * plain / package / plain, `rounds` rounds; the median of the per-round ratios per command.
   */
  async commandRatios() {
    const Mock = pristineIoredisMock();
    const Redis = require(path.join(__dirname, '..', 'dist', 'cjs-entry.js'));
    if (Mock.prototype.xreadgroup !== undefined) throw new Error('the pristine ioredis-mock copy got the stream commands');
    const plain = new Mock({ port: nextPort++ });
    const pkg = new Redis({ port: nextPort++ });
    const cases = perCommandCases();
    for (const c of Object.values(cases)) {
      await c.setup(plain);
      await c.setup(pkg);
    }
    const batch = async (fn, r, calls) => {
      const t0 = cpuUs();
      for (let i = 0; i < calls; i++) await fn(r, i);
      return (cpuUs() - t0) / calls;
    };
    for (const c of Object.values(cases)) for (const r of [plain, pkg]) await batch(c.run, r, 20_000); // warm-up
    const rounds = options.rounds ?? 9;
    const out = {};
    for (const [name, c] of Object.entries(cases)) {
      const ratios = [];
      const plainUs = [];
      const pkgUs = [];
      for (let i = 0; i < rounds; i++) {
        const p1 = await batch(c.run, plain, 2000);
        const x = await batch(c.run, pkg, 2000);
        const p2 = await batch(c.run, plain, 2000);
        const p = (p1 + p2) / 2;
        plainUs.push(p);
        pkgUs.push(x);
        ratios.push(x / p);
      }
      out[name] = { plain: median(plainUs), pkg: median(pkgUs), ratio: median(ratios) };
    }
    plain.disconnect();
    pkg.disconnect();
    return out;
  },

  /**
   * Cold path: CPU µs of the first `calls` calls of one command in this fresh process (what a
   * jest test file sees): the module loaded and one client made first (not timed, unless
   * `options.fromLoad`), then the calls, timed. `options.command` names a case of
   * perCommandCases / coldStreamCases.
   */
  async coldCommand() {
    // `fromLoad`: the module's require and the first client counted too (what a test file pays
    // in all before its first command returns, whatever is done at load, construction or first use)
    const tLoad = cpuUs();
    const Redis = load();
    const r = client(Redis);
    const all = { ...perCommandCases(), ...coldStreamCases() };
    const c = all[options.command];
    if (!c) throw new Error(`unknown command case ${options.command}`);
    const calls = options.calls ?? 1000;
    const t0 = options.fromLoad ? tLoad : cpuUs();
    const m0 = mainThreadUs();
    await c.setup(r);
    for (let i = 0; i < calls; i++) await c.run(r, i);
    const us = cpuUs() - t0;
    const mainUs = mainThreadUs() - m0;
    r.disconnect();
    return { totalUs: us, perCallUs: us / calls, mainUs };
  },

  /**
   * Issue 20: µs per call at 1k and 1M members/elements of one collection per data type (the
   * collection filled through pipelines, not timed). Commands that change the size (LPUSH/RPOP,
   * ZADD of a new member) are paired so the size stays put.
   */
  async typeGrowth() {
    const Redis = load();
    const sizes = options.sizes ?? [1_000, 1_000_000];
    const calls = options.calls ?? 4000;
    async function fill(r, n) {
      const CH = 10_000;
      for (let done = 0; done < n; done += CH) {
        const p = r.pipeline();
        const m = Math.min(CH, n - done);
        const z = [];
        const l = [];
        const s = [];
        const h = [];
        const k = [];
        for (let i = done; i < done + m; i++) {
          z.push(i, `m${i}`);
          l.push(`e${i}`);
          s.push(`m${i}`);
          h.push(`f${i}`, 'v');
          k.push(`k${i}`, 'v');
        }
        p.zadd('z', ...z);
        p.rpush('l', ...l);
        p.sadd('s', ...s);
        p.hset('h', ...h);
        p.mset(...k); // the db: n string keys besides the four collections
        await p.exec();
      }
    }
    const cases = {
      'ZADD new + ZREM': async (r, n, i) => {
        await r.zadd('z', n / 2 + 0.5, `new${i & 1}`);
        return r.zrem('z', `new${i & 1}`);
      },
      ZRANK: (r, n, i) => r.zrank('z', `m${(i * 7919) % n}`),
      ZSCORE: (r, n, i) => r.zscore('z', `m${(i * 7919) % n}`),
      'ZRANGE mid 10 by rank': (r, n) => r.zrange('z', n >> 1, (n >> 1) + 9),
      'ZRANGEBYSCORE mid LIMIT 0 10': (r, n) => r.zrangebyscore('z', n >> 1, '+inf', 'LIMIT', 0, 10),
      // a random member moved to score 5 (as the Redis reference: ZADD z 5 m__rand_int__); after the
      // other sorted-set cases, which it would otherwise run on members gathered at one score
      'ZADD (move a member to score 5)': (r, n, i) => r.zadd('z', 5, `m${(i * 7919) % n}`),
      'LPUSH + RPOP': async (r, n, i) => {
        await r.lpush('l', 'x');
        return r.rpop('l');
      },
      'LINDEX 5 / -5': (r, n, i) => r.lindex('l', i & 1 ? 5 : -5),
      SADD: (r, n, i) => r.sadd('s', `m${(i * 7919) % n}`),
      'SADD new + SREM': async (r, n, i) => {
        await r.sadd('s', `new${i & 1}`);
        return r.srem('s', `new${i & 1}`);
      },
      SISMEMBER: (r, n, i) => r.sismember('s', `m${(i * 7919) % n}`),
      'HSET (existing field)': (r, n, i) => r.hset('h', `f${(i * 7919) % n}`, 'w'),
      HGET: (r, n, i) => r.hget('h', `f${(i * 7919) % n}`),
      'HSET new + HDEL': async (r, n, i) => {
        await r.hset('h', `new${i & 1}`, 'v');
        return r.hdel('h', `new${i & 1}`);
      },
      // the keyspace itself (issue 19): a key (or a TTL) added and removed over and over on a db of n keys
      'SET new + DEL (db of n keys)': async (r, n, i) => {
        await r.set(`new${i & 1}`, 'v');
        return r.del(`new${i & 1}`);
      },
      'SET EX new + DEL (db of n keys)': async (r, n, i) => {
        await r.set(`new${i & 1}`, 'v', 'EX', 100);
        return r.del(`new${i & 1}`);
      },
      'EXPIRE + PERSIST (db of n keys)': async (r, n, i) => {
        await r.expire(`k${(i * 7919) % n}`, 100);
        return r.persist(`k${(i * 7919) % n}`);
      },
      // a bitmap of n bytes: a bit written and one read anywhere in it
      'SETBIT + GETBIT (bitmap of n bytes)': async (r, n, i) => {
        const bit = ((i * 7919) % n) * 8;
        await r.setbit('b', bit, i & 1);
        return r.getbit('b', bit + 1);
      },
    };
    const rows = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
    for (const n of sizes) {
      const r = client(Redis);
      await fill(r, n);
      await r.setbit('b', n * 8 - 1, 1); // a bitmap of n bytes
      if ((await r.zcard('z')) !== n || (await r.dbsize()) !== n + 5) throw new Error('fill failed');
      for (const [name, fn] of Object.entries(cases)) {
        for (let i = 0; i < 2000; i++) await fn(r, n, i); // warm-up (the first case would otherwise pay for the compile)
        const batches = [];
        for (let b = 0; b < 5; b++) {
          const t0 = cpuUs();
          for (let i = 0; i < calls / 5; i++) await fn(r, n, i);
          batches.push((cpuUs() - t0) / (calls / 5));
        }
        rows[name].push(median(batches));
      }
      await r.flushall();
      r.disconnect();
      gc();
    }
    return { sizes, rows };
  },

  /** CPU ms of `require(target)` in this fresh process (the process does nothing else before). */
  async import() {
    const t0 = process.cpuUsage();
    const w0 = performance.now();
    load();
    const c = process.cpuUsage(t0);
    return { cpuMs: (c.user + c.system) / 1000, wallMs: performance.now() - w0 };
  },

  /** Heap bytes per client: `n` clients of one keyspace, as a test suite makes them. */
  async clientHeap() {
    const Redis = load();
    const n = options.n ?? 1000;
    const keep = [];
    keep.push(new Redis({ port: 47_000 })); // first client of the keyspace: not counted
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < n; i++) keep.push(new Redis({ port: 47_000 }));
    await new Promise((r) => setTimeout(r, 10)); // ioredis-mock connects on a later tick
    gc();
    const after = process.memoryUsage().heapUsed;
    const perClient = (after - before) / n;
    for (const r of keep) r.disconnect();
    return { perClientBytes: perClient };
  },

  /** µs per call through the methods, for the commands every target can run. */
  async commands() {
    const Redis = load();
    const r = client(Redis);
    const res = {};
    const k = (s) => `bench:${s}`;
    if (target === 'real') await r.flushdb();
    await r.set(k('str'), 'value');
    // a 1000-entry stream for the read commands
    for (let i = 1; i <= 1000; i++) await r.xadd(k('s'), `${i}-0`, 'f', 'v');
    // Steady-state cost: a long warm-up, so that V8 has optimized the path (this package's path
    // is deeper than ioredis-mock's and takes longer to optimize; a few thousand calls are not
    // enough on a busy machine). ioredis-mock's own stream commands copy the stream at every call,
    // so they get a shorter one (they are not used as the reference).
    const small = { calls: options.calls ?? 2000, batches: 7, warmup: target === 'real' ? 2000 : 20_000 };
    const slowWarmup = { ...small, warmup: target === 'streams' ? 20_000 : 2000 };
    res.GET = await timeIt(() => r.get(k('str')), small);
    res.SET = await timeIt(() => r.set(k('str'), 'value'), small);
    res.XLEN = await timeIt(() => r.xlen(k('s')), small);
    res['XRANGE 1k COUNT 10'] = await timeIt(() => r.xrange(k('s'), '500', '+', 'COUNT', 10), slowWarmup);
    res['XREVRANGE 1k COUNT 10'] = await timeIt(() => r.xrevrange(k('s'), '+', '-', 'COUNT', 10), slowWarmup);
    res['XREAD 1k COUNT 10'] = await timeIt(() => r.xread('COUNT', 10, 'STREAMS', k('s'), '990-0'), slowWarmup);
    // XADD on a stream that grows from empty: ioredis-mock's own XADD copies the stream, so it
    // is measured on a short one (1000 warm-up + 7×300 calls). The others' XADD does not grow
    // with the stream: batches of 2000 calls, as GET (a batch of 300 is ~1 ms here, and one
    // young-generation collection of ~1 ms landing in it or not moved the figure by half).
    const xaddRuns = target === 'plain' ? { calls: 300, batches: 7, warmup: 1000 } : { calls: 2000, batches: 7, warmup: 20_000 };
    res['XADD *'] = await timeIt(() => r.xadd(k('a'), '*', 'f', 'v'), xaddRuns);
    if (target === 'plain') return res;

    // Commands ioredis-mock cannot run: this package and a real server.
    await r.xgroup('CREATE', k('s'), 'g', '$');
    await r.xgroup('CREATE', k('a'), 'g', '$');
    res['XADD+XREADGROUP+XACK'] = await timeIt(async () => {
      await r.xadd(k('a'), '*', 'f', 'v');
      const got = await r.xreadgroup('GROUP', 'g', 'c', 'COUNT', 1, 'STREAMS', k('a'), '>');
      await r.xack(k('a'), 'g', got[0][1][0][0]);
    }, { calls: 1000, batches: 7, warmup: 20_000 }); // batches of ~5 ms, like the others
    // a PEL of 1000 entries on the 1000-entry stream, delivered at one time
    await r.xgroup('SETID', k('s'), 'g', '0');
    await r.xreadgroup('GROUP', 'g', 'c1', 'COUNT', 1000, 'STREAMS', k('s'), '>');
    res['XPENDING summary'] = await timeIt(() => r.xpending(k('s'), 'g'), small);
    res['XPENDING - + 10'] = await timeIt(() => r.xpending(k('s'), 'g', '-', '+', 10), small);
    res['XAUTOCLAIM COUNT 10 (none idle)'] = await timeIt(
      () => r.xautoclaim(k('s'), 'g', 'c2', 3_600_000, '0-0', 'COUNT', 10),
      small,
    );
    res['XCLAIM 1 (not idle)'] = await timeIt(() => r.xclaim(k('s'), 'g', 'c2', 3_600_000, '5-0'), small);
    res['XINFO GROUPS'] = await timeIt(() => r.xinfo('GROUPS', k('s')), small);
    if (target === 'real') {
      await r.flushdb();
      r.disconnect();
    }
    return res;
  },

  /**
   * Heap bytes per entry of one stream of `n` small entries: `XADD s * f <digit>` with the clock
   * one ms further for each entry (`ids: 'auto'`), or `XADD s <i>-1 f <digit>` (`'explicit'`).
   */
  async entryHeap() {
    const Redis = load();
    const n = options.n ?? 1_000_000;
    const clock = Redis.createFakeClock({ now: 1_700_000_000_000 });
    const r = client(Redis, { streams: { clock } });
    await r.xadd('s', '0-1', 'f', 'v');
    gc();
    const before = process.memoryUsage().heapUsed;
    const batch = 10_000;
    for (let done = 0; done < n; done += batch) {
      if (options.ids === 'explicit') {
        const p = r.pipeline();
        for (let i = 1; i <= batch; i++) p.xadd('s', `${done + i}-1`, 'f', String(i % 10));
        await p.exec();
      } else {
        for (let i = 0; i < batch; i++) {
          clock.tick(1);
          await r.xadd('s', '*', 'f', String(i % 10));
        }
      }
    }
    gc();
    const after = process.memoryUsage().heapUsed;
    const len = await r.xlen('s');
    return { perEntryBytes: (after - before) / n, entries: len };
  },

  /**
   * XAUTOCLAIM / XPENDING per examined PEL entry on a stream of `entries` entries whose group
   * has `pel` pending entries.
   */
  async pelScan() {
    const Redis = load();
    const entries = options.entries ?? 1_000_000;
    const pel = options.pel ?? 100_000;
    const clock = Redis.createFakeClock({ now: 1_700_000_000_000 });
    const r = client(Redis, { streams: { clock } });
    for (let done = 0; done < entries; done += 10_000) {
      const p = r.pipeline();
      for (let i = 1; i <= 10_000; i++) p.xadd('s', `${done + i}-0`, 'f', 'v');
      await p.exec();
    }
    await r.xgroup('CREATE', 's', 'g', '0');
    // the PEL: `pel` entries spread over the stream (every (entries/pel)-th one)
    const step = Math.floor(entries / pel);
    await r.xreadgroup('GROUP', 'g', 'c1', 'COUNT', entries, 'STREAMS', 's', '>');
    const p = r.pipeline();
    const acks = [];
    for (let i = 1; i <= entries; i++) if (i % step !== 0) acks.push(`${i}-0`);
    for (let i = 0; i < acks.length; i += 1000) p.xack('s', 'g', ...acks.slice(i, i + 1000));
    await p.exec();
    const pending = (await r.xpending('s', 'g'))[0];
    clock.tick(1000);
    const mid = `${Math.floor(entries / 2)}-0`;
    const opts = { calls: 40, batches: 7, warmup: 20 };
    // none idle enough: every call examines COUNT×10 = 1000 PEL entries and claims nothing
    const autoclaim = await timeIt(() => r.xautoclaim('s', 'g', 'c2', 3_600_000, mid, 'COUNT', 100), opts);
    // 1000 entries listed from the middle of the PEL
    const pendingRange = await timeIt(() => r.xpending('s', 'g', mid, '+', 1000), opts);
    // IDLE filter that keeps nothing: examines 1000 entries of the named consumer's PEL
    const pendingIdle = await timeIt(() => r.xpending('s', 'g', 'IDLE', 3_600_000, mid, `${Math.floor(entries / 2) + 1000 * step}-0`, 1000, 'c1'), opts);
    return {
      pending,
      autoclaimPerEntry: autoclaim / 1000,
      xpendingPerEntry: pendingRange / 1000,
      xpendingIdlePerEntry: pendingIdle / 1000,
    };
  },

  /**
   * `readers` clients blocked in XREADGROUP … BLOCK 0 … > on one key (one consumer each); ms
   * for an XADD (which wakes the first reader and re-runs the others), per Redis version.
   */
  async waiters() {
    const Redis = load();
    const readers = options.readers ?? 3000;
    const version = options.version ?? '8.10';
    const clock = Redis.createFakeClock({ now: 1_700_000_000_000 });
    const port = nextPort++;
    const w = new Redis({ port, streams: { clock, redisVersion: version } });
    await w.xgroup('CREATE', 's', 'g', '$', 'MKSTREAM');
    const clients = [];
    const pendingReads = [];
    for (let i = 0; i < readers; i++) {
      const c = new Redis({ port });
      clients.push(c);
      pendingReads.push(c.xreadgroup('GROUP', 'g', `c${i}`, 'BLOCK', 0, 'STREAMS', 's', '>'));
    }
    const ks = Redis.streamsKeyspace(w);
    // the client's spin guard lets the event loop turn every 1000 commands: wait for all to block
    for (let turns = 0; ks.blockedCount < readers && turns < 1000; turns++) await new Promise((r) => setTimeout(r, 0));
    if (ks.blockedCount !== readers) throw new Error(`expected ${readers} blocked, got ${ks.blockedCount}`);
    const times = [];
    gc(); // once, before: the readers' setup garbage is not the XADDs' cost
    for (let i = 0; i < 40; i++) {
      clock.tick(1);
      const t0 = cpuUs();
      await w.xadd('s', '*', 'f', 'v');
      times.push((cpuUs() - t0) / 1000);
    }
    const served = ks.blockedCount;
    ks.reset();
    await Promise.allSettled(pendingReads);
    // the first XADD runs the re-run code cold (3,000 times unoptimized); then it is optimized
    return { firstXaddMs: times[0], xaddMs: median(times.slice(20)), stillBlocked: served };
  },

  /** The per-command cost at 1k/10k/100k entries (growth check; see run.js). */
  async growth() {
    const Redis = load();
    const SIZES = [1_000, 10_000, 100_000];
    const CALLS = 850;
    const WARMUP = 100;
    async function fill(n) {
      const clock = Redis.createFakeClock({ now: 1_000_000 });
      const r = client(Redis, { streams: { clock } });
      const p = r.pipeline();
      for (let i = 1; i <= n; i++) p.xadd('s', `${i}-0`, 'f', 'v');
      await p.exec();
      await r.xgroup('CREATE', 's', 'g', '0');
      // Half of the stream delivered and pending: a large PEL.
      await r.xreadgroup('GROUP', 'g', 'c1', 'COUNT', Math.floor(n / 2), 'STREAMS', 's', '>');
      clock.tick(60_000);
      return { r, clock, n };
    }
    const cases = {
      'XADD * (append)': ({ r }) => r.xadd('s', '*', 'f', 'v'),
      'XRANGE middle COUNT 10': ({ r, n }) => r.xrange('s', `${n >> 1}`, '+', 'COUNT', 10),
      'XREVRANGE end COUNT 10': ({ r }) => r.xrevrange('s', '+', '-', 'COUNT', 10),
      'XADD + XREADGROUP > COUNT 1 + XACK': async ({ r }) => {
        await r.xadd('s', '*', 'f', 'v'); // always something new to read, at every size
        const res = await r.xreadgroup('GROUP', 'g', 'c2', 'COUNT', 1, 'STREAMS', 's', '>');
        if (res) await r.xack('s', 'g', res[0][1][0][0]);
      },
      'XPENDING range COUNT 10 (middle of PEL)': ({ r, n }) => r.xpending('s', 'g', `${n >> 2}`, '+', 10),
      'XAUTOCLAIM COUNT 10 from the middle': ({ r, n }) => r.xautoclaim('s', 'g', 'c3', 1000, `${n >> 2}`, 'COUNT', 10),
      'XDEL one live entry': (ctx) => {
        // Steps through the stream by 7919 (coprime with every size): each call deletes a
        // distinct live entry spread over all nodes; same work at every size.
        ctx.i = ((ctx.i ?? 0) + 7919) % ctx.n;
        return ctx.r.xdel('s', `${ctx.i + 1}-0`);
      },
      'XADD MAXLEN ~ n (trim from head)': ({ r, n }) => r.xadd('s', 'MAXLEN', '~', String(n), '*', 'f', 'v'),
      'XINFO GROUPS (lag)': ({ r }) => r.xinfo('GROUPS', 's'),
      XLEN: ({ r }) => r.xlen('s'),
    };
    // 100 warm-up + 850 measured calls: fewer than the smallest stream's 1000 entries, so every
    // XDEL removes a distinct live entry at every size. Median of 5 batches; best of 3 streams.
    // Commands that leave the stream as it is run 10x more calls: XLEN takes ~0.3 µs, and a
    // batch of 170 calls (~60 µs) was at the mercy of this machine's noise.
    const READ_ONLY = new Set(['XRANGE middle COUNT 10', 'XREVRANGE end COUNT 10', 'XPENDING range COUNT 10 (middle of PEL)', 'XINFO GROUPS (lag)', 'XLEN']);
    async function measure(fn, ctx, calls) {
      for (let i = 0; i < WARMUP; i++) await fn(ctx);
      gc();
      const batches = [];
      for (let b = 0; b < 5; b++) {
        const t0 = cpuUs();
        for (let i = 0; i < calls / 5; i++) await fn(ctx);
        batches.push((cpuUs() - t0) / (calls / 5));
      }
      return median(batches);
    }
    const rows = {};
    for (const [name, fn] of Object.entries(cases)) {
      rows[name] = [];
      for (const n of SIZES) {
        let best = Infinity;
        for (let round = 0; round < 3; round++) {
          const ctx = await fill(n);
          best = Math.min(best, await measure(fn, ctx, READ_ONLY.has(name) ? CALLS * 10 : CALLS));
          Redis.streamsKeyspace(ctx.r).reset();
          ctx.r.disconnect();
        }
        rows[name].push(best);
      }
    }
    return { sizes: SIZES, rows };
  },
};

(async () => {
  const fn = tasks[task];
  if (!fn) throw new Error(`unknown task ${task}`);
  const result = await fn();
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
})().catch((err) => {
  process.stderr.write(`${err.stack || err}\n`);
  process.exit(2);
});
