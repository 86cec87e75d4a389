/**
 * Many methods for a class's prototype, added in one step. Adding ~1500 properties one by one to
 * a prototype that is already in use costs V8 ~25 µs each (every addition invalidates the
 * prototype chains that depend on it): ~40 ms per install, paid by every jest test file. So the
 * methods are collected into a fresh plain object (assignments to an object that is not yet a
 * prototype are cheap: ~1 ms for all) that is then inserted between the prototype and its parent.
 * The command methods are thus plain assigned properties of a prototype, as ioredis's Commander
 * assigns its command methods (enumerable, writable, configurable). A name the prototype itself
 * has (an ioredis-mock method being replaced) is defined on the prototype directly, non-enumerable,
 * so it still wins.
 */
export class MethodLayer {
  /** The methods collected so far: a plain object that becomes the prototype's parent. */
  private readonly layer: Record<string, unknown> = {};
  private committed = false;

  constructor(private readonly proto: object) {}

  /** Method `name` (the last definition wins). */
  define(name: string, fn: unknown): void {
    if (this.committed || Object.prototype.hasOwnProperty.call(this.proto, name)) {
      delete this.layer[name];
      Object.defineProperty(this.proto, name, { value: fn, writable: true, configurable: true, enumerable: false });
    } else {
      this.layer[name] = fn;
    }
  }

  /** Put the collected methods into the prototype chain (once; later definitions go to the prototype). */
  commit(): void {
    if (this.committed) return;
    this.committed = true;
    Object.setPrototypeOf(this.layer, Object.getPrototypeOf(this.proto));
    Object.setPrototypeOf(this.proto, this.layer);
  }
}
