/** A consumer of a consumer group (Redis `streamConsumer`). */
import type { IdMap } from './id-map';
import { PendingEntry, newIdMap } from './pel';
import type { RaxNodeCounter } from './rax-size';

export class Consumer {
  /** Entries delivered to this consumer and not yet acknowledged (subset of the group PEL). */
  readonly pel: IdMap<PendingEntry> = newIdMap();
  /** The node count of Redis's radix tree of this PEL; built by `ConsumerGroup.consumerPelRaxNodes`, null until then. */
  pelRax: RaxNodeCounter | null = null;

  constructor(
    /** Consumer name (byte string, case-sensitive). */
    readonly name: string,
    /** Unix ms of the last attempted interaction (Redis 7.2+: any XREADGROUP/XCLAIM/XAUTOCLAIM). */
    public seenTime: number,
    /** Unix ms of the last successful interaction, -1 when never (Redis 7.2+). */
    public activeTime = -1,
  ) {}
}
