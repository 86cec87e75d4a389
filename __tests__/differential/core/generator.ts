/**
 * Seeded random commands over the core types (strings, keys, hashes, lists, sets, sorted sets)
 * for the differential fuzzer: few keys of mixed types, edge values (empty, negative, ±2^63,
 * inf/nan, non-UTF-8 bytes, spaces), wrong arities. Every argument is a byte string.
 */
import { mulberry32 } from '../differential';

export type Family = 'strings' | 'keys' | 'hashes' | 'lists' | 'sets' | 'zsets';
export const FAMILIES: readonly Family[] = ['strings', 'keys', 'hashes', 'lists', 'sets', 'zsets'];

export class Rng {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  some<T>(n: number, f: () => T): T[] {
    return Array.from({ length: n }, f);
  }
}

/** Keys: a few plain, one binary (invalid UTF-8), one hash-tagged. */
export const KEYS = ['a', 'b', 'c', 'k\xff', '{t}d', 'e'];
const VALUES = ['', 'v', 'hello', '0', '1', '-1', '10', '007', ' 1', '1 ', '3.5', '-0', '1e3', '0x10', 'inf', '-inf', 'nan',
  '9223372036854775807', '-9223372036854775808', '9223372036854775808', '\xff\x00\xc3\xa9', '\xc3\xbf\xc3\xbe\xe2\x82\xac', 'x'.repeat(45), '12345678901234567890'];
const INTS = ['0', '1', '-1', '2', '3', '-3', '7', '100', '-100', '9223372036854775807', '-9223372036854775808', '9223372036854775808', 'x', '', '1.5', ' 2'];
const SMALL = ['0', '1', '-1', '2', '3', '-2', '5', '10', '-10', '100'];
const FLOATS = ['0', '1', '-1', '1.5', '-2.25', '0.1', '1e3', '-0', 'inf', '-inf', '+inf', 'nan', 'x', '', '3', '1e400', '5.0e-1'];
const FIELDS = ['f', 'g', 'h', '', '\xff', '__proto__', 'f2', 'a'];
const MEMBERS = ['1', '2', '3', '10', '-5', 'a', 'b', 'c', '', '\xff', 'zz', '007'];
const TTLS = ['0', '-1', '100000', '200000', '9223372036854775807', '-9223372036854775808', '9223372036854775', '92233720368547758', 'x', '1.5'];
const LEX = ['-', '+', '[a', '(a', '[b', '(c', '[\xff', 'a', '[', '(', '[1', '(zz'];
const SCORES = ['-inf', '+inf', '0', '1', '(1', '2', '(2', '-1', '5', '(5', '10', 'x', '(', 'inf', '1.5'];

export class Generator {
  constructor(private readonly r: Rng, private readonly families: readonly Family[]) {}

  key(): string {
    return this.r.pick(KEYS);
  }
  keys(min = 1, max = 3): string[] {
    return this.r.some(this.r.int(min, max), () => this.key());
  }
  val(): string {
    return this.r.pick(VALUES);
  }
  int(): string {
    return this.r.chance(0.7) ? this.r.pick(SMALL) : this.r.pick(INTS);
  }
  ttl(): string {
    return this.r.pick(TTLS);
  }
  field(): string {
    return this.r.pick(FIELDS);
  }
  member(): string {
    return this.r.pick(MEMBERS);
  }
  score(): string {
    return this.r.chance(0.8) ? this.r.pick(['0', '1', '2', '-1', '1.5', '3', '10', '-inf', '+inf', '-0', '100']) : this.r.pick(FLOATS);
  }

  /** One command (argv, name first), or a short MULTI … EXEC block. */
  next(): string[][] {
    if (this.r.chance(0.03)) {
      const body = this.r.some(this.r.int(1, 3), () => this.command());
      return [['MULTI'], ...body, ['EXEC']];
    }
    return [this.command()];
  }

