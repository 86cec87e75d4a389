/**
 * The adapter loads the bundled ioredis's Command module (and the ~20 modules it requires) only
 * for the commands it has transformers for, named in methods.ts: those names must be exactly its
 * transformers', or an argument/reply would skip a transformation ioredis-mock applies.
 */
import { ARGUMENT_TRANSFORMED, REPLY_TRANSFORMED } from '../../lib/adapter/methods';
import { privateIoredisModule } from '../../lib/adapter/command-table';

describe("ioredis-mock's argument and reply transformers", () => {
  it('are named exactly as the bundled ioredis Command defines them', () => {
    const { argument, reply } = privateIoredisModule<{ default: { _transformer: { argument: object; reply: object } } }>('built/Command').default._transformer;
    expect([...ARGUMENT_TRANSFORMED].sort()).toEqual(Object.keys(argument).sort());
    expect([...REPLY_TRANSFORMED].sort()).toEqual(Object.keys(reply).sort());
  });

  it('still apply: HSET with an object, MSET with a Map, HGETALL as an object', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const Redis = require('ioredis-mock-streams') as new (options: object) => {
      hset(...a: unknown[]): Promise<number>;
      mset(...a: unknown[]): Promise<string>;
      hgetall(k: string): Promise<Record<string, string>>;
      mget(...k: string[]): Promise<(string | null)[]>;
      disconnect(): void;
    };
    const r = new Redis({ port: 50_951 });
    try {
      expect(await r.hset('h', { a: '1', b: 2 })).toBe(2);
      expect(await r.hgetall('h')).toEqual({ a: '1', b: '2' });
      expect(await r.mset(new Map([['x', '1'], ['y', '2']]))).toBe('OK');
      expect(await r.mget('x', 'y')).toEqual(['1', '2']);
    } finally {
      r.disconnect();
    }
  });
});
