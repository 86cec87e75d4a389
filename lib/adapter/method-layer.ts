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
  private readonly methods = new Map<string, unknown>();
  private committed = false;

  constructor(private readonly proto: object) {}

  /** Method `name` (the last definition wins). */
  define(name: string, fn: unknown): void {
    if (this.committed || Object.prototype.hasOwnProperty.call(this.proto, name)) {
      this.methods.delete(name);
      Object.defineProperty(this.proto, name, { value: fn, writable: true, configurable: true, enumerable: false });
    } else {
      this.methods.set(name, fn);
    }
  }

  /** Put the collected methods into the prototype chain (once; later definitions go to the prototype). */
  commit(): void {
    if (this.committed) return;
    this.committed = true;
    const layer: Record<string, unknown> = {};
    for (const [name, fn] of this.methods) layer[name] = fn;
    Object.setPrototypeOf(layer, Object.getPrototypeOf(this.proto));
    Object.setPrototypeOf(this.proto, layer);
  }
}
