// Which deliveries each new alert is owed, under the rules of the fleets that hold its vehicle
// now: an email per address (at once for the rule's instant kinds, else at the next digest) and
// a webhook per endpoint. Planned in one transaction with the alerts marked planned, and each
// (alert, fleet, channel, target) once, so planning run twice, or killed midway, owes nothing
// twice and forgets nothing.
import { ruleTakes } from "@vics/shared";
import type {
  AlertFleet,
  DeliveryStore,
  NewDelivery,
} from "../store/delivery-store.ts";
import type { StoredAlert } from "../store/watch-store.ts";

const BATCH = 500;

function deliveriesOf(
  alert: StoredAlert,
  fleets: readonly AlertFleet[],
  times: { now: number; digestAt: number },
): NewDelivery[] {
  const owed: NewDelivery[] = [];
  for (const { fleetId, rule } of fleets) {
    if (!ruleTakes(rule, alert)) continue;
    const instant = rule.instantKinds.includes(alert.kind);
    for (const email of rule.emails)
      owed.push({
        alertId: alert.id,
        fleetId,
        channel: "email",
        target: email,
        timing: instant ? "instant" : "digest",
        dueAt: instant ? times.now : times.digestAt,
      });
    // removeWebhook takes a webhook out of every rule; one removed while a rule naming it was
    // saved may still be named, and its deliveries are dropped when due (deliver-webhooks.ts).
    for (const id of rule.webhookIds)
      owed.push({
        alertId: alert.id,
        fleetId,
        channel: "webhook",
        target: String(id),
        timing: "instant",
        dueAt: times.now,
      });
  }
  return owed;
}

/** Plans every alert not planned yet; returns how many deliveries that added at most. */
export async function planDeliveries(
  store: DeliveryStore,
  times: { now: number; digestAt: number },
): Promise<number> {
  let planned = 0;
  for (;;) {
    const alerts = await store.unplannedAlerts(BATCH);
    if (alerts.length === 0) return planned;
    const fleets = Map.groupBy(
      await store.alertFleets([...new Set(alerts.map((a) => a.registration))]),
      (fleet) => fleet.registration,
    );
    const owed = alerts.flatMap((alert) =>
      deliveriesOf(alert, fleets.get(alert.registration) ?? [], times),
    );
    await store.planDeliveries(
      alerts.map((alert) => alert.id),
      owed,
      times.now,
    );
    planned += owed.length;
  }
}
