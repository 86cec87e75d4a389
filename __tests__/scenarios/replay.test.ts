/**
 * The replay engine and the fixture format, driven by a scripted in-memory target (no
 * fake, no server), so these tests pin the replayer's own behaviour.
 */
import { isDevelopmentBuild, parseScenario, sameServerLine, ScenarioFormatError, type Scenario } from '../../lib/scenarios/format';
import { formatJson } from '../../lib/scenarios/json-format';
import { formatResult, formatSummary, replayScenario, runScenario, type ReplayResult } from '../../lib/scenarios/replay';
import type { PendingCall, Target, TargetSession } from '../../lib/scenarios/targets/target';

class RedisError extends Error {}

/** Answers from a table keyed by the command line; `WAIT` blocks until the next `WAKE`. */
class ScriptedTarget implements Target {
  readonly kind = 'fake' as const;
  readonly callTimeoutMs = 200;
  log: string[] = [];
  constructor(private readonly table: Record<string, unknown>) {}
  async skipReason(s: Scenario): Promise<string | null> {
    return s.redisVersion === '9.9' ? 'too new' : null;
  }
  async open(s: Scenario): Promise<TargetSession> {
    let wake: ((v: unknown) => void) | undefined;
    let now = s.clock ?? 0;
    return {
      call: async (client, argv) => {
        const line = argv.join(' ');
        this.log.push(`${client}: ${line}`);
        if (line === 'WAIT') return new Promise((resolve) => (wake = resolve));
        if (line === 'WAKE') {
          wake?.(['woken', now]);
          return 'OK';
        }
        if (line === 'NOW') return now;
        if (!(line in this.table)) throw new RedisError(`ERR unknown command '${argv[0]}'`);
        const v = this.table[line];
        if (v instanceof Error) throw v;
        return v;
      },
      advance: async (ms) => {
        now += ms;
      },
      settleAsync: async (_c: string, _p: PendingCall) => undefined,
      close: async () => {
        this.log.push('closed');
      },
    };
  }
  async dispose(): Promise<void> {}
}

const base = { name: 'x', description: 'd', source: 'hand-written', redisVersion: '7.0' } as const;
const scenario = (steps: unknown[], extra: Record<string, unknown> = {}) => parseScenario({ ...base, ...extra, steps });

