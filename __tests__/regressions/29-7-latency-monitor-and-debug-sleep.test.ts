/**
 * The latency monitor: node-redis's own LATENCY tests (LATEST, HISTORY, GRAPH, RESET after
 * `CONFIG SET latency-monitor-threshold` and `DEBUG SLEEP`) passed on real servers and failed on
 * `serve` — DEBUG SLEEP was refused and no sample was ever taken (LATEST [], RESET 0, GRAPH "No
 * samples"). Now a command running for the threshold or longer adds a sample (latency.c), and
 * DEBUG SLEEP waits. Shapes and texts as redis-server 7.0.15 answered the same sequence.
 */
import { LatencyMonitor } from '../../lib/stats/latency-monitor';
import { VerbatimReply } from '../../lib/reply/reply';
import { servedClient } from '../helpers/served-client';

describe('LATENCY with latency-monitor-threshold set', () => {
  const s = servedClient({ config: { 'enable-debug-command': 'yes' } });

  it('samples a command slower than the threshold (DEBUG SLEEP) and answers LATEST, HISTORY, GRAPH, RESET', async () => {
    expect(await s.c.call('DEBUG', 'SLEEP', '0.06')).toBe('+OK\r\n'); // monitor off: no sample
    expect(await s.c.call('LATENCY', 'LATEST')).toBe('*0\r\n');
    expect(await s.c.call('CONFIG', 'SET', 'latency-monitor-threshold', '50')).toBe('+OK\r\n');
    expect(await s.c.call('SET', 'k', 'v')).toBe('+OK\r\n'); // fast: below the threshold
    expect(await s.c.call('DEBUG', 'SLEEP', '0.06')).toBe('+OK\r\n');
    const latest = await s.c.call('LATENCY', 'LATEST');
    const m = /^\*1\r\n\*4\r\n\$7\r\ncommand\r\n:(\d+)\r\n:(\d+)\r\n:(\d+)\r\n$/.exec(latest);
    expect(m).not.toBeNull();
    const [, time, last, max] = m!.map(Number);
    expect(time).toBe(Math.floor(s.server.now() / 1000));
    expect(last).toBeGreaterThanOrEqual(60);
    expect(max).toBe(last);
    expect(await s.c.call('LATENCY', 'HISTORY', 'command')).toBe(`*1\r\n*2\r\n:${time}\r\n:${last}\r\n`);
    expect(await s.c.call('LATENCY', 'HISTORY', 'fast-command')).toBe('*0\r\n');
    const graph = await s.c.call('LATENCY', 'GRAPH', 'command');
    expect(graph).toContain(`command - high ${last} ms, low ${last} ms (all time high ${last} ms)\n${'-'.repeat(80)}\n`);
    expect(await s.c.call('LATENCY', 'GRAPH', 'nosuch')).toBe("-ERR No samples available for event 'nosuch'\r\n");
    expect(await s.c.call('LATENCY', 'RESET', 'COMMAND', 'nosuch')).toBe(':1\r\n');
    expect(await s.c.call('LATENCY', 'LATEST')).toBe('*0\r\n');
    expect(await s.c.call('LATENCY', 'RESET')).toBe(':0\r\n');
  });

  it('samples a long script, and the slow log logs it and DEBUG SLEEP at its default threshold (as 7.0.15 does)', async () => {
    expect(await s.c.call('CONFIG', 'SET', 'latency-monitor-threshold', '20')).toBe('+OK\r\n');
    // a script that runs for tens of ms (~70 ms here; TIME stands still inside a script from 7.2)
    expect(await s.c.call('EVAL', 'local i=0 while i<5000000 do i=i+1 end return i', '0')).toBe(':5000000\r\n');
    const latest = /^\*1\r\n\*4\r\n\$7\r\ncommand\r\n:\d+\r\n:(\d+)\r\n/.exec(await s.c.call('LATENCY', 'LATEST'));
    expect(Number(latest?.[1])).toBeGreaterThanOrEqual(20);
    expect(await s.c.call('DEBUG', 'SLEEP', '0.011')).toBe('+OK\r\n');
    const log = await s.c.call('SLOWLOG', 'GET');
    expect(log).toMatch(/^\*2\r\n/); // DEBUG SLEEP and the EVAL (slowlog-log-slower-than 10000 µs), nothing else
    expect(log).toContain('$5\r\nDEBUG\r\n$5\r\nSLEEP\r\n');
    expect(log).toContain('$4\r\nEVAL\r\n');
  });

  it('DEBUG SLEEP takes one argument, read as strtod reads it', async () => {
    expect(await s.c.call('DEBUG', 'SLEEP')).toBe("-ERR unknown subcommand or wrong number of arguments for 'SLEEP'. Try DEBUG HELP.\r\n");
    expect(await s.c.call('DEBUG', 'sleep', '1', '2')).toBe("-ERR unknown subcommand or wrong number of arguments for 'sleep'. Try DEBUG HELP.\r\n");
    expect(await s.c.call('DEBUG', 'SLEEP', 'abc')).toBe('+OK\r\n');
    expect(await s.c.call('DEBUG', 'SLEEP', '-1')).toBe('+OK\r\n');
  });
});

describe('LatencyMonitor (latency.c)', () => {
  it('keeps one sample per second (the larger), the all-time max, and 160 samples', () => {
    const lm = new LatencyMonitor();
    lm.add('command', 120, 1000);
    lm.add('command', 300, 1000);
    lm.add('command', 110, 1000);
    lm.add('command', 150, 1001);
    expect(lm.history('command')).toEqual([
      [1000, 300],
      [1001, 150],
    ]);
    expect(lm.latest()).toEqual([['command', 1001, 150, 300]]);
    for (let t = 2000; t < 2200; t++) lm.add('command', 100, t);
    const history = lm.history('command') as number[][];
    expect(history).toHaveLength(160);
    expect(history[0]).toEqual([2040, 100]);
    expect(lm.latest()).toEqual([['command', 2199, 100, 300]]);
  });

  it("draws GRAPH as redis-server 7.0.15 drew one sample of 300 ms a second earlier", () => {
    const lm = new LatencyMonitor();
    lm.add('command', 300, 1796661302);
    const graph = lm.graph('command', 1796661303) as VerbatimReply;
    expect(graph).toBeInstanceOf(VerbatimReply);
    expect(graph.text).toBe(`command - high 300 ms, low 300 ms (all time high 300 ms)\n${'-'.repeat(80)}\n \n \n \n_\n \n1\ns\n`);
  });
});
