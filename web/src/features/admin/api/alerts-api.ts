// The alerts' email settings, for admins: whether email is on and the daily digest's time, and
// a new digest time. The webhooks and the delivery log have files of their own. Parsed with the
// shared contract.
import { queryOptions } from "@tanstack/react-query";
import { ALERT_PATHS, AlertMailSettingsSchema } from "@vics/shared";
import { apiGet, apiPatch } from "../../../lib/api-client.ts";
import { useRefreshingMutation } from "../../../lib/use-refreshing-mutation.ts";

/** Under it are every alerts query's keys: the email settings, the webhooks, the deliveries. */
export const ALERTS_KEY = ["admin", "alerts"] as const;

export function alertMailQueryOptions() {
  return queryOptions({
    queryKey: [...ALERTS_KEY, "mail"],
    queryFn: ({ signal }) =>
      apiGet(ALERT_PATHS.mail, AlertMailSettingsSchema, { signal }),
    staleTime: 0,
  });
}

function setDigestTime(digestTime: string) {
  return apiPatch(ALERT_PATHS.mail, { digestTime }, AlertMailSettingsSchema);
}

/** The answer is the whole of the settings: it replaces the cached ones, no refetch. */
export function useSetDigestTimeMutation() {
  return useRefreshingMutation(setDigestTime, (settings, queryClient) =>
    queryClient.setQueryData(alertMailQueryOptions().queryKey, settings),
  );
}
