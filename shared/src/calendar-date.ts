/**
 * Calendar dates as ISO `YYYY-MM-DD` text, the one form every part of VICS keeps them in: they
 * compare as text, and their arithmetic needs no time zone (through UTC). Which day "today" is
 * in the UK is uk-date.ts's question; this module only counts and checks days.
 */
export type IsoDate = string;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/**
 * The date of this year, month (1-12) and day, as `YYYY-MM-DD`; undefined when there is no such
 * day (30 February, month 13).
 */
export function calendarDate(
  year: number,
  month: number,
  day: number,
): IsoDate | undefined {
  // setUTCFullYear, not Date.UTC, which reads years 0-99 as 1900-1999.
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  if (
    utc.getUTCFullYear() !== year ||
    utc.getUTCMonth() !== month - 1 ||
    utc.getUTCDate() !== day
  )
    return undefined;
  return utc.toISOString().slice(0, 10);
}

/** True for `YYYY-MM-DD` text naming a day that exists (2026-02-30 does not). */
export function isCalendarDate(text: string): boolean {
  const match = ISO_DATE.exec(text);
  return (
    match !== null &&
    calendarDate(Number(match[1]), Number(match[2]), Number(match[3])) === text
  );
}

/** The UTC calendar date of an instant. */
export function utcDate(instant: Date): IsoDate {
  return instant.toISOString().slice(0, 10);
}

function dayNumber(isoDate: string): number {
  return Math.floor(Date.parse(`${isoDate.slice(0, 10)}T00:00:00Z`) / DAY_MS);
}

/**
 * Whole calendar days from `from` to `to` (both "YYYY-MM-DD", or timestamps whose first ten
 * characters are one); negative when `to` is earlier. Calendar days need no time zone.
 */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

/** The calendar date `days` after `date` (before it when negative). */
export function addDays(date: IsoDate, days: number): IsoDate {
  return new Date((dayNumber(date) + days) * DAY_MS).toISOString().slice(0, 10);
}

const isLeapYear = (year: number) =>
  year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

/**
 * 29 February plus whole years lands on 1 March when the target year has no leap day. Worked
 * on the text, not through a Date: every vehicle of a bulk compliance check asks it once.
 */
export function addYears(date: IsoDate, years: number): IsoDate {
  const year = String(yearOf(date) + years).padStart(4, "0");
  const monthDay = date.slice(4);
  if (monthDay === "-02-29" && !isLeapYear(Number(year)))
    return `${year}-03-01`;
  return year + monthDay;
}

export function yearOf(date: IsoDate): number {
  return Number(date.slice(0, 4));
}
