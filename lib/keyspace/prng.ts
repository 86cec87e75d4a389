/** The seeded random generator of each keyspace (Db.random): lib/model/prng.ts. */
import { Prng } from '../model/prng';

const perOwner = new WeakMap<object, Prng>();

/** The generator of `owner` (a keyspace), created on first use with the fixed seed. */
export function prngOf(owner: object): Prng {
  let p = perOwner.get(owner);
  if (!p) perOwner.set(owner, (p = new Prng()));
  return p;
}
