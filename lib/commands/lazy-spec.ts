/**
 * Command specs whose module loads on first use: a spec stands in the table with its name,
 * arity and flags, and its `run`/`subcommands` load the module (once) the first time they are
 * read. Used by the stream command table (./index.ts) and the engine's connection command table
 * (../engine/commands/index.ts), so a test file pays only for the modules it uses.
 */

/**
 * A spec with `head`'s fields whose `run` and `subcommands` come from `load()`'s spec of the
 * same name on first read.
 * @throws Error (a packaging defect) when the loaded module has no spec of that name
 */
export function lazySpec<S extends { readonly name: string; readonly run?: unknown; readonly subcommands?: unknown }>(
  head: Omit<S, 'run' | 'subcommands'>,
  load: () => { specs: readonly S[] },
): S {
  const spec = { ...head } as S;
  const resolve = (): S => {
    const real = load().specs.find((s) => s.name === head.name);
    if (!real) throw new Error(`[ioredis-mock-streams] command module for ${head.name} has no spec`);
    Object.defineProperties(spec, {
      run: { value: real.run, enumerable: true },
      subcommands: { value: real.subcommands, enumerable: true },
    });
    return spec;
  };
  Object.defineProperties(spec, {
    run: { get: () => resolve().run, enumerable: true, configurable: true },
    subcommands: { get: () => resolve().subcommands, enumerable: true, configurable: true },
  });
  return spec;
}
