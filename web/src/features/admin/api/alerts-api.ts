// The alerts' deliveries, for admins: the daily digest's time and whether email is on, the
// team's webhooks (added or rotated with a secret shown once, removed), and the delivery log
// with a failed delivery sent again. Parsed with the shared contract.
import { queryOptions } from "@tanstack/react-query";
import {
  ALERT_PATHS,
  AlertMailSettingsSchema,
  DeliveryLogSchema,
  WebhookSchema,
  WebhookSecretSchema,
  type DeliveryStatus,
} from "@vics/shared";
import { z } from "zod";
import {
  apiDelete,
  apiGet,
  apiPatch,
  apiPost,
} from "../../../lib/api-client.ts";

export function alertMailQueryOptions() {
  return queryOptions({
    queryKey: ["admin", "alerts", "mail"],
    queryFn: ({ signal }) =>
      apiGet(ALERT_PATHS.mail, AlertMailSettingsSchema, { signal }),
    staleTime: 0,
  });
}

export function setDigestTime(digestTime: string) {
  return apiPatch(ALERT_PATHS.mail, { digestTime }, AlertMailSettingsSchema);
}

export function webhooksQueryOptions() {
  return queryOptions({
    queryKey: ["admin", "alerts", "webhooks"],
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

export function addWebhook(webhook: NewWebhook) {
  return apiPost(ALERT_PATHS.webhooks, webhook, WebhookSecretSchema);
}

export function rotateWebhookSecret(id: number) {
  return apiPost(ALERT_PATHS.rotate(id), undefined, WebhookSecretSchema);
}

export function removeWebhook(id: number) {
  return apiDelete(ALERT_PATHS.webhook(id));
}

/** `status`: only the deliveries in it; all when undefined. */
export function deliveriesQueryOptions(status?: DeliveryStatus) {
  return queryOptions({
    queryKey: ["admin", "alerts", "deliveries", status ?? "all"],
    queryFn: ({ signal }) =>
      apiGet(
        status
          ? `${ALERT_PATHS.deliveries}?${new URLSearchParams({ status }).toString()}`
          : ALERT_PATHS.deliveries,
        DeliveryLogSchema,
        { signal },
      ),
    staleTime: 0,
  });
}

export function replayDelivery(id: number) {
  return apiPost(
    ALERT_PATHS.replay(id),
    undefined,
    z.object({ replayed: z.number() }),
  );
}
