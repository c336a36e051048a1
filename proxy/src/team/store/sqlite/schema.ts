import type { DatabaseSync } from "node:sqlite";
import { migrateSqliteSteps } from "@vics/server-kit/sqlite-migrations";

/**
 * The proxy store's tables, one migration a step; `PRAGMA user_version` says how many have
 * run. Times are milliseconds since the epoch (sessions, links, audit) or ISO text (users).
 */
const QUOTED_COLUMNS = [
  ["webhooks", "last_error"],
  ["deliveries", "note"],
  ["delivery_attempts", "detail"],
] as const;

/**
 * The delivery log before issue 33 quoted what a failing endpoint said (up to 200 characters of
 * its body, or a redirect's address) to every admin: each such line is cut to its status and
 * VICS's own words, as every line since is written (notify/webhook/send-webhook.ts).
 */
export const SCRUB_ENDPOINT_WORDS = QUOTED_COLUMNS.map(
  ([table, column]) => `
  UPDATE ${table} SET ${column} = substr(${column}, 1, instr(${column}, ', saying "') - 1) || '.'
   WHERE ${column} LIKE '%The endpoint answered %, not a 2xx success, saying "%';
  UPDATE ${table} SET ${column} = substr(${column}, 1, instr(${column}, ', a redirect to ') - 1)
      || ', a redirect; webhooks do not follow redirects, so set the webhook''s URL to the address it redirects to.'
   WHERE ${column} LIKE '%The endpoint answered %, a redirect to %';`,
).join("\n");

/**
 * When the store began to date unsubscribe links (the upgrade; a new store's making): a link
 * in an email sent before carries no date and counts as sent then (notify/unsubscribe-token.ts).
 */
export const DATE_UNSUBSCRIBE_LINKS = `
  INSERT INTO settings (name, value)
  VALUES ('unsubscribe_links_dated_from', CAST(CAST(unixepoch('subsec') * 1000 AS INTEGER) AS TEXT))
  ON CONFLICT (name) DO NOTHING;`;

/**
 * Notifications grouped by sweep, and first checks summed up (issue 34, decision 054): each
 * alert keeps the watch run that opened it (an older alert, the run under way when it opened);
 * a baseline alert is open on the fleet's page but no notification and no delivery; a sweep's
 * first checks are summed per fleet in fleet_baselines, read per user as alerts are.
 */
export const GROUP_NOTIFICATIONS = `
  -- Notifications grouped by sweep, and first checks summed up (issue 34, decision 054): each
  -- alert keeps the watch run that opened it; an alert opened by a vehicle's first answered
  -- check (baseline = 1) is open on the fleet's page but no notification, and no delivery;
  -- fleet_baselines sums a sweep's first checks per fleet, read per user like alerts.
  ALTER TABLE vehicle_alerts ADD COLUMN run_id INTEGER;
  ALTER TABLE vehicle_alerts ADD COLUMN baseline INTEGER NOT NULL DEFAULT 0;
  -- Alerts opened before: the sweep under way when each opened (the latest, should two overlap).
  UPDATE vehicle_alerts SET run_id = (
    SELECT r.id FROM watch_runs r
     WHERE r.started_at <= vehicle_alerts.opened_at
       AND (r.finished_at IS NULL OR r.finished_at >= vehicle_alerts.opened_at)
     ORDER BY r.id DESC LIMIT 1);
  CREATE INDEX vehicle_alerts_by_run ON vehicle_alerts (run_id, kind, id);

  CREATE TABLE fleet_baselines (
    id INTEGER PRIMARY KEY,
    fleet_id TEXT NOT NULL REFERENCES fleets (id) ON DELETE CASCADE,
    run_id INTEGER NOT NULL,
    at INTEGER NOT NULL,
    vehicles INTEGER NOT NULL,
    attention INTEGER NOT NULL,
    UNIQUE (run_id, fleet_id)
  ) STRICT;
  CREATE INDEX fleet_baselines_by_fleet ON fleet_baselines (fleet_id);
  CREATE TABLE fleet_baseline_reads (
    user_id TEXT NOT NULL,
    baseline_id INTEGER NOT NULL REFERENCES fleet_baselines (id) ON DELETE CASCADE,
    PRIMARY KEY (user_id, baseline_id)
  ) STRICT, WITHOUT ROWID;
  `;

