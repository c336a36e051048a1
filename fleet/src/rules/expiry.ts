// "Expiring soon": a policy still running that ends within 30 days. The fleet results, the
// single check and the re-checks' alerts all flag it by this one rule.
import { daysBetween } from "@vics/shared";

/** Policies ending within this many days are flagged as expiring soon. */
export const EXPIRING_SOON_DAYS = 30;

/** True when cover is still running on `today` but ends within EXPIRING_SOON_DAYS. */
export function isExpiringSoon(validTo: string, today: string): boolean {
  const days = daysBetween(today, validTo);
  return days >= 0 && days <= EXPIRING_SOON_DAYS;
}
