/**
 * RedisHash.pairs(): HGETALL's snapshot of a small hash is kept between writes and handed out
 * again; every kind of write drops it (a reply that holds the old one keeps what it saw).
 */
import { RedisHash } from '../../lib/model/hash';

function hashOf(...fv: string[]): RedisHash {
  const h = new RedisHash();
  for (let i = 0; i < fv.length; i += 2) h.set(fv[i], fv[i + 1]);
  return h;
}

describe('RedisHash.pairs (HGETALL snapshot)', () => {
  it('hands out the same snapshot until a write, and knows when every byte is ASCII', () => {
    const h = hashOf('a', '1', 'b', '2');
    const first = h.pairs();
    expect(first).toEqual(['a', '1', 'b', '2']);
    expect(h.pairs()).toBe(first);
    expect(h.pairsAscii).toBe(true);
    h.set('c', '\xc3\xa9'); // é as UTF-8 bytes
    expect(h.pairsAscii).toBe(false); // nothing kept: not known
    expect(h.pairs()).toEqual(['a', '1', 'b', '2', 'c', '\xc3\xa9']);
    expect(h.pairsAscii).toBe(false);
    expect(first).toEqual(['a', '1', 'b', '2']); // the old snapshot is not changed by the write
  });

  it.each([
    ['a new field', (h: RedisHash) => h.set('z', '9'), ['a', '1', 'b', '2', 'c', '3', 'z', '9']],
    ['a new value of a field', (h: RedisHash) => h.set('b', 'x'), ['a', '1', 'b', 'x', 'c', '3']],
    ['HINCRBY keeping the TTL', (h: RedisHash) => h.set('b', '7', true), ['a', '1', 'b', '7', 'c', '3']],
    ['a removed field', (h: RedisHash) => h.delete('b'), ['a', '1', 'c', '3']],
    ['a TTL that moves the field (listpackex order)', (h: RedisHash) => h.setExpireAt('c', 500), ['c', '3', 'a', '1', 'b', '2']],
    ['a field expired on the clock', (h: RedisHash) => (h.setExpireAt('a', 100), h.pairs(), h.expireDue(101)), ['b', '2', 'c', '3']],
  ])('gives a new snapshot after %s', (_what, write, after) => {
    const h = hashOf('a', '1', 'b', '2', 'c', '3');
    const before = h.pairs();
    const copy = [...before];
    write(h);
    expect(h.pairs()).toEqual(after);
    expect(h.pairs()).not.toBe(before);
    expect(before).toEqual(copy);
  });

  it('moves a persisted field to the end and drops the snapshot', () => {
    const h = hashOf('a', '1', 'b', '2');
    h.setExpireAt('b', 500);
    const before = h.pairs();
    expect(before).toEqual(['b', '2', 'a', '1']);
    expect(h.persist('b')).toBe(true);
    expect(h.pairs()).toEqual(['a', '1', 'b', '2']);
  });

  it('keeps no snapshot of a hash over 128 fields (a new array per call)', () => {
    const fv: string[] = [];
    for (let i = 0; i < 129; i++) fv.push(`f${i}`, 'v');
    const h = hashOf(...fv);
    const first = h.pairs();
    expect(first).toHaveLength(258);
    expect(h.pairs()).not.toBe(first);
    expect(h.pairsAscii).toBe(false);
    h.delete('f0');
    expect(h.pairs()).toHaveLength(256);
    expect(h.pairs()).toBe(h.pairs()); // 128 fields: kept again
  });
});