  command(): string[] {
    const family = this.r.pick(this.families);
    const cmd = family === 'keys' ? this.keysFamily() : this[family]();
    // now and then a wrong arity: one argument dropped
    // (not SPOP: without its count it pops a random member, and the states would part)
    if (this.r.chance(0.02) && cmd.length > 1 && cmd[0] !== 'SPOP') cmd.pop();
    return cmd;
  }

  private opt(p: number, ...args: string[]): string[] {
    return this.r.chance(p) ? args : [];
  }

  strings(): string[] {
    const r = this.r;
    const k = this.key();
    switch (r.int(0, 24)) {
      case 0: case 1: return ['GET', k];
      case 2: case 3: {
        const opts: string[] = [];
        for (let i = r.int(0, 3); i > 0; i--) {
          const o = r.pick(['NX', 'XX', 'GET', 'EX', 'PX', 'EXAT', 'PXAT', 'KEEPTTL', 'nx', 'get', 'EX']);
          opts.push(o);
          if (/^(EX|PX|EXAT|PXAT)$/i.test(o)) opts.push(this.ttl());
        }
        return ['SET', k, this.val(), ...opts];
      }
      case 4: return ['SETNX', k, this.val()];
      case 5: return [r.pick(['SETEX', 'PSETEX']), k, this.ttl(), this.val()];
      case 6: return ['GETEX', k, ...r.pick([[], ['PERSIST'], ['EX', this.ttl()], ['PX', this.ttl()], ['EXAT', this.ttl()], ['PXAT', this.ttl()], ['EX'], ['FOO']])];
      case 7: return [r.pick(['GETDEL', 'GETSET']), k, ...(r.chance(0.5) ? [this.val()] : [])];
      case 8: return [r.pick(['MSET', 'MSETNX']), ...this.keys(1, 3).flatMap((x) => [x, this.val()])];
      case 9: return ['MGET', ...this.keys(1, 4)];
      case 10: case 11: return ['APPEND', k, this.val()];
      case 12: return ['STRLEN', k];
      case 13: {
        // at 536870911 a value of 2 bytes or more passes proto-max-bulk-len (an error on both sides);
        // one byte would make a 512 MB string, beyond a JavaScript string (a library limit)
        const offset = r.pick(['0', '1', '3', '10', '-1', '536870912', '536870911', 'x']);
        const value = this.val();
        return ['SETRANGE', k, offset, offset === '536870911' ? `xx${value}` : value];
      }
      case 14: case 15: return [r.pick(['GETRANGE', 'SUBSTR']), k, this.int(), this.int()];
      case 16: return [r.pick(['INCR', 'DECR']), k];
      case 17: case 18: return [r.pick(['INCRBY', 'DECRBY']), k, this.int()];
      case 19: return ['INCRBYFLOAT', k, r.pick(FLOATS)];
      case 20: return ['LCS', k, this.key(), ...r.pick([[], ['LEN'], ['IDX'], ['IDX', 'WITHMATCHLEN'], ['IDX', 'MINMATCHLEN', this.int()], ['LEN', 'IDX']])];
      case 21: return ['SET', k, r.pick(['1', '123', 'abc', '-7', '3.0', '9223372036854775807'])];
      case 22: return ['OBJECT', 'ENCODING', k];
      default: return ['GET', k];
    }
  }

