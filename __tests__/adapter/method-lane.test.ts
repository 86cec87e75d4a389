/**
 * The short path of the stream command methods (`r.xadd()`, `r.xreadgroupBuffer()` …:
 * methods.ts `runStreamMethod` → connection/lane.ts `Connection.runLane`) answers and counts exactly
 * as the general path does, the one `r.call('xadd', …)` takes (`runStreamCommand` → `runReady`).
 *
 * Each script runs twice, on a fresh server each time (its own port, its own fake clock): once
 * sending the stream commands through the methods, once through `call()` with the lower-case
 * name (ioredis picks reply transformers by the exact name: `call('xadd')` is what the method
 * sends). Both runs must give the same replies and errors (class, message, `command`), and leave
 * the same observable state: INFO commandstats (calls, rejected_calls, failed_calls; not the
 * timings), errorstats, the total_commands_processed and rdb_changes_since_last_save deltas, and
 * the client's CLIENT LIST fields `cmd`, `flags` and `multi` after every step (read by a second
 * client: CLIENT INFO on the client itself would always show `client|info`). Each test then
 * checks the actual values too, so that two equally wrong (or empty) runs cannot pass, and how
 * many commands the short path ran itself (`lane.short`) or handed to `runReady`
 * (`lane.fellBack`): the method runs must take it, the `call()` runs never.
 */
import Redis, { ReplyError, createFakeClock, type FakeClock } from 'ioredis-mock-streams';
import { Connection } from '../../lib/engine/connection';
import { installedIoredisMajor } from '../../lib/adapter/command-table';
import { settled as settledWithin } from '../helpers/settled';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Client = Record<string, any>;
type Mode = 'method' | 'call';
type Send = (name: string, ...args: unknown[]) => Promise<unknown>;

let nextPort = 47_300;

/** Connection.runLane calls: run on the short path, or handed to the general `runReady`. */
interface LaneCount {
  short: number;
  fellBack: number;
}
const laneCount: LaneCount = { short: 0, fellBack: 0 };
const originalRunLane = Connection.prototype.runLane;
const originalRunReady = Connection.prototype.runReady;
let inLane = false;
beforeAll(() => {
  Connection.prototype.runLane = function runLane(this: Connection, ...args: Parameters<Connection['runLane']>) {
    const outer = inLane;
    inLane = true;
    const fellBackBefore = laneCount.fellBack;
    try {
      return originalRunLane.apply(this, args);
    } finally {
      inLane = outer;
      if (laneCount.fellBack === fellBackBefore) laneCount.short++;
    }
  };
  Connection.prototype.runReady = function runReady(this: Connection, ...args: Parameters<Connection['runReady']>) {
    if (inLane) laneCount.fellBack++;
    const outer = inLane;
    inLane = false;
    try {
      return originalRunReady.apply(this, args);
    } finally {
      inLane = outer;
    }
  };
});
afterAll(() => {
  Connection.prototype.runLane = originalRunLane;
  Connection.prototype.runReady = originalRunReady;
});

/** A reply, or an error as the caller sees it. */
interface Outcome {
  reply?: unknown;
  /** `cls`: the error's `name`; `replyError`: `instanceof ReplyError` (ioredis's class of error replies). */
  error?: { cls: string; replyError: boolean; message: string; command?: unknown };
}

function errorOf(err: unknown): Outcome['error'] {
  const e = err as { name?: string; message?: string; command?: unknown };
  return { cls: String(e?.name), replyError: err instanceof ReplyError, message: String(e?.message ?? err), command: e?.command };
}

function outcome(p: Promise<unknown>): Promise<Outcome> {
  return p.then(
    (reply) => ({ reply }),
    (err) => ({ error: errorOf(err) }),
  );
}

/** The client's CLIENT LIST fields a command changes, as another client reads them. */
interface ClientView {
  cmd: string | null;
  flags: string | null;
  multi: string | null;
}

/** What one run leaves behind. */
interface Observed {
  /** Replies/errors of the steps, and whatever else the script noted, in order. */
  log: unknown[];
  /** The client's view after each step. */
  views: ClientView[];
  /** `cmdstat_…` lines of INFO commandstats without `usec=` / `usec_per_call=`. */
  commandstats: string[];
  /** `errorstat_…` lines of INFO errorstats. */
  errorstats: string[];
  /** Deltas over the script. */
  processed: number;
  dirty: number;
  errorReplies: number;
}

interface Ctx {
  mode: Mode;
  /** The client under test. */
  r: Client;
  clock: FakeClock;
  /** Send a stream command to `r` through its method (`mode` method) or `call()`. */
  x: Send;
  /** The same for another client. */
  via(client: Client): Send;
  /** `x(…)`, its outcome logged, then the client's view recorded. */
  step(name: string, ...args: unknown[]): Promise<Outcome>;
  /** Log a value (compared between the runs). */
  note(label: string, value: unknown): void;
  /** Record the client's CLIENT LIST view now. */
  view(): Promise<ClientView>;
  /** Another client of the same server. */
  client(opts?: Record<string, unknown>): Client;
}

function sender(client: Client, mode: Mode): Send {
  return (name, ...args) => {
    // (a command the installed ioredis does not list has no method, XACKDEL on ioredis 5: call())
    if (mode === 'method' && typeof client[name] === 'function') return client[name](...args);
    if (name.endsWith('Buffer')) return client.callBuffer(name.slice(0, -'Buffer'.length), ...args);
    return client.call(name, ...args);
  };
}

function field(line: string, name: string): string | null {
  return new RegExp(`(?:^| )${name}=(\\S*)`).exec(line)?.[1] ?? null;
}

async function infoText(obs: Client, section: string): Promise<string> {
  return String(await obs.info(section));
}

function infoNumber(text: string, name: string): number {
  const m = new RegExp(`^${name}:(\\d+)`, 'm').exec(text);
  if (!m) throw new Error(`${name} not in INFO`);
  return Number(m[1]);
}

async function counters(obs: Client): Promise<{ processed: number; dirty: number; errorReplies: number }> {
  const stats = await infoText(obs, 'stats');
  const persistence = await infoText(obs, 'persistence');
  return {
    processed: infoNumber(stats, 'total_commands_processed'),
    errorReplies: infoNumber(stats, 'total_error_replies'),
    dirty: infoNumber(persistence, 'rdb_changes_since_last_save'),
  };
}

