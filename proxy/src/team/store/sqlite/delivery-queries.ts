import type { DatabaseSync } from "node:sqlite";
import { inTransaction } from "@vics/server-kit/sqlite";
import type { EngineDeliveryQueries } from "../kysely/delivery-queries.ts";
import {
  DELIVERY_SELECT,
  fleetPendingSelect,
  queueShare,
  toPending,
  toRule,
  toWebhook,
  WEBHOOK_REMOVED,
  rulesWithoutWebhook,
  type PendingRow,
  type WebhookRow,
} from "../delivery-rows.ts";

const list = (values: readonly unknown[]) => JSON.stringify(values);

/** The deliveries' statements SQLite spells its own way; the rest are kysely/delivery-queries.ts. */
export function deliveryQueries(db: DatabaseSync): EngineDeliveryQueries {
  const alertFleets = db.prepare(
    `SELECT v.registration, f.id AS fleet_id, f.name AS fleet_name, r.rule
     FROM fleet_vehicles v JOIN fleets f ON f.id = v.fleet_id
     LEFT JOIN fleet_alert_rules r ON r.fleet_id = f.id
     WHERE v.registration IN (SELECT value FROM json_each(?)) AND f.version > 0
     ORDER BY f.name, v.registration`,
  );
  const addDelivery = db.prepare(
    `INSERT INTO deliveries (alert_id, fleet_id, channel, target, timing, status, created_at,
       next_attempt_at)
     VALUES (?, ?, ?, ?, ?, 'pending', ?, ?)
     ON CONFLICT (alert_id, fleet_id, channel, target) DO NOTHING`,
  );
  const markPlanned = db.prepare(
    "UPDATE vehicle_alerts SET planned_at = ? WHERE id = ? AND planned_at IS NULL",
  );
  // Each (target, timing, fleet) queue apart, through the index deliveries_queue: a window
  // over every pending row (PostgreSQL's fairQueueSelect) took a second of this process's one
  // thread with a storm's 186,000 emails pending.
  const due = "(? IS NULL OR next_attempt_at <= ?)";
  const queues = db.prepare(
    `SELECT target, timing, fleet_id FROM deliveries
     WHERE status = 'pending' AND channel = ? AND ${due}
     GROUP BY target, timing, fleet_id ORDER BY min(id)`,
  );
  const queueHead = db.prepare(
    `${DELIVERY_SELECT} WHERE d.id IN (
       SELECT id FROM deliveries
       WHERE status = 'pending' AND channel = ? AND target = ? AND timing = ? AND fleet_id = ?
         AND ${due}
       ORDER BY id LIMIT ?)
     ORDER BY d.id`,
  );
  const fleetPending = db.prepare(fleetPendingSelect("?"));
  const addAttempt = db.prepare(
    "INSERT INTO delivery_attempts (delivery_id, at, ok, detail) VALUES (?, ?, ?, ?)",
  );
  const afterAttempt = db.prepare(
    `UPDATE deliveries SET attempts = attempts + 1, status = ?, note = ?, next_attempt_at = ?
     WHERE id = ?`,
  );
  const drop = db.prepare(
    "UPDATE deliveries SET status = 'dropped', note = ?, next_attempt_at = NULL WHERE id = ?",
  );
  const removeWebhook = db.prepare(
    "DELETE FROM webhooks WHERE id = ? RETURNING *",
  );
  const allRules = db.prepare("SELECT fleet_id, rule FROM fleet_alert_rules");
  const setRuleOnly = db.prepare(
    "UPDATE fleet_alert_rules SET rule = ? WHERE fleet_id = ?",
  );
  const dropFor = db.prepare(
    `UPDATE deliveries SET status = 'dropped', note = ?, next_attempt_at = NULL
     WHERE channel = ? AND target = ? AND status = 'pending'`,
  );

  return {
    async alertFleets(registrations) {
      const rows = alertFleets.all(list(registrations)) as {
        registration: string;
        fleet_id: string;
        fleet_name: string;
        rule: string | null;
      }[];
      return rows.map((row) => ({
        registration: row.registration,
        fleetId: row.fleet_id,
        fleetName: row.fleet_name,
        rule: toRule(row.rule),
      }));
    },
    async planDeliveries(alertIds, deliveries, at) {
      inTransaction(db, () => {
        for (const d of deliveries)
          addDelivery.run(
            d.alertId,
            d.fleetId,
            d.channel,
            d.target,
            d.timing,
            at,
            d.dueAt,
          );
        for (const id of alertIds) markPlanned.run(at, id);
      });
    },
    async pendingDeliveries(channel, now, limit) {
      // Webhooks: due or not (the sender holds the newer behind one waiting for a retry).
      const by = channel === "email" ? now : null;
      const all = queues.all(channel, by, by) as {
        target: string;
        timing: string;
        fleet_id: string;
      }[];
      const share = queueShare(limit, all.length);
      return all
        .slice(0, limit)
        .flatMap((queue) =>
          (
            queueHead.all(
              channel,
              queue.target,
              queue.timing,
              queue.fleet_id,
              by,
              by,
              share,
            ) as unknown as PendingRow[]
          ).map(toPending),
        );
    },
    async fleetPendingDeliveries(fleetId) {
      return (fleetPending.all(fleetId) as unknown as PendingRow[]).map(
        toPending,
      );
    },
    async recordAttempt(ids, attempt, outcome) {
      const note = outcome.status === "sent" ? null : outcome.note;
      const next = outcome.status === "pending" ? outcome.nextAttemptAt : null;
      inTransaction(db, () => {
        for (const id of ids) {
          addAttempt.run(id, attempt.at, attempt.ok ? 1 : 0, attempt.detail);
          afterAttempt.run(outcome.status, note, next, id);
        }
      });
    },
    async dropDeliveries(ids, note) {
      inTransaction(db, () => {
        for (const id of ids) drop.run(note, id);
      });
    },
    async removeWebhook(id) {
      return inTransaction(db, () => {
        const removed = removeWebhook.get(id) as WebhookRow | undefined;
        if (!removed) return undefined;
        const rows = allRules.all() as { fleet_id: string; rule: string }[];
        for (const { fleetId, rule } of rulesWithoutWebhook(rows, id))
          setRuleOnly.run(rule, fleetId);
        dropFor.run(WEBHOOK_REMOVED, "webhook", String(id));
        return toWebhook(removed);
      });
    },
  };
}
