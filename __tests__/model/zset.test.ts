import { RedisZset } from '../../lib/model/zset';

const byRedisOrder = (a: readonly [string, number], b: readonly [string, number]) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

describe('RedisZset (skiplist with spans)', () => {
  it('keeps Redis order, ranks and rank access through 20 000 random adds, updates and deletes', () => {
    const z = new RedisZset();
    z.listpack = false;
    const ref = new Map<string, number>();
    let seed = 1;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
    for (let i = 0; i < 20000; i++) {
      const m = `m\xff${rnd() % 500}`;
      if (rnd() % 3 < 2) {
        const s = (rnd() % 50) - 25;
        z.set(m, s);
        ref.set(m, s);
      } else expect(z.delete(m)).toBe(ref.delete(m));
      if (i % 997 !== 0) continue;
      const sorted = [...ref].sort(byRedisOrder);
      expect([...z.entries()]).toEqual(sorted);
      sorted.forEach(([member], r) => {
        expect(z.rank(member)).toBe(r);
        expect(z.rank(member, true)).toBe(sorted.length - 1 - r);
        expect(z.at(r)?.[0]).toBe(member);
      });
      expect([...z.range(3, 10, true)]).toEqual(sorted.slice(3, 11).reverse());
      expect(z.countBefore((s) => s < 0)).toBe(sorted.filter((e) => e[1] < 0).length);
    }
    expect(z.size).toBe(ref.size);
  });

  it('orders equal scores by member bytes (memcmp, then length)', () => {
    const z = new RedisZset();
    for (const m of ['b', 'a\xff', 'a', 'a\x00', '']) z.set(m, 1);
    expect([...z.entries()].map(([m]) => m)).toEqual(['', 'a', 'a\x00', 'a\xff', 'b']);
  });

  it('stores -0 as 0 while a listpack, keeps -0 as a skiplist; 0 and -0 are equal (no update)', () => {
    const z = new RedisZset();
    z.set('a', -0);
    expect(Object.is(z.score('a'), 0)).toBe(true);
    z.listpack = false;
    z.set('b', -0);
    expect(Object.is(z.score('b'), -0)).toBe(true);
    expect(z.set('b', 0)).toBe(false);
    expect(Object.is(z.score('b'), -0)).toBe(true);
    expect(z.encoding()).toBe('skiplist');
  });
});