  keysFamily(): string[] {
    const r = this.r;
    const k = this.key();
    switch (r.int(0, 17)) {
      case 0: return [r.pick(['DEL', 'UNLINK']), ...this.keys(1, 3)];
      case 1: return [r.pick(['EXISTS', 'TOUCH']), ...this.keys(1, 3)];
      case 2: case 3: return ['TYPE', k];
      case 4: return [r.pick(['RENAME', 'RENAMENX']), k, this.key()];
      case 5: case 6: return [r.pick(['EXPIRE', 'PEXPIRE', 'EXPIREAT', 'PEXPIREAT']), k, this.ttl(), ...this.opt(0.4, r.pick(['NX', 'XX', 'GT', 'LT', 'nx', 'FOO'])), ...this.opt(0.1, r.pick(['NX', 'XX', 'GT', 'LT']))];
      case 7: case 8: return [r.pick(['TTL', 'PTTL', 'EXPIRETIME', 'PEXPIRETIME']), k];
      case 9: return ['PERSIST', k];
      case 10: case 11: return ['OBJECT', 'ENCODING', k];
      case 12: return ['DBSIZE'];
      case 13: return ['KEYS', r.pick(['*', 'a*', '?', '[a-c]', 'k*', '{t}*', '*\xff'])];
      case 14: return ['SCAN', '0', 'COUNT', '1000', ...this.opt(0.5, 'MATCH', r.pick(['*', '[ab]', 'k?'])), ...this.opt(0.4, 'TYPE', r.pick(['string', 'hash', 'list', 'set', 'zset', 'stream', 'foo']))];
      case 15: return ['COPY', k, this.key(), ...this.opt(0.5, 'REPLACE')];
      case 16: return ['OBJECT', r.pick(['REFCOUNT', 'FOO']), k];
      default: return ['EXISTS', k];
    }
  }

  hashes(): string[] {
    const r = this.r;
    const k = this.key();
    switch (r.int(0, 20)) {
      case 0: case 1: case 2: return ['HSET', k, ...r.some(r.int(1, 3), () => [this.field(), this.val()]).flat()];
      case 3: return ['HSETNX', k, this.field(), this.val()];
      case 4: return ['HMSET', k, ...r.some(r.int(1, 2), () => [this.field(), this.val()]).flat()];
      case 5: case 6: return ['HGET', k, this.field()];
      case 7: return ['HMGET', k, ...r.some(r.int(1, 3), () => this.field())];
      case 8: return ['HGETALL', k];
      case 9: return ['HDEL', k, ...r.some(r.int(1, 3), () => this.field())];
      case 10: return [r.pick(['HLEN', 'HKEYS', 'HVALS']), k];
      case 11: return ['HEXISTS', k, this.field()];
      case 12: return ['HSTRLEN', k, this.field()];
      case 13: case 14: return ['HINCRBY', k, this.field(), this.int()];
      case 15: return ['HINCRBYFLOAT', k, this.field(), r.pick(FLOATS)];
      case 16: return ['HRANDFIELD', k, ...this.opt(0.7, r.pick(['1', '3', '-3', '0', '100', '-100', 'x', '-9223372036854775808', '9223372036854775807'])), ...this.opt(0.3, 'WITHVALUES')];
      case 17: return ['HSCAN', k, '0', 'COUNT', '1000', ...this.opt(0.4, 'MATCH', r.pick(['*', 'f*', '?']))];
      case 18: return ['OBJECT', 'ENCODING', k];
      default: return ['HGET', k, this.field()];
    }
  }

