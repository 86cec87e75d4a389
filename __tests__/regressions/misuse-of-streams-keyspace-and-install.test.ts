/**
 * Library misuse answers a StreamsMockError that says the fix: `streamsKeyspace(null)` and
 * `installStreams({})` used to throw a bare TypeError from inside the package ("Cannot read
 * properties of null …", found by the fresh-user trial).
 */
import { StreamsMockError, installStreams, resetAllKeyspaces, streamsKeyspace } from 'ioredis-mock-streams';

describe('misuse of streamsKeyspace() and installStreams()', () => {
  it.each([
    [null, 'null'],
    [undefined, 'undefined'],
    ['localhost', 'a string'],
  ])('streamsKeyspace(%p) throws StreamsMockError naming what it takes', (value, named) => {
    expect(() => streamsKeyspace(value as never)).toThrow(StreamsMockError);
    expect(() => streamsKeyspace(value as never)).toThrow(
      `[ioredis-mock-streams] streamsKeyspace() takes a client of the fake (new Redis() from ioredis-mock-streams) or its Cluster, not ${named}`,
    );
  });

  it.each([
    [{}, 'an object'],
    [undefined, 'undefined'],
  ])('installStreams(%p) throws StreamsMockError naming the class it takes', (value, named) => {
    expect(() => installStreams(value)).toThrow(StreamsMockError);
    expect(() => installStreams(value)).toThrow(`installStreams() takes the class ioredis-mock exports (require('ioredis-mock')), not ${named}`);
  });

  it.each([
    [{ keepclocks: true }, "resetAllKeyspaces(options): unknown option 'keepclocks' (the one option is keepClocks)"],
    [{ keepClocks: 'yes' }, 'resetAllKeyspaces(options): keepClocks must be true or false, got a string'],
    [null, 'resetAllKeyspaces(options): options must be an object such as { keepClocks: true }, got null'],
  ])('resetAllKeyspaces(%p) throws StreamsMockError naming its one option (a misspelt one was ignored: the clocks were reset)', (value, message) => {
    expect(() => resetAllKeyspaces(value as never)).toThrow(StreamsMockError);
    expect(() => resetAllKeyspaces(value as never)).toThrow(message);
  });
});