export const MIGRATIONS = [
  `
  CREATE TABLE users (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE COLLATE NOCASE,
    name TEXT NOT NULL DEFAULT '',
    role TEXT NOT NULL CHECK (role IN ('staff', 'fleet', 'admin')),
    password_hash TEXT,
    oidc_issuer TEXT,
    oidc_subject TEXT,
    disabled_at TEXT,
    created_at TEXT NOT NULL,
    UNIQUE (oidc_issuer, oidc_subject)
  ) STRICT;

  CREATE TABLE sessions (
    id_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    id_token TEXT
  ) STRICT;
  CREATE INDEX sessions_by_user ON sessions (user_id);

  CREATE TABLE one_time_links (
    token_hash TEXT PRIMARY KEY,
    purpose TEXT NOT NULL CHECK (purpose IN ('invite', 'reset', 'sign-in')),
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at INTEGER NOT NULL,
    used_at INTEGER
  ) STRICT;
  CREATE INDEX links_by_user ON one_time_links (user_id, purpose);

  CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;

  -- No foreign key to users: an event outlives any change to its user.
  CREATE TABLE audit_events (
    id INTEGER PRIMARY KEY,
    at INTEGER NOT NULL,
    user_id TEXT,
    user_email TEXT,
    action TEXT NOT NULL,
    registrations TEXT NOT NULL,
    outcome TEXT NOT NULL,
    request_id TEXT,
    client_address TEXT,
    detail TEXT
  ) STRICT;
  CREATE INDEX audit_by_time ON audit_events (at);
  CREATE INDEX audit_by_user ON audit_events (user_id, id);

  -- One row per registration of an event: the search by registration reads only its own rows.
  CREATE TABLE audit_registrations (
    registration TEXT NOT NULL,
    event_id INTEGER NOT NULL REFERENCES audit_events (id),
    PRIMARY KEY (registration, event_id)
  ) STRICT, WITHOUT ROWID;

  -- Append-only. An unset retention counts as a century, so the rule fails closed.
  CREATE TRIGGER audit_events_never_change BEFORE UPDATE ON audit_events
  BEGIN SELECT RAISE(ABORT, 'audit events cannot be changed'); END;
  CREATE TRIGGER audit_registrations_never_change BEFORE UPDATE ON audit_registrations
  BEGIN SELECT RAISE(ABORT, 'audit events cannot be changed'); END;
  CREATE TRIGGER audit_events_kept BEFORE DELETE ON audit_events
  WHEN OLD.at > CAST(unixepoch('subsec') * 1000 AS INTEGER) - 86400000 * COALESCE(
    (SELECT CAST(value AS INTEGER) FROM settings WHERE name = 'audit_retention_days'), 36500)
  BEGIN SELECT RAISE(ABORT, 'audit events younger than the retention period cannot be deleted'); END;
  CREATE TRIGGER audit_registrations_kept BEFORE DELETE ON audit_registrations
  WHEN (SELECT at FROM audit_events WHERE id = OLD.event_id) >
    CAST(unixepoch('subsec') * 1000 AS INTEGER) - 86400000 * COALESCE(
    (SELECT CAST(value AS INTEGER) FROM settings WHERE name = 'audit_retention_days'), 36500)
  BEGIN SELECT RAISE(ABORT, 'audit events younger than the retention period cannot be deleted'); END;
  `,
  `
  -- An OIDC sign-in between the redirect to the provider and its callback (10 minutes).
  CREATE TABLE oidc_logins (
    id_hash TEXT PRIMARY KEY,
    state TEXT NOT NULL,
    nonce TEXT NOT NULL,
    code_verifier TEXT NOT NULL,
    return_to TEXT NOT NULL,
    expires_at INTEGER NOT NULL
  ) STRICT;
  `,
  `
  -- The team's saved fleets: a vehicle once per fleet, in the order saved, with the user's own
  -- cells (a JSON array, one per column). version counts the changes to the vehicles.
  CREATE TABLE fleets (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    columns TEXT NOT NULL,
    version INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    created_by TEXT,
    updated_at INTEGER NOT NULL,
    updated_by TEXT
  ) STRICT;

  CREATE TABLE fleet_vehicles (
    fleet_id TEXT NOT NULL REFERENCES fleets (id) ON DELETE CASCADE,
    registration TEXT NOT NULL,
    position INTEGER NOT NULL,
    cells TEXT NOT NULL,
    added_at INTEGER NOT NULL,
    PRIMARY KEY (fleet_id, registration)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX fleet_vehicles_in_order ON fleet_vehicles (fleet_id, position);
  -- "Every watched vehicle, once": the re-checks' list.
  CREATE INDEX fleet_vehicles_by_registration ON fleet_vehicles (registration);

  -- The re-checks: each watched vehicle's latest facts (JSON), what changed, and its alerts,
  -- each (registration, kind, key) once, ever: a fact alerts once however often it is seen.
  CREATE TABLE watched_vehicles (
    registration TEXT PRIMARY KEY,
    facts TEXT,
    checked_at INTEGER,
    unknown_since INTEGER
  ) STRICT;

  CREATE TABLE vehicle_timeline (
    id INTEGER PRIMARY KEY,
    registration TEXT NOT NULL,
    at INTEGER NOT NULL,
    area TEXT NOT NULL,
    before TEXT,
    after TEXT
  ) STRICT;
  CREATE INDEX vehicle_timeline_by_vehicle ON vehicle_timeline (registration, id);

  CREATE TABLE vehicle_alerts (
    id INTEGER PRIMARY KEY,
    registration TEXT NOT NULL,
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    detail TEXT NOT NULL,
    opened_at INTEGER NOT NULL,
    closed_at INTEGER
  ) STRICT;
  -- A fact alerts once while it holds: one open alert per (registration, kind, key). Once it
  -- closes, the same fact coming back (the vehicle found again and still uninsured) alerts anew.
  CREATE UNIQUE INDEX vehicle_alerts_open_once ON vehicle_alerts (registration, kind, key)
    WHERE closed_at IS NULL;
  CREATE INDEX vehicle_alerts_open ON vehicle_alerts (registration) WHERE closed_at IS NULL;

  -- In-app notifications: which alerts each user has read.
  CREATE TABLE alert_reads (
    user_id TEXT NOT NULL,
    alert_id INTEGER NOT NULL,
    PRIMARY KEY (user_id, alert_id)
  ) STRICT, WITHOUT ROWID;

  CREATE TABLE watch_runs (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    finished_at INTEGER,
    outcome TEXT,
    vehicles INTEGER NOT NULL DEFAULT 0,
    unknown INTEGER NOT NULL DEFAULT 0,
    alerts INTEGER NOT NULL DEFAULT 0
  ) STRICT;

  CREATE TABLE watch_settings (name TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
  `,
  `
  -- When each alert's deliveries were planned (notify/plan-deliveries.ts); null until then.
  ALTER TABLE vehicle_alerts ADD COLUMN planned_at INTEGER;
  CREATE INDEX vehicle_alerts_unplanned ON vehicle_alerts (id) WHERE planned_at IS NULL;

  -- Alert rules and deliveries (docs/watching.md): each fleet's rule (JSON, AlertRuleSchema),
  -- the team's webhooks, and every email or webhook an alert is owed, once per (alert, fleet,
  -- channel, target) whatever runs twice, with each attempt to send it.
  CREATE TABLE fleet_alert_rules (
    fleet_id TEXT PRIMARY KEY REFERENCES fleets (id) ON DELETE CASCADE,
    rule TEXT NOT NULL,
    updated_at INTEGER NOT NULL
  ) STRICT;

  -- AUTOINCREMENT: a removed webhook's id is never given to another, which a fleet's rule or
  -- a pending delivery may still name.
  CREATE TABLE webhooks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    url TEXT NOT NULL,
    description TEXT NOT NULL,
    allow_private INTEGER NOT NULL,
    secret TEXT NOT NULL,
    previous_secret TEXT,
    previous_until INTEGER,
    created_at INTEGER NOT NULL,
    failing_since INTEGER,
    last_error TEXT
  ) STRICT;

  CREATE TABLE deliveries (
    id INTEGER PRIMARY KEY,
    alert_id INTEGER NOT NULL,
    fleet_id TEXT NOT NULL,
    channel TEXT NOT NULL,
    -- The email address, or the webhook's id.
    target TEXT NOT NULL,
    timing TEXT NOT NULL,
    status TEXT NOT NULL,
    note TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    next_attempt_at INTEGER,
    UNIQUE (alert_id, fleet_id, channel, target)
  ) STRICT;
  CREATE INDEX deliveries_pending ON deliveries (next_attempt_at) WHERE status = 'pending';

  CREATE TABLE delivery_attempts (
    id INTEGER PRIMARY KEY,
    delivery_id INTEGER NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
    at INTEGER NOT NULL,
    ok INTEGER NOT NULL,
    detail TEXT NOT NULL
  ) STRICT;
  CREATE INDEX delivery_attempts_by_delivery ON delivery_attempts (delivery_id, id);
  `,
  `
  -- The client's X-Request-Id, kept apart from the proxy's own id; one event for many attempts
  -- (a throttled flood of sign-ins, refusals: audit/audit-log.ts), whose attempts and last_at
  -- alone may grow, and only on such an event; the search by an email with no account.
  ALTER TABLE audit_events ADD COLUMN correlation_id TEXT;
  ALTER TABLE audit_events ADD COLUMN aggregate_key TEXT;
  ALTER TABLE audit_events ADD COLUMN attempts INTEGER NOT NULL DEFAULT 1;
  ALTER TABLE audit_events ADD COLUMN last_at INTEGER;
  CREATE UNIQUE INDEX audit_aggregates ON audit_events (aggregate_key);
  CREATE INDEX audit_by_email ON audit_events (user_email, id);
  DROP TRIGGER audit_events_never_change;
  CREATE TRIGGER audit_events_never_change BEFORE UPDATE OF id, at, user_id, user_email, action,
    registrations, outcome, request_id, client_address, detail, correlation_id, aggregate_key
    ON audit_events
  BEGIN SELECT RAISE(ABORT, 'audit events cannot be changed'); END;
  CREATE TRIGGER audit_events_only_count BEFORE UPDATE OF attempts, last_at ON audit_events
  WHEN OLD.aggregate_key IS NULL OR NEW.attempts < OLD.attempts OR NEW.last_at < OLD.last_at
  BEGIN SELECT RAISE(ABORT, 'audit events cannot be changed'); END;
  `,
  `
  -- An account in use is never linked to an OIDC identity by its email alone (issue 33): the
  -- first sign-in is kept, and an admin may allow one link for a while. Accounts with a
  -- password, a link, a session or a recorded sign-in are in use already.
  ALTER TABLE users ADD COLUMN signed_in_at TEXT;
  ALTER TABLE users ADD COLUMN oidc_link_allowed_until INTEGER;
  UPDATE users SET signed_in_at = created_at
   WHERE password_hash IS NOT NULL OR oidc_subject IS NOT NULL
      OR id IN (SELECT user_id FROM sessions)
      OR id IN (SELECT user_id FROM audit_events WHERE action = 'sign-in' AND user_id IS NOT NULL);
  `,
  `
  -- Each (target, timing, fleet) queue of pending deliveries, oldest first (issue 33): fleets
  -- take turns at an endpoint or address, read a queue at a time, however long a storm's queue.
  CREATE INDEX deliveries_queue ON deliveries (channel, target, timing, fleet_id, id,
    next_attempt_at) WHERE status = 'pending';
  `,
  `
  -- A fleet's vehicles are read in order by sorting its rows (fleet_vehicles' key starts with
  -- the fleet): the index on position cost each saved vehicle a third copy of its fleet's id,
  -- and a save written a chunk at a time rewrote its pages in every chunk (issue 33).
  DROP INDEX IF EXISTS fleet_vehicles_in_order;
  `,
  `
  -- A new list for a saved fleet, applied a chunk a transaction (store/sqlite/fleet-writes.ts):
  -- the update is staged here first (ready = 0, the fleet untouched), then marked ready in one
  -- short transaction; each chunk is applied and deleted in one transaction, and the last one
  -- moves the fleet to version and deletes the update. A process stopped part way through is
  -- finished when the store next opens: rolled back before ready, rolled forward after it.
  CREATE TABLE fleet_updates (
    fleet_id TEXT PRIMARY KEY REFERENCES fleets (id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    columns TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    updated_by TEXT,
    ready INTEGER NOT NULL DEFAULT 0
  ) STRICT;
  -- rows: a JSON array of registrations to remove, or of [registration, position, cells] to
  -- write; applied in seq order (the removals first).
  CREATE TABLE fleet_update_chunks (
    fleet_id TEXT NOT NULL REFERENCES fleet_updates (fleet_id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('remove', 'write')),
    rows TEXT NOT NULL,
    PRIMARY KEY (fleet_id, seq)
  ) STRICT;
  `,
  SCRUB_ENDPOINT_WORDS,
  DATE_UNSUBSCRIBE_LINKS,
  GROUP_NOTIFICATIONS,
];

/**
 * Brings the database up to date, one step a transaction, once however many processes open
 * the file together (migrateSqliteSteps).
 */
export function migrate(db: DatabaseSync): void {
  migrateSqliteSteps(db, MIGRATIONS);
}
