// The alert rule's choices in words for a fleet manager: each kind of alert, and each "ending"
// threshold, never a raw key or number.
import type { AlertKind, EndingThreshold } from "@vics/shared";

export const KIND_WORDS: Record<AlertKind, string> = {
  "not-insured": "Not insured (lapsed, cancelled, none)",
  "insured-again": "Insured again",
  ending: "Insurance, MOT or road tax ending",
  "mot-expired": "MOT expired",
  untaxed: "Untaxed or SORN",
  "new-fine": "New fine",
  "fines-paid": "Fines paid",
  "not-found": "No longer found",
};

export function thresholdWords(days: EndingThreshold): string {
  if (days === 0) return "On the day";
  return days === 1 ? "1 day before" : `${days} days before`;
}
