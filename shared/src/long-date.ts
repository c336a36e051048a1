// A calendar date in words, "3 March 2027", for whatever the web app and the proxy's emails
// and webhooks show people. The same wording in both, so an email says what the page says.
import { UK_TIME_ZONE } from "./uk-date.ts";

/** "3 March 2027", as seen in `timeZone` (the web app shows clock times in UK time). */
export function longDateFormat(timeZone: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone,
  });
}

// A contract date ("2027-03-03") is a calendar day: read in UTC, no time zone can move it.
const utcLongDate = longDateFormat("UTC");

/** "3 March 2027" for "2027-03-03" (or a timestamp whose first ten characters are a date). */
export function formatLongDate(isoDate: string): string {
  return utcLongDate.format(new Date(`${isoDate.slice(0, 10)}T00:00:00Z`));
}

// A moment's clock time is shown in UK time, where staff work, whatever the machine says.
const ukLongDate = longDateFormat(UK_TIME_ZONE);
const ukClock = new Intl.DateTimeFormat("en-GB", {
  hour: "2-digit",
  minute: "2-digit",
  timeZone: UK_TIME_ZONE,
});

/** "17:37" for an instant (a timestamp, or ms since the epoch), in UK time: hours and minutes. */
export function formatUkClock(instant: string | number | Date): string {
  return ukClock.format(new Date(instant));
}

/**
 * "1 December 2026 at 17:37" for an instant (a timestamp, or ms since the epoch), in UK time:
 * the web app's words for a moment, and the command line's for a link's expiry.
 */
export function formatUkDateTime(instant: string | number | Date): string {
  const date = new Date(instant);
  return `${ukLongDate.format(date)} at ${ukClock.format(date)}`;
}

/** "17:37 on 1 December 2026" for an instant, in UK time: when a check was made, time first. */
export function formatUkTimeOnDate(instant: string | number | Date): string {
  const date = new Date(instant);
  return `${ukClock.format(date)} on ${ukLongDate.format(date)}`;
}
