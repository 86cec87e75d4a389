/**
 * The per-test behaviour (./test-lifecycle.ts) registered with the hooks of the test file being
 * loaded, from jest's globals (`beforeEach`, `afterEach`, `afterAll`, `expect.getState()`); vitest
 * with `globals: true` has the same globals. Used by the jest setup file and by
 * `useTestLifecycle()` (the one-line `jest.mock` route).
 */
import { installTestLifecycle } from './test-lifecycle';

const INSTALLED = Symbol.for('ioredis-mock-streams.lifecycleInstalled');

declare const beforeEach: ((fn: () => void) => void) | undefined;
declare const afterEach: ((fn: () => void) => void) | undefined;
declare const afterAll: ((fn: () => void) => void) | undefined;
declare const expect: { getState(): { currentTestName?: string } } | undefined;

/** @returns false when there are no `beforeEach`/`afterEach` globals (not inside a test file of jest or vitest with globals) */
export function installJestLifecycle(): boolean {
  if (typeof beforeEach !== 'function' || typeof afterEach !== 'function') return false;
  // Once per test file (the setup file and useTestLifecycle() both call this): jest gives each
  // test file fresh globals, so the marker on its `beforeEach` tells files apart.
  const marked = beforeEach as unknown as { [INSTALLED]?: boolean };
  if (marked[INSTALLED]) return true;
  marked[INSTALLED] = true;
  installTestLifecycle({
    beforeEach: (fn) => beforeEach(() => fn()),
    afterEach: (fn) => afterEach(() => fn()),
    afterAll: typeof afterAll === 'function' ? (fn) => afterAll(fn) : undefined,
    testName: () => (typeof expect !== 'undefined' ? expect.getState().currentTestName : undefined),
  });
  return true;
}
