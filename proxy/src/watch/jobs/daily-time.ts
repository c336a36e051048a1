// When the daily sweep runs: a time of day in the UK, as the admin sets it ("06:00"). The job
// engines read it as a cron pattern in Europe/London, so 06:00 stays 06:00 across the clock
// change.
import { UK_TIME_ZONE } from "@vics/shared";

export const DAILY_TIME_SETTING = "daily time";
export const DEFAULT_DAILY_TIME = "06:00";
export const SWEEP_TIME_ZONE = UK_TIME_ZONE;

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

export function isDailyTime(text: string): boolean {
  return TIME.test(text);
}

/** "06:30" → "30 6 * * *" (minute, hour). */
export function dailyCron(time: string): string {
  const match = TIME.exec(time);
  if (!match) throw new Error(`Not a time of day: "${time}"`);
  return `${Number(match[2])} ${Number(match[1])} * * *`;
}
