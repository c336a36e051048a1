import type { DeliveryChannel, DeliveryStore } from "../delivery-store.ts";
import { sql } from "kysely";
import {
  DELIVERY_SELECT,
  toAttempt,
  toPending,
  toRule,
  toWebhook,
  type PendingRow,
} from "../delivery-rows.ts";
import { toAlertRow } from "../watch-rows.ts";
import type { KyselyStore } from "./spelling.ts";

/**
 * The deliveries' single statements, one text for both engines. What each engine does its own
 * way stays in its folder (delivery-queries.ts there): planning, the queue, attempts and a
 * webhook's removal, written as transactions or over arrays each engine spells apart.
 */
export type SharedDeliveryQueries = Pick<
  DeliveryStore,
  | "alertRule"
  | "setAlertRule"
  | "unplannedAlerts"
  | "replayDelivery"
  | "rescheduleDigests"
  | "webhooks"
  | "addWebhook"
  | "rotateWebhookSecret"
  | "lastEmailSentAt"
  | "unsubscribeLinksDatedFrom"
  | "setWebhookFailing"
  | "deliveryLog"
  | "pendingDeliveryCounts"
>;

/** What each engine's folder still writes itself. */
export type EngineDeliveryQueries = Omit<
  DeliveryStore,
  keyof SharedDeliveryQueries
>;

export function sharedDeliveryQueries({
  db,
  spelling,
}: KyselyStore): SharedDeliveryQueries {
  const { flag, settings } = spelling;
  return {
    async alertRule(fleetId) {
      const row = await db
        .selectFrom("fleet_alert_rules")
        .select("rule")
        .where("fleet_id", "=", fleetId)
        .executeTakeFirst();
      return row ? toRule(row.rule) : undefined;
    },
    async setAlertRule(fleetId, rule, at) {
      await db
        .insertInto("fleet_alert_rules")
        .values({
          fleet_id: fleetId,
          rule: JSON.stringify(rule),
          updated_at: at,
        })
        .onConflict((oc) =>
          oc.column("fleet_id").doUpdateSet((eb) => ({
            rule: eb.ref("excluded.rule"),
            updated_at: eb.ref("excluded.updated_at"),
          })),
        )
        .execute();
    },
    async unplannedAlerts(limit) {
      const rows = await db
        .selectFrom("vehicle_alerts")
        .selectAll()
        .where("planned_at", "is", null)
        .orderBy("id")
        .limit(limit)
        .execute();
      return rows.map(toAlertRow);
    },
    async replayDelivery(id, at) {
      const { numUpdatedRows } = await db
        .updateTable("deliveries")
        .set({
          status: "pending",
          note: null,
          attempts: 0,
          next_attempt_at: at,
        })
        .where("id", "=", id)
        .where("status", "in", ["failed", "dropped"])
        .executeTakeFirstOrThrow();
      return numUpdatedRows === 1n;
    },
    async pendingDeliveryCounts(now) {
      // Through the partial index on pending rows; every email target is one endpoint.
      const rows = await db
        .selectFrom("deliveries")
        .select([
          "channel",
          sql<string | null>`CASE WHEN channel = 'webhook' THEN target END`.as(
            "webhook",
          ),
          sql<number>`count(*)`.as("pending"),
          sql<number>`sum(CASE WHEN next_attempt_at <= ${now} THEN 1 ELSE 0 END)`.as(
            "due",
          ),
          sql<
            number | null
          >`min(CASE WHEN next_attempt_at <= ${now} THEN next_attempt_at END)`.as(
            "oldest_due_at",
          ),
        ])
        .where("status", "=", "pending")
        .groupBy([
          "channel",
          sql`CASE WHEN channel = 'webhook' THEN target END`,
        ])
        .execute();
      return rows.map((row) => ({
        channel: row.channel as DeliveryChannel,
        ...(row.webhook !== null && { webhookId: Number(row.webhook) }),
        pending: Number(row.pending),
        due: Number(row.due),
        ...(row.oldest_due_at !== null && {
          oldestDueAt: Number(row.oldest_due_at),
        }),
      }));
    },
    async rescheduleDigests(dueAt) {
      await db
        .updateTable("deliveries")
        .set({ next_attempt_at: dueAt })
        .where("status", "=", "pending")
        .where("timing", "=", "digest")
        .where("attempts", "=", 0)
        .execute();
    },
    async webhooks() {
      const rows = await db
        .selectFrom("webhooks")
        .selectAll()
        .orderBy("id")
        .execute();
      return rows.map(toWebhook);
    },
    async addWebhook(webhook, at) {
      const row = await db
        .insertInto("webhooks")
        .values({
          url: webhook.url,
          description: webhook.description,
          allow_private: flag(webhook.allowPrivate),
          secret: webhook.secret,
          created_at: at,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toWebhook(row);
    },
    async rotateWebhookSecret(id, secret, previousUntil) {
      const row = await db
        .updateTable("webhooks")
        .set((eb) => ({
          previous_secret: eb.ref("secret"),
          previous_until: previousUntil,
          secret,
        }))
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirst();
      return row && toWebhook(row);
    },
    async lastEmailSentAt(email) {
      const row = await db
        .selectFrom("deliveries as d")
        .innerJoin("delivery_attempts as a", (join) =>
          join.onRef("a.delivery_id", "=", "d.id").on("a.ok", "=", flag(true)),
        )
        .select((eb) => eb.fn.max<number | null>("a.at").as("at"))
        .where("d.channel", "=", "email")
        .where("d.target", "=", email)
        .executeTakeFirstOrThrow();
      return row.at;
    },
    async unsubscribeLinksDatedFrom() {
      const row = await db
        .selectFrom(settings)
        .select("value")
        .where("name", "=", "unsubscribe_links_dated_from")
        .executeTakeFirstOrThrow();
      return Number(row.value);
    },
    async deliveryLog({ limit, status }) {
      // The deliveries with their alerts and fleets (delivery-rows.ts), newest first.
      const { rows } = await sql<PendingRow>`${sql.raw(DELIVERY_SELECT)}
        ${(status ?? null) === null ? sql`` : sql`WHERE d.status = ${status}`}
        ORDER BY d.id DESC LIMIT ${limit}`.execute(db);
      const ids = rows.map((row) => Number(row.id));
      const attempts =
        ids.length === 0
          ? []
          : await db
              .selectFrom("delivery_attempts")
              .selectAll()
              .where("delivery_id", "in", ids)
              .orderBy("id")
              .execute();
      const byDelivery = Map.groupBy(attempts, (row) =>
        Number(row.delivery_id),
      );
      return rows.map((row) => {
        const delivery = toPending(row);
        return {
          ...delivery,
          registration: delivery.alert.registration,
          attemptLog: (byDelivery.get(delivery.id) ?? []).map(toAttempt),
        };
      });
    },
    async setWebhookFailing(id, state) {
      await db
        .updateTable("webhooks")
        .set((eb) =>
          state
            ? {
                // The first failure of a run of them is when it began failing.
                failing_since: eb.fn.coalesce(
                  "failing_since",
                  eb.val(state.since),
                ),
                last_error: state.error,
              }
            : { failing_since: null, last_error: null },
        )
        .where("id", "=", id)
        .execute();
    },
  };
}
