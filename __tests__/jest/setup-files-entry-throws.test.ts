/**
 * The jest setup file put in `setupFiles` (jest runs those before it defines beforeEach/afterEach)
 * would mock ioredis but reset nothing between tests, silently: it throws a StreamsMockError
 * naming setupFilesAfterEnv instead (checked with jest 29.7.0: `setupFiles:
 * ['ioredis-mock-streams/jest']` fails the suite with this message). Simulated here by loading
 * the module, at the file's top level, with jest's hooks hidden as they are in setupFiles.
 */
const g = globalThis as Record<string, unknown>;
const HOOKS = ['beforeAll', 'beforeEach', 'afterEach', 'afterAll'] as const;
const saved = HOOKS.map((name) => g[name]);
let thrown: unknown;
for (const name of HOOKS) g[name] = undefined;
try {
  jest.isolateModules(() => {
    try {
      require('ioredis-mock-streams/jest');
    } catch (e) {
      thrown = e;
    }
  });
} finally {
  HOOKS.forEach((name, i) => (g[name] = saved[i]));
}

it("throws a StreamsMockError naming setupFilesAfterEnv when jest's test hooks do not exist yet (setupFiles)", () => {
  expect((thrown as Error | undefined)?.name).toBe('StreamsMockError');
  expect((thrown as Error).message).toBe(
    "[ioredis-mock-streams] 'ioredis-mock-streams/jest' ran before jest's beforeEach/afterEach exist (a setupFiles entry?): keyspaces, clocks and " +
      "clients would not be reset between tests; put it in setupFilesAfterEnv: ['ioredis-mock-streams/jest'] in the jest config",
  );
});

export {};
