// module.register() hooks of ioredis-mock-streams/register: `ioredis` imported from outside this
// package resolves to this package's ESM entry (the fake).
const entry = new URL('./index.mjs', import.meta.url).href;
const own = new URL('..', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'ioredis' && !String(context.parentURL ?? '').startsWith(own)) {
    return { url: entry, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}
