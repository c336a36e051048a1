/**
 * Calendar dates are ISO `YYYY-MM-DD` strings, so they compare as text. "Today" is the UK's
 * date (`ukDate` in @vics/shared); the arithmetic here works on dates alone, through UTC.
 */
export type IsoDate = string;

export function utcDate(instant: Date): IsoDate {
  return instant.toISOString().slice(0, 10);
}

function parseIsoDate(date: IsoDate): Date {
  return new Date(`${date}T00:00:00.000Z`);
}

export function addDays(date: IsoDate, days: number): IsoDate {
  const result = parseIsoDate(date);
  result.setUTCDate(result.getUTCDate() + days);
  return utcDate(result);
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
