import { describe, expect, it } from "vitest";
import { HttpResponse, http } from "msw";
import { ALERT_PATHS, type Webhook } from "@vics/shared";
import { json } from "../../../testing/api-handlers.ts";
import {
  isInvalidated,
  renderMutation,
} from "../../../testing/render-mutation.tsx";
import { server } from "../../../testing/server.ts";
import {
  useAddWebhookMutation,
  useRemoveWebhookMutation,
  webhooksQueryOptions,
} from "./webhooks-api.ts";

const webhook: Webhook = {
  id: 4,
  url: "https://hooks.example.com/vics",
  description: "Ops chat",
  allowPrivate: false,
  createdAt: "2026-11-20T09:00:00.000Z",
  failingSince: null,
  lastError: null,
  previousSecretUntil: null,
};
const listKey = webhooksQueryOptions().queryKey;

describe("the webhooks' writes", () => {
  it("adding one answers with its secret and marks the list stale", async () => {
    server.use(
      http.post(ALERT_PATHS.webhooks, () =>
        json({ webhook, secret: "whsec_test" }),
      ),
    );
    const { queryClient, result } = renderMutation(() =>
      useAddWebhookMutation(),
    );
    queryClient.setQueryData(listKey, { webhooks: [] });

    const added = await result.current.mutateAsync({
      url: webhook.url,
      description: webhook.description,
      allowPrivate: false,
    });

    expect(added.webhook.id).toBe(webhook.id);
    expect(isInvalidated(queryClient, listKey)).toBe(true);
  });

  it("removing one tells the screen before the list is marked stale", async () => {
    server.use(
      http.delete(
        ALERT_PATHS.webhook(webhook.id),
        () => new HttpResponse(null, { status: 204 }),
      ),
    );
    const seen: (boolean | undefined)[] = [];
    const { queryClient, result } = renderMutation(() =>
      useRemoveWebhookMutation({
        onSuccess: () => seen.push(isInvalidated(queryClient, listKey)),
      }),
    );
    queryClient.setQueryData(listKey, { webhooks: [webhook] });

    await result.current.mutateAsync(webhook);

    expect(seen).toEqual([false]);
    expect(isInvalidated(queryClient, listKey)).toBe(true);
  });
});
