/**
 * A small seeded pseudo-random generator (xoshiro128**) for the commands whose Redis reply is
 * random (SPOP, SRANDMEMBER …): one per keyspace, so a test run replays the same choices, while
 * the choices stay uniform. Redis's own choices (random(), dict fair sampling) are not
 * reproducible, so no test may depend on which member is picked — only on how many, and that
 * they are members.
 */
export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed = 0x9e3779b9) {
    // splitmix32 to spread the seed over the four words
    let s = seed >>> 0;
    const next = (): number => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next() | 1;
  }

  /** The next 32 random bits as an unsigned integer. */
  next32(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5) >>> 0, 7), 9) >>> 0;
    const t = (this.b << 9) >>> 0;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d >>> 0, 11);
    this.a >>>= 0;
    this.b >>>= 0;
    this.c >>>= 0;
    return result;
  }

  /** A double in [0, 1) with 53 random bits. */
  random(): number {
    return ((this.next32() >>> 5) * 67108864 + (this.next32() >>> 6)) / 9007199254740992;
  }

  /** An integer in [0, n) for 1 ≤ n ≤ 2^53. */
  below(n: number): number {
    return Math.floor(this.random() * n);
  }
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

