// en-GB date wording for staff. "Today" is the UK's calendar date, as the service's is
// (docs/contract.md); day counts between two calendar dates need no time zone.
import {
  daysBetween,
  formatLongDate,
  formatUkClock,
  formatUkDateTime,
  formatUkTimeOnDate,
  ukDate,
} from "@vics/shared";

export { daysBetween } from "@vics/shared";
export { EXPIRING_SOON_DAYS, isExpiringSoon } from "@vics/fleet";

const relativeFormat = new Intl.RelativeTimeFormat("en-GB", {
  numeric: "auto",
});

/** "YYYY-MM-DD": the UK's calendar date at `now`. */
export function ukToday(now: Date = new Date()): string {
  return ukDate(now);
}

/** "12 May 2027" for a "2027-05-12" date: the same words as the proxy's emails and webhooks. */
export const formatDate = formatLongDate;

/** "3 May 2026 at 14:05" (UK time) for a timestamp: the command line's words too. */
export const formatDateTime: (timestamp: string) => string = formatUkDateTime;

/** "14:05 on 3 May 2026" (UK time): when a check was made, time first. */
export const formatTimeOnDate: (timestamp: string) => string =
  formatUkTimeOnDate;

/** "ended 20 days ago", "ended yesterday", "ends today", "ends tomorrow", "ends in 10 days". */
export function describePolicyEnd(validTo: string, today: string): string {
  const days = daysBetween(today, validTo);
  if (days === 0) return "ends today";
  if (days === 1) return "ends tomorrow";
  if (days === -1) return "ended yesterday";
  if (days > 1) return `ends in ${days} days`;
  return `ended ${-days} days ago`;
}

/** "just now", "5 minutes ago", "yesterday", "3 days ago" from a timestamp. */
export function formatRelativeTime(timestamp: string, now: Date): string {
  const seconds = Math.round((Date.parse(timestamp) - now.getTime()) / 1000);
  const absolute = Math.abs(seconds);
  if (absolute < 45) return "just now";
  if (absolute < 45 * 60)
    return relativeFormat.format(Math.round(seconds / 60), "minute");
  if (absolute < 22 * 3600)
    return relativeFormat.format(Math.round(seconds / 3600), "hour");
  const days = daysBetween(ukDate(now), ukDate(new Date(timestamp)));
  if (Math.abs(days) < 30) return relativeFormat.format(days, "day");
  return `on ${formatDate(timestamp)}`;
}

/**
 * "10:02 today", "09:15 yesterday", else "28 November 2026 at 06:00" (UK time), `today` being
 * the UK's date ("YYYY-MM-DD"): how old a fact is, read at a glance.
 */
export function formatTimeOnDay(timestamp: string, today: string): string {
  const days = daysBetween(ukDate(new Date(timestamp)), today);
  if (days === 0) return `${formatUkClock(timestamp)} today`;
  if (days === 1) return `${formatUkClock(timestamp)} yesterday`;
  return formatUkDateTime(timestamp);
}

/** "2026-11-29 10:02" (UK time): a moment in a file, which is read on later days (decision 055). */
export function formatFileDateTime(timestamp: string): string {
  return `${ukDate(new Date(timestamp))} ${formatUkClock(timestamp)}`;
}
