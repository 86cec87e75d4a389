/**
 * Seeded random commands over the core types (strings, keys, hashes, lists, sets, sorted sets)
 * for the differential fuzzer: few keys of mixed types, edge values (empty, negative, ±2^63,
 * inf/nan, non-UTF-8 bytes, spaces), wrong arities. Every argument is a byte string.
 */
import { mulberry32 } from '../differential';

export type Family = 'strings' | 'keys' | 'hashes' | 'lists' | 'sets' | 'zsets' | 'bitmaps' | 'hyperloglog' | 'geo' | 'expire';
export const FAMILIES: readonly Family[] = ['strings', 'keys', 'hashes', 'lists', 'sets', 'zsets', 'bitmaps', 'hyperloglog', 'geo', 'expire'];

/**
 * The key GEOSEARCHSTORE/GEORADIUS … STOREDIST write (not in KEYS: no other command reads it but
 * `ZRANGE dist 0 -1 WITHSCORES`, whose scores fuzz.ts compares rounded — a distance's last bit
 * differs between glibc's libm and JavaScript's Math; GEOPOS of it would decode that bit).
 */
export const DIST_KEY = 'dist';

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
/** Longer than zset-max-listpack-value / set-max-listpack-value (64): makes a skiplist / hashtable. */
const LONG_MEMBER = `m${'\xe9'.repeat(64)}`;

/** Commands walking a lex range of a sorted set (see Generator.next). */
/**
 * Commands a MULTI block of the generator never holds, as fuzz.ts prepares for them outside one:
 * - a lex range: over a skiplist whose scores differ, its answer depends on the skiplist's random
 *   levels (zslFirstInLexRange descends the levels; the walk stops at the first node out of
 *   range in score-then-member order), which no emulation can reproduce: fuzz.ts skips it then;
 * - DBSIZE: it counts keys already expired but not yet reclaimed (`SET k v EXAT 1` keeps the key
 *   until something looks it up or the active expire cycle, on wall time, samples it): fuzz.ts
 *   reclaims them on both sides first (SCAN looks every key up);
 * - OBJECT REFCOUNT: inside EXEC, a string SET by an earlier command of the same transaction is
 *   still held by the queued argv (refcount 2 on both servers; the fake answers 1: not emulated).
 */
export function notInTransaction(argv: readonly string[]): boolean {
  const name = argv[0].toUpperCase();
  return isLexRange(argv) || name === 'DBSIZE' || (name === 'OBJECT' && argv[1]?.toUpperCase() === 'REFCOUNT');
}

