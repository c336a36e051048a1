import pg from "pg";
import { migratePg, type PgPool } from "@vics/server-kit/postgres";
import {
  installJobsSchema,
  jobsGrants,
  jobsSchemaInstalled,
} from "./jobs-schema.ts";
import { MIGRATIONS, MIGRATIONS_NAME } from "./schema.ts";

/**
 * Exactly what the app role may do: read and write its sessions, links and sign-ins, change
 * users (some columns), keep the saved fleets, read the settings and the migrations' record,
 * and only read and add audit events, and count an aggregated one's attempts. No other UPDATE, no DELETE or TRUNCATE of an event: old ones go through prune_audit.
 */
const appGrants = (role: string) => {
  const app = pg.escapeIdentifier(role);
  return `
    REVOKE ALL ON users, sessions, one_time_links, oidc_logins, proxy_settings,
      audit_events, audit_registrations, fleets, fleet_vehicles, watched_vehicles,
      vehicle_timeline, vehicle_alerts, watch_runs, watch_settings, alert_reads,
      fleet_baselines, fleet_baseline_reads, ${MIGRATIONS_NAME}_migrations FROM ${app};
    GRANT SELECT, INSERT ON users TO ${app};
    GRANT UPDATE (name, role, password_hash, disabled_at, oidc_issuer, oidc_subject,
      signed_in_at, oidc_link_allowed_until) ON users TO ${app};
    GRANT SELECT, INSERT, DELETE ON sessions, one_time_links, oidc_logins TO ${app};
    GRANT UPDATE (last_seen_at) ON sessions TO ${app};
    GRANT UPDATE (used_at) ON one_time_links TO ${app};
    GRANT SELECT, INSERT ON audit_events, audit_registrations TO ${app};
    -- An aggregated event's count (schema.ts: the triggers refuse it on any other event).
    GRANT UPDATE (attempts, last_at) ON audit_events TO ${app};
    GRANT SELECT ON proxy_settings, ${MIGRATIONS_NAME}_migrations TO ${app};
    GRANT EXECUTE ON FUNCTION prune_audit(bigint) TO ${app};
    -- An event's id, and its month's partition when none holds it yet (audit-partitions.ts).
    GRANT USAGE ON SEQUENCE audit_event_seq TO ${app};
    GRANT EXECUTE ON FUNCTION audit_add_partitions(bigint, bigint) TO ${app};
    GRANT SELECT, INSERT, UPDATE, DELETE ON fleets, fleet_vehicles TO ${app};
    GRANT SELECT, INSERT, UPDATE ON watched_vehicles, vehicle_timeline, vehicle_alerts,
      watch_runs, watch_settings TO ${app};
    GRANT SELECT, INSERT ON alert_reads, fleet_baseline_reads TO ${app};
    GRANT SELECT, INSERT, UPDATE ON fleet_baselines TO ${app};
    GRANT SELECT, INSERT, UPDATE, DELETE ON fleet_alert_rules, webhooks TO ${app};
    GRANT SELECT, INSERT, UPDATE ON deliveries TO ${app};
    GRANT SELECT, INSERT ON delivery_attempts TO ${app};
  `;
};

/** What a role that may not set up the proxy's tables (or pg-boss's schema) is told to do. */
export const MIGRATION_HINT =
  "set MIGRATION_DATABASE_URL to their owner's URL, or run `scripts/users list` with it after each upgrade";

export interface OwnerSetup {
  auditRetentionDays: number;
  /** The role the proxy works as, when it is not the owner: granted what it needs, no more. */
  appRole?: string;
}

/**
 * Run as the owner of the proxy's tables: brings the schema up to date, records the audit
 * retention the triggers and prune_audit read, and grants the app role its privileges. Under
 * the migrations' advisory lock, so replicas that start together do it one after the other.
 * Then installs or migrates pg-boss's schema (the re-checks' jobs), one replica at a time, and
 * grants the app role its use, not its shape: the only place it is made, so no replica's job
 * engine migrates it at start.
 */
export async function setUpAsOwner(
  owner: PgPool,
  setup: OwnerSetup,
): Promise<number> {
  const ran = await migratePg(
    owner,
    { name: MIGRATIONS_NAME, steps: MIGRATIONS },
    async (client, newestStep) => {
      await client.query(
        `INSERT INTO proxy_settings (name, value) VALUES ('audit_retention_days', $1)
         ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
        [String(setup.auditRetentionDays)],
      );
      // A newer release has migrated past this one: its grants stand (an older replica that
      // restarts during a rolling upgrade must not take back what the new tables need).
      if (setup.appRole !== undefined && newestStep <= MIGRATIONS.length)
        await client.query(appGrants(setup.appRole));
    },
  );
  await installJobsSchema(owner);
  // Grants only, whichever release installed it: nothing a newer one needs is taken back.
  if (setup.appRole !== undefined) await owner.query(jobsGrants(setup.appRole));
  return ran;
}

export interface SetUpState {
  /** Every migration of this release has run. */
  migrated: boolean;
  /** pg-boss's schema is this release's (or newer): a pg-boss upgrade alone sets up again. */
  jobsInstalled: boolean;
  /** The retention recorded is this one. */
  retentionRecorded: boolean;
}

/**
 * How far the database is set up for this release and this retention, read as the app role:
 * a proxy that holds no owner's URL starts on a database its owner has set up.
 */
export async function setUpState(
  app: PgPool,
  auditRetentionDays: number,
): Promise<SetUpState> {
  const { rows } = await app.query<{
    done: number | null;
    days: string | null;
  }>(
    `SELECT (SELECT max(step) FROM ${MIGRATIONS_NAME}_migrations) AS done,
       (SELECT value FROM proxy_settings WHERE name = 'audit_retention_days') AS days`,
  );
  return {
    // A newer release may have run more steps: this release's are all there.
    migrated: (rows[0]?.done ?? 0) >= MIGRATIONS.length,
    jobsInstalled: await jobsSchemaInstalled(app),
    retentionRecorded: rows[0]?.days === String(auditRetentionDays),
  };
}
