/**
 * State set-up for the stream and consumer-group command tests (XADD, XTRIM, XDELEX, XGROUP,
 * XACK, XACKDEL, XPENDING, XINFO, XCLAIM, XAUTOCLAIM, XNACK).
 * Entries are added with XADD; deliveries use XREADGROUP once that module is registered, and
 * until then an equivalent built on the model (`>` read without NOACK: consumer created with
 * `xgroup-createconsumer`, seen-time now, entries-read/last-delivered-id advanced, new or
 * re-delivered pending entries owned by the reader with count 1, active-time now on 7.2+; on
 * 7.0 a read that serves nothing leaves the consumer alone).
 */
import { lookupCommand } from '../../lib/commands/dispatch';
import { ConsumerGroup } from '../../lib/model/consumer-group';
import type { Stream } from '../../lib/model/stream';
import { MAX_ID, StreamId, formatId, incrId, parseStrictId } from '../../lib/model/stream-id';
import { supports } from '../../lib/version';
import type { Harness } from './harness';

/** Parses a strict stream ID, throwing on a malformed one. */
export function id(s: string): StreamId {
  const parsed = parseStrictId(s);
  if (!parsed) throw new Error(`bad id ${s}`);
  return parsed;
}

/** The stream at `key` (via the keyspace type check); throws when there is none. */
export function stream(h: Harness, key = 's'): Stream {
  const s = h.db.getStream(key);
  if (!s) throw new Error(`no stream ${key}`);
  return s;
}

/** Consumer group `name` of the stream at `key`; throws when there is none. */
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

/** XADD key <id> f v for each id, expecting each reply to be that id. */
export function xaddChecked(h: Harness, key: string, ...ids: string[]): void {
  for (const i of ids) expect(h.run('XADD', key, i, 'f', 'v')).toBe(i);
}

/** XDEL key id…, expecting every id to be deleted. */
export function xdelChecked(h: Harness, key: string, ...ids: string[]): void {
  expect(h.run('XDEL', key, ...ids)).toBe(ids.length);
}

/** XADD key 1-0 … n-0 with f v (replies unchecked). */
export function fillStream(h: Harness, key: string, n: number): void {
  for (let i = 1; i <= n; i++) h.run('XADD', key, `${i}-0`, 'f', 'v');
}

/** XGROUP CREATE key group <at>, expecting OK. */
export function createGroup(h: Harness, key: string, group: string, at = '0'): void {
  expect(h.run('XGROUP', 'CREATE', key, group, at)).toBe('OK');
}

/** A group at `lastId` with `pending` IDs owned by consumer `c` (XGROUP/XREADGROUP state, set directly). */
export function addGroupDirectly(h: Harness, key: string, name: string, lastId: string, pending: string[] = []): ConsumerGroup {
  const g = new ConsumerGroup(name, parseStrictId(lastId)!, -1n);
  stream(h, key).groups.set(name, g);
  const c = g.ensureConsumer('c', h.now).consumer;
  for (const id of pending) g.addPending(parseStrictId(id)!, c, h.now, 1n);
  return g;
}

/** The IDs in a group's PEL, in ID order. */
export function pelIds(g: ConsumerGroup): string[] {
  return g.pel.keysArray().map(formatId);
}

/** XPENDING key group - + 1000: [id, consumer ('' when released), idle (-1 when released), count]. */
export function pendingEntries(h: Harness, key = 's', groupName = 'g'): [string, string, number, bigint][] {
  return h.run('XPENDING', key, groupName, '-', '+', 1000) as [string, string, number, bigint][];
}

/** s with 1-0 … n-0 (f v), group g at 0, c1 has read `read` of them (all if omitted) at h.now; events/signals cleared. */
export function setupClaimState(h: Harness, n = 3, read?: number): void {
  xaddChecked(h, 's', ...Array.from({ length: n }, (_, i) => `${i + 1}-0`));
  createGroup(h, 's', 'g');
  readNew(h, 's', 'g', 'c1', read);
  // Only what the command under test emits is of interest.
  h.events.length = 0;
  h.signals.length = 0;
}
