// When the daily digest of alert emails goes: a UK time of day the admin sets, like the
// re-checks' (croner reads it in Europe/London, so 07:00 stays 07:00 across the clock change).
import { Cron } from "croner";
import { UK_TIME_ZONE } from "@vics/shared";
import { dailyCron } from "../watch/jobs/daily-time.ts";
import type { WatchStore } from "../store/watch-store.ts";

export const DIGEST_TIME_SETTING = "digest time";
const DEFAULT_DIGEST_TIME = "07:00";

/** The first digest time after `now` (ms since the epoch). */
export function nextDigestAt(time: string, now: number): number {
  const next = new Cron(dailyCron(time), { timezone: UK_TIME_ZONE }).nextRun(
    new Date(now),
  );
  if (!next)
    throw new Error(`No digest time after ${new Date(now).toISOString()}`);
  return next.getTime();
}

export async function digestTime(store: WatchStore): Promise<string> {
  return (await store.watchSetting(DIGEST_TIME_SETTING)) ?? DEFAULT_DIGEST_TIME;
}
