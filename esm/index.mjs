// ESM entry: re-exports the CommonJS build (one module instance for both worlds).
import entry from '../dist/cjs-entry.js';

export default entry;
export const {
  Redis,
  Cluster,
  ReplyError,
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
} = entry;
