import type { Generated, Kysely } from "kysely";
import type { LinkPurpose, Role } from "../proxy-store.ts";
import type { AlertKind } from "@vics/shared";
import type { TimelineArea, WatchRun } from "../watch-store.ts";

/**
 * A point in time the two engines keep differently: SQLite as ISO 8601 text, PostgreSQL as
 * timestamptz (a Date from pg). Written as ISO text to both.
 */
export type Instant = string | Date;

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  role: Role;
  password_hash: string | null;
  oidc_issuer: string | null;
  oidc_subject: string | null;
  disabled_at: Instant | null;
  created_at: Instant;
  signed_in_at: Instant | null;
  /** Epoch milliseconds. */
  oidc_link_allowed_until: number | null;
}

/** Times in epoch milliseconds (INTEGER in SQLite, bigint in PostgreSQL, read as numbers). */
export interface SessionsTable {
  id_hash: string;
  user_id: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  id_token: string | null;
}

export interface OneTimeLinksTable {
  token_hash: string;
  purpose: LinkPurpose;
  user_id: string;
  expires_at: number;
  used_at: number | null;
}

/** A JSON document: TEXT in SQLite (read as the text), jsonb in PostgreSQL (read parsed). */
export type Json = unknown;

/** Either engine's truth: an INTEGER 0 or 1 in SQLite, a boolean in PostgreSQL. */
export type Flag = number | boolean;

export interface FleetAlertRulesTable {
  fleet_id: string;
  rule: Json;
  updated_at: number;
}

export interface VehicleAlertsTable {
  id: Generated<number>;
  registration: string;
  kind: AlertKind;
  key: string;
  detail: Json;
  opened_at: number;
  closed_at: number | null;
  run_id: number | null;
  baseline: Flag;
  planned_at: number | null;
}

export interface WebhooksTable {
  id: Generated<number>;
  url: string;
  description: string;
  allow_private: Flag;
  secret: string;
  previous_secret: string | null;
  previous_until: number | null;
  created_at: number;
  failing_since: number | null;
  last_error: string | null;
}

export interface DeliveriesTable {
  id: Generated<number>;
  alert_id: number;
  fleet_id: string;
  channel: string;
  target: string;
  timing: string;
  status: string;
  note: string | null;
  attempts: number;
  created_at: number;
  next_attempt_at: number | null;
}

export interface DeliveryAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  at: number;
  ok: Flag;
  detail: string;
}

export interface WatchRunsTable {
  id: Generated<number>;
  kind: WatchRun["kind"];
  started_at: number;
  finished_at: number | null;
  outcome: string | null;
  vehicles: Generated<number>;
  unknown: Generated<number>;
  alerts: Generated<number>;
}

/** What a re-check saw change: before and after are JSON, text in SQLite and jsonb in PostgreSQL. */
export interface VehicleTimelineTable {
  id: Generated<number>;
  registration: string;
  at: number;
  area: TimelineArea;
  before: unknown;
  after: unknown;
}

/** Named settings: `settings` in SQLite, `proxy_settings` in PostgreSQL. */
export interface SettingsTable {
  name: string;
  value: string;
}

/** The team's tables as both engines' migrations make them: the one declaration of their types. */
export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  one_time_links: OneTimeLinksTable;
  fleet_alert_rules: FleetAlertRulesTable;
  vehicle_alerts: VehicleAlertsTable;
  webhooks: WebhooksTable;
  deliveries: DeliveriesTable;
  delivery_attempts: DeliveryAttemptsTable;
  settings: SettingsTable;
  proxy_settings: SettingsTable;
  watch_runs: WatchRunsTable;
  watch_settings: SettingsTable;
  vehicle_timeline: VehicleTimelineTable;
}

export type Db = Kysely<Database>;