  lists(): string[] {
    const r = this.r;
    const k = this.key();
    switch (r.int(0, 22)) {
      case 0: case 1: case 2: return [r.pick(['LPUSH', 'RPUSH']), k, ...r.some(r.int(1, 3), () => this.val())];
      case 3: return [r.pick(['LPUSHX', 'RPUSHX']), k, ...r.some(r.int(1, 3), () => this.val())];
      case 4: case 5: return [r.pick(['LPOP', 'RPOP']), k, ...this.opt(0.5, r.pick(['0', '1', '2', '5', '-1', 'x']))];
      case 6: return ['LLEN', k];
      case 7: return ['LINDEX', k, this.int()];
      case 8: return ['LSET', k, this.int(), this.val()];
      case 9: case 10: return ['LRANGE', k, this.int(), this.int()];
      case 11: return ['LTRIM', k, this.int(), this.int()];
      case 12: return ['LREM', k, this.int(), this.val()];
      case 13: return ['LINSERT', k, r.pick(['BEFORE', 'AFTER', 'before', 'x']), this.val(), this.val()];
      case 14: return ['LPOS', k, this.val(), ...this.opt(0.4, 'RANK', this.int()), ...this.opt(0.4, 'COUNT', this.int()), ...this.opt(0.3, 'MAXLEN', this.int())];
      case 15: return ['LMOVE', k, this.key(), r.pick(['LEFT', 'RIGHT', 'left']), r.pick(['LEFT', 'RIGHT', 'x'])];
      case 16: return ['RPOPLPUSH', k, this.key()];
      case 17: return ['LMPOP', r.pick(['1', '2', '0', '-1']), ...this.keys(1, 2), r.pick(['LEFT', 'RIGHT', 'x']), ...this.opt(0.5, 'COUNT', r.pick(['1', '2', '0', '-1', '10']))];
      case 18: return ['OBJECT', 'ENCODING', k];
      case 19: return ['BLPOP', k, '0.01'];
      default: return ['LRANGE', k, '0', '-1'];
    }
  }

  sets(): string[] {
    const r = this.r;
    const k = this.key();
    switch (r.int(0, 20)) {
      case 0: case 1: case 2: return ['SADD', k, ...r.some(r.int(1, 4), () => this.member())];
      case 3: return ['SREM', k, ...r.some(r.int(1, 3), () => this.member())];
      case 4: return ['SCARD', k];
      case 5: return ['SISMEMBER', k, this.member()];
      case 6: return ['SMISMEMBER', k, ...r.some(r.int(1, 3), () => this.member())];
      case 7: case 8: return ['SMEMBERS', k];
      case 9: return ['SMOVE', k, this.key(), this.member()];
      case 10: return ['SPOP', k, r.pick(['100', '1000', '0', '-1', 'x'])];
      case 11: return ['SRANDMEMBER', k, ...this.opt(0.8, r.pick(['1', '3', '-3', '0', '100', '-100', 'x', '-9223372036854775808', '9223372036854775807']))];
      case 12: return [r.pick(['SINTER', 'SUNION', 'SDIFF']), ...this.keys(1, 3)];
      case 13: return [r.pick(['SINTERSTORE', 'SUNIONSTORE', 'SDIFFSTORE']), this.key(), ...this.keys(1, 3)];
      case 14: return ['SINTERCARD', r.pick(['1', '2', '3', '0', '-1', 'x']), ...this.keys(1, 2), ...this.opt(0.4, 'LIMIT', r.pick(['0', '1', '2', '-1', 'x']))];
      case 15: return ['SSCAN', k, '0', 'COUNT', '1000', ...this.opt(0.4, 'MATCH', r.pick(['*', '1*', '?']))];
      case 16: case 17: return ['OBJECT', 'ENCODING', k];
      default: return ['SCARD', k];
    }
  }

