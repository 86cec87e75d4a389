import { Harness } from '../helpers/harness';

describe('XLEN', () => {
  let h: Harness;
  beforeEach(() => {
    h = new Harness();
  });

  it('counts live entries only', () => {
    for (let i = 1; i <= 5; i++) h.run('XADD', 's', `${i}-0`, 'f', 'v');
    expect(h.run('XLEN', 's')).toBe(5);
    h.run('XDEL', 's', '2-0');
    expect(h.run('XLEN', 's')).toBe(4);
    h.run('XTRIM', 's', 'MAXLEN', '1');
    expect(h.run('XLEN', 's')).toBe(1);
  });

  it('replies 0 for a missing key and for an emptied stream', () => {
    expect(h.run('XLEN', 'nokey')).toBe(0);
    h.run('XADD', 's', 'MAXLEN', '0', '*', 'f', 'v');
    expect(h.run('XLEN', 's')).toBe(0);
  });

  describe('error cases', () => {
    it('exact arity', () => {
      expect(h.error('XLEN')).toBe("ERR wrong number of arguments for 'xlen' command");
      expect(h.error('XLEN', 's', 'x')).toBe("ERR wrong number of arguments for 'xlen' command");
    });

    it('WRONGTYPE', () => {
      h.keys.set('str', 'x');
      expect(h.error('XLEN', 'str')).toBe('WRONGTYPE Operation against a key holding the wrong kind of value');
    });
  });
});
