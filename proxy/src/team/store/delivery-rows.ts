// Alert-rule, webhook and delivery rows as both engines return them: PostgreSQL gives bigints
// as text and jsonb parsed, SQLite gives numbers and JSON as text.
import {
  AlertRuleSchema,
  DEFAULT_ALERT_RULE,
  type AlertRule,
  type DeliveryStatus,
} from "@vics/shared";
import type {
  DeliveryAttempt,
  DeliveryChannel,
  DeliveryTiming,
  PendingDelivery,
  StoredDelivery,
  StoredWebhook,
} from "./delivery-store.ts";
import type { StoredAlert } from "./watch-store.ts";
import { fromJson, toAlertRow, type AlertRow } from "./watch-rows.ts";

type Num = number | string;
const num = (value: Num) => Number(value);
const numOrNull = (value: Num | null) =>
  value === null ? null : Number(value);

/** Why a removed webhook's pending deliveries were dropped. */
export const WEBHOOK_REMOVED = "The webhook was removed";

/** Rules parsed lately, by their JSON: a storm's 20,000 rows carry a handful of rules. */
const parsedRules = new Map<string, AlertRule>();

/** A stored rule, or the default for a fleet that set none (null from a LEFT JOIN). */
export const toRule = (value: unknown): AlertRule => {
  if (value === null || value === undefined) return DEFAULT_ALERT_RULE;
  const json = typeof value === "string" ? value : JSON.stringify(value);
  let rule = parsedRules.get(json);
  if (rule === undefined) {
    rule = AlertRuleSchema.parse(fromJson(value));
    if (parsedRules.size >= 1_000) parsedRules.clear();
    parsedRules.set(json, rule);
  }
  return rule;
};

/**
 * The rules that name webhook `id`, without it (a removed webhook leaves every rule): what to
 * write back for each fleet.
 */
export function rulesWithoutWebhook(
  rows: readonly { fleet_id: string; rule: unknown }[],
  id: number,
): { fleetId: string; rule: string }[] {
  return rows.flatMap((row) => {
    const rule = toRule(row.rule);
    if (!rule.webhookIds.includes(id)) return [];
    const webhookIds = rule.webhookIds.filter((other) => other !== id);
    return [
      { fleetId: row.fleet_id, rule: JSON.stringify({ ...rule, webhookIds }) },
    ];
  });
}

export interface WebhookRow {
  id: Num;
  url: string;
  description: string;
  allow_private: number | boolean;
  secret: string;
  previous_secret: string | null;
  previous_until: Num | null;
  created_at: Num;
  failing_since: Num | null;
  last_error: string | null;
}

export const toWebhook = (row: WebhookRow): StoredWebhook => ({
  id: num(row.id),
  url: row.url,
  description: row.description,
  allowPrivate: Boolean(row.allow_private),
  secret: row.secret,
  previousSecret: row.previous_secret,
  previousUntil: numOrNull(row.previous_until),
  createdAt: num(row.created_at),
  failingSince: numOrNull(row.failing_since),
  lastError: row.last_error,
});

export interface DeliveryRow {
  id: Num;
  alert_id: Num;
  fleet_id: string;
  channel: DeliveryChannel;
  target: string;
  timing: DeliveryTiming;
  status: DeliveryStatus;
  note: string | null;
  attempts: number;
  created_at: Num;
  next_attempt_at: Num | null;
}

export const toDelivery = (row: DeliveryRow): StoredDelivery => ({
  id: num(row.id),
  alertId: num(row.alert_id),
  fleetId: row.fleet_id,
  channel: row.channel,
  target: row.target,
  timing: row.timing,
  status: row.status,
  note: row.note,
  attempts: Number(row.attempts),
  createdAt: num(row.created_at),
  nextAttemptAt: numOrNull(row.next_attempt_at),
});

/** A delivery joined with its alert's columns, its fleet's name and its fleet's rule. */
export interface PendingRow extends DeliveryRow, Omit<AlertRow, "id"> {
  fleet_name: string | null;
  still_in_fleet: number | boolean;
  rule: unknown;
}

const alertOfRow = (row: PendingRow): StoredAlert =>
  toAlertRow({ ...row, id: row.alert_id });

export const toPending = (row: PendingRow): PendingDelivery => ({
  ...toDelivery(row),
  alert: alertOfRow(row),
  fleetName: row.fleet_name ?? undefined,
  stillInFleet: Boolean(row.still_in_fleet),
  rule: toRule(row.rule),
});

export interface AttemptRow {
  delivery_id: Num;
  at: Num;
  ok: number | boolean;
  detail: string;
}

export const toAttempt = (row: AttemptRow): DeliveryAttempt => ({
  at: num(row.at),
  ok: Boolean(row.ok),
  detail: row.detail,
});

/**
 * Joins deliveries `d` to their alert, fleet and the fleet's rule (the pending lists and the
 * log share it), so judging a delivery needs no further reads.
 */
const deliveriesJoined = (
  deliveries: string,
) => `SELECT d.*, a.registration, a.kind, a.key,
  a.detail, a.opened_at, a.closed_at, f.name AS fleet_name, r.rule,
  EXISTS (SELECT 1 FROM fleet_vehicles v
          WHERE v.fleet_id = d.fleet_id AND v.registration = a.registration) AS still_in_fleet
  FROM ${deliveries} d
  JOIN vehicle_alerts a ON a.id = d.alert_id
  LEFT JOIN fleets f ON f.id = d.fleet_id
  LEFT JOIN fleet_alert_rules r ON r.fleet_id = d.fleet_id`;

export const DELIVERY_SELECT = deliveriesJoined("deliveries");

/**
 * The most alerts one webhook POST (or one email) carries for one fleet: a storm of one fleet's
 * sweep becomes a few batches, not one delivery per vehicle (docs/watching.md, "Webhooks").
 */
export const FLEET_BATCH = 1_000;

/**
 * Of a read of at most `limit` rows over `queues` queues, how many each queue gives: an equal
 * share, at most FLEET_BATCH, at least one (then only the oldest `limit` queues give one).
 */
export const queueShare = (limit: number, queues: number): number =>
  Math.min(FLEET_BATCH, Math.max(1, Math.floor(limit / Math.max(queues, 1))));

/**
 * PostgreSQL's read of the pending deliveries of `channel` (only those due by the placeholder
 * `due`, when given),
 * each queue's oldest FLEET_BATCH, where a queue is one target's deliveries of one fleet. They
 * come queue heads first (ORDER BY place), so however long one fleet's storm, every other
 * fleet's oldest deliveries to the same endpoint or address are in the same run: fair between
 * fleets, not first come first served over all. `limit` is the placeholder of the most rows.
 */
export const fairQueueSelect = (
  channel: DeliveryChannel,
  limit: string,
  due?: string,
) => `${deliveriesJoined(`(
    SELECT * FROM (
      SELECT *, row_number() OVER (PARTITION BY target, timing, fleet_id ORDER BY id) AS place
      FROM deliveries WHERE status = 'pending' AND channel = '${channel}'
        ${due === undefined ? "" : `AND next_attempt_at <= ${due}`}
    ) AS numbered WHERE place <= ${FLEET_BATCH}
  )`)}
  ORDER BY d.place, d.id LIMIT ${limit}`;

/** Pending deliveries of one fleet, to judge again at once when its rule changes. */
export const fleetPendingSelect = (fleetId: string) => `${DELIVERY_SELECT}
  WHERE d.fleet_id = ${fleetId} AND d.status = 'pending' ORDER BY d.id`;

/** Why a deleted fleet's pending deliveries were dropped. */
export const FLEET_DELETED = "The fleet was deleted";
