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

/** 29 February plus whole years lands on 1 March when the target year has no leap day. */
export function addYears(date: IsoDate, years: number): IsoDate {
  const result = parseIsoDate(date);
  result.setUTCFullYear(result.getUTCFullYear() + years);
  return utcDate(result);
}

export function yearOf(date: IsoDate): number {
  return Number(date.slice(0, 4));
}
