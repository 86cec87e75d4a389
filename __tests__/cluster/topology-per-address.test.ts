/**
 * The emulated cluster of an address (issue 24, found by a new user): a later Cluster on the same
 * seed port with another `masters` got the first one's topology, even after it was closed and in
 * a later test. Now another `masters` rebuilds it; no `masters` (duplicate(), a second client)
 * joins what is there.
 */
import { Cluster } from 'ioredis-mock-streams';

async function slotsOf(options: Record<string, unknown>): Promise<number> {
  const c = new (Cluster as any)([{ host: '127.0.0.1', port: 24_100 }], options);
  const slots = (await c.cluster('SLOTS')) as unknown[];
  c.disconnect();
  return slots.length;
}

it('gives a Cluster the number of masters it asks for, after one of another size on the same port', async () => {
  expect(await slotsOf({ masters: 1 })).toBe(1);
  expect(await slotsOf({ masters: 5 })).toBe(5);
  expect(await slotsOf({ masters: 3 })).toBe(3);
});

it('joins the cluster already at the address when no masters option is given', async () => {
  expect(await slotsOf({ masters: 2 })).toBe(2);
  expect(await slotsOf({})).toBe(2);
});
