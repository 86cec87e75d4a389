/**
 * Command specs whose module loads on first use: a spec stands in the table with its name,
 * arity and flags, and its `run`/`subcommands` load the module (once) the first time they are
 * read. Used by the stream command table (./index.ts) and the engine's connection command table
 * (../engine/commands/index.ts), so a test file pays only for the modules it uses.
 */

/**
 * The stand-in: the head's fields as its own, `run`/`subcommands` as getters of the class (one
 * shape for every spec; ~300 of them are made in every test file, so no per-object accessors),
 * replaced on first read by the loaded spec's values as own enumerable properties.
 */
class LazySpec {
  declare readonly name: string; // one of the head's fields, set in the constructor
  readonly #load: () => { specs: readonly { readonly name: string; readonly run?: unknown; readonly subcommands?: unknown }[] };

  constructor(head: object, load: () => { specs: readonly { readonly name: string; readonly run?: unknown; readonly subcommands?: unknown }[] }) {
    this.#load = load;
    Object.assign(this, head);
  }

  private resolve(): this {
    const real = this.#load().specs.find((s) => s.name === this.name);
    if (!real) throw new Error(`[ioredis-mock-streams] command module for ${this.name} has no spec`);
    Object.defineProperties(this, {
      run: { value: real.run, enumerable: true },
      subcommands: { value: real.subcommands, enumerable: true },
    });
    return this;
  }

  get run(): unknown {
    return (this.resolve() as unknown as { run: unknown }).run;
  }

  get subcommands(): unknown {
    return (this.resolve() as unknown as { subcommands: unknown }).subcommands;
  }
}

/**
 * A spec with `head`'s fields whose `run` and `subcommands` come from `load()`'s spec of the
 * same name on first read.
 * @throws Error (a packaging defect) when the loaded module has no spec of that name
 */
export function lazySpec<S extends { readonly name: string; readonly run?: unknown; readonly subcommands?: unknown }>(
  head: Omit<S, 'run' | 'subcommands'>,
  load: () => { specs: readonly S[] },
): S {
  return new LazySpec(head, load) as unknown as S;
}
