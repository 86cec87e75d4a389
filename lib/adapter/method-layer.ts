/**
 * Many methods for a class's prototype, added in one step. Adding ~1500 properties one by one to
 * a prototype that is already in use costs V8 ~25 µs each (every addition invalidates the
 * prototype chains that depend on it): ~40 ms per install, paid by every jest test file. So the
 * methods are collected and put on a new object created at once (`Object.create` with all the
 * descriptors, ~2 ms), inserted between the prototype and its parent. A name the prototype
 * itself has (an ioredis-mock method being replaced) is defined on the prototype directly, so it
 * still wins. Lookups see the same methods as if they had been defined on the prototype.
 */
export class MethodLayer {
  private readonly descriptors: PropertyDescriptorMap = Object.create(null);
  private committed = false;

  constructor(private readonly proto: object) {}

  /** A non-enumerable, writable, configurable method `name` (the last definition wins). */
  define(name: string, fn: unknown): void {
    const descriptor = { value: fn, writable: true, configurable: true, enumerable: false };
    if (this.committed || Object.prototype.hasOwnProperty.call(this.proto, name)) {
      delete this.descriptors[name];
      Object.defineProperty(this.proto, name, descriptor);
    } else {
      this.descriptors[name] = descriptor;
    }
  }

  /** Put the collected methods into the prototype chain (once; later definitions go to the prototype). */
  commit(): void {
    if (this.committed) return;
    this.committed = true;
    const layer = Object.create(Object.getPrototypeOf(this.proto), this.descriptors);
    Object.setPrototypeOf(this.proto, layer);
  }
}
