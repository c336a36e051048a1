import type { PgPool } from "@vics/server-kit/postgres";
import { inPgTransaction } from "@vics/server-kit/postgres";
import { reachingPostgres } from "@vics/server-kit/postgres-errors";
import type { EngineDeliveryQueries } from "../kysely/delivery-queries.ts";
import {
  fairQueueSelect,
  fleetPendingSelect,
  toPending,
  toRule,
  toWebhook,
  WEBHOOK_REMOVED,
  rulesWithoutWebhook,
  type PendingRow,
  type WebhookRow,
} from "../delivery-rows.ts";
import type { Sql } from "./database.ts";

/** The deliveries' statements PostgreSQL spells its own way; the rest are kysely/delivery-queries.ts. */
export function deliveryQueries(pool: PgPool, sql: Sql): EngineDeliveryQueries {
  const transaction = <T>(
    work: Parameters<typeof inPgTransaction<T>>[1],
  ): Promise<T> => reachingPostgres(() => inPgTransaction(pool, work));

  return {
    async alertFleets(registrations) {
      const { rows } = await sql<{
        registration: string;
        fleet_id: string;
        fleet_name: string;
        rule: unknown;
      }>(
        `SELECT v.registration, f.id AS fleet_id, f.name AS fleet_name, r.rule
         FROM fleet_vehicles v JOIN fleets f ON f.id = v.fleet_id
         LEFT JOIN fleet_alert_rules r ON r.fleet_id = f.id
         WHERE v.registration = ANY ($1::text[])
         ORDER BY f.name, v.registration`,
        [registrations],
      );
      return rows.map((row) => ({
        registration: row.registration,
        fleetId: row.fleet_id,
        fleetName: row.fleet_name,
        rule: toRule(row.rule),
      }));
    },
    async planDeliveries(alertIds, deliveries, at) {
      await transaction(async (client) => {
        if (deliveries.length > 0)
          await client.query(
            `INSERT INTO deliveries (alert_id, fleet_id, channel, target, timing, status,
               created_at, next_attempt_at)
             SELECT alert_id, fleet_id, channel, target, timing, 'pending', $1, due_at
             FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[],
                         $7::bigint[])
               AS d (alert_id, fleet_id, channel, target, timing, due_at)
             ON CONFLICT (alert_id, fleet_id, channel, target) DO NOTHING`,
            [
              at,
              deliveries.map((d) => d.alertId),
              deliveries.map((d) => d.fleetId),
              deliveries.map((d) => d.channel),
              deliveries.map((d) => d.target),
              deliveries.map((d) => d.timing),
              deliveries.map((d) => d.dueAt),
            ],
          );
        await client.query(
          `UPDATE vehicle_alerts SET planned_at = $1
           WHERE id = ANY ($2::bigint[]) AND planned_at IS NULL`,
          [at, alertIds],
        );
      });
    },
    async pendingDeliveries(channel, now, limit) {
      const { rows } =
        channel === "email"
          ? await sql<PendingRow>(fairQueueSelect("email", "$1", "$2"), [
              limit,
              now,
            ])
          : await sql<PendingRow>(fairQueueSelect("webhook", "$1"), [limit]);
      return rows.map(toPending);
    },
    async fleetPendingDeliveries(fleetId) {
      const { rows } = await sql<PendingRow>(fleetPendingSelect("$1"), [
        fleetId,
      ]);
      return rows.map(toPending);
    },
    async recordAttempt(ids, attempt, outcome) {
      const note = outcome.status === "sent" ? null : outcome.note;
      const next = outcome.status === "pending" ? outcome.nextAttemptAt : null;
      await transaction(async (client) => {
        await client.query(
          `INSERT INTO delivery_attempts (delivery_id, at, ok, detail)
           SELECT id, $2, $3, $4 FROM unnest($1::bigint[]) AS id`,
          [ids, attempt.at, attempt.ok, attempt.detail],
        );
        await client.query(
          `UPDATE deliveries SET attempts = attempts + 1, status = $2, note = $3,
             next_attempt_at = $4
           WHERE id = ANY ($1::bigint[])`,
          [ids, outcome.status, note, next],
        );
      });
    },
    async dropDeliveries(ids, note) {
      await sql(
        `UPDATE deliveries SET status = 'dropped', note = $2, next_attempt_at = NULL
         WHERE id = ANY ($1::bigint[])`,
        [ids, note],
      );
    },
    async removeWebhook(id) {
      return transaction(async (client) => {
        const { rows: removed } = await client.query<WebhookRow>(
          "DELETE FROM webhooks WHERE id = $1 RETURNING *",
          [id],
        );
        if (!removed[0]) return undefined;
        const { rows } = await client.query<{
          fleet_id: string;
          rule: unknown;
        }>("SELECT fleet_id, rule FROM fleet_alert_rules FOR UPDATE");
        for (const { fleetId, rule } of rulesWithoutWebhook(rows, id))
          await client.query(
            "UPDATE fleet_alert_rules SET rule = $1 WHERE fleet_id = $2",
            [rule, fleetId],
          );
        await client.query(
          `UPDATE deliveries SET status = 'dropped', note = $1, next_attempt_at = NULL
           WHERE channel = 'webhook' AND target = $2 AND status = 'pending'`,
          [WEBHOOK_REMOVED, String(id)],
        );
        return toWebhook(removed[0]);
      });
    },
  };
}
