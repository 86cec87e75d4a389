/**
 * The clocks a keyspace accepts (`streams.clock`, `setClock`): see the rule in ./clock.ts.
 */
import { Clock, MAX_TIMER_DELAY, StreamsMockError, scheduleLong } from './clock';
import { FakeTimersClock, isFakeTimersClock, scheduleFar } from './fake-timers-long';

/** One adapter per fake-timers clock, so giving the same clock twice is the same clock. */
const adapted = new WeakMap<object, Clock>();

/** A @sinonjs/fake-timers clock as a keyspace clock: its `now`, its timers, long ones included. */
function fromFakeTimers(c: FakeTimersClock): Clock {
  let clock = adapted.get(c);
  if (!clock) {
    clock = {
      kind: 'custom',
      now: () => c.now,
      schedule(fn, ms) {
        const far = ms > MAX_TIMER_DELAY ? scheduleFar(c, fn, ms) : undefined;
        return far ?? scheduleLong((f, d) => c.setTimeout(f, d), (h) => c.clearTimeout(h), fn, ms);
      },
    };
    adapted.set(c, clock);
  }
  return clock;
}

/**
 * A user-given clock as a keyspace `Clock`: a `Clock` as it is, a fake-timers clock adapted.
 * @throws StreamsMockError for anything else, saying what is accepted
 */
export function acceptClock(input: unknown): Clock {
  if (typeof input === 'object' && input !== null) {
    const c = input as Partial<Clock>;
    if (typeof c.now === 'function' && typeof c.schedule === 'function') return input as Clock;
    if (isFakeTimersClock(input)) return fromFakeTimers(input);
  }
  throw new StreamsMockError(
    'clock must be createFakeClock(), globalClock, realClock, a @sinonjs/fake-timers clock (createClock() / install()), ' +
      'or an object with now() (ms since the epoch) and schedule(fn, ms) returning { cancel() }',
  );
}
