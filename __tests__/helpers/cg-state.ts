/**
 * State set-up for the consumer-group command tests (XGROUP, XACK, XACKDEL, XPENDING, XINFO).
 * Entries are added with XADD; deliveries use XREADGROUP once that module is registered, and
 * until then an equivalent built on the model (`>` read without NOACK: consumer created with
 * `xgroup-createconsumer`, seen-time now, entries-read/last-delivered-id advanced, new or
 * re-delivered pending entries owned by the reader with count 1, active-time now on 7.2+; on
 * 7.0 a read that serves nothing leaves the consumer alone).
 */
import { lookupCommand } from '../../lib/commands/dispatch';
import type { ConsumerGroup } from '../../lib/model/consumer-group';
import type { Stream } from '../../lib/model/stream';
import { MAX_ID, StreamId, formatId, incrId, parseStrictId } from '../../lib/model/stream-id';
import { supports } from '../../lib/version';
import type { Harness } from './harness';

export function id(s: string): StreamId {
  const parsed = parseStrictId(s);
  if (!parsed) throw new Error(`bad id ${s}`);
  return parsed;
}

export function stream(h: Harness, key = 's'): Stream {
  const s = h.db.getStream(key);
  if (!s) throw new Error(`no stream ${key}`);
  return s;
}

export function group(h: Harness, key = 's', name = 'g'): ConsumerGroup {
  const g = stream(h, key).groups.get(name);
  if (!g) throw new Error(`no group ${name}`);
  return g;
}

/** XADD key <id> f v<id> for each id. */
export function xadd(h: Harness, key: string, ...ids: string[]): void {
  for (const i of ids) h.run('XADD', key, i, 'f', `v${i}`);
}

/** XREADGROUP GROUP group consumer [COUNT count] STREAMS key >; returns the IDs delivered. */
export function readNew(h: Harness, key: string, groupName: string, consumer: string, count = 0): string[] {
  if (lookupCommand('xreadgroup')) {
    const argv: (string | number)[] = ['XREADGROUP', 'GROUP', groupName, consumer];
    if (count) argv.push('COUNT', count);
    const reply = h.run(...argv, 'STREAMS', key, '>') as [string, [string, unknown][]][] | null;
    return reply ? reply[0][1].map((e) => e[0]) : [];
  }
  const s = stream(h, key);
  const g = group(h, key, groupName);
  const from = incrId(g.lastId);
  const entries = from ? s.range(from, MAX_ID, count) : [];
  const out: string[] = [];
  // 7.0 looks the consumer up (creating it) only when it serves something.
  if (!entries.length && !supports(h.version, 'consumerCreatedOnEmptyRead')) return out;
  const { consumer: c, created } = g.ensureConsumer(consumer, h.now);
  if (created) h.events.push(['xgroup-createconsumer', key]);
  c.seenTime = h.now;
  for (const e of entries) {
    s.advanceGroup(g, e.id);
    const pe = g.pel.get(e.id);
    if (pe) {
      g.setOwner(pe, c);
      g.setDeliveryTime(pe, h.now);
      pe.deliveryCount = 1n;
    } else {
      g.addPending(e.id, c, h.now, 1n);
    }
    out.push(formatId(e.id));
  }
  if (out.length && supports(h.version, 'consumerActiveTime')) c.activeTime = h.now;
  return out;
}

/** The lines of an XINFO map reply as an object (values unchanged). */
export function asMap(reply: unknown): Record<string, unknown> {
  const a = reply as unknown[];
  const out: Record<string, unknown> = {};
  for (let i = 0; i < a.length; i += 2) out[a[i] as string] = a[i + 1];
  return out;
}
