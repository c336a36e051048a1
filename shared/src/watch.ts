/**
 * Watched fleets' alerts (docs/watching.md): what a re-check can find that needs a fleet
 * manager. Each is a fact with a date; it alerts once, and closes itself when resolved.
 */
export const ALERT_KINDS = [
  /** Lapsed, cancelled, or never insured once a new vehicle's 14 days are over. */
  "not-insured",
  "insured-again",
  /** A policy, MOT or road tax ending within 30, 14, 7 or 1 days, or today. */
  "ending",
  "mot-expired",
  /** Untaxed or SORN. */
  "untaxed",
  "new-fine",
  "fines-paid",
  "not-found",
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** Days before a date at which "ending" alerts, largest first; 0 is the day itself. */
export const ENDING_THRESHOLDS = [30, 14, 7, 1, 0] as const;
export type EndingThreshold = (typeof ENDING_THRESHOLDS)[number];

export const DUE_AREAS = ["insurance", "mot", "tax"] as const;
export type DueArea = (typeof DUE_AREAS)[number];
