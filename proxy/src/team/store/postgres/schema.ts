import { PARTITION_AUDIT } from "./audit-partitions.ts";

/**
 * The proxy store's tables on PostgreSQL, for `migratePg` under the name "vics_proxy" (its
 * steps are recorded in vics_proxy_migrations). The service may share the database: no name
 * here is one of its tables. Times are milliseconds since the epoch (bigint), as in the SQLite
 * store, except the users' timestamps. A released step never changes; a change is a new step.
 */
export const MIGRATIONS_NAME = "vics_proxy";

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
  UPDATE ${table} SET ${column} = left(${column}, strpos(${column}, ', saying "') - 1) || '.'
   WHERE ${column} LIKE '%The endpoint answered %, not a 2xx success, saying "%';
  UPDATE ${table} SET ${column} = left(${column}, strpos(${column}, ', a redirect to ') - 1)
      || ', a redirect; webhooks do not follow redirects, so set the webhook''s URL to the address it redirects to.'
   WHERE ${column} LIKE '%The endpoint answered %, a redirect to %';`,
).join("\n");

/**
 * When the store began to date unsubscribe links (the upgrade; a new store's making): a link
 * in an email sent before carries no date and counts as sent then (notify/unsubscribe-token.ts).
 * In proxy_settings, which the app role may read (owner-setup.ts).
 */
export const DATE_UNSUBSCRIBE_LINKS = `
  INSERT INTO proxy_settings (name, value)
  VALUES ('unsubscribe_links_dated_from', (extract(epoch FROM now()) * 1000)::bigint::text)
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
  -- check (baseline) is open on the fleet's page but no notification, and no delivery;
  -- fleet_baselines sums a sweep's first checks per fleet, read per user like alerts.
  ALTER TABLE vehicle_alerts ADD COLUMN run_id bigint;
  ALTER TABLE vehicle_alerts ADD COLUMN baseline boolean NOT NULL DEFAULT false;
  -- Alerts opened before: the sweep under way when each opened (the latest, should two overlap).
  UPDATE vehicle_alerts a SET run_id = (
    SELECT r.id FROM watch_runs r
     WHERE r.started_at <= a.opened_at AND (r.finished_at IS NULL OR r.finished_at >= a.opened_at)
     ORDER BY r.id DESC LIMIT 1);
  CREATE INDEX vehicle_alerts_by_run ON vehicle_alerts (run_id, kind, id);

  CREATE TABLE fleet_baselines (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    fleet_id text NOT NULL REFERENCES fleets (id) ON DELETE CASCADE,
    run_id bigint NOT NULL,
    at bigint NOT NULL,
    vehicles integer NOT NULL,
    attention integer NOT NULL,
    UNIQUE (run_id, fleet_id)
  );
  CREATE INDEX fleet_baselines_by_fleet ON fleet_baselines (fleet_id);
  CREATE TABLE fleet_baseline_reads (
    user_id text NOT NULL,
    baseline_id bigint NOT NULL REFERENCES fleet_baselines (id) ON DELETE CASCADE,
    PRIMARY KEY (user_id, baseline_id)
  );
  `;

export const MIGRATIONS: readonly string[] = [
  `
  -- The functions below keep this search path: the migration's own schema, then pg_temp last,
  -- so a caller's temporary table can never stand in for proxy_settings or the audit tables.
  SELECT set_config('search_path', quote_ident(current_schema()) || ', pg_temp', true);

  CREATE TABLE users (
    id text PRIMARY KEY,
    email text NOT NULL,
    name text NOT NULL DEFAULT '',
    role text NOT NULL CHECK (role IN ('staff', 'fleet', 'admin')),
    password_hash text,
    oidc_issuer text,
    oidc_subject text,
    disabled_at timestamptz,
    created_at timestamptz NOT NULL,
    UNIQUE (oidc_issuer, oidc_subject)
  );
  -- One account per address, whatever its case; also the index of the sign-in's lookup.
  CREATE UNIQUE INDEX users_email_unique ON users (lower(email));

  CREATE TABLE sessions (
    id_hash text PRIMARY KEY,
    user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at bigint NOT NULL,
    last_seen_at bigint NOT NULL,
    expires_at bigint NOT NULL,
    id_token text
  );
  CREATE INDEX sessions_by_user ON sessions (user_id);

  CREATE TABLE one_time_links (
    token_hash text PRIMARY KEY,
    purpose text NOT NULL CHECK (purpose IN ('invite', 'reset', 'sign-in')),
    user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at bigint NOT NULL,
    used_at bigint
  );
  CREATE INDEX links_by_user ON one_time_links (user_id, purpose);

  -- An OIDC sign-in between the redirect to the provider and its callback (10 minutes).
  CREATE TABLE oidc_logins (
    id_hash text PRIMARY KEY,
    state text NOT NULL,
    nonce text NOT NULL,
    code_verifier text NOT NULL,
    return_to text NOT NULL,
    expires_at bigint NOT NULL
  );

  -- Written by the owner only (the app role may read it): the audit retention lives here.
  CREATE TABLE proxy_settings (name text PRIMARY KEY, value text NOT NULL);

  -- No foreign key to users: an event outlives any change to its user. The registrations as
  -- asked, in order; audit_registrations holds one row per distinct one, for the search.
  CREATE TABLE audit_events (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at bigint NOT NULL,
    user_id text,
    user_email text,
    action text NOT NULL,
    registrations text[] NOT NULL,
    outcome text NOT NULL,
    request_id text,
    client_address text,
    detail jsonb
  );
  CREATE INDEX audit_by_time ON audit_events (at);
  CREATE INDEX audit_by_user ON audit_events (user_id, id);

  -- "Who checked AB12CDE": the primary key's index, read backwards, is the newest first. The
  -- event's time is copied here so the delete rule reads the row itself, and pruning finds
  -- the old rows by a BRIN index (tiny, and enough for rows written in time order).
  CREATE TABLE audit_registrations (
    registration text NOT NULL,
    event_id bigint NOT NULL,
    at bigint NOT NULL,
    PRIMARY KEY (registration, event_id)
  );
  CREATE INDEX audit_registrations_by_time ON audit_registrations USING brin (at);

  -- Events older than this (ms since the epoch) may be deleted; an unset retention counts as
  -- a century, so the rule fails closed.
  CREATE FUNCTION audit_retention_cutoff() RETURNS bigint
  LANGUAGE sql STABLE SET search_path FROM CURRENT AS $$
    SELECT (extract(epoch FROM now()) * 1000)::bigint - 86400000 * coalesce(
      (SELECT value::bigint FROM proxy_settings WHERE name = 'audit_retention_days'), 36500)
  $$;

  -- Append-only, whoever asks, the owner too: no update, no truncate, no delete of an event
  -- younger than the retention period. (A superuser can still switch triggers off.)
  CREATE FUNCTION audit_never_changes() RETURNS trigger
  LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
  BEGIN
    RAISE EXCEPTION 'audit events cannot be changed' USING ERRCODE = 'insufficient_privilege';
  END $$;

  CREATE FUNCTION audit_kept_until_retention() RETURNS trigger
  LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
  BEGIN
    IF OLD.at > audit_retention_cutoff() THEN
      RAISE EXCEPTION 'audit events younger than the retention period cannot be deleted'
        USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN OLD;
  END $$;

  CREATE TRIGGER audit_events_never_change BEFORE UPDATE OR TRUNCATE ON audit_events
    FOR EACH STATEMENT EXECUTE FUNCTION audit_never_changes();
  CREATE TRIGGER audit_registrations_never_change BEFORE UPDATE OR TRUNCATE ON audit_registrations
    FOR EACH STATEMENT EXECUTE FUNCTION audit_never_changes();
  CREATE TRIGGER audit_events_kept BEFORE DELETE ON audit_events
    FOR EACH ROW EXECUTE FUNCTION audit_kept_until_retention();
  CREATE TRIGGER audit_registrations_kept BEFORE DELETE ON audit_registrations
    FOR EACH ROW EXECUTE FUNCTION audit_kept_until_retention();

  -- The retention job's only door for the app role, which holds no DELETE on the audit tables:
  -- runs as the owner, and never deletes past the database's own cutoff, whatever it is given.
  CREATE FUNCTION prune_audit(cutoff bigint) RETURNS integer
  LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
  DECLARE
    oldest bigint := least(cutoff, audit_retention_cutoff());
    removed integer;
  BEGIN
    DELETE FROM audit_registrations WHERE at < oldest;
    DELETE FROM audit_events WHERE at < oldest;
    GET DIAGNOSTICS removed = ROW_COUNT;
    RETURN removed;
  END $$;
  REVOKE ALL ON FUNCTION prune_audit(bigint) FROM PUBLIC;
  `,
  `
  -- The team's saved fleets: a vehicle once per fleet, in the order saved, with the user's own
  -- cells (a JSON array, one per column). version counts the changes to the vehicles.
  CREATE TABLE fleets (
    id text PRIMARY KEY,
    name text NOT NULL,
    columns jsonb NOT NULL,
    version integer NOT NULL,
    created_at bigint NOT NULL,
    created_by text,
    updated_at bigint NOT NULL,
    updated_by text
  );
  CREATE UNIQUE INDEX fleets_name_unique ON fleets (lower(name));

  CREATE TABLE fleet_vehicles (
    fleet_id text NOT NULL REFERENCES fleets (id) ON DELETE CASCADE,
    registration text NOT NULL,
    position integer NOT NULL,
    cells jsonb NOT NULL,
    added_at bigint NOT NULL,
    PRIMARY KEY (fleet_id, registration)
  );
  CREATE INDEX fleet_vehicles_in_order ON fleet_vehicles (fleet_id, position);
  -- "Every watched vehicle, once": the re-checks' list.
  CREATE INDEX fleet_vehicles_by_registration ON fleet_vehicles (registration);

  -- The re-checks: each watched vehicle's latest facts, what changed, and its alerts, each
  -- (registration, kind, key) once, ever: a fact alerts once however often it is seen.
  CREATE TABLE watched_vehicles (
    registration text PRIMARY KEY,
    facts jsonb,
    checked_at bigint,
    unknown_since bigint
  );

  CREATE TABLE vehicle_timeline (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    registration text NOT NULL,
    at bigint NOT NULL,
    area text NOT NULL,
    before jsonb,
    after jsonb
  );
  CREATE INDEX vehicle_timeline_by_vehicle ON vehicle_timeline (registration, id);

  CREATE TABLE vehicle_alerts (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    registration text NOT NULL,
    kind text NOT NULL,
    key text NOT NULL,
    detail jsonb NOT NULL,
    opened_at bigint NOT NULL,
    closed_at bigint
  );
  -- A fact alerts once while it holds: one open alert per (registration, kind, key). Once it
  -- closes, the same fact coming back (the vehicle found again and still uninsured) alerts anew.
  CREATE UNIQUE INDEX vehicle_alerts_open_once ON vehicle_alerts (registration, kind, key)
    WHERE closed_at IS NULL;
  CREATE INDEX vehicle_alerts_open ON vehicle_alerts (registration) WHERE closed_at IS NULL;

  -- In-app notifications: which alerts each user has read.
  CREATE TABLE alert_reads (
    user_id text NOT NULL,
    alert_id bigint NOT NULL,
    PRIMARY KEY (user_id, alert_id)
  );

  CREATE TABLE watch_runs (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind text NOT NULL,
    started_at bigint NOT NULL,
    finished_at bigint,
    outcome text,
    vehicles integer NOT NULL DEFAULT 0,
    unknown integer NOT NULL DEFAULT 0,
    alerts integer NOT NULL DEFAULT 0
  );

  CREATE TABLE watch_settings (name text PRIMARY KEY, value text NOT NULL);
  `,
  `
  -- When each alert's deliveries were planned (notify/plan-deliveries.ts); null until then.
  ALTER TABLE vehicle_alerts ADD COLUMN planned_at bigint;
  CREATE INDEX vehicle_alerts_unplanned ON vehicle_alerts (id) WHERE planned_at IS NULL;

  -- Alert rules and deliveries (docs/watching.md): each fleet's rule (JSON, AlertRuleSchema),
  -- the team's webhooks, and every email or webhook an alert is owed, once per (alert, fleet,
  -- channel, target) whatever runs twice, with each attempt to send it.
  CREATE TABLE fleet_alert_rules (
    fleet_id text PRIMARY KEY REFERENCES fleets (id) ON DELETE CASCADE,
    rule jsonb NOT NULL,
    updated_at bigint NOT NULL
  );

  CREATE TABLE webhooks (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    url text NOT NULL,
    description text NOT NULL,
    allow_private boolean NOT NULL,
    secret text NOT NULL,
    previous_secret text,
    previous_until bigint,
    created_at bigint NOT NULL,
    failing_since bigint,
    last_error text
  );

  CREATE TABLE deliveries (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    alert_id bigint NOT NULL,
    fleet_id text NOT NULL,
    channel text NOT NULL,
    -- The email address, or the webhook's id.
    target text NOT NULL,
    timing text NOT NULL,
    status text NOT NULL,
    note text,
    attempts integer NOT NULL DEFAULT 0,
    created_at bigint NOT NULL,
    next_attempt_at bigint,
    UNIQUE (alert_id, fleet_id, channel, target)
  );
  CREATE INDEX deliveries_pending ON deliveries (next_attempt_at) WHERE status = 'pending';

  CREATE TABLE delivery_attempts (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    delivery_id bigint NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
    at bigint NOT NULL,
    ok boolean NOT NULL,
    detail text NOT NULL
  );
  CREATE INDEX delivery_attempts_by_delivery ON delivery_attempts (delivery_id, id);
  `,
  `
  -- The client's X-Request-Id, kept apart from the proxy's own id; one event for many attempts
  -- (a throttled flood of sign-ins, refusals: audit/audit-log.ts), whose attempts and last_at
  -- alone may grow, and only on such an event; the search by an email with no account.
  ALTER TABLE audit_events ADD COLUMN correlation_id text;
  ALTER TABLE audit_events ADD COLUMN aggregate_key text;
  ALTER TABLE audit_events ADD COLUMN attempts integer NOT NULL DEFAULT 1;
  ALTER TABLE audit_events ADD COLUMN last_at bigint;
  CREATE UNIQUE INDEX audit_aggregates ON audit_events (aggregate_key);
  CREATE INDEX audit_by_email ON audit_events (user_email, id);
  -- INSERT ... ON CONFLICT DO UPDATE fires statement-level UPDATE triggers: this one now names
  -- the columns that never change, and a row trigger lets only an aggregate's count grow.
  DROP TRIGGER audit_events_never_change ON audit_events;
  CREATE TRIGGER audit_events_never_change BEFORE UPDATE OF id, at, user_id, user_email, action,
    registrations, outcome, request_id, client_address, detail, correlation_id, aggregate_key
    OR TRUNCATE ON audit_events
    FOR EACH STATEMENT EXECUTE FUNCTION audit_never_changes();
  CREATE TRIGGER audit_events_only_count BEFORE UPDATE OF attempts, last_at ON audit_events
    FOR EACH ROW WHEN (OLD.aggregate_key IS NULL OR NEW.attempts < OLD.attempts
      OR NEW.last_at < OLD.last_at)
    EXECUTE FUNCTION audit_never_changes();
  `,
  `
  -- An account in use is never linked to an OIDC identity by its email alone (issue 33): the
  -- first sign-in is kept, and an admin may allow one link for a while. Accounts with a
  -- password, a link, a session or a recorded sign-in are in use already.
  ALTER TABLE users ADD COLUMN signed_in_at timestamptz;
  ALTER TABLE users ADD COLUMN oidc_link_allowed_until bigint;
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
  SCRUB_ENDPOINT_WORDS,
  DATE_UNSUBSCRIBE_LINKS,
  GROUP_NOTIFICATIONS,
  PARTITION_AUDIT,
];