describe('replay', () => {
  it('passes when every reply matches, running steps in order on their clients', async () => {
    const target = new ScriptedTarget({ 'XADD s * f v': '1700000000000-0', 'XLEN s': 1, 'XRANGE s 1700000000000-0 +': [['1700000000000-0', ['f', 'v']]] });
    const s = scenario(
      [
        { cmd: ['XADD', 's', '*', 'f', 'v'], reply: { id: true, capture: 'id' } },
        { client: 'b', cmd: ['XLEN', 's'], reply: 1 },
        { cmd: ['XRANGE', 's', { ref: 'id' }, '+'], reply: [[{ ref: 'id' }, ['f', 'v']]] },
      ],
      { clients: ['a', 'b'] },
    );
    const r = await replayScenario(s, target);
    expect(formatResult(r)).toBe('PASS x');
    expect(target.log).toEqual(['a: XADD s * f v', 'b: XLEN s', 'a: XRANGE s 1700000000000-0 +', 'closed']);
  });

  it('stops at the first mismatching step and reports index, command, expected and actual', async () => {
    const target = new ScriptedTarget({ 'XLEN s': 2, 'XLEN t': 0 });
    const s = scenario([
      { cmd: ['XLEN', 's'], reply: 2 },
      { cmd: ['XLEN', 't'], reply: 5, comment: 'wrong on purpose' },
      { cmd: ['XLEN', 's'], reply: 2 },
    ]);
    const r = await replayScenario(s, target);
    expect(r.status).toBe('fail');
    expect(r.failure).toEqual({
      step: 1,
      client: 'main',
      command: ['XLEN', 't'],
      expected: { reply: 5 },
      actual: { kind: 'reply', value: 0 },
      message: 'expected 5, got 0',
    });
    expect(formatResult(r)).toBe('FAIL x: step 1 [main] XLEN t: expected 5, got 0');
    expect(target.log).toEqual(['main: XLEN s', 'main: XLEN t', 'closed']);
  });

  it('names the path of a difference inside a reply and shows both whole values', async () => {
    const target = new ScriptedTarget({ 'XRANGE s - +': [['1-0', ['f', 'v']]] });
    const r = await replayScenario(scenario([{ cmd: ['XRANGE', 's', '-', '+'], reply: [['1-0', ['f', 'w']]] }]), target);
    expect(formatResult(r)).toBe(
      'FAIL x: step 0 [main] XRANGE s - +: at [0][1][1]: expected "w", got "v"; expected [["1-0",["f","w"]]], actual [["1-0",["f","v"]]]',
    );
  });

  it('matches errors by prefix and reports reply/error confusion', async () => {
    const target = new ScriptedTarget({ 'XADD s 0-0 f v': new RedisError('ERR The ID specified in XADD must be greater than 0-0'), 'XLEN s': 0 });
    expect((await replayScenario(scenario([{ cmd: ['XADD', 's', '0-0', 'f', 'v'], error: 'ERR The ID' }]), target)).status).toBe('pass');
    const r1 = await replayScenario(scenario([{ cmd: ['XADD', 's', '0-0', 'f', 'v'], error: 'WRONGTYPE' }]), target);
    expect(r1.failure?.message).toBe('expected an error starting with "WRONGTYPE", got "ERR The ID specified in XADD must be greater than 0-0"');
    const r2 = await replayScenario(scenario([{ cmd: ['XLEN', 's'], error: 'ERR' }]), target);
    expect(r2.failure?.message).toBe('expected an error starting with "ERR", got reply 0');
    const r3 = await replayScenario(scenario([{ cmd: ['XADD', 's', '0-0', 'f', 'v'], reply: '1-0' }]), target);
    expect(r3.failure?.message).toBe('expected reply "1-0", got error "ERR The ID specified in XADD must be greater than 0-0"');
  });

  it('runs async commands in the background and checks them at await, after advances', async () => {
    const target = new ScriptedTarget({});
    const s = scenario(
      [
        { client: 'r', cmd: ['WAIT'], async: 'w' },
        { advance: 100 },
        { cmd: ['WAKE'], reply: 'OK' },
        { await: 'w', reply: ['woken', 1100] },
      ],
      { clients: ['main', 'r'], clock: 1000 },
    );
    expect(formatResult(await replayScenario(s, target))).toBe('PASS x');
  });

  it('fails an await whose command never answers, after the target timeout', async () => {
    const target = new ScriptedTarget({});
    const s = scenario([{ cmd: ['WAIT'], async: 'w' }, { await: 'w', reply: null }]);
    const r = await replayScenario(s, target);
    expect(r.failure?.step).toBe(1);
    expect(r.failure?.command).toEqual(['WAIT']);
    expect(r.failure?.actual).toEqual({
      kind: 'timeout',
      message: '[ioredis-mock-streams] step 1 (await "w"): no reply within 200 ms (the fake\'s clock moves only with "advance" steps: a BLOCK or a blocking command\'s timeout needs one, e.g. {"advance": 100} before the await)',
    });
  });

  it('skips what the target cannot run', async () => {
    // a mode the fake lacks: valid for the recorder only (replay and format refuse it when loading)
    const s = parseScenario({ ...base, redisVersion: '9.9', steps: [{ cmd: ['XLEN', 's'], reply: 0 }] }, { requireKnownVersion: false });
    const r = await replayScenario(s, new ScriptedTarget({}));
    expect(formatResult(r)).toBe('SKIP x: too new');
  });

  it('record mode (stopOnMismatch: false) runs every step and keeps all outcomes', async () => {
    const target = new ScriptedTarget({ 'XLEN s': 3 });
    const s = parseScenario({ ...base, steps: [{ cmd: ['XLEN', 's'] }, { advance: 5 }, { cmd: ['NOPE'], reply: 1 }] }, { requireExpectations: false });
    const r = await runScenario(s, target, { stopOnMismatch: false });
    expect(r.outcomes).toEqual([{ kind: 'reply', value: 3 }, undefined, { kind: 'error', message: "ERR unknown command 'NOPE'" }]);
  });

  it('summarises results in one line', () => {
    const mk = (status: ReplayResult['status']): ReplayResult => ({ name: 'n', target: 'fake', status, outcomes: [] });
    expect(formatSummary([mk('pass'), mk('pass'), mk('fail')])).toBe('2 passed, 1 failed');
    expect(formatSummary([mk('pass'), mk('skip')])).toBe('1 passed, 0 failed, 1 skipped');
  });
});

/** The validation problems of a raw scenario ([] when valid). */
const problems = (raw: unknown, opts = {}) => {
  try {
    parseScenario(raw, opts);
    return [];
  } catch (e) {
    return (e as ScenarioFormatError).problems;
  }
};

