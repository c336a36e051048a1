// Whether a pending delivery should still go, judged when it is due rather than when it was
// planned, against its fleet's rule as it is now (read with the delivery): a vehicle sold
// (removed from the fleet) falls silent, and so does an address that unsubscribed, a webhook
// taken out of the rule, or a kind the rule no longer sends.
import { ruleTakes } from "@vics/shared";
import type {
  DeliveryStore,
  PendingDelivery,
} from "../store/delivery-store.ts";
import { FLEET_DELETED } from "../store/delivery-rows.ts";

/** Why the delivery should not go, in words; undefined when it should. */
function notWantedBecause(delivery: PendingDelivery): string | undefined {
  const { rule, alert } = delivery;
  if (delivery.fleetName === undefined) return FLEET_DELETED;
  if (!delivery.stillInFleet) return "The vehicle left the fleet";
  // An email says what holds now: an alert closed since (renewed before the digest, insured
  // again within the hour) is not emailed. Webhooks get every event, in order. An alert opened
  // already closed ("insured again", "fines paid") is news, and goes.
  if (
    delivery.channel === "email" &&
    alert.closedAt !== null &&
    alert.closedAt > alert.openedAt
  )
    return "The alert had closed before the email went";
  if (!ruleTakes(rule, alert))
    return "The fleet's alert rule no longer sends this";
  if (delivery.channel === "email" && !rule.emails.includes(delivery.target))
    return "The address is no longer in the fleet's alert rule (or unsubscribed)";
  if (
    delivery.channel === "webhook" &&
    !rule.webhookIds.includes(Number(delivery.target))
  )
    return "The webhook is no longer in the fleet's alert rule";
  return undefined;
}

/** Drops the deliveries no longer wanted (with why); returns those that still are. */
export async function keepWanted(
  store: DeliveryStore,
  deliveries: readonly PendingDelivery[],
): Promise<PendingDelivery[]> {
  const kept: PendingDelivery[] = [];
  const dropped = new Map<string, number[]>();
  for (const delivery of deliveries) {
    const why = notWantedBecause(delivery);
    if (why === undefined) kept.push(delivery);
    else dropped.set(why, [...(dropped.get(why) ?? []), delivery.id]);
  }
  for (const [why, ids] of dropped) await store.dropDeliveries(ids, why);
  return kept;
}