/** Run `script` on a fresh server in `mode`. */
async function run(mode: Mode, opts: Record<string, unknown>, script: (ctx: Ctx) => Promise<void>): Promise<{ observed: Observed; lane: LaneCount }> {
  const port = nextPort++;
  const clock = createFakeClock({ now: 1_000_000 });
  const { streams, ...rest } = opts as { streams?: Record<string, unknown> };
  const r = new Redis({ port, ...rest, streams: { clock, ...streams } } as never) as unknown as Client;
  const obs = new Redis({ port } as never) as unknown as Client;
  const others: Client[] = [];
  const log: unknown[] = [];
  const views: ClientView[] = [];
  const rId = Number(await r.client('ID'));
  expect(rId).not.toBe(Number(await obs.client('ID')));
  const view = async (): Promise<ClientView> => {
    const line = String(await obs.client('LIST', 'ID', rId)).trim();
    const v = { cmd: field(line, 'cmd'), flags: field(line, 'flags'), multi: field(line, 'multi') };
    views.push(v);
    return v;
  };
  const before = await counters(obs);
  const x = sender(r, mode);
  const ctx: Ctx = {
    mode,
    r,
    clock,
    x,
    via: (client) => sender(client, mode),
    async step(name, ...args) {
      const o = await outcome(x(name, ...args));
      log.push([name, o]);
      await view();
      return o;
    },
    note(label, value) {
      log.push([label, value]);
    },
    view,
    client(extra = {}) {
      const c = new Redis({ port, ...extra } as never) as unknown as Client;
      others.push(c);
      return c;
    },
  };
  const laneBefore = { ...laneCount };
  try {
    await script(ctx);
    const lane = { short: laneCount.short - laneBefore.short, fellBack: laneCount.fellBack - laneBefore.fellBack };
    const after = await counters(obs);
    const commandstats = (await infoText(obs, 'commandstats'))
      .split(/\r?\n/)
      .filter((l) => l.startsWith('cmdstat_'))
      .map((l) => l.replace(/usec=[^,]*,usec_per_call=[^,]*,/, ''))
      .sort();
    const errorstats = (await infoText(obs, 'errorstats'))
      .split(/\r?\n/)
      .filter((l) => l.startsWith('errorstat_'))
      .sort();
    const observed = {
      log,
      views,
      commandstats,
      errorstats,
      processed: after.processed - before.processed,
      dirty: after.dirty - before.dirty,
      errorReplies: after.errorReplies - before.errorReplies,
    };
    return { observed, lane };
  } finally {
    for (const c of [r, obs, ...others]) c.disconnect();
  }
}

/**
 * Both runs; asserts they are observably the same (and that call() never took the short path),
 * returns the method run's observations and its short-path count.
 */
async function both(opts: Record<string, unknown>, script: (ctx: Ctx) => Promise<void>): Promise<Observed & { lane: LaneCount }> {
  const viaMethods = await run('method', opts, script);
  const viaCall = await run('call', opts, script);
  expect(viaMethods.observed).toEqual(viaCall.observed);
  expect(viaCall.lane).toEqual({ short: 0, fellBack: 0 });
  return { ...viaMethods.observed, lane: viaMethods.lane };
}

/** `cmdstat_<name>` as [calls, rejected_calls, failed_calls] ([0,0,0] when absent). */
function stat(o: Observed, name: string): number[] {
  const line = o.commandstats.find((l) => l.startsWith(`cmdstat_${name}:`));
  if (!line) return [0, 0, 0];
  const n = (f: string) => Number(new RegExp(`${f}=(\\d+)`).exec(line)![1]);
  return [n('calls'), n('rejected_calls'), n('failed_calls')];
}

function errorstat(o: Observed, code: string): number {
  const line = o.errorstats.find((l) => l.startsWith(`errorstat_${code}:`));
  return line ? Number(/count=(\d+)/.exec(line)![1]) : 0;
}

/** Whether `p` settles within ten turns of the microtask queue. */
const settled = (p: Promise<unknown>) => settledWithin(p, 10);

