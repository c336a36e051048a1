// Sends the alert webhooks that are due, each endpoint's in the order their alerts were
// planned: an endpoint whose oldest delivery waits for a retry gets nothing newer meanwhile, so
// a receiver that was down gets them in order once it is back. Out of retries, a delivery has
// failed and its endpoint is marked failing, for the admin; the next one that arrives clears it.
import { alertWords } from "@vics/shared";
import type { ProxyStore } from "../store/proxy-store.ts";
import type {
  PendingDelivery,
  StoredWebhook,
} from "../store/delivery-store.ts";
import { WEBHOOK_REMOVED } from "../store/delivery-rows.ts";
import { afterFailure } from "./retry-schedule.ts";
import { keepWanted } from "./still-wanted.ts";
import type {
  SendWebhookOptions,
  WebhookAttempt,
} from "./webhook/send-webhook.ts";

/** Sends one attempt (webhook/send-webhook.ts; a test may wrap it). */
export type WebhookSender = (
  attempt: Omit<SendWebhookOptions, "timeoutMs" | "lookup">,
) => Promise<Pick<WebhookAttempt, "ok" | "status" | "error">>;

interface WebhookDeps {
  store: ProxyStore;
  now: () => number;
  send: WebhookSender;
  /** True once the run should send no more: what is left waits for the next run. */
  shouldStop?: () => boolean;
  appUrl: string;
}

const LIMIT = 5_000;

/** The event a receiver gets (docs/watching.md, "Webhooks"). */
function webhookBody(
  delivery: PendingDelivery,
  appUrl: string,
  now: number,
): string {
  const { alert } = delivery;
  return JSON.stringify({
    type: "vehicle.alert",
    timestamp: new Date(now).toISOString(),
    data: {
      alert: {
        id: alert.id,
        kind: alert.kind,
        registration: alert.registration,
        detail: alert.detail,
        openedAt: new Date(alert.openedAt).toISOString(),
      },
      words: alertWords(alert),
      fleet: { id: delivery.fleetId, name: delivery.fleetName },
      vehicleUrl: `${appUrl}/fleets/vehicles/${encodeURIComponent(alert.registration)}`,
    },
  });
}

const secretsOf = (webhook: StoredWebhook, now: number) =>
  webhook.previousSecret &&
  webhook.previousUntil !== null &&
  webhook.previousUntil > now
    ? [webhook.secret, webhook.previousSecret]
    : [webhook.secret];

export async function deliverWebhooks(
  deps: WebhookDeps,
): Promise<{ sent: number; failed: number }> {
  const { store } = deps;
  const now = deps.now();
  const pending = await keepWanted(
    store,
    await store.pendingDeliveries("webhook", now, LIMIT),
  );
  const webhooks = new Map((await store.webhooks()).map((w) => [w.id, w]));
  let sent = 0;
  let failed = 0;
  for (const [target, queue] of Map.groupBy(pending, (d) => d.target)) {
    // No such webhook: removed since its deliveries were read (removeWebhook dropped them),
    // or removed while a rule naming it was saved, which leaves the rule naming it. Dropped
    // either way, or they would wait in its queue for ever.
    const webhook = webhooks.get(Number(target));
    if (!webhook) {
      await store.dropDeliveries(
        queue.map((delivery) => delivery.id),
        WEBHOOK_REMOVED,
      );
      continue;
    }
    for (const delivery of queue) {
      if (deps.shouldStop?.()) return { sent, failed };
      if ((delivery.nextAttemptAt ?? 0) > now) break;
      const result = await deps.send({
        url: webhook.url,
        allowPrivate: webhook.allowPrivate,
        id: `msg_vics_delivery_${delivery.id}`,
        timestamp: new Date(now),
        body: webhookBody(delivery, deps.appUrl, now),
        secrets: secretsOf(webhook, now),
      });
      if (result.ok) {
        await store.recordAttempt(
          [delivery.id],
          { at: now, ok: true, detail: `HTTP ${result.status}` },
          { status: "sent" },
        );
        if (webhook.failingSince !== null) {
          await store.setWebhookFailing(webhook.id, null);
          webhook.failingSince = null;
        }
        sent += 1;
        continue;
      }
      const words = result.error ?? `HTTP ${result.status}`;
      const outcome = afterFailure(delivery.attempts + 1, now, words);
      await store.recordAttempt(
        [delivery.id],
        { at: now, ok: false, detail: words },
        outcome,
      );
      failed += 1;
      if (outcome.status === "failed")
        await store.setWebhookFailing(webhook.id, { since: now, error: words });
      // The rest wait behind this one, in order.
      break;
    }
  }
  return { sent, failed };
}
