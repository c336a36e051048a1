// When the daily sweep runs: a time of day in the UK, as the admin sets it ("06:00"). The job
// engines read it as a cron pattern in Europe/London, so 06:00 stays 06:00 across the clock
// change.
import { Cron } from "croner";
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

/**
 * The refresh of the watched vehicles' register facts runs this long before the sweep: DVLA's
 * default 10 requests a second takes 2 h 47 min for 100,000 vehicles (docs/sources.md).
 */
export const DEFAULT_REFRESH_LEAD_MINUTES = 240;
export const MAX_REFRESH_LEAD_MINUTES = 12 * 60;

const DAY_MINUTES = 24 * 60;

/**
 * The time of day `leadMinutes` before `time`, the day before when it crosses midnight:
 * ("06:00", 120) → "04:00", ("01:00", 120) → "23:00". Both are UK times, so the lead holds
 * across the clock change except on its night.
 */
export function timeBefore(time: string, leadMinutes: number): string {
  const match = TIME.exec(time);
  if (!match) throw new Error(`Not a time of day: "${time}"`);
  const at =
    (((Number(match[1]) * 60 + Number(match[2]) - leadMinutes) % DAY_MINUTES) +
      DAY_MINUTES) %
    DAY_MINUTES;
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(Math.floor(at / 60))}:${two(at % 60)}`;
}

/**
 * The first instant at `time` (UK time) after `now`: the coming daily sweep, which the refresh
 * ahead of it asks the service to have every fact fresh until; or the coming digest of alert
 * emails.
 */
export function nextDailyAt(time: string, now: number): number {
  // No function given: croner only reads the pattern, it schedules nothing.
  const next = new Cron(dailyCron(time), {
    timezone: SWEEP_TIME_ZONE,
  }).nextRun(new Date(now));
  if (!next)
    throw new Error(`No ${time} follows ${new Date(now).toISOString()}`);
  return next.getTime();
}
