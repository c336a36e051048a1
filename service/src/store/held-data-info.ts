// Every answer carries the data's freshness and span (dataInfo, decision 041); it changes only
// when an import applies or a live register's facts are written, so a store keeps its last
// read instead of reading `meta` on every check. The rule, the same for both engines:
// - a write through this process goes through the store (an import's apply, recordFetched),
//   which then calls `invalidate`: the next check reads `meta` again;
// - SQLite: a commit by another connection (scripts/import beside the service) moves
//   `PRAGMA data_version`, which the store asks instead of reading `meta`: exact, and cheap;
// - PostgreSQL: another replica's or scripts/import's import shows within DATA_INFO_TTL_MS,
//   when the held read expires (asking PostgreSQL for a version would cost the round trip
//   the held read saves).
import type { ImportKind } from "@vics/shared/import/rows";
import type { DataInfo } from "./data-info.ts";
import type { ImportStaging } from "./import-store.ts";

/** How long a PostgreSQL store trusts its read before it asks again. */
export const DATA_INFO_TTL_MS = 2_000;

export interface HeldDataInfoOptions {
  /** The engine's own version of the data, asked on every call (SQLite's data_version). */
  version?: () => number;
  /** How long a read is trusted without any sign of a change; default forever. */
  ttlMs?: number;
  now?: () => number;
}

export interface HeldDataInfo {
  /** The held read, or a new one when the data may have changed (see the rule above). */
  read(): Promise<DataInfo>;
  /** Said by the store after a write of its own that may change what `read` reads. */
  invalidate(): void;
}

/**
 * `read`, asked again only when the data may have changed. Calls that overlap a read share
 * it; a failed read is not kept.
 */
export function heldDataInfo(
  read: () => Promise<DataInfo>,
  options: HeldDataInfoOptions = {},
): HeldDataInfo {
  const { ttlMs = Infinity, now = Date.now } = options;
  let writes = 0;
  let held:
    | {
        value: Promise<DataInfo>;
        writes: number;
        version: number;
        until: number;
      }
    | undefined;
  return {
    read: async () => {
      // Taken before the read: a write during it makes the next call read again.
      const writesNow = writes;
      const version = options.version?.() ?? 0;
      const at = now();
      if (
        held &&
        held.writes === writesNow &&
        held.version === version &&
        held.until > at
      )
        return held.value;
      const value = read();
      const reading = { value, writes: writesNow, version, until: at + ttlMs };
      held = reading;
      value.catch(() => {
        if (held === reading) held = undefined;
      });
      return value;
    },
    invalidate: () => {
      writes++;
    },
  };
}

/** `staging`, whose apply calls `invalidate` once it has settled, applied or not. */
export function invalidatingOnApply<K extends ImportKind>(
  staging: ImportStaging<K>,
  invalidate: () => void,
): ImportStaging<K> {
  const apply = staging.apply;
  return {
    ...staging,
    apply: async (plan) => {
      try {
        return await apply(plan);
      } finally {
        invalidate();
      }
    },
  };
}