describe('scenario format', () => {

  it('accepts the documented shape and defaults', () => {
    const s = scenario([{ cmd: ['PING'], reply: 'PONG' }]);
    expect(s.clients).toBeUndefined();
    expect(s.steps).toEqual([{ cmd: ['PING'], reply: 'PONG' }]);
  });

  it('reports schema problems with their path', () => {
    expect(problems({ ...base, steps: [{ cmd: [] }] })).toEqual(['steps[0].cmd: cmd needs at least the command name']);
    expect(problems({ ...base, steps: [{ cmd: ['X'], reply: 1, extra: true }] })).toEqual(['steps[0]: unknown key "extra"']);
    expect(problems({ ...base, steps: [{ wait: 1 }] })).toEqual(['steps[0]: a step needs "cmd", "await" or "advance"']);
    expect(problems({ ...base, redisVersion: '7', steps: [{ advance: 1 }] })).toEqual(['redisVersion: use "<major>.<minor>", e.g. "7.0"']);
    const advanceRange = 'must be a whole number of ms from 0 to 2147483647 (a replay on a server sleeps it; keep it at 300 or less)';
    expect(problems({ ...base, steps: [{ advance: -1 }] })).toEqual([`steps[0].advance: ${advanceRange}`]);
  });

  it('bounds advances: setTimeout’s limit (a server replay sleeps them), and the fake clock’s range over the scenario', () => {
    const advanceRange = 'must be a whole number of ms from 0 to 2147483647 (a replay on a server sleeps it; keep it at 300 or less)';
    // 1e300 passed before and stopped a whole directory's replay at run time; 2^31 slept 1 ms on a server
    expect(problems({ ...base, steps: [{ advance: 1e300 }] })).toEqual([`steps[0].advance: ${advanceRange}`]);
    expect(problems({ ...base, steps: [{ advance: 2 ** 31 }] })).toEqual([`steps[0].advance: ${advanceRange}`]);
    expect(problems({ ...base, steps: [{ advance: 2 ** 31 - 1 }] })).toEqual([]);
    expect(problems({ ...base, clock: Number.MAX_SAFE_INTEGER - 10, steps: [{ advance: 6 }, { advance: 5 }] })).toEqual([
      `"clock" plus the advances reach ${Number.MAX_SAFE_INTEGER + 1} ms, past 2^53 - 1 (the fake clock's range)`,
    ]);
  });

  it('reports rule violations the schema cannot express', () => {
    expect(
      problems({
        ...base,
        source: 'recorded',
        clients: ['a'],
        steps: [
          { client: 'b', cmd: ['X'], reply: 1 },
          { cmd: ['X'], reply: 1, error: 'ERR' },
          { cmd: ['X'] },
          { cmd: ['X', { ref: 'later' }], reply: { ref: 'nope' } },
          { cmd: ['X'], reply: [{ capture: 'later' }, { capture: 'later' }, { idd: 1 }] },
          { cmd: ['X'], async: 'r', reply: 1 },
          { await: 'q', reply: 1 },
          { cmd: ['X'], async: 'z' },
        ],
      }, { file: 'fixtures/other-name.json' }),
    ).toEqual([
      'name "x" must equal the file name "other-name"',
      'a recorded scenario needs "recordedOn"',
      'steps[0]: client "b" is not in "clients"',
      'steps[1]: give "reply" or "error", not both',
      'steps[2]: needs "reply" or "error"',
      'steps[3].cmd: {"ref": "later"} before any capture of it',
      'steps[3].reply: {"ref": "nope"} before any capture of it',
      'steps[4].reply[1]: "later" is captured twice',
      'steps[4].reply[2]: unknown matcher key(s) "idd"',
      'steps[5]: an async step gets its reply in the matching "await" step',
      'steps[6]: await "q" without an earlier async step of that name',
      'steps[5]: async "r" is never awaited',
      'steps[7]: async "z" is never awaited',
    ]);
  });
});

describe('recordings on a development build', () => {
  const base = { name: 'x', description: 'd', redisVersion: '8.0', steps: [{ cmd: ['XLEN', 's'], reply: 0 }] };
  it('need "server" with recordedOn 255.255.255, and "server" only on recorded scenarios', () => {
    expect(problems({ ...base, source: 'recorded', recordedOn: '255.255.255' })).toEqual([
      'recorded on a development build (255.255.255): "server" must say which one',
    ]);
    expect(problems({ ...base, source: 'recorded', recordedOn: '255.255.255', server: 'redis 4f8cdc2a (7.4+ unstable)' })).toEqual([]);
    expect(problems({ ...base, source: 'hand-written', server: 'redis 4f8cdc2a' })).toEqual(['"server" is only for recorded scenarios']);
  });

  it('belong to their own server line only', () => {
    expect(sameServerLine('255.255.255', '255.255.255')).toBe(true);
    expect(sameServerLine('7.0.15', '7.0.11')).toBe(true);
    expect(sameServerLine('7.0.15', '255.255.255')).toBe(false);
    expect(sameServerLine('255.255.255', '8.0.2')).toBe(false);
    expect(isDevelopmentBuild('255.255.255')).toBe(true);
    expect(isDevelopmentBuild('7.0.15')).toBe(false);
  });
});

describe('formatJson', () => {
  it('keeps short arrays and steps on one line and breaks long ones, 2-space indented', () => {
    const text = formatJson({ name: 'n', clients: ['a', 'b'], steps: [{ cmd: ['XLEN', 's'], reply: 0 }, { cmd: ['X', 'y'.repeat(95)], reply: null }] });
    expect(text).toBe(
      [
        '{',
        '  "name": "n",',
        '  "clients": ["a", "b"],',
        '  "steps": [',
        '    { "cmd": ["XLEN", "s"], "reply": 0 },',
        '    {',
        `      "cmd": ["X", "${'y'.repeat(95)}"],`,
        '      "reply": null',
        '    }',
        '  ]',
        '}',
        '',
      ].join('\n'),
    );
    expect(JSON.parse(text)).toEqual({ name: 'n', clients: ['a', 'b'], steps: [{ cmd: ['XLEN', 's'], reply: 0 }, { cmd: ['X', 'y'.repeat(95)], reply: null }] });
    expect(formatJson(JSON.parse(text))).toBe(text);
  });
});
