// ESM entry: re-exports the CommonJS build (one module instance for both worlds).
import entry from '../dist/cjs-entry.js';

export default entry;
export const {
  Redis,
  ReplyError,
  print,
  installStreams,
  createFakeClock,
  FakeClock,
  globalClock,
  realClock,
  StreamsMockError,
  REDIS_VERSIONS,
  DEFAULT_REDIS_VERSION,
  FEATURE_SINCE,
  streamsKeyspace,
  resetAllKeyspaces,
  setReplyTiming,
  useTestLifecycle,
} = entry;

// ioredis's classes (Command, ScanStream, …; of the project's ioredis): ESM named exports cannot be
// getters, and loading them here would double this entry's import time, so each is a stand-in
// that loads the class on first use and forwards to it (`new`, `extends`, statics, instanceof).
// The CommonJS entry (`require`) exports the classes themselves, also loaded on first use.
// A class the project's ioredis lacks (WatchError and the maintenance timeouts before ioredis 6.1)
// forwards to `absent`: no error is an instance of it, and using it says why.
function lazyClass(name) {
  let real;
  const load = () => (real ??= entry[name] ?? absent(name));
  return new Proxy(function () {}, {
    get: (_, key) => Reflect.get(load(), key),
    set: (_, key, value) => Reflect.set(load(), key, value),
    has: (_, key) => Reflect.has(load(), key),
    apply: (_, self, args) => Reflect.apply(load(), self, args),
    construct: (_, args, newTarget) => Reflect.construct(load(), args, newTarget === proxyOf[name] ? load() : newTarget),
    getPrototypeOf: () => Reflect.getPrototypeOf(load()),
  });
}
function absent(name) {
  const fail = () => {
    throw new TypeError(`[ioredis-mock-streams] ${name}: your ioredis does not export this class (ioredis 6.1 does); the CommonJS entry gives undefined`);
  };
  return Object.defineProperty(function () { fail(); }, Symbol.hasInstance, { value: () => false });
}
const proxyOf = {};
const LAZY = ['Command', 'ScanStream', 'Pipeline', 'AbstractConnector', 'SentinelConnector', 'SentinelIterator', 'Cluster'];
// ioredis 6.1's error classes (MaxRetriesPerRequestError, …; absent from older ioredis)
LAZY.push('MaxRetriesPerRequestError', 'WatchError', 'CommandTimeoutDuringMaintenanceError', 'SocketTimeoutDuringMaintenanceError');
for (const name of LAZY) proxyOf[name] = lazyClass(name);
// Cluster: ioredis's Cluster class on in-process fake nodes (loads ioredis's cluster code on first use)
export const { Command, ScanStream, Pipeline, AbstractConnector, SentinelConnector, SentinelIterator, Cluster } = proxyOf;
export const { MaxRetriesPerRequestError, WatchError, CommandTimeoutDuringMaintenanceError, SocketTimeoutDuringMaintenanceError } = proxyOf;
/** ioredis's client defaults (a static of its class): loaded on first use. */
export const defaultOptions = new Proxy({}, {
  get: (_, key) => Reflect.get(entry.defaultOptions, key),
  has: (_, key) => Reflect.has(entry.defaultOptions, key),
  ownKeys: () => Reflect.ownKeys(entry.defaultOptions),
  getOwnPropertyDescriptor: (_, key) => {
    const d = Reflect.getOwnPropertyDescriptor(entry.defaultOptions, key);
    return d && { ...d, configurable: true };
  },
});
