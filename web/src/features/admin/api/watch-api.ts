// The watched fleets' re-checks, for admins: the daily time and the latest sweeps, and a new
// daily time (UK time).
import { queryOptions } from "@tanstack/react-query";
import { WATCH_PATHS, WatchAdminSchema } from "@vics/shared";
import { z } from "zod";
import { apiGet, apiPatch } from "../../../lib/api-client.ts";
import { useRefreshingMutation } from "../../../lib/use-refreshing-mutation.ts";

export function watchAdminQueryOptions() {
  return queryOptions({
    queryKey: ["admin", "watch"],
    queryFn: ({ signal }) =>
      apiGet(WATCH_PATHS.admin, WatchAdminSchema, { signal }),
    staleTime: 0,
  });
}

function setDailyTime(dailyTime: string) {
  return apiPatch(
    WATCH_PATHS.admin,
    { dailyTime },
    z.object({ dailyTime: z.string() }),
  );
}

/** The answer is the time alone: the settings and sweeps are read again; pending until then. */
export function useSetDailyTimeMutation() {
  return useRefreshingMutation(setDailyTime, watchAdminQueryOptions().queryKey);
}
