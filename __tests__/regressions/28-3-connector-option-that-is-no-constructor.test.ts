/**
 * ioredis's `Connector` option (a class it constructs with the options): a value that is no
 * constructor makes `new Redis(...)` throw `TypeError: this.options.Connector is not a
 * constructor` (checked on ioredis 5.11.1 and 6.x, @fastify/redis tests it); the fake constructed
 * the client. The fake opens no socket and constructs no Connector, so a class is accepted as is.
 */
import Redis from 'ioredis-mock-streams';
import type IORedis from 'ioredis';

const RealRedis = jest.requireActual('ioredis') as typeof IORedis & { default?: typeof IORedis };
const Real = (RealRedis.default ?? RealRedis) as unknown as new (options: object) => { disconnect(): void };
const Fake = Redis as unknown as new (options: object) => { disconnect(): void };

describe('new Redis({ Connector })', () => {
  it.each([
    ['a string', 'should_fail'],
    ['a number', 5],
    ['an arrow function', () => undefined],
  ])('throws the TypeError real ioredis throws for %s', (_, connector) => {
    const make = (C: new (options: object) => unknown) => () => new C({ Connector: connector, lazyConnect: true });
    expect(make(Real)).toThrow(new TypeError('this.options.Connector is not a constructor'));
    expect(make(Fake)).toThrow(new TypeError('this.options.Connector is not a constructor'));
  });

  it('takes a class, as ioredis does (the fake constructs none: it opens no socket)', async () => {
    class Connector {}
    const real = new Real({ Connector, lazyConnect: true });
    real.disconnect();
    const fake = new Fake({ Connector, port: 58_301 }) as unknown as IORedis;
    expect(await fake.set('k', 'v')).toBe('OK');
    fake.disconnect();
  });
});