  zsets(): string[] {
    const r = this.r;
    const k = this.key();
    switch (r.int(0, 30)) {
      case 0: case 1: case 2: {
        const flags = r.some(r.int(0, 2), () => r.pick(['NX', 'XX', 'GT', 'LT', 'CH', 'INCR']));
        const n = flags.includes('INCR') && r.chance(0.8) ? 1 : r.int(1, 3);
        return ['ZADD', k, ...flags, ...r.some(n, () => [this.score(), this.member()]).flat()];
      }
      case 3: return ['ZINCRBY', k, this.score(), this.member()];
      case 4: return ['ZCARD', k];
      case 5: return ['ZSCORE', k, this.member()];
      case 6: return ['ZMSCORE', k, ...r.some(r.int(1, 3), () => this.member())];
      case 7: return [r.pick(['ZRANK', 'ZREVRANK']), k, this.member(), ...this.opt(0.3, 'WITHSCORE')];
      case 8: return ['ZCOUNT', k, r.pick(SCORES), r.pick(SCORES)];
      case 9: return ['ZLEXCOUNT', k, r.pick(LEX), r.pick(LEX)];
      case 10: case 11: return ['ZRANGE', k, this.int(), this.int(), ...this.opt(0.4, 'WITHSCORES'), ...this.opt(0.2, 'REV')];
      case 12: return ['ZRANGE', k, r.pick(SCORES), r.pick(SCORES), 'BYSCORE', ...this.opt(0.3, 'REV'), ...this.opt(0.3, 'LIMIT', this.int(), this.int()), ...this.opt(0.3, 'WITHSCORES')];
      case 13: return ['ZRANGE', k, r.pick(LEX), r.pick(LEX), 'BYLEX', ...this.opt(0.3, 'REV'), ...this.opt(0.3, 'LIMIT', this.int(), this.int())];
      case 14: return [r.pick(['ZRANGEBYSCORE', 'ZREVRANGEBYSCORE']), k, r.pick(SCORES), r.pick(SCORES), ...this.opt(0.4, 'WITHSCORES'), ...this.opt(0.3, 'LIMIT', this.int(), this.int())];
      case 15: return [r.pick(['ZRANGEBYLEX', 'ZREVRANGEBYLEX']), k, r.pick(LEX), r.pick(LEX), ...this.opt(0.3, 'LIMIT', this.int(), this.int())];
      case 16: return ['ZREVRANGE', k, this.int(), this.int(), ...this.opt(0.4, 'WITHSCORES')];
      case 17: return ['ZREM', k, ...r.some(r.int(1, 3), () => this.member())];
      case 18: return [r.pick(['ZREMRANGEBYRANK']), k, this.int(), this.int()];
      case 19: return ['ZREMRANGEBYSCORE', k, r.pick(SCORES), r.pick(SCORES)];
      case 20: return ['ZREMRANGEBYLEX', k, r.pick(LEX), r.pick(LEX)];
      case 21: return [r.pick(['ZPOPMIN', 'ZPOPMAX']), k, ...this.opt(0.6, r.pick(['0', '1', '2', '10', '-1', 'x']))];
      case 22: return ['ZMPOP', r.pick(['1', '2', '0']), ...this.keys(1, 2), r.pick(['MIN', 'MAX', 'x']), ...this.opt(0.5, 'COUNT', r.pick(['1', '3', '0', '-1']))];
      case 23: {
        const keys = this.keys(1, 3);
        return [r.pick(['ZUNIONSTORE', 'ZINTERSTORE', 'ZDIFFSTORE']), this.key(), String(keys.length), ...keys, ...this.opt(0.3, 'WEIGHTS', ...keys.map(() => r.pick(['1', '2', '-1', '0.5', 'x']))), ...this.opt(0.3, 'AGGREGATE', r.pick(['SUM', 'MIN', 'MAX', 'x']))];
      }
      case 24: {
        const keys = this.keys(1, 3);
        return [r.pick(['ZUNION', 'ZINTER', 'ZDIFF']), String(keys.length), ...keys, ...this.opt(0.4, 'WITHSCORES')];
      }
      case 25: return ['ZINTERCARD', r.pick(['1', '2', '0']), ...this.keys(1, 2), ...this.opt(0.3, 'LIMIT', r.pick(['0', '1', '-1']))];
      case 26: return ['ZRANDMEMBER', k, ...this.opt(0.7, r.pick(['1', '3', '-3', '0', '100', '-9223372036854775808'])), ...this.opt(0.3, 'WITHSCORES')];
      case 27: return ['ZSCAN', k, '0', 'COUNT', '1000'];
      case 28: return ['ZRANGESTORE', this.key(), k, this.int(), this.int()];
      case 29: return ['OBJECT', 'ENCODING', k];
      default: return ['ZRANGE', k, '0', '-1', 'WITHSCORES'];
    }
  }
}
