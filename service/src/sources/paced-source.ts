// A live source as the refresher runs it, and why a vehicle's facts could not be refreshed: what
// refresher.ts and its queue (source-queue.ts) both speak of. Their own module because the
// refresher builds on the queue: here, the queue does not import the refresher to know them.
import type { Pacer } from "./pacer.ts";
import type {
  FactKind,
  LiveSource,
  SourceError,
  SourceName,
} from "./source.ts";

/** A source as the refresher runs it. */
export interface PacedSource {
  source: LiveSource;
  pacer: Pacer;
  /** A fact younger than this is used as it is. */
  freshForMs: number;
  /**
   * The kinds this source is asked for and trusted on: DVLA's MOT expiry is not stored when
   * DVSA's history is on, since each vehicle's MOT would then be fetched twice a window.
   */
  kinds: readonly FactKind[];
  /** When its client secret expires, where it has one (DVSA's last two years). */
  secretExpires?: string;
  /** Its pace's requests a second, for how many to keep in flight. */
  perSecond: number;
}

/** Why a vehicle's facts could not be brought up to date; absent for the fresh ones. */
export interface Unrefreshed {
  source: SourceName;
  /** "waiting": still queued or in flight when the budget ran out. */
  reason: "waiting" | "day-quota" | SourceError["kind"];
  /** When a retry may succeed, as the provider or the pacer said. */
  retryAfterMs?: number;
}
