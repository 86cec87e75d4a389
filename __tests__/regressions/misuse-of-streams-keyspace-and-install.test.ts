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

  // ioredis-mock gives each instance its command methods in its constructor: a client made before
  // installStreams() keeps ioredis-mock's own emulators (README, installStreams); what reaches the
  // package with it says so
  it('streamsKeyspace() of a client made before installStreams() ran on its class says so and names the fix', () => {
    let early: any;
    let pkg: any;
    jest.isolateModules(() => {
      const Mock = require('@ioredis-mock-streams/mock-runtime');
      early = new Mock({ port: 52_811 });
      pkg = require('ioredis-mock-streams');
    });
    const message =
      "[ioredis-mock-streams] this client was not set up by installStreams(): it was made before installStreams() ran on its class, or it is not an ioredis-mock client. Make clients after installStreams(RedisMock), or use this package's default export (its class has the commands already)";
    let thrown: any;
    try {
      pkg.streamsKeyspace(early);
    } catch (err) {
      thrown = err;
    }
    // (the isolated registry has copies of the classes: the name, not instanceof)
    expect(thrown?.name).toBe('StreamsMockError');
    expect(thrown?.message).toBe(message);
    early.disconnect();
  });
});
