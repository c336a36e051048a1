// Whether a pending delivery should still go, judged when it is due rather than when it was
// planned: a vehicle sold (removed from the fleet) falls silent, and so does an address that
// unsubscribed, a webhook removed, or a kind the fleet's rule no longer sends.
import { DEFAULT_ALERT_RULE, ruleTakes, type AlertRule } from "@vics/shared";
import type {
  DeliveryStore,
  PendingDelivery,
} from "../store/delivery-store.ts";
import { WEBHOOK_REMOVED } from "../store/delivery-rows.ts";
import { alertThreshold } from "./plan-deliveries.ts";

/** Why the delivery should not go, in words; undefined when it should. */
export function notWantedBecause(
  delivery: PendingDelivery,
  rule: AlertRule,
  webhookIds: ReadonlySet<number>,
): string | undefined {
  if (delivery.fleetName === undefined) return "The fleet was deleted";
  if (!delivery.stillInFleet) return "The vehicle left the fleet";
  // An email says what holds now: an alert closed since (renewed before the digest, insured
  // again within the hour) is not emailed. Webhooks get every event, in order. An alert opened
  // already closed ("insured again", "fines paid") is news, and goes.
  const { openedAt, closedAt } = delivery.alert;
  if (delivery.channel === "email" && closedAt !== null && closedAt > openedAt)
    return "The alert had closed before the email went";
  if (!ruleTakes(rule, delivery.alert.kind, alertThreshold(delivery.alert)))
    return "The fleet's alert rule no longer sends this";
  if (delivery.channel === "email" && !rule.emails.includes(delivery.target))
    return "The address is no longer in the fleet's alert rule (or unsubscribed)";
  if (delivery.channel === "webhook") {
    const id = Number(delivery.target);
    if (!webhookIds.has(id)) return WEBHOOK_REMOVED;
    if (!rule.webhookIds.includes(id))
      return "The webhook is no longer in the fleet's alert rule";
  }
  return undefined;
}

/** Each fleet's current rule, read once per run. */
export function rulesOf(store: DeliveryStore) {
  const rules = new Map<string, Promise<AlertRule>>();
  return (fleetId: string) => {
    let rule = rules.get(fleetId);
    if (!rule) {
      rule = store.alertRule(fleetId).then((r) => r ?? DEFAULT_ALERT_RULE);
      rules.set(fleetId, rule);
    }
    return rule;
  };
}

/** Drops the deliveries no longer wanted (with why); returns those that still are. */
export async function keepWanted(
  store: DeliveryStore,
  deliveries: readonly PendingDelivery[],
  webhookIds: ReadonlySet<number>,
): Promise<PendingDelivery[]> {
  const ruleOf = rulesOf(store);
  const kept: PendingDelivery[] = [];
  const dropped = new Map<string, number[]>();
  for (const delivery of deliveries) {
    const why = notWantedBecause(
      delivery,
      await ruleOf(delivery.fleetId),
      webhookIds,
    );
    if (why === undefined) kept.push(delivery);
    else dropped.set(why, [...(dropped.get(why) ?? []), delivery.id]);
  }
  for (const [why, ids] of dropped) await store.dropDeliveries(ids, why);
  return kept;
}