describe('stream methods answer and count as call() does', () => {
  it('gives the same replies, commandstats, dirty count and CLIENT LIST cmd for an XADD/XREADGROUP/XACK/XPENDING/XLEN/XRANGE cycle', async () => {
    const o = await both({}, async ({ step }) => {
      await step('xgroup', 'CREATE', 's', 'g', '$', 'MKSTREAM');
      await step('xadd', 's', '1-0', 'f', 'v1');
      await step('xadd', 's', '2-0', 'f', 'v2');
      await step('xadd', 's', '*', 'f', 'v3'); // the fake clock: 1000000-0
      await step('xreadgroup', 'GROUP', 'g', 'c', 'COUNT', 2, 'STREAMS', 's', '>');
      await step('xack', 's', 'g', '1-0');
      await step('xpending', 's', 'g');
      await step('xpending', 's', 'g', '-', '+', 10);
      await step('xlen', 's');
      await step('xrange', 's', '-', '+');
      await step('xrevrange', 's', '+', '-', 'COUNT', 1);
      await step('xadd', 's', ['*'], ['f', 'v4']); // array arguments, flattened as ioredis does
    });
    expect(o.log).toEqual([
      ['xgroup', { reply: 'OK' }],
      ['xadd', { reply: '1-0' }],
      ['xadd', { reply: '2-0' }],
      ['xadd', { reply: '1000000-0' }],
      ['xreadgroup', { reply: [['s', [['1-0', ['f', 'v1']], ['2-0', ['f', 'v2']]]]] }],
      ['xack', { reply: 1 }],
      ['xpending', { reply: [1, '2-0', '2-0', [['c', '1']]] }],
      ['xpending', { reply: [['2-0', 'c', 0, 1]] }],
      ['xlen', { reply: 3 }],
      ['xrange', { reply: [['1-0', ['f', 'v1']], ['2-0', ['f', 'v2']], ['1000000-0', ['f', 'v3']]] }],
      ['xrevrange', { reply: [['1000000-0', ['f', 'v3']]] }],
      ['xadd', { reply: '1000000-1' }],
    ]);
    expect(o.views.slice(1).map((v) => v.cmd)).toEqual([
      'xadd',
      'xadd',
      'xadd',
      'xreadgroup',
      'xack',
      'xpending',
      'xpending',
      'xlen',
      'xrange',
      'xrevrange',
      'xadd',
    ]);
    expect(o.views.every((v) => v.flags === 'N' && v.multi === '-1')).toBe(true);
    expect(stat(o, 'xadd')).toEqual([4, 0, 0]);
    expect(stat(o, 'xreadgroup')).toEqual([1, 0, 0]);
    expect(stat(o, 'xack')).toEqual([1, 0, 0]);
    expect(stat(o, 'xpending')).toEqual([2, 0, 0]);
    expect(stat(o, 'xlen')).toEqual([1, 0, 0]);
    expect(stat(o, 'xrange')).toEqual([1, 0, 0]);
    expect(stat(o, 'xgroup|create')).toEqual([1, 0, 0]);
    expect(o.errorstats).toEqual([]);
    // XGROUP CREATE MKSTREAM 1, XADD ×4, XREADGROUP 2 (the consumer it creates, the group's
    // last-delivered id it moves), XACK 1
    expect(o.dirty).toBe(8);
    // 12 stream commands, 12 CLIENT LIST, the INFO stats and persistence of the first reading
    expect(o.processed).toBe(12 + 12 + 2);
    // every stream command on the short path but the container XGROUP
    expect(o.lane).toEqual({ short: 11, fellBack: 1 });
  });

  it('refuses a wrong arity sent through the method with the same ERR text, as a rejected call', async () => {
    const o = await both({}, async ({ step }) => {
      await step('xadd', 'k');
      await step('xlen');
      await step('xlen', 'k', 'extra');
      await step('xreadgroup', 'GROUP', 'g', 'c', 'STREAMS', 's');
      await step('xlen', 'k');
    });
    expect(o.log).toEqual([
      ['xadd', { error: { cls: 'ReplyError', replyError: true, message: "ERR wrong number of arguments for 'xadd' command", command: { name: 'xadd', args: ['k'] } } }],
      ['xlen', { error: { cls: 'ReplyError', replyError: true, message: "ERR wrong number of arguments for 'xlen' command", command: { name: 'xlen', args: [] } } }],
      ['xlen', { error: { cls: 'ReplyError', replyError: true, message: "ERR wrong number of arguments for 'xlen' command", command: { name: 'xlen', args: ['k', 'extra'] } } }],
      [
        'xreadgroup',
        {
          error: {
            cls: 'ReplyError', replyError: true,
            message: "ERR wrong number of arguments for 'xreadgroup' command",
            command: { name: 'xreadgroup', args: ['GROUP', 'g', 'c', 'STREAMS', 's'] },
          },
        },
      ],
      ['xlen', { reply: 0 }],
    ]);
    expect(stat(o, 'xadd')).toEqual([0, 1, 0]);
    expect(stat(o, 'xlen')).toEqual([1, 2, 0]);
    expect(stat(o, 'xreadgroup')).toEqual([0, 1, 0]);
    expect(errorstat(o, 'ERR')).toBe(4);
    expect(o.errorReplies).toBe(4);
    // a refused command is not processed, but CLIENT LIST names it (processCommand sets
    // c->lastcmd before its arity check)
    expect(o.views.map((v) => v.cmd)).toEqual(['xadd', 'xlen', 'xlen', 'xreadgroup', 'xlen']);
    expect(o.processed).toBe(1 + 5 + 2);
    expect(o.dirty).toBe(0);
    expect(o.lane).toEqual({ short: 1, fellBack: 4 });
  });

  it('fails a command on a key of another type with the same WRONGTYPE, as a failed call', async () => {
    const o = await both({}, async ({ r, step }) => {
      await r.call('set', 'str', 'x'); // through call(): SET is an engine command, its method takes the short path too
      await step('xadd', 'str', '*', 'f', 'v');
      await step('xlen', 'str');
      await step('xrange', 'str', '-', '+');
      await step('xreadgroup', 'GROUP', 'g', 'c', 'STREAMS', 's', '>'); // NOGROUP: failed as well
    });
    const wrongtype = 'WRONGTYPE Operation against a key holding the wrong kind of value';
    expect(o.log).toEqual([
      ['xadd', { error: { cls: 'ReplyError', replyError: true, message: wrongtype, command: { name: 'xadd', args: ['str', '*', 'f', 'v'] } } }],
      ['xlen', { error: { cls: 'ReplyError', replyError: true, message: wrongtype, command: { name: 'xlen', args: ['str'] } } }],
      ['xrange', { error: { cls: 'ReplyError', replyError: true, message: wrongtype, command: { name: 'xrange', args: ['str', '-', '+'] } } }],
      [
        'xreadgroup',
        {
          error: {
            cls: 'ReplyError', replyError: true,
            message: "NOGROUP No such key 's' or consumer group 'g' in XREADGROUP with GROUP option",
            command: { name: 'xreadgroup', args: ['GROUP', 'g', 'c', 'STREAMS', 's', '>'] },
          },
        },
      ],
    ]);
    expect(stat(o, 'xadd')).toEqual([1, 0, 1]);
    expect(stat(o, 'xlen')).toEqual([1, 0, 1]);
    expect(stat(o, 'xrange')).toEqual([1, 0, 1]);
    expect(stat(o, 'xreadgroup')).toEqual([1, 0, 1]);
    expect(errorstat(o, 'WRONGTYPE')).toBe(3);
    expect(errorstat(o, 'NOGROUP')).toBe(1);
    // a failed call ran: CLIENT LIST names it
    expect(o.views.map((v) => v.cmd)).toEqual(['xadd', 'xlen', 'xrange', 'xreadgroup']);
    expect(o.processed).toBe(1 + 4 + 4 + 2);
    expect(o.dirty).toBe(1); // the SET
    expect(o.lane).toEqual({ short: 4, fellBack: 0 }); // errors of the handler itself: on the short path
  });

  it('runs the containers XGROUP and XINFO through the methods with their subcommand names', async () => {
    const o = await both({}, async ({ step }) => {
      await step('xgroup', 'CREATE', 's', 'g', '0', 'MKSTREAM');
      await step('xadd', 's', '5-0', 'f', 'v');
      await step('xgroup', 'CREATECONSUMER', 's', 'g', 'c2');
      await step('xgroup', 'CREATE', 's', 'g', '0'); // BUSYGROUP: failed
      await step('xgroup', 'NOPE', 's'); // unknown subcommand: rejected
      await step('xgroup', 'SETID', 's', 'g'); // wrong arity of the subcommand: rejected
      await step('xinfo', 'STREAM', 's');
      await step('xinfo', 'GROUPS', 's');
      await step('xinfo', 'CONSUMERS', 's', 'g');
      await step('xinfo', 'STREAM', 'missing'); // no such key: failed
    });
    const outcomes = o.log.map((e) => (e as [string, Outcome])[1]);
    expect(outcomes[0]).toEqual({ reply: 'OK' });
    expect(outcomes[2]).toEqual({ reply: 1 });
    expect(outcomes[3].error?.message).toBe('BUSYGROUP Consumer Group name already exists');
    expect(outcomes[4].error?.message).toMatch(/^ERR unknown subcommand 'NOPE'\. Try XGROUP HELP\.$/);
    expect(outcomes[5].error?.message).toBe("ERR wrong number of arguments for 'xgroup|setid' command");
    const stream = outcomes[6].reply as unknown[];
    expect(stream.slice(0, 2)).toEqual(['length', 1]);
    expect(stream).toContain('last-generated-id');
    expect(stream[stream.indexOf('last-generated-id') + 1]).toBe('5-0');
    expect((outcomes[7].reply as unknown[][])[0].slice(0, 2)).toEqual(['name', 'g']);
    expect((outcomes[8].reply as unknown[][])[0].slice(0, 2)).toEqual(['name', 'c2']);
    expect(outcomes[9].error?.message).toBe('ERR no such key');
    expect(stat(o, 'xgroup|create')).toEqual([2, 0, 1]);
    expect(stat(o, 'xgroup|createconsumer')).toEqual([1, 0, 0]);
    expect(stat(o, 'xgroup|setid')).toEqual([0, 1, 0]);
    expect(stat(o, 'xinfo|stream')).toEqual([2, 0, 1]);
    expect(stat(o, 'xinfo|groups')).toEqual([1, 0, 0]);
    expect(stat(o, 'xinfo|consumers')).toEqual([1, 0, 0]);
    expect(errorstat(o, 'BUSYGROUP')).toBe(1);
    expect(errorstat(o, 'ERR')).toBe(3);
    // CLIENT LIST's cmd as redis-server 7.0.15 shows it: the subcommand's full name, NULL for an
    // unknown subcommand, the full name for one refused for its arity
    expect(o.views.map((v) => v.cmd)).toEqual([
      'xgroup|create', 'xadd', 'xgroup|createconsumer', 'xgroup|create', 'NULL', 'xgroup|setid',
      'xinfo|stream', 'xinfo|groups', 'xinfo|consumers', 'xinfo|stream',
    ]);
    expect(o.lane).toEqual({ short: 1, fellBack: 9 });
  });

  it('queues a stream command sent while MULTI (through call) is open and answers it at EXEC', async () => {
    const o = await both({}, async ({ r, step, note, view }) => {
      note('multi', await outcome(r.call('MULTI')));
      await step('xadd', 's', '1-0', 'f', 'v');
      await step('xlen', 's');
      await step('xrange', 's', '-', '+');
      await step('xadd', 'str', '*', 'f', 'v'); // runs at EXEC: error in place
      note('set', await outcome(r.call('set', 'str', 'x'))); // call(): the SET method would take the lane
      note('exec', await outcome(r.call('EXEC')));
      await view();
      note('multi', await outcome(r.call('MULTI')));
      await step('xadd', 's'); // wrong arity at queue time: the transaction is discarded
      await step('xlen', 's');
      note('exec', await outcome(r.call('EXEC')));
      await view();
      await step('xlen', 's');
    });
    expect(o.log).toEqual([
      ['multi', { reply: 'OK' }],
      ['xadd', { reply: 'QUEUED' }],
      ['xlen', { reply: 'QUEUED' }],
      ['xrange', { reply: 'QUEUED' }],
      ['xadd', { reply: 'QUEUED' }],
      ['set', { reply: 'QUEUED' }],
      [
        'exec',
        {
          // call('EXEC'): the raw replies (multi().exec() would give [err, reply] pairs)
          reply: ['1-0', 1, [['1-0', ['f', 'v']]], '1000000-0', 'OK'],
        },
      ],
      ['multi', { reply: 'OK' }],
      ['xadd', { error: { cls: 'ReplyError', replyError: true, message: "ERR wrong number of arguments for 'xadd' command", command: { name: 'xadd', args: ['s'] } } }],
      ['xlen', { reply: 'QUEUED' }],
      ['exec', { error: expect.objectContaining({ message: 'EXECABORT Transaction discarded because of previous errors.' }) }],
      ['xlen', { reply: 1 }],
    ]);
    // as redis-server 7.0.15 shows them: cmd=exec after the queued commands ran, and the
    // command looked up (xadd) even when refused for its arity at queue time; once refused, the
    // transaction counts nothing more (multi.c queueMultiCommand on CLIENT_DIRTY_EXEC: multi=0
    // after the XLEN too, on 7.0.15 and the post-7.4 build)
    expect(o.views.map((v) => `${v.cmd} ${v.flags} ${v.multi}`)).toEqual([
      'xadd x 1',
      'xlen x 2',
      'xrange x 3',
      'xadd x 4',
      'exec N -1',
      'xadd x 0',
      'xlen x 0',
      'exec N -1',
      'xlen N -1',
    ]);
    expect(stat(o, 'xadd')).toEqual([2, 1, 0]);
    expect(stat(o, 'xlen')).toEqual([2, 0, 0]);
    expect(stat(o, 'xrange')).toEqual([1, 0, 0]);
    expect(stat(o, 'exec')).toEqual([2, 0, 1]); // EXECABORT: run, with an error reply
    expect(o.dirty).toBe(3); // two XADDs and the SET in the first EXEC
    expect(o.lane).toEqual({ short: 1, fellBack: 6 });
  });

  it('runs a command sent behind a blocked XREADGROUP of the same client only after an XADD of another client serves it', async () => {
    const o = await both({}, async ({ x, via, step, note, view, client }) => {
      await step('xgroup', 'CREATE', 's', 'g', '$', 'MKSTREAM');
      const producer = client();
      const order: string[] = [];
      const blocked = x('xreadgroup', 'GROUP', 'g', 'c', 'BLOCK', 0, 'STREAMS', 's', '>');
      const behind = x('xlen', 's');
      const behindToo = x('xadd', 's', '*', 'own', 'entry');
      blocked.then(() => order.push('xreadgroup'), () => order.push('xreadgroup (error)'));
      behind.then(() => order.push('xlen'), () => order.push('xlen (error)'));
      behindToo.then(() => order.push('xadd'), () => order.push('xadd (error)'));
      note('settled before the producer', [await settled(blocked), await settled(behind), await settled(behindToo)]);
      await view(); // flags=b, cmd=xreadgroup
      note('producer', await outcome(via(producer)('xadd', 's', '7-0', 'f', 'v')));
      note('blocked', await outcome(blocked));
      note('behind', await outcome(behind));
      note('behind too', await outcome(behindToo));
      note('order', order);
      await view();
      await step('xpending', 's', 'g');
    });
    expect(o.log).toEqual([
      ['xgroup', { reply: 'OK' }],
      ['settled before the producer', [false, false, false]],
      ['producer', { reply: '7-0' }],
      ['blocked', { reply: [['s', [['7-0', ['f', 'v']]]]] }],
      ['behind', { reply: 1 }],
      ['behind too', { reply: '1000000-0' }],
      ['order', ['xreadgroup', 'xlen', 'xadd']],
      ['xpending', { reply: [1, '7-0', '7-0', [['c', '1']]] }],
    ]);
    expect(o.views.slice(1).map((v) => `${v.cmd} ${v.flags}`)).toEqual(['xreadgroup b', 'xadd N', 'xpending N']);
    expect(o.views[0].flags).toBe('N');
    expect(stat(o, 'xreadgroup')).toEqual([1, 0, 0]);
    expect(stat(o, 'xadd')).toEqual([2, 0, 0]);
    expect(stat(o, 'xlen')).toEqual([1, 0, 0]);
    // XREADGROUP (blocking on the short path), the producer's XADD, XPENDING; XGROUP fell back;
    // the two commands behind the blocked one never reached runLane (the connection was busy)
    expect(o.lane).toEqual({ short: 3, fellBack: 1 });
  });

  it('answers as call() does on a keyPrefix client (keys prefixed, replies and errors with the full key)', async () => {
    const o = await both({ keyPrefix: 'app:' }, async ({ r, step, note }) => {
      await step('xadd', 's', '1-0', 'f', 'v');
      await step('xlen', 's');
      await step('xrange', 's', '-', '+');
      await step('xreadgroup', 'GROUP', 'nope', 'c', 'STREAMS', 's', '>');
      await step('xadd', 's');
      note('keys', ((await r.call('KEYS', '*')) as string[]).sort());
    });
    expect(o.log).toEqual([
      ['xadd', { reply: '1-0' }],
      ['xlen', { reply: 1 }],
      ['xrange', { reply: [['1-0', ['f', 'v']]] }],
      [
        'xreadgroup',
        {
          error: {
            cls: 'ReplyError', replyError: true,
            message: "NOGROUP No such key 'app:s' or consumer group 'nope' in XREADGROUP with GROUP option",
            command: { name: 'xreadgroup', args: ['GROUP', 'nope', 'c', 'STREAMS', 'app:s', '>'] },
          },
        },
      ],
      ['xadd', { error: { cls: 'ReplyError', replyError: true, message: "ERR wrong number of arguments for 'xadd' command", command: { name: 'xadd', args: ['app:s'] } } }],
      ['keys', ['app:s']],
    ]);
    expect(stat(o, 'xadd')).toEqual([1, 1, 0]);
    expect(stat(o, 'xreadgroup')).toEqual([1, 0, 1]);
    expect(o.lane).toEqual({ short: 0, fellBack: 0 }); // keyPrefix: the general path throughout
  });

  it('delivers Buffers from the …Buffer methods as callBuffer() does', async () => {
    const o = await both({}, async ({ step }) => {
      await step('xgroup', 'CREATE', 's', 'g', '$', 'MKSTREAM');
      await step('xaddBuffer', 's', '1-0', 'f', Buffer.from([0xff, 0x00, 0x41]));
      await step('xrangeBuffer', 's', '-', '+');
      await step('xreadgroupBuffer', 'GROUP', 'g', 'c', 'STREAMS', 's', '>');
      await step('xackBuffer', 's', 'g', '1-0');
      await step('xlenBuffer', 's');
      await step('xlenBuffer', 's', 'extra');
    });
    const b = (s: string | number[]) => (typeof s === 'string' ? Buffer.from(s) : Buffer.from(s));
    expect(o.log).toEqual([
      ['xgroup', { reply: 'OK' }],
      ['xaddBuffer', { reply: b('1-0') }],
      ['xrangeBuffer', { reply: [[b('1-0'), [b('f'), b([0xff, 0x00, 0x41])]]] }],
      ['xreadgroupBuffer', { reply: [[b('s'), [[b('1-0'), [b('f'), b([0xff, 0x00, 0x41])]]]]] }],
      ['xackBuffer', { reply: 1 }],
      ['xlenBuffer', { reply: 1 }],
      ['xlenBuffer', { error: { cls: 'ReplyError', replyError: true, message: "ERR wrong number of arguments for 'xlen' command", command: { name: 'xlen', args: ['s', 'extra'] } } }],
    ]);
    const replies = o.log.slice(1, 4).map((e) => (e as [string, Outcome])[1].reply);
    expect(Buffer.isBuffer(replies[0])).toBe(true);
    expect(Buffer.isBuffer((replies[1] as Buffer[][][])[0][1][1])).toBe(true);
    expect(stat(o, 'xadd')).toEqual([1, 0, 0]);
    expect(stat(o, 'xlen')).toEqual([1, 1, 0]);
    expect(o.views.slice(1).map((v) => v.cmd)).toEqual(['xadd', 'xrange', 'xreadgroup', 'xack', 'xlen', 'xlen']);
    expect(o.lane).toEqual({ short: 5, fellBack: 2 });
  });

  it('answers a command the emulated Redis version lacks with the same unknown-command error', async () => {
    const o = await both({ streams: { redisVersion: '7.0' } }, async ({ step }) => {
      await step('xadd', 's', '1-0', 'f', 'v');
      await step('xackdel', 's', 'g', 'KEEPREF', 'IDS', 1, '1-0');
      await step('xdelex', 's', 'IDS', 1, '1-0');
      await step('xdelex', 's'); // unknown before its arity is looked at
      await step('xlen', 's');
    });
    const unknown = (name: string, args: string[]) => ({
      error: {
        cls: 'ReplyError', replyError: true,
        message: `ERR unknown command '${name}', with args beginning with: ${args.map((a) => `'${a}' `).join('')}`,
        command: { name, args },
      },
    });
    expect(o.log).toEqual([
      ['xadd', { reply: '1-0' }],
      ['xackdel', unknown('xackdel', ['s', 'g', 'KEEPREF', 'IDS', '1', '1-0'])],
      ['xdelex', unknown('xdelex', ['s', 'IDS', '1', '1-0'])],
      ['xdelex', unknown('xdelex', ['s'])],
      ['xlen', { reply: 1 }],
    ]);
    // three error replies, nothing processed but the XADD and XLEN (and the 5 CLIENT LIST, 2 INFO)
    expect(errorstat(o, 'ERR')).toBe(3);
    expect(o.errorReplies).toBe(3);
    expect(o.processed).toBe(2 + 5 + 2);
    expect(stat(o, 'xadd')).toEqual([1, 0, 0]);
    expect(stat(o, 'xlen')).toEqual([1, 0, 0]);
    // as redis-server 7.0.15 answers a command it does not have: errorstats only (no cmdstat
    // line), CLIENT LIST cmd=NULL
    expect(o.commandstats.filter((l) => /xackdel|xdelex/.test(l))).toEqual([]);
    expect(o.views.map((v) => v.cmd)).toEqual(['xadd', 'NULL', 'NULL', 'NULL', 'xlen']);
    // ioredis 5 lists no XACKDEL: sent with call(), it takes no lane
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const xackdelMethod = Number((require('ioredis/package.json') as { version: string }).version.split('.')[0]) >= 6;
    expect(o.lane).toEqual({ short: 2, fellBack: xackdelMethod ? 3 : 2 });
  });

  it('runs XDELEX through the method on a version that has it (8.2), then refuses it on 7.0 again', async () => {
    // the method's handler is resolved per emulated version: one prototype serves both servers
    const on82 = await both({ streams: { redisVersion: '8.2' } }, async ({ step }) => {
      await step('xadd', 's', '1-0', 'f', 'v');
      await step('xdelex', 's', 'IDS', 1, '1-0');
      await step('xlen', 's');
    });
    expect(on82.log).toEqual([
      ['xadd', { reply: '1-0' }],
      ['xdelex', { reply: [1] }],
      ['xlen', { reply: 0 }],
    ]);
    expect(stat(on82, 'xdelex')).toEqual([1, 0, 0]);
    expect(on82.lane).toEqual({ short: 3, fellBack: 0 });
    const on70 = await both({ streams: { redisVersion: '7.0' } }, async ({ step }) => {
      await step('xdelex', 's', 'IDS', 1, '1-0');
    });
    expect((on70.log[0] as [string, Outcome])[1].error?.message).toMatch(/^ERR unknown command 'xdelex'/);
    expect(on70.lane).toEqual({ short: 0, fellBack: 1 });
  });

  it("rejects with 'Connection is closed.' after disconnect(), counting nothing", async () => {
    const o = await both({}, async ({ r, step, note }) => {
      await step('xadd', 's', '1-0', 'f', 'v');
      r.disconnect();
      await step('xlen', 's');
      await step('xadd', 's', '2-0', 'f', 'v');
      await step('xadd', 's'); // even a wrong arity: the client is closed first
      note('status', r.status);
    });
    const closed = { error: { cls: 'Error', replyError: false, message: 'Connection is closed.', command: undefined } };
    expect(o.log).toEqual([
      ['xadd', { reply: '1-0' }],
      ['xlen', closed],
      ['xadd', closed],
      ['xadd', closed],
      ['status', 'end'],
    ]);
    // the client left CLIENT LIST
    expect(o.views).toEqual([{ cmd: 'xadd', flags: 'N', multi: '-1' }, ...Array(3).fill({ cmd: null, flags: null, multi: null })]);
    expect(stat(o, 'xadd')).toEqual([1, 0, 0]);
    expect(stat(o, 'xlen')).toEqual([0, 0, 0]);
    expect(o.errorstats).toEqual([]);
    expect(o.lane).toEqual({ short: 1, fellBack: 0 }); // a closed client never reaches runLane
  });

  it('calls a node-style callback with the reply or the error, and still returns the promise', async () => {
    const o = await both({}, async ({ x, note, view }) => {
      const viaCallback = (name: string, ...args: unknown[]) =>
        new Promise<unknown[]>((resolve) => {
          const returned = x(name, ...args, (err: unknown, reply: unknown) => resolve([err === null ? null : errorOf(err), reply]));
          note(`${name} returns a promise`, returned instanceof Promise);
        });
      note('xadd', await viaCallback('xadd', 's', '1-0', 'f', 'v'));
      note('xlen', await viaCallback('xlen', 's'));
      note('xlen wrong arity', await viaCallback('xlen'));
      note('xrangeBuffer', await viaCallback('xrangeBuffer', 's', '-', '+'));
      await view();
    });
    expect(o.log).toEqual([
      ['xadd returns a promise', true],
      ['xadd', [null, '1-0']],
      ['xlen returns a promise', true],
      ['xlen', [null, 1]],
      ['xlen returns a promise', true],
      ['xlen wrong arity', [{ cls: 'ReplyError', replyError: true, message: "ERR wrong number of arguments for 'xlen' command", command: { name: 'xlen', args: [] } }, undefined]],
      ['xrangeBuffer returns a promise', true],
      ['xrangeBuffer', [null, [[Buffer.from('1-0'), [Buffer.from('f'), Buffer.from('v')]]]]],
    ]);
    expect(o.views.map((v) => v.cmd)).toEqual(['xrange']);
    expect(stat(o, 'xlen')).toEqual([1, 1, 0]);
    expect(o.lane).toEqual({ short: 3, fellBack: 1 });
  });
  it.each([2, 3])('answers XREADGROUP/XPENDING/XINFO/XAUTOCLAIM alike on a RESP%s client', async (protocol) => {
    const o = await both({ protocol }, async ({ step }) => {
      await step('xadd', 's', '1-0', 'f', 'v');
      await step('xgroup', 'CREATE', 's', 'g', '0');
      await step('xreadgroup', 'GROUP', 'g', 'c', 'STREAMS', 's', '>');
      await step('xreadgroupBuffer', 'GROUP', 'g', 'c', 'STREAMS', 's', '0');
      await step('xpending', 's', 'g');
      await step('xautoclaim', 's', 'g', 'c2', 0, '0-0');
      await step('xclaim', 's', 'g', 'c3', 0, '1-0', 'JUSTID');
      await step('xinfo', 'STREAM', 's');
    });
    const replies = o.log.map((e) => (e as [string, Outcome])[1].reply);
    expect(replies.slice(0, 3)).toEqual(['1-0', 'OK', [['s', [['1-0', ['f', 'v']]]]]]);
    expect(replies[3]).toEqual([[Buffer.from('s'), [[Buffer.from('1-0'), [Buffer.from('f'), Buffer.from('v')]]]]]);
    expect(replies[4]).toEqual([1, '1-0', '1-0', [['c', '1']]]);
    expect(replies[6]).toEqual(['1-0']);
    expect(o.views.map((v) => v.cmd).slice(2, 7)).toEqual(['xreadgroup', 'xreadgroup', 'xpending', 'xautoclaim', 'xclaim']);
    expect(stat(o, 'xreadgroup')).toEqual([2, 0, 0]);
    expect(o.lane).toEqual({ short: 6, fellBack: 2 });
  });

  it('writes numbers, booleans, null, undefined and nested arrays as call() does', async () => {
    const o = await both({}, async ({ step }) => {
      await step('xadd', 's', '1-0', 'int', 7, 'float', 1.5, 'big', 2 ** 70, 'neg', -0, 'bool', true, 'nul', null, 'und', undefined);
      await step('xadd', 's', ['2-0'], 'a', ['b', 'c', 'd']);
      await step('xadd', 's', '3-0', 'nested', [['x', 'y']]);
      await step('xrange', 's', '-', '+');
      await step('xrange', 's', 1, 2);
    });
    const range = (o.log[3] as [string, Outcome])[1].reply as [string, string[]][];
    expect(range.map(([id]) => id)).toEqual(['1-0', '2-0', '3-0']);
    // 2 ** 70 as the installed ioredis writes it: in full (6: BigInt), or String() (5)
    const big = installedIoredisMajor() >= 6 ? '1180591620717411303424' : '1.1805916207174113e+21';
    expect(range[0][1]).toEqual(['int', '7', 'float', '1.5', 'big', big, 'neg', '0', 'bool', 'true', 'nul', '', 'und', '']);
    expect(range[1][1]).toEqual(['a', 'b', 'c', 'd']);
    expect(range[2][1]).toEqual(['nested', 'x,y']);
    expect((o.log[4] as [string, Outcome])[1].reply).toEqual(range.slice(0, 2));
    expect(o.lane).toEqual({ short: 5, fellBack: 0 });
  });

  it('serves a blocked XREAD with its timeout on the fake clock, and a blocked BLPOP, as call() does', async () => {
    const o = await both({}, async ({ r, clock, x, via, note, view, client, step }) => {
      const read = x('xread', 'BLOCK', 500, 'STREAMS', 's', '$');
      note('settled at once', await settled(read));
      await view();
      await clock.tickAsync(500);
      note('timed out', await outcome(read));
      await view();
      const pop = x('blpop', 'l', 0);
      const pusher = client();
      note('pushed', await outcome(via(pusher)('rpush', 'l', 'a')));
      note('popped', await outcome(pop));
      note('wrong arity blpop', await outcome(x('blpop', 'l')));
      await step('xlen', 's');
      note('other client', await outcome(via(pusher)('xadd', 's', '1-0', 'f', 'v')));
      note('r.status', r.status);
    });
    expect(o.log).toEqual([
      ['settled at once', false],
      ['timed out', { reply: null }],
      ['pushed', { reply: 1 }],
      ['popped', { reply: ['l', 'a'] }],
      ['wrong arity blpop', { error: expect.objectContaining({ message: "ERR wrong number of arguments for 'blpop' command" }) }],
      ['xlen', { reply: 0 }],
      ['other client', { reply: '1-0' }],
      ['r.status', 'ready'],
    ]);
    expect(o.views.map((v) => `${v.cmd} ${v.flags}`)).toEqual(['xread b', 'xread N', 'xlen N']);
    expect(stat(o, 'xread')).toEqual([1, 0, 0]);
    expect(stat(o, 'blpop')).toEqual([1, 1, 0]);
    // the pusher's first RPUSH too: a fresh client's first command, held until \`ready\`, takes the short path
    expect(o.lane).toEqual({ short: 5, fellBack: 1 });
  });

  it('answers alike after SELECT, with a WATCHed key changed, and after CLIENT KILL by another client', async () => {
    const o = await both({}, async ({ r, step, note, client, via }) => {
      // select(): ioredis records the db (call('SELECT') it does not on 5 and 6.0), so the
      // reconnection after the CLIENT KILL below goes back to db 3
      note('select', await outcome(r.select(3)));
      await step('xadd', 's', '1-0', 'f', 'v');
      await step('xreadgroup', 'GROUP', 'g', 'c', 'STREAMS', 's', '>'); // NOGROUP on db 3
      await step('xgroup', 'CREATE', 's', 'g', '0');
      await step('xreadgroup', 'GROUP', 'g', 'c', 'STREAMS', 's', '>');
      note('watch', await outcome(r.call('WATCH', 's')));
      const other = client({ db: 3 });
      note('other xadd', await outcome(via(other)('xadd', 's', '2-0', 'f', 'v')));
      note('multi', await outcome(r.call('MULTI')));
      await step('xlen', 's');
      note('exec', await outcome(r.call('EXEC')));
      await step('xlen', 's');
      const id = Number(await r.client('ID'));
      note('kill', await outcome(other.client('KILL', 'ID', id)));
      await step('xlen', 's');
    });
    expect(o.log).toEqual([
      ['select', { reply: 'OK' }],
      ['xadd', { reply: '1-0' }],
      ['xreadgroup', { error: expect.objectContaining({ message: "NOGROUP No such key 's' or consumer group 'g' in XREADGROUP with GROUP option" }) }],
      ['xgroup', { reply: 'OK' }],
      ['xreadgroup', { reply: [['s', [['1-0', ['f', 'v']]]]] }],
      ['watch', { reply: 'OK' }],
      ['other xadd', { reply: '2-0' }],
      ['multi', { reply: 'OK' }],
      ['xlen', { reply: 'QUEUED' }],
      ['exec', { reply: null }],
      ['xlen', { reply: 2 }],
      ['kill', { reply: 1 }],
      // the killed client reconnects as ioredis does (back on db 3) and answers
      ['xlen', { reply: 2 }],
    ]);
    expect(o.views.slice(-3).map((v) => `${v.cmd} ${v.flags}`)).toEqual(['xlen xd', 'xlen N', 'null null']); // d: a WATCHed key changed
    // the other client's XADD and the XLEN after the reconnect too: a client's first command after
    // `ready`, held until then, takes the short path
    expect(o.lane).toEqual({ short: 6, fellBack: 2 });
    // XADD ×2, XGROUP CREATE, XREADGROUP 2 (the consumer it creates, the last-delivered id)
    expect(o.dirty).toBe(5);
  });
  it('keeps connection order with a pipeline() and a multi() sent just before, without awaiting them', async () => {
    const o = await both({}, async ({ r, x, note }) => {
      const order: string[] = [];
      const track = (label: string, p: Promise<unknown>) =>
        p.then(
          (v) => {
            order.push(label);
            return { reply: v };
          },
          (err) => {
            order.push(label);
            return { error: errorOf(err) };
          },
        );
      const piped = track('pipeline', r.pipeline().xadd('s', '1-0', 'f', 'v').xlen('s').exec());
      const first = track('xlen 1', x('xlen', 's'));
      const tx = track('multi', r.multi().xadd('s', '2-0', 'f', 'v').xrange('s', '-', '+').exec());
      const second = track('xlen 2', x('xlen', 's'));
      const arity = track('xadd arity', x('xadd', 's'));
      note('replies', await Promise.all([piped, first, tx, second, arity]));
      note('order', order);
    });
    expect(o.log).toEqual([
      [
        'replies',
        [
          { reply: [[null, '1-0'], [null, 1]] },
          { reply: 1 },
          { reply: [[null, '2-0'], [null, [['1-0', ['f', 'v']], ['2-0', ['f', 'v']]]]] },
          { reply: 2 },
          { error: expect.objectContaining({ message: "ERR wrong number of arguments for 'xadd' command" }) },
        ],
      ],
      // the batches run at once, as a server answers a whole batch before it reads on (the xlen
      // replies show the connection order); their promises settle after the single commands', as
      // real ioredis settles them when one read brings every reply (5.11.1, 6.0.0 on redis-server:
      // xlen 1, xlen 2, xadd arity, pipeline, multi)
      ['order', ['xlen 1', 'xlen 2', 'xadd arity', 'multi', 'pipeline']],
    ]);
    expect(stat(o, 'xlen')).toEqual([3, 0, 0]);
    expect(stat(o, 'xadd')).toEqual([2, 1, 0]);
    // nothing holds the connection: the two XLENs take the short path, the XADD of a wrong
    // arity falls back to the general one
    expect(o.lane).toEqual({ short: 2, fellBack: 1 });
  });
  it('takes the general path while slowlog-log-slower-than, min-replicas-to-write or MONITOR is in force, and the short one again once they are off', async () => {
    const o = await both({}, async ({ x, note, client, r }) => {
      const admin = client(); // its commands through call(): the general path, not counted
      note('before', await x('xadd', 's', '1-0', 'f', 'v'));
      await admin.call('config', 'SET', 'slowlog-log-slower-than', '0');
      await admin.call('slowlog', 'RESET');
      note('slowlogged', await x('xlen', 's'));
      note('slowlog', ((await admin.call('slowlog', 'GET')) as unknown[][]).map((e) => e[3]));
      await admin.call('config', 'SET', 'slowlog-log-slower-than', '10000');
      await admin.call('config', 'SET', 'min-replicas-to-write', '1');
      note('noreplicas', await outcome(x('xadd', 's', '2-0', 'f', 'v')));
      await admin.call('config', 'SET', 'min-replicas-to-write', '0');
      const monitor = await r.duplicate().monitor();
      const seen: string[] = [];
      monitor.on('monitor', (_time: string, args: string[]) => seen.push(args.join(' ')));
      note('monitored', await x('xlen', 's'));
      await new Promise((resolve) => setTimeout(resolve, 10));
      note('monitor', seen);
      monitor.disconnect();
      await new Promise((resolve) => setTimeout(resolve, 10));
      note('after', await x('xlen', 's'));
    });
    expect(o.log).toEqual([
      ['before', '1-0'],
      ['slowlogged', 1],
      ['slowlog', [['xlen', 's'], ['slowlog', 'RESET']]], // newest first; SLOWLOG RESET logged after it ran
      ['noreplicas', { error: expect.objectContaining({ message: 'NOREPLICAS Not enough good replicas to write.' }) }],
      ['monitored', 1],
      ['monitor', ['xlen s']],
      ['after', 1],
    ]);
    // the first XADD and the last XLEN on the short path; the three in between handed over
    expect(o.lane).toEqual({ short: 2, fellBack: 3 });
  });
  it('leaves a key\'s idle time as it was under CLIENT NO-TOUCH ON, as call() does', async () => {
    const o = await both({}, async ({ x, note, client, clock, r }) => {
      const admin = client();
      await x('xadd', 's', '1-0', 'f', 'v');
      await clock.tickAsync(10_000);
      await r.call('client', 'NO-TOUCH', 'ON');
      note('read', await x('xlen', 's'));
      note('idle after a read', await admin.call('object', 'IDLETIME', 's'));
      await r.call('client', 'NO-TOUCH', 'OFF');
      note('read again', await x('xlen', 's'));
      note('idle after a touching read', await admin.call('object', 'IDLETIME', 's'));
    });
    expect(o.log).toEqual([
      ['read', 1],
      ['idle after a read', 10],
      ['read again', 1],
      ['idle after a touching read', 0],
    ]);
    // the first XADD and the last XLEN on the short path, the XLEN under NO-TOUCH handed over
    expect(o.lane).toEqual({ short: 2, fellBack: 1 });
  });
  it('refuses writes on a replica (REPLICAOF) with READONLY and holds them during CLIENT PAUSE WRITE, as call() does', async () => {
    const o = await both({}, async ({ x, via, note, client, clock }) => {
      const admin = client(); // its commands through call(): the general path, not counted
      const reader = via(client()); // the paused client's own next command would wait behind its write
      note('before', await x('xadd', 's', '1-0', 'f', 'v'));
      await admin.call('replicaof', '127.0.0.1', '1');
      note('replica write', await outcome(x('xadd', 's', '2-0', 'f', 'v')));
      note('replica read', await x('xlen', 's'));
      await admin.call('replicaof', 'no', 'one');
      await admin.call('client', 'pause', '100', 'WRITE');
      const held = outcome(x('xadd', 's', '3-0', 'f', 'v'));
      note('read while paused', await reader('xlen', 's'));
      note('write held', await settled(held));
      await clock.tickAsync(100);
      note('write after the pause', await held);
      note('after', await x('xlen', 's'));
    });
    expect(o.log).toEqual([
      ['before', '1-0'],
      ['replica write', { error: expect.objectContaining({ message: "READONLY You can't write against a read only replica." }) }],
      ['replica read', 1],
      ['read while paused', 1],
      ['write held', false],
      ['write after the pause', { reply: '3-0' }],
      ['after', 2],
    ]);
    // the first XADD and the last XLEN on the short path; the replica's XADD and XLEN, the other
    // client's XLEN during the pause and the held XADD handed over
    expect(o.lane).toEqual({ short: 2, fellBack: 4 });
  });
});
