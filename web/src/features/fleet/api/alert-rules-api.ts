// A saved fleet's alert rule (the proxy's /api/fleets/{id}/alert-rule), parsed with the shared
// contract: the rule with the team's webhooks it may choose from, and saving a new rule.
import { queryOptions, useQueryClient } from "@tanstack/react-query";
import {
  ALERT_PATHS,
  AlertRuleSchema,
  FleetAlertRuleSchema,
  type AlertRule,
} from "@vics/shared";
import { z } from "zod";
import { apiGet, apiPut } from "../../../lib/api-client.ts";
import { useRefreshingMutation } from "../../../lib/use-refreshing-mutation.ts";
import type { WriteCallbacks } from "../../../lib/write-callbacks.ts";

export function alertRuleQueryOptions(fleetId: string) {
  return queryOptions({
    queryKey: ["fleets", fleetId, "alert-rule"],
    queryFn: ({ signal }) =>
      apiGet(ALERT_PATHS.rule(fleetId), FleetAlertRuleSchema, { signal }),
    // The team's webhooks change on the admin's page: ask again on every visit.
    staleTime: 0,
  });
}

export function saveAlertRule(fleetId: string, rule: AlertRule) {
  return apiPut(
    ALERT_PATHS.rule(fleetId),
    rule,
    z.object({ rule: AlertRuleSchema }),
  );
}

/**
 * Saving the rule: the screen's onSuccess first, then the cached rule becomes the saved one. On a
 * refusal the rule and the team's webhooks are asked again, as one chosen may have been removed
 * meanwhile.
 */
export function useSaveAlertRuleMutation(
  fleetId: string,
  callbacks: WriteCallbacks<AlertRule, AlertRule> = {},
) {
  const queryClient = useQueryClient();
  const { queryKey } = alertRuleQueryOptions(fleetId);
  return useRefreshingMutation(
    async (rule: AlertRule) => (await saveAlertRule(fleetId, rule)).rule,
    (saved) =>
      queryClient.setQueryData(queryKey, (old) =>
        old ? { ...old, rule: saved } : old,
      ),
    {
      ...callbacks,
      onError: (error, rule) => {
        callbacks.onError?.(error, rule);
        void queryClient.invalidateQueries({ queryKey });
      },
    },
  );
}
