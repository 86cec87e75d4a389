/**
 * The latency monitor of a server (latency.c, sparkline.c): with `latency-monitor-threshold` set
 * (ms, CONFIG SET; 0, the default, turns it off), every command that runs for at least that
 * long adds a sample to its event — "fast-command" for a command flagged fast, else "command"
 * (server.c call()). Each event keeps its all-time maximum and its last 160 samples, at most one
 * per second (a second's later sample keeps the larger latency). LATENCY LATEST, HISTORY, RESET
 * and GRAPH read them. Times are the keyspace clock's seconds (Redis: time(NULL)); latencies are
 * measured in real time (a fake's commands take microseconds: `DEBUG SLEEP` makes one slow).
 */
import { type Reply, VerbatimReply } from '../reply/reply';

/** latency.h LATENCY_TS_LEN: the samples kept per event. */
const TS_LEN = 160;
/** latency.c LATENCY_GRAPH_COLS */
const GRAPH_COLS = 80;

interface Sample {
  /** Unix time, seconds (0: an empty slot). */
  time: number;
  /** ms */
  latency: number;
}

interface TimeSeries {
  idx: number;
  max: number;
  readonly samples: Sample[];
}

export class LatencyMonitor {
  /** Events in the order they were first seen (Redis iterates its dict: hash order). */
  private readonly events = new Map<string, TimeSeries>();

  /** latencyAddSample: `latency` ms at unix second `now`. */
  add(event: string, latency: number, now: number): void {
    let ts = this.events.get(event);
    if (ts === undefined) {
      ts = { idx: 0, max: 0, samples: Array.from({ length: TS_LEN }, () => ({ time: 0, latency: 0 })) };
      this.events.set(event, ts);
    }
    if (latency > ts.max) ts.max = latency;
    const prev = ts.samples[(ts.idx + TS_LEN - 1) % TS_LEN];
    if (prev.time === now) {
      if (latency > prev.latency) prev.latency = latency;
      return;
    }
    ts.samples[ts.idx] = { time: now, latency };
    ts.idx = (ts.idx + 1) % TS_LEN;
  }

  /** latencyResetEvent: the events removed (all of them for `event` undefined; names without case). */
  reset(event?: string): number {
    let resets = 0;
    for (const name of [...this.events.keys()]) {
      if (event === undefined || name.toLowerCase() === event.toLowerCase()) {
        this.events.delete(name);
        resets++;
      }
    }
    return resets;
  }

  /** LATENCY LATEST: `[event, time of the last sample, its latency, all-time max]` per event. */
  latest(): Reply {
    return [...this.events].map(([event, ts]) => {
      const last = ts.samples[(ts.idx + TS_LEN - 1) % TS_LEN];
      return [event, last.time, last.latency, ts.max];
    });
  }

  /** LATENCY HISTORY event: `[time, latency]` oldest first (`[]` for an event without samples). */
  history(event: string): Reply {
    const ts = this.events.get(event);
    return ts === undefined ? [] : this.ordered(ts).map((s) => [s.time, s.latency]);
  }

  /**
   * LATENCY GRAPH event at unix second `now`: latencyCommandGenSparkeline's text, or null when the
   * event has no samples.
   */
  graph(event: string, now: number): Reply | null {
    const ts = this.events.get(event);
    if (ts === undefined) return null;
    const samples = this.ordered(ts);
    let min = 0;
    let max = 0;
    const seq: { value: number; label: string }[] = [];
    for (const s of samples) {
      if (seq.length === 0) min = max = s.latency;
      else {
        if (s.latency > max) max = s.latency;
        if (s.latency < min) min = s.latency;
      }
      const elapsed = now - s.time;
      const label = elapsed < 60 ? `${elapsed}s` : elapsed < 3600 ? `${Math.trunc(elapsed / 60)}m` : elapsed < 86400 ? `${Math.trunc(elapsed / 3600)}h` : `${Math.trunc(elapsed / 86400)}d`;
      seq.push({ value: s.latency, label });
    }
    let graph = `${event} - high ${max} ms, low ${min} ms (all time high ${ts.max} ms)\n${'-'.repeat(GRAPH_COLS)}\n`;
    graph += sparkline(seq, GRAPH_COLS, 4);
    return new VerbatimReply(graph);
  }

  private ordered(ts: TimeSeries): Sample[] {
    const out: Sample[] = [];
    for (let j = 0; j < TS_LEN; j++) {
      const s = ts.samples[(ts.idx + j) % TS_LEN];
      if (s.time !== 0) out.push(s);
    }
    return out;
  }
}

/** sparkline.c sparklineRender with SPARKLINE_FILL: `columns` samples per block of `rows` rows. */
function sparkline(seq: readonly { value: number; label: string }[], columns: number, rows: number): string {
  let min = 0;
  let max = 0;
  seq.forEach((s, i) => {
    if (i === 0) min = max = s.value;
    else if (s.value < min) min = s.value;
    else if (s.value > max) max = s.value;
  });
  const labels = seq.some((s) => s.label !== '');
  let out = '';
  for (let j = 0; j < seq.length; j += columns) {
    if (j !== 0) out += '\n';
    out += renderRange(seq, min, max, labels, rows, j, Math.min(columns, seq.length - j));
  }
  return out;
}

const FILL = '_o#';
/** sparkline.c label_margin_top */
const LABEL_MARGIN_TOP = 1;

/** sparklineRenderRange (fill, linear scale). */
function renderRange(seq: readonly { value: number; label: string }[], min: number, max: number, labels: boolean, rows: number, offset: number, len: number): string {
  const relmax = max - min === 0 ? 1 : max - min;
  const steps = FILL.length * rows;
  let out = '';
  for (let row = 0; ; row++) {
    let loop = false;
    const chars: string[] = new Array<string>(len).fill(' ');
    for (let j = 0; j < len; j++) {
      const s = seq[j + offset];
      // C: (int)(relval*steps)/relmax, an int divided by a double, then truncated to int
      let step = Math.trunc(Math.trunc((s.value - min) * steps) / relmax);
      if (step < 0) step = 0;
      if (step >= steps) step = steps - 1;
      if (row < rows) {
        const charidx = step - (rows - row - 1) * FILL.length;
        loop = true;
        if (charidx >= 0 && charidx < FILL.length) chars[j] = FILL[charidx];
        else if (charidx >= FILL.length) chars[j] = '|';
      } else {
        if (labels && row - rows < LABEL_MARGIN_TOP) {
          loop = true;
          break;
        }
        const labelChar = row - rows - LABEL_MARGIN_TOP;
        if (s.label.length > labelChar) {
          loop = true;
          chars[j] = s.label[labelChar];
        }
      }
    }
    if (!loop) break;
    out += `${chars.join('')}\n`;
  }
  return out;
}
