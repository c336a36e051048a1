// Where a check's facts came from, and when (issue 35): for road tax and MOT, a live register
// named in the answer's factSources (DVLA, DVSA), else VICS's own records, seeded or imported,
// as of the answer's dataAsOf; insurance and fines always from VICS's records. The dashboard,
// the fleet results and the exports say it.
import {
  LIVE_SOURCE_LABELS,
  type DataAsOf,
  type FactSource,
  type FactSources,
} from "@vics/shared";

/** A component no live register gave. */
export const RECORDS_LABEL = "VICS records";

/** Beside a stale fact, in words, so it is never told by colour alone. */
export const STALE_WORDS =
  "could not be refreshed just now: this is the stored fact";

/** The same, short, for a table cell or a file, which is read on later days than "just now". */
export const STALE_SHORT_WORDS = "stored fact: could not be refreshed";

export interface FactOrigin {
  /** "DVLA", "DVSA" or "VICS records". */
  label: string;
  /** When the register answered, or VICS's records were last refreshed (UTC). */
  asOf: string;
  /** A live register's fact older than its freshness window: the register could not be asked. */
  stale: boolean;
  /** True when a live register gave it. */
  live: boolean;
}

export function liveOrigin(fact: FactSource): FactOrigin {
  return {
    label: LIVE_SOURCE_LABELS[fact.source],
    asOf: fact.asOf,
    stale: fact.stale === true,
    live: true,
  };
}

/**
 * The origin of one component: its live register when factSources names it (only tax and MOT
 * can have one), else VICS's records as of `recordsAsOf`; undefined when the answer says
 * neither (an older service).
 */
export function factOrigin(
  component: keyof DataAsOf,
  factSources: FactSources | undefined,
  recordsAsOf: string | undefined,
): FactOrigin | undefined {
  const live =
    component === "tax" || component === "mot"
      ? factSources?.[component]
      : undefined;
  if (live) return liveOrigin(live);
  if (recordsAsOf === undefined) return undefined;
  return { label: RECORDS_LABEL, asOf: recordsAsOf, stale: false, live: false };
}
