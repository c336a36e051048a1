// When the daily digest of alert emails goes: a UK time of day the admin sets, like the
// re-checks' (croner reads it in Europe/London, so 07:00 stays 07:00 across the clock change);
// the next one is daily-time.ts' nextDailyAt, the sweep's own rule.
import type { WatchStore } from "../store/watch-store.ts";

export const DIGEST_TIME_SETTING = "digest time";
const DEFAULT_DIGEST_TIME = "07:00";

export async function digestTime(store: WatchStore): Promise<string> {
  return (await store.watchSetting(DIGEST_TIME_SETTING)) ?? DEFAULT_DIGEST_TIME;
}
