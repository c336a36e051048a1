// Sends the alert webhooks that are due. An endpoint's deliveries are queued per fleet, each
// queue in the order its alerts were planned, and the endpoint's fleets take turns: one batch
// each, round and round, so one fleet's storm (9,000 alerts from one sweep) cannot hold another
// fleet's urgent alert behind it. A batch is one POST of up to FLEET_BATCH alerts of one fleet
// (docs/watching.md, "Webhooks"), not one per vehicle. A queue whose oldest batch waits for a
// retry gets nothing newer meanwhile, so a receiver that was down gets them in order once it is
// back. Out of retries, a batch has failed and its endpoint is marked failing, for the admin;
// the next one that arrives clears it.
import { alertWords } from "@vics/shared";
import type { ProxyStore } from "../store/proxy-store.ts";
import type {
  PendingDelivery,
  StoredWebhook,
} from "../store/delivery-store.ts";
import { FLEET_BATCH, WEBHOOK_REMOVED } from "../store/delivery-rows.ts";
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

const LIMIT = 20_000;

/** One alert as a receiver gets it. */
function eventAlert({ alert }: PendingDelivery, appUrl: string) {
  return {
    alert: {
      id: alert.id,
      kind: alert.kind,
      registration: alert.registration,
      detail: alert.detail,
      openedAt: new Date(alert.openedAt).toISOString(),
    },
    words: alertWords(alert),
    vehicleUrl: `${appUrl}/fleets/vehicles/${encodeURIComponent(alert.registration)}`,
  };
}

/**
 * The event a receiver gets (docs/watching.md, "Webhooks"): one alert as `vehicle.alert`, as
 * ever; more of one fleet as one `vehicle.alerts`.
 */
function webhookBody(
  batch: readonly PendingDelivery[],
  appUrl: string,
  now: number,
): string {
  const [first] = batch;
  const fleet = { id: first!.fleetId, name: first!.fleetName };
  const timestamp = new Date(now).toISOString();
  if (batch.length === 1)
    return JSON.stringify({
      type: "vehicle.alert",
      timestamp,
      data: { ...eventAlert(first!, appUrl), fleet },
    });
  return JSON.stringify({
    type: "vehicle.alerts",
    timestamp,
    data: {
      fleet,
      count: batch.length,
      alerts: batch.map((delivery) => eventAlert(delivery, appUrl)),
    },
  });
}

/** The same on every retry of the same batch: the receiver's idempotency key. */
const messageId = (batch: readonly PendingDelivery[]) =>
  batch.length === 1
    ? `msg_vics_delivery_${batch[0]!.id}`
    : `msg_vics_deliveries_${batch[0]!.id}_${batch.at(-1)!.id}`;

const waiting = (delivery: PendingDelivery, now: number) =>
  (delivery.nextAttemptAt ?? 0) > now;

/**
 * The next POST of a fleet's queue: its oldest delivery and those after it tried as often
 * (a batch that failed is retried as it was, with the same id; new ones wait behind it).
 */
function nextBatch(queue: readonly PendingDelivery[]): PendingDelivery[] {
  const head = queue[0]!;
  const batch: PendingDelivery[] = [];
  for (const delivery of queue) {
    if (batch.length === FLEET_BATCH || delivery.attempts !== head.attempts)
      break;
    if (head.attempts > 0 && delivery.nextAttemptAt !== head.nextAttemptAt)
      break;
    batch.push(delivery);
  }
  return batch;
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

  /** One POST of `batch`; true when the receiver took it. */
  async function send(webhook: StoredWebhook, batch: PendingDelivery[]) {
    const ids = batch.map((delivery) => delivery.id);
    const result = await deps.send({
      url: webhook.url,
      allowPrivate: webhook.allowPrivate,
      id: messageId(batch),
      timestamp: new Date(now),
      body: webhookBody(batch, deps.appUrl, now),
      secrets: secretsOf(webhook, now),
    });
    if (result.ok) {
      await store.recordAttempt(
        ids,
        { at: now, ok: true, detail: `HTTP ${result.status}` },
        { status: "sent" },
      );
      if (webhook.failingSince !== null) {
        await store.setWebhookFailing(webhook.id, null);
        webhook.failingSince = null;
      }
      sent += batch.length;
      return true;
    }
    const words = result.error ?? `HTTP ${result.status}`;
    // Every delivery of a batch has been tried as often (nextBatch).
    const outcome = afterFailure(batch[0]!.attempts + 1, now, words);
    await store.recordAttempt(
      ids,
      { at: now, ok: false, detail: words },
      outcome,
    );
    failed += batch.length;
    if (outcome.status === "failed")
      await store.setWebhookFailing(webhook.id, { since: now, error: words });
    return false;
  }

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
    // The fleets take turns; a queue whose oldest waits for a retry holds its newer ones.
    let turns = [...Map.groupBy(queue, (d) => d.fleetId).values()];
    while (turns.length > 0) {
      const next: PendingDelivery[][] = [];
      for (const fleetQueue of turns) {
        if (deps.shouldStop?.()) return { sent, failed };
        if (waiting(fleetQueue[0]!, now)) continue;
        const batch = nextBatch(fleetQueue);
        // A batch refused waits for its retry, and the rest of its fleet's queue behind it.
        if (!(await send(webhook, batch))) continue;
        const rest = fleetQueue.slice(batch.length);
        if (rest.length > 0) next.push(rest);
      }
      turns = next;
    }
  }
  return { sent, failed };
}
