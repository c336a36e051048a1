import { describe, expect, it } from "vitest";
import { http } from "msw";
import { ALERT_PATHS, DEFAULT_ALERT_RULE, type AlertRule } from "@vics/shared";
import { json } from "../../../testing/api-handlers.ts";
import { problemFixture } from "../../../testing/fixtures.ts";
import {
  isInvalidated,
  renderMutation,
} from "../../../testing/render-mutation.tsx";
import { server } from "../../../testing/server.ts";
import {
  alertRuleQueryOptions,
  useSaveAlertRuleMutation,
} from "./alert-rules-api.ts";

const FLEET = "fleet-1";
const cached = {
  fleet: { id: FLEET, name: "North depot" },
  rule: DEFAULT_ALERT_RULE,
  emailOn: true,
  webhooks: [{ id: 3, description: "Ops chat", failing: false }],
};
const silenced: AlertRule = { ...DEFAULT_ALERT_RULE, kinds: [] };

function renderSave() {
  const rendered = renderMutation(() => useSaveAlertRuleMutation(FLEET));
  const { queryKey } = alertRuleQueryOptions(FLEET);
  rendered.queryClient.setQueryData(queryKey, cached);
  return { ...rendered, queryKey };
}

describe("saving a fleet's alert rule", () => {
  it("keeps the saved rule in the cache, with the webhooks as they were", async () => {
    server.use(
      http.put(ALERT_PATHS.rule(FLEET), async ({ request }) =>
        json({ rule: await request.json() }),
      ),
    );
    const { queryClient, queryKey, result } = renderSave();

    await result.current.mutateAsync(silenced);

    expect(queryClient.getQueryData(queryKey)).toEqual({
      ...cached,
      rule: silenced,
    });
    expect(isInvalidated(queryClient, queryKey)).toBe(false);
  });

  it("tells the screen before the cache holds the saved rule, the order of every write", async () => {
    server.use(
      http.put(ALERT_PATHS.rule(FLEET), async ({ request }) =>
        json({ rule: await request.json() }),
      ),
    );
    const { queryKey } = alertRuleQueryOptions(FLEET);
    const seenByScreen: unknown[] = [];
    const { queryClient, result } = renderMutation(() =>
      useSaveAlertRuleMutation(FLEET, {
        onSuccess: () => seenByScreen.push(queryClient.getQueryData(queryKey)),
      }),
    );
    queryClient.setQueryData(queryKey, cached);

    await result.current.mutateAsync(silenced);

    expect(seenByScreen).toEqual([cached]);
    expect(queryClient.getQueryData(queryKey)).toEqual({
      ...cached,
      rule: silenced,
    });
  });

  it("asks for the rule and webhooks again when refused, as a webhook may have gone", async () => {
    server.use(
      http.put(ALERT_PATHS.rule(FLEET), () =>
        json(problemFixture("MALFORMED_REQUEST", 400), 400),
      ),
    );
    const { queryClient, queryKey, result } = renderSave();

    await expect(result.current.mutateAsync(silenced)).rejects.toThrow();

    expect(queryClient.getQueryData(queryKey)).toEqual(cached);
    expect(isInvalidated(queryClient, queryKey)).toBe(true);
  });
});
