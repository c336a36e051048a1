/**
 * "Today", for every check and in the web app, is the calendar date in the United Kingdom
 * (docs/contract.md): at 00:30 on a summer morning in London it is already the new day, though
 * UTC is still on the previous one. Timestamps stay in UTC.
 */
import { isCalendarDate } from "./calendar-date.ts";

export const UK_TIME_ZONE = "Europe/London";

const ukCalendar = new Intl.DateTimeFormat("en-GB", {
  timeZone: UK_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** The UK calendar date ("YYYY-MM-DD") at an instant. */
export function ukDate(instant: Date): string {
  // The UK date changes only on a whole minute (midnight, whichever offset applies), so one
  // answer holds for the whole minute: formatToParts once a minute, not per request.
  const minute = Math.floor(instant.getTime() / 60_000);
  if (minute === cached.minute) return cached.date;
  const date = formatUkDate(instant);
  cached = { minute, date };
  return date;
}

let cached = { minute: Number.NaN, date: "" };

function formatUkDate(instant: Date): string {
  const parts = Object.fromEntries(
    ukCalendar.formatToParts(instant).map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/**
 * The instant a UK calendar date ("YYYY-MM-DD") begins: midnight in London, which is 00:00 UTC
 * in winter and 23:00 UTC the evening before in summer. Undefined for text that is not a date.
 */
export function ukMidnight(date: string): number | undefined {
  if (!isCalendarDate(date)) return undefined;
  const utc = Date.parse(`${date}T00:00:00Z`);
  for (const start of [utc - 3_600_000, utc]) {
    if (
      formatUkDate(new Date(start)) === date &&
      formatUkDate(new Date(start - 60_000)) !== date
    )
      return start;
  }
  return utc;
}
