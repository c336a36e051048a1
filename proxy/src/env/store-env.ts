// The proxy's own store (users, sessions, links, audit, fleets): read by the proxy and by
// `scripts/users`.
import { z } from "zod";
import {
  issueLines,
  postgresUrlField,
  presentOnly,
  wholeNumber,
} from "@vics/server-kit/env-fields";
import { proxyPortField, publicOriginField } from "./gateway-env.ts";
import { fromRoot } from "./paths.ts";

export interface StoreEnv {
  /** The proxy's own SQLite file: users, sessions, one-time links, the audit log. */
  databasePath: string;
  /** DATABASE_URL: when set, the store is in PostgreSQL (shared by replicas), not the file. */
  databaseUrl?: string;
  /**
   * MIGRATION_DATABASE_URL: the owner of the proxy's tables, when DATABASE_URL's role is a
   * lesser one. It migrates, and grants DATABASE_URL's role what the proxy needs.
   */
  migrationDatabaseUrl?: string;
  /** Audit events older than this are pruned daily; younger ones cannot be deleted. */
  auditRetentionDays: number;
  /** Where one-time links open: PUBLIC_ORIGIN, else the loopback address and port. */
  linkOrigin: string;
}

const postgresUrl = postgresUrlField(
  "e.g. postgres://vics@db.internal:5432/vics (unset: the proxy's store is the SQLite file PROXY_DATABASE_PATH)",
);

/**
 * The store's own variables. The proxy's env.ts spreads them into its one schema, where PORT and
 * PUBLIC_ORIGIN already are, so each variable is parsed once and each problem said once.
 */
export const STORE_ENV_SHAPE = {
  PROXY_DATABASE_PATH: z
    .string()
    .default("data/proxy.sqlite")
    .transform(fromRoot),
  DATABASE_URL: postgresUrl,
  MIGRATION_DATABASE_URL: postgresUrl,
  AUDIT_RETENTION_DAYS: wholeNumber(400, {
    max: 36_500,
    tooLarge: "must be at most 36500 (a century)",
  }),
};

/** The store's variables with the two it shares with the gateway, for `scripts/users` alone. */
const StoreEnvSchema = z.object({
  ...STORE_ENV_SHAPE,
  PUBLIC_ORIGIN: publicOriginField,
  PORT: proxyPortField,
});

type StoreRaw = z.infer<typeof StoreEnvSchema>;

/** What the store's variables get wrong together, beyond each one's own shape. */
export function storeErrors(present: Record<string, string>): string[] {
  return present.MIGRATION_DATABASE_URL && !present.DATABASE_URL
    ? [
        "MIGRATION_DATABASE_URL needs DATABASE_URL, the role the proxy works as: it migrates a PostgreSQL store, and without DATABASE_URL the store is the SQLite file",
      ]
    : [];
}

/** The store's settings from a parsed environment: the store's schema's, or the proxy's. */
export function storeEnvOf(raw: StoreRaw): StoreEnv {
  return {
    databasePath: raw.PROXY_DATABASE_PATH,
    databaseUrl: raw.DATABASE_URL,
    migrationDatabaseUrl: raw.MIGRATION_DATABASE_URL,
    auditRetentionDays: raw.AUDIT_RETENTION_DAYS,
    linkOrigin: raw.PUBLIC_ORIGIN ?? `http://127.0.0.1:${raw.PORT}`,
  };
}

export function parseStoreEnv(
  source: Record<string, string | undefined>,
): { ok: true; env: StoreEnv } | { ok: false; errors: string[] } {
  const present = presentOnly(source);
  const parsed = StoreEnvSchema.safeParse(present);
  const errors = parsed.success ? [] : issueLines(parsed.error.issues);
  errors.push(...storeErrors(present));
  if (!parsed.success || errors.length > 0) return { ok: false, errors };
  return { ok: true, env: storeEnvOf(parsed.data) };
}
