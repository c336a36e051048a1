// The team's webhooks, for admins: the list, and one added or its secret rotated (the secret
// shown once) or removed. Each write has the list read again. Parsed with the shared contract.
import { queryOptions } from "@tanstack/react-query";
import {
  ALERT_PATHS,
  WebhookSchema,
  WebhookSecretSchema,
  type Webhook,
} from "@vics/shared";
import { z } from "zod";
import { apiDelete, apiGet, apiPost } from "../../../lib/api-client.ts";
import { useRefreshingMutation } from "../../../lib/use-refreshing-mutation.ts";
import type { WriteCallbacks } from "../../../lib/write-callbacks.ts";
import { ALERTS_KEY } from "./alerts-api.ts";

export function webhooksQueryOptions() {
  return queryOptions({
    queryKey: [...ALERTS_KEY, "webhooks"],
    queryFn: ({ signal }) =>
      apiGet(
        ALERT_PATHS.webhooks,
        z.object({ webhooks: z.array(WebhookSchema) }),
        { signal },
      ),
    staleTime: 0,
  });
}

export interface NewWebhook {
  url: string;
  description: string;
  allowPrivate: boolean;
}

function addWebhook(webhook: NewWebhook) {
  return apiPost(ALERT_PATHS.webhooks, webhook, WebhookSecretSchema);
}

function rotateWebhookSecret(id: number) {
  return apiPost(ALERT_PATHS.rotate(id), undefined, WebhookSecretSchema);
}

function removeWebhook(id: number) {
  return apiDelete(ALERT_PATHS.webhook(id));
}

/** The list is read again without waiting: the secret is shown at once. */
function useWriteShowingSecret<TVariables>(
  write: (variables: TVariables) => ReturnType<typeof addWebhook>,
) {
  return useRefreshingMutation(write, (_secret, queryClient) => {
    void queryClient.invalidateQueries({
      queryKey: webhooksQueryOptions().queryKey,
    });
  });
}

export const useAddWebhookMutation = () => useWriteShowingSecret(addWebhook);

export const useRotateWebhookSecretMutation = () =>
  useWriteShowingSecret(rotateWebhookSecret);

/** Pending until the list has been read again, without the webhook. */
export function useRemoveWebhookMutation(
  callbacks: WriteCallbacks<void, Webhook> = {},
) {
  return useRefreshingMutation(
    (webhook: Webhook) => removeWebhook(webhook.id),
    webhooksQueryOptions().queryKey,
    callbacks,
  );
}