export function isLexRange(argv: readonly string[]): boolean {
  const name = argv[0].toUpperCase();
  return /^Z(REV)?RANGEBYLEX$|^ZLEXCOUNT$|^ZREMRANGEBYLEX$/.test(name) || (/^ZRANGE(STORE)?$/.test(name) && argv.some((a) => a.toUpperCase() === 'BYLEX'));
}
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
    return this.r.chance(0.01) ? LONG_MEMBER : this.r.pick(MEMBERS);
  }
  score(): string {
    return this.r.chance(0.8) ? this.r.pick(['0', '1', '2', '-1', '1.5', '3', '10', '-inf', '+inf', '-0', '100']) : this.r.pick(FLOATS);
  }

  /** One command (argv, name first), or a short MULTI … EXEC block (see notInTransaction). */
  next(): string[][] {
    if (this.r.chance(0.03)) {
      const body = this.r.some(this.r.int(1, 3), () => {
        let cmd = this.command();
        while (notInTransaction(cmd)) cmd = this.command();
        return cmd;
      });
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
      case 5: case 6: {
        // GT/LT only with absolute times: two relative ones compare by the time between the commands
        const name = r.pick(['EXPIRE', 'PEXPIRE', 'EXPIREAT', 'PEXPIREAT']);
        const options = name.endsWith('AT') ? ['NX', 'XX', 'GT', 'LT', 'nx', 'FOO'] : ['NX', 'XX', 'nx', 'FOO'];
        return [name, k, this.ttl(), ...this.opt(0.4, r.pick(options)), ...this.opt(0.1, r.pick(options))];
      }
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

  /** A bit offset: small ones, byte edges, and the limits (2^32-1 only where nothing is allocated). */
  private bitOffset(write: boolean): string {
    const r = this.r;
    if (r.chance(0.85)) return String(r.pick([0, 1, 2, 7, 8, 9, 15, 16, 31, 63, 64, 100, 255, 511]));
    return r.pick(write ? ['-1', 'x', '4294967296', '1.5', ''] : ['-1', 'x', '4294967295', '4294967296', '9223372036854775807']);
  }

  private bitRange(): string[] {
    const r = this.r;
    const ends = ['0', '1', '-1', '2', '-2', '5', '10', '-100', '100', '9223372036854775807', '-9223372036854775808', 'x'];
    return r.pick([[], [r.pick(ends), r.pick(ends)], [r.pick(ends), r.pick(ends), r.pick(['BYTE', 'BIT', 'bit', 'FOO'])], [r.pick(ends)]]);
  }

  bitmaps(): string[] {
    const r = this.r;
    const k = this.key();
    switch (r.int(0, 16)) {
      case 0: case 1: case 2: return ['SETBIT', k, this.bitOffset(true), r.chance(0.9) ? r.pick(['0', '1']) : r.pick(['2', '-1', 'x', ''])];
      case 3: case 4: return ['GETBIT', k, this.bitOffset(false)];
      case 5: case 6: return ['BITCOUNT', k, ...this.bitRange()];
      case 7: case 8: {
        const range = this.bitRange();
        return ['BITPOS', k, r.chance(0.9) ? r.pick(['0', '1']) : r.pick(['2', 'x']), ...range];
      }
      case 9: {
        const op = r.pick(['AND', 'OR', 'XOR', 'NOT', 'and', 'DIFF', 'DIFF1', 'ANDOR', 'ONE', 'FOO']);
        return ['BITOP', op, this.key(), ...this.keys(1, op === 'NOT' && r.chance(0.8) ? 1 : 3)];
      }
      case 10: case 11: case 12: return ['BITFIELD', k, ...this.bitfieldOps(false)];
      case 13: return ['BITFIELD_RO', k, ...this.bitfieldOps(true)];
      case 14: return ['SET', k, r.pick(['', '\xff', '\x00\x01', 'foobar', '\xff\xf0\x00', 'x'.repeat(45)])];
      case 15: return ['GET', k];
      default: return ['STRLEN', k];
    }
  }

  private bitfieldOps(readOnly: boolean): string[] {
    const r = this.r;
    const type = () => (r.chance(0.9) ? `${r.pick(['i', 'u'])}${r.pick([1, 2, 4, 5, 8, 13, 16, 31, 32, 63, 64])}` : r.pick(['i0', 'u64', 'i65', 'x8', 'I8', '']));
    const offset = () => (r.chance(0.3) ? `#${r.pick(['0', '1', '3', '-1', 'x'])}` : r.pick(['0', '1', '3', '7', '8', '13', '100', '-1', 'x', '4294967296']));
    const value = () => r.pick(['0', '1', '-1', '100', '-100', '127', '128', '255', '256', '9223372036854775807', '-9223372036854775808', '18446744073709551615', 'x']);
    const ops: string[] = [];
    for (let n = r.int(0, 4); n > 0; n--) {
      const op = readOnly && r.chance(0.85) ? 'GET' : r.pick(['GET', 'SET', 'INCRBY', 'OVERFLOW', 'get', 'FOO']);
      if (op === 'OVERFLOW') ops.push('OVERFLOW', r.pick(['WRAP', 'SAT', 'FAIL', 'fail', 'X']));
      else if (/^get$/i.test(op)) ops.push(op, type(), offset());
      else if (op === 'FOO') ops.push(op);
      else ops.push(op, type(), offset(), value());
    }
    return ops;
  }

  hyperloglog(): string[] {
    const r = this.r;
    const k = this.key();
    const element = () => r.pick(['a', 'b', 'c', '', '1', '2', '\xff', 'hello', 'x'.repeat(40), '\x00']);
    switch (r.int(0, 13)) {
      case 0: case 1: case 2: return ['PFADD', k, ...r.some(r.int(0, 4), element)];
      // many elements at once: a sparse HLL past hll-sparse-max-bytes turns dense
      case 3: {
        const base = r.int(0, 100000);
        return ['PFADD', k, ...Array.from({ length: r.pick([50, 300, 2000]) }, (_, i) => `e${base + i}`)];
      }
      case 4: case 5: return ['PFCOUNT', ...this.keys(1, 3)];
      case 6: return ['PFMERGE', this.key(), ...this.keys(0, 3)];
      case 7: case 8: return ['GET', k];
      case 9: return ['STRLEN', k];
      // a string that is not an HLL, or a damaged one
      case 10: return ['SET', k, r.pick(['HYLL', 'HYLLx', 'foo', ''])];
      case 11: return ['SETRANGE', k, r.pick(['4', '5', '15', '16', '100']), r.pick(['\x00', '\x01', '\xff', 'zz'])];
      case 12: return ['APPEND', k, r.pick(['\x00', 'x'])];
      default: return ['TYPE', k];
    }
  }

  geo(): string[] {
    const r = this.r;
    const k = this.key();
    const lon = () => (r.chance(0.9) ? r.pick(['0', '13.361389', '15.087269', '-122.4', '2.35', '179.99', '-180', '180', '0.5', '-73.98']) : r.pick(['181', '-180.1', 'x', '', 'nan', 'inf']));
    const lat = () => (r.chance(0.9) ? r.pick(['0', '38.115556', '37.502669', '37.77', '48.86', '85.05112878', '-85.05112878', '40.75', '-33.9']) : r.pick(['85.06', '-90', '90', 'x', '']));
    const member = () => r.pick(['Palermo', 'Catania', 'sf', 'paris', 'a', 'b', '', '\xff', 'zero']);
    const unit = () => (r.chance(0.95) ? r.pick(['m', 'km', 'mi', 'ft', 'KM']) : r.pick(['x', '']));
    const radius = () => r.pick(['0', '1', '100', '1000', '200000', '5000000', '20000000', '-1', 'x', '0.5']);
    const shape = () => (r.chance(0.5) ? ['BYRADIUS', radius(), unit()] : ['BYBOX', radius(), radius(), unit()]);
    const from = () => (r.chance(0.5) ? ['FROMMEMBER', member()] : ['FROMLONLAT', lon(), lat()]);
    const tail = (withs: boolean) => [
      ...this.opt(0.4, r.pick(['ASC', 'DESC'])),
      ...this.opt(0.4, 'COUNT', r.pick(['1', '2', '3', '100', '0', '-1', 'x'])),
      ...this.opt(0.15, 'ANY'),
      ...(withs ? [...this.opt(0.3, 'WITHCOORD'), ...this.opt(0.3, 'WITHDIST'), ...this.opt(0.3, 'WITHHASH')] : []),
    ];
    switch (r.int(0, 17)) {
      case 0: case 1: case 2: return ['GEOADD', k, ...this.opt(0.2, r.pick(['NX', 'XX'])), ...this.opt(0.2, 'CH'), ...r.some(r.int(1, 3), () => [lon(), lat(), member()]).flat()];
      case 3: case 4: return ['GEOPOS', k, ...r.some(r.int(1, 3), member)];
      case 5: return ['GEODIST', k, member(), member(), ...this.opt(0.6, unit())];
      case 6: return ['GEOHASH', k, ...r.some(r.int(0, 3), member)];
      case 7: case 8: case 9: return ['GEOSEARCH', k, ...from(), ...shape(), ...tail(true)];
      case 10: {
        // distances go to DIST_KEY only (see there)
        const storeDist = r.chance(0.4);
        return ['GEOSEARCHSTORE', storeDist || r.chance(0.3) ? DIST_KEY : this.key(), k, ...from(), ...shape(), ...tail(false), ...(storeDist ? ['STOREDIST'] : [])];
      }
      case 11: return [r.pick(['GEORADIUS', 'GEORADIUS_RO']), k, lon(), lat(), radius(), unit(), ...tail(true)];
      case 12: return [r.pick(['GEORADIUSBYMEMBER', 'GEORADIUSBYMEMBER_RO']), k, member(), radius(), unit(), ...tail(true)];
      case 13: {
        const store = r.pick(['STORE', 'STOREDIST']);
        return ['GEORADIUS', k, lon(), lat(), radius(), unit(), ...tail(false), store, store === 'STOREDIST' || r.chance(0.3) ? DIST_KEY : this.key()];
      }
      case 14: return ['ZRANGE', k, '0', '-1', 'WITHSCORES'];
      case 15: return ['ZRANGE', DIST_KEY, '0', '-1', 'WITHSCORES'];
      case 16: return ['ZREM', k, member()];
      default: return ['ZSCORE', k, member()];
    }
  }

  /**
   * Expiry without wall time in the comparison: relative TTLs are long (≥ 100 s: nothing expires
   * during a run) or ≤ 0 (deletes), GT/LT only with absolute times (EXPIREAT/PEXPIREAT), since two
   * relative TTLs compare by the milliseconds between the commands; TTL/PTTL/EXPIRETIME compared
   * as "positive" (fuzz.ts).
   */
  expire(): string[] {
    const r = this.r;
    const k = this.key();
    const relative = () => r.pick(['100000', '200000', '0', '-1', '-100', '9223372036854775807', '-9223372036854775808', '9223372036854775', '92233720368547758', 'x', '1.5', '']);
    // 2100-01-01, 2200-01-01 (seconds), 1 (the past), the limits
    const absolute = () => r.pick(['4102444800', '7258118400', '1', '0', '-1', '9223372036854775807', '9223372036854775', 'x']);
    const absoluteMs = () => r.pick(['4102444800000', '7258118400000', '1', '0', '-1', '9223372036854775807', 'x']);
    switch (r.int(0, 15)) {
      case 0: case 1: return [r.pick(['EXPIRE', 'PEXPIRE']), k, relative(), ...this.opt(0.4, r.pick(['NX', 'XX', 'nx', 'FOO']))];
      case 2: case 3: return ['EXPIREAT', k, absolute(), ...this.opt(0.6, r.pick(['NX', 'XX', 'GT', 'LT', 'gt'])), ...this.opt(0.1, r.pick(['NX', 'XX', 'GT', 'LT']))];
      case 4: return ['PEXPIREAT', k, absoluteMs(), ...this.opt(0.6, r.pick(['NX', 'XX', 'GT', 'LT'])), ...this.opt(0.1, r.pick(['NX', 'XX', 'GT', 'LT']))];
      case 5: case 6: return [r.pick(['TTL', 'PTTL', 'EXPIRETIME', 'PEXPIRETIME']), k];
      case 7: return ['PERSIST', k];
      case 8: return ['SET', k, this.val(), ...r.pick([[], ['EX', '100000'], ['PXAT', '4102444800000'], ['KEEPTTL'], ['EXAT', '1']])];
      case 9: return ['GETEX', k, ...r.pick([[], ['PERSIST'], ['EX', '100000'], ['EXAT', '4102444800'], ['PX', '0']])];
      case 10: return [r.pick(['HSET', 'SADD', 'RPUSH']), k, 'f', ...(r.chance(0.5) ? ['v'] : [])];
      case 11: return ['ZADD', k, '1', 'm'];
      case 12: return [r.pick(['RENAME', 'COPY']), k, this.key()];
      case 13: return ['EXISTS', k];
      case 14: return ['DEL', k];
      default: return ['TYPE', k];
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
