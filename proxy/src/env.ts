import { resolve } from "node:path";
import { readSecretFile } from "@vics/shared/server/secret-file";
import {
  type ConnectionLimits,
  DEFAULT_CONNECTION_LIMITS,
} from "@vics/shared/server/connection-guard";
import { ALERT_RULE_MAX_EMAILS, BULK_MAX_REGISTRATIONS } from "@vics/shared";
import { z } from "zod";
import { isPostgresUrl } from "@vics/shared/server/postgres-url";
import { LOG_LEVELS, type LogLevel } from "@vics/shared/server/logger";
import {
  isTrustList,
  parseTrustedProxies,
  TRUSTED_PROXIES_ERROR,
} from "@vics/shared/server/client-address";
import { isRedisUrl } from "@vics/shared/server/redis-url";
import { isLoopbackHost } from "./edges/loopback.ts";
import { smtpServer } from "./notify/email/mailer.ts";
import { DEFAULT_FIRST_ADMIN_EMAIL } from "./users/first-admin.ts";
import { DEFAULT_USER_LIMITS, type UserLimits } from "./limits/user-limits.ts";
import { DEFAULT_FLEET_CAPS, type FleetCaps } from "./store/fleet-store.ts";
import {
  DEFAULT_REFRESH_LEAD_MINUTES,
  MAX_REFRESH_LEAD_MINUTES,
} from "./watch/jobs/daily-time.ts";
import {
  DEFAULT_MAX_EXTERNAL_EMAILS,
  type AlertEmailPolicy,
} from "./notify/email-domains.ts";

/** A domain name of at least two labels, as an email address's part after the @. */
const DOMAIN =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;

/** The only module that reads process.env (docs/architecture.md). */

export interface ProxyEnv {
  host: string;
  port: number;
  upstreamUrl: string;
  apiKey: string;
  /** Where the key came from, when from a file: read again on SIGHUP (key rotation). */
  apiKeyFile?: string;
  timeoutMs: number;
  /** On SIGTERM, how long requests in flight may take to finish before connections are closed. */
  shutdownGraceMs: number;
  /** The origin browsers use, e.g. https://vics.example.org (Host and Origin checks). */
  publicOrigin?: string;
  /** Load balancers whose X-Forwarded-For is believed: addresses or CIDR ranges. */
  trustedProxies: string[];
  /** Redis for the per-user limits and sign-in throttles, shared by replicas; unset: in memory. */
  rateLimitUrl?: string;
  webRoot: string;
  logLevel: LogLevel;
  /** The key of the registration hashes in the logs; unset: a random one per process. */
  logHashKey?: string;
  /** Connections per client address (the socket's peer) and in all (connection-guard.ts). */
  connectionLimits: ConnectionLimits;
  /** The proxy's own store, and where one-time links open. */
  store: StoreEnv;
  /** Whether the proxy listens beyond loopback: then at least one admin must exist. */
  remote: boolean;
  sessionTimes: { idleMs: number; absoluteMs: number };
  localSignIn: boolean;
  oidc?: OidcEnv;
  userLimits: UserLimits;
  /** The team's caps on saved fleets: how many, and their vehicles together (fleet-store.ts). */
  fleetCaps: FleetCaps;
  /** The team's email domains and the cap on alert addresses outside them (email-domains.ts). */
  alertEmails: AlertEmailPolicy;
  /** The first admin `npm start` makes on loopback when there is none. */
  firstAdminEmail: string;
  /**
   * The watched fleets' re-checks' own key (WATCH_API_KEY or WATCH_API_KEY_FILE), so they never
   * spend the staff's budget; unset: fleets are saved but not re-checked.
   */
  watchApiKey?: string;
  /**
   * How long before the daily sweep the watched vehicles' stale register facts are refreshed
   * (WATCH_REFRESH_LEAD_MINUTES, default 240); 0: never (issue 35, point 3). It should be at
   * least the watched vehicles divided by the slowest register's rate (docs/watching.md).
   */
  watchRefreshLeadMinutes: number;
  /** Where alert emails go out; unset: they wait, unsent (docs/watching.md). */
  alertMail?: AlertMailEnv;
}

export interface AlertMailEnv {
  /** smtp:// or smtps://, perhaps with a login: a secret, never logged. */
  smtpUrl: string;
  from: string;
}

export interface OidcEnv {
  issuer: string;
  clientId: string;
  clientSecret: string;
  label: string;
  allowedDomains: string[];
  /** An http issuer: allowed only on loopback (a provider on this machine, in tests). */
  allowHttpIssuer: boolean;
}

/**
 * Relative paths in the environment (WEB_DIST, UPSTREAM_API_KEY_FILE) resolve against the
 * repository root, whatever the working directory, as the service's DATABASE_PATH does: so
 * `npm run start -w @vics/proxy` (run in proxy/) and `node proxy/src/index.ts` agree.
 */
export const REPO_ROOT = resolve(import.meta.dirname, "../..");
const fromRoot = (path: string) => resolve(REPO_ROOT, path);

const MAX_TIMER_MS = 2_147_483_647;

const positiveCount = (fallback: number) =>
  z.coerce
    .number()
    .int()
    .positive()
    .max(MAX_TIMER_MS, { error: `must be at most ${MAX_TIMER_MS}` })
    .default(fallback);

/**
 * A role that runs fleets sends up to BULK_MAX_REGISTRATIONS in one request: a smaller limit
 * would refuse a whole request that the fleet run's pacing could not have seen coming.
 */
const bulkRoleLimit = (fallback: number) =>
  positiveCount(fallback).refine(
    (lookups) => lookups >= BULK_MAX_REGISTRATIONS,
    {
      error: `must be at least ${BULK_MAX_REGISTRATIONS.toLocaleString("en-GB")}, the most registrations one fleet request may carry`,
    },
  );

const EnvSchema = z.object({
  HOST: z.string().trim().min(1).default("127.0.0.1"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  UPSTREAM_URL: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
    .default("http://127.0.0.1:3001"),
  // Node runs a longer timer after 1 ms, which would make every call a 504.
  UPSTREAM_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive()
    .max(MAX_TIMER_MS, { error: `must be at most ${MAX_TIMER_MS}` })
    .default(10000),
  // Unset: as long as an upstream call may take, and a second to answer it.
  SHUTDOWN_GRACE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(MAX_TIMER_MS, { error: `must be at most ${MAX_TIMER_MS}` })
    .optional(),
  PUBLIC_ORIGIN: z
    .url({
      protocol: /^https?$/,
      error: "must be an http(s) origin, e.g. https://vics.example.org",
    })
    .refine(
      (value) => {
        // Runs after a failed URL check too: that one has said what is wrong.
        if (!URL.canParse(value)) return true;
        const url = new URL(value);
        return (
          url.pathname === "/" &&
          !url.search &&
          !url.hash &&
          !url.username &&
          !url.password
        );
      },
      {
        error:
          "must be an origin only: scheme, host and port, no path (e.g. https://vics.example.org)",
      },
    )
    .transform((value) => new URL(value).origin)
    .optional(),
  TRUSTED_PROXIES: z
    .string()
    .default("")
    .transform(parseTrustedProxies)
    .refine(isTrustList, { error: TRUSTED_PROXIES_ERROR }),
  RATE_LIMIT_URL: z
    .string()
    .refine(isRedisUrl, {
      error: "must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379",
    })
    .optional(),
  SESSION_IDLE_MINUTES: positiveCount(8 * 60).refine(
    (minutes) => minutes <= 30 * 24 * 60,
    { error: "must be at most 43200 (30 days)" },
  ),
  SESSION_MAX_HOURS: positiveCount(12).refine((hours) => hours <= 30 * 24, {
    error: "must be at most 720 (30 days)",
  }),
  LOCAL_SIGN_IN: z
    .enum(["true", "false"], { error: 'must be "true" or "false"' })
    .default("true"),
  OIDC_ISSUER: z
    .url({ protocol: /^https?$/, error: "must be the provider's issuer URL" })
    .optional(),
  OIDC_CLIENT_ID: z.string().trim().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().trim().min(1).optional(),
  OIDC_CLIENT_SECRET_FILE: z.string().optional(),
  OIDC_LABEL: z
    .string()
    .trim()
    .min(1)
    .max(60)
    .default("Sign in with your organisation account"),
  OIDC_ALLOWED_DOMAINS: z
    .string()
    .default("")
    .transform((value) =>
      value
        .split(",")
        .map((item) => item.trim().toLowerCase())
        .filter(Boolean),
    ),
  FIRST_ADMIN_EMAIL: z
    .string()
    .trim()
    .regex(/^[^\s@]+@[^\s@]+$/, { error: "must be an email address" })
    .default(DEFAULT_FIRST_ADMIN_EMAIL),
  USER_LOOKUPS_PER_MINUTE_STAFF: positiveCount(DEFAULT_USER_LIMITS.staff),
  USER_LOOKUPS_PER_MINUTE_FLEET: bulkRoleLimit(DEFAULT_USER_LIMITS.fleet),
  USER_LOOKUPS_PER_MINUTE_ADMIN: bulkRoleLimit(DEFAULT_USER_LIMITS.admin),
  WEB_DIST: z.string().default("web/dist").transform(fromRoot),
  LOG_LEVEL: z
    .enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(", ")}` })
    .default("info"),
  LOG_HASH_KEY: z
    .string()
    .min(16, { error: "must be at least 16 characters" })
    .optional(),
  MAX_CONNECTIONS: positiveCount(DEFAULT_CONNECTION_LIMITS.maxTotal),
  MAX_CONNECTIONS_PER_ADDRESS: positiveCount(
    DEFAULT_CONNECTION_LIMITS.maxPerAddress,
  ),
  MAX_FLEETS: positiveCount(DEFAULT_FLEET_CAPS.maxFleets),
  MAX_WATCHED_VEHICLES: positiveCount(DEFAULT_FLEET_CAPS.maxWatchedVehicles),
  // Unset: the domains of the team's own accounts.
  ALERT_EMAIL_DOMAINS: z
    .string()
    .transform((value) =>
      value
        .split(",")
        .map((item) => item.trim().toLowerCase())
        .filter(Boolean),
    )
    .refine((domains) => domains.every((d) => DOMAIN.test(d)), {
      error: (issue) =>
        `must be email domains separated by commas, e.g. "fleet.example,depot.fleet.example"; "${(issue.input as string[]).find((d) => !DOMAIN.test(d))}" is not one`,
    })
    .optional(),
  ALERT_RULE_MAX_EXTERNAL_EMAILS: z.coerce
    .number()
    .int()
    .min(0)
    .max(ALERT_RULE_MAX_EMAILS, {
      error: `must be at most ${ALERT_RULE_MAX_EMAILS}, the most addresses a rule may have`,
    })
    .default(DEFAULT_MAX_EXTERNAL_EMAILS),
  // Minutes before the daily sweep; 0 turns the refresh off. At most half a day, so that it
  // stays ahead of the sweep it is for, not after the one before.
  WATCH_REFRESH_LEAD_MINUTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(MAX_REFRESH_LEAD_MINUTES, {
      error: `must be at most ${MAX_REFRESH_LEAD_MINUTES} (12 hours before the daily sweep)`,
    })
    .default(DEFAULT_REFRESH_LEAD_MINUTES),
  IDLE_TIMEOUT_UNDER_PRESSURE_MS: positiveCount(
    DEFAULT_CONNECTION_LIMITS.idleUnderPressureMs,
  ),
});

const MIN_KEY_LENGTH = 20;

type KeyResult = { key: string } | { error: string };

const KEY_MISSING =
  "UPSTREAM_API_KEY or UPSTREAM_API_KEY_FILE must be set to the proxy's API key for the vehicle service (create one with `scripts/keys create --plan internal --name proxy`)";

/** The trimmed text of `file`, resolved from the repository root, or why not. */
const readFileValue = (file: string, variable: string) =>
  readSecretFile(file, variable, REPO_ROOT);

/**
 * `name`, or the file named by `name`_FILE (for a secret): only one of them may be set.
 * Undefined when neither is.
 */
function valueOrFile(
  present: Record<string, string>,
  name: string,
): { value: string; fromFile: boolean } | { error: string } | undefined {
  const value = present[name];
  const file = present[`${name}_FILE`];
  if (value !== undefined && file !== undefined)
    return { error: `set only one of ${name} and ${name}_FILE` };
  if (file !== undefined) {
    const read = readFileValue(file, `${name}_FILE`);
    return "error" in read ? read : { value: read.value, fromFile: true };
  }
  return value === undefined ? undefined : { value, fromFile: false };
}

/**
 * The key in `file` (resolved from the repository root), checked as at start-up: at start, and
 * again on every SIGHUP. An error never holds the key.
 */
export function readApiKeyFile(
  keyFile: string,
  variable = "UPSTREAM_API_KEY_FILE",
): KeyResult {
  const read = readFileValue(keyFile, variable);
  return "error" in read ? read : checkedKey(read.value);
}

function readApiKey(present: Record<string, string>): KeyResult {
  const read = valueOrFile(present, "UPSTREAM_API_KEY");
  if (read && "error" in read) return read;
  const key = read?.value.trim();
  if (!key) return { error: KEY_MISSING };
  return checkedKey(key);
}

/** The re-checks' own key: optional; both variables, or an unreadable file, is an error. */
function readWatchKey(present: Record<string, string>): KeyResult | undefined {
  const read = valueOrFile(present, "WATCH_API_KEY");
  if (read === undefined || "error" in read) return read;
  const checked = checkedKey(read.value.trim());
  return "error" in checked && !read.fromFile
    ? { error: `WATCH_API_KEY: ${checked.error}` }
    : checked;
}

function checkedKey(key: string): KeyResult {
  // A header value cannot carry spaces or control characters; say so without echoing it.
  if (!/^[\x21-\x7e]+$/.test(key)) {
    return {
      error:
        "the API key contains spaces or characters that cannot be sent in a header",
    };
  }
  // VICS keys are 48 characters. Something much shorter is a placeholder or a typo, and would
  // also make the log redaction of the key mangle ordinary words.
  if (key.length < MIN_KEY_LENGTH) {
    return {
      error: `the API key is too short to be a VICS API key (fewer than ${MIN_KEY_LENGTH} characters)`,
    };
  }
  return { key };
}

function publicOriginError(host: string): string {
  return (
    `HOST=${host} also needs PUBLIC_ORIGIN, the https address browsers use for VICS (e.g. https://vics.example.org): ` +
    "beyond this machine, session cookies and passwords travel only over https, and the proxy answers only " +
    "requests for that host, so a page on another name that resolves to it (DNS rebinding) cannot reach it. " +
    "TLS may end at a load balancer named in TRUSTED_PROXIES."
  );
}

function oidcErrors(present: Record<string, string>) {
  const errors: string[] = [];
  const named = ["OIDC_ISSUER", "OIDC_CLIENT_ID"].filter(
    (name) => present[name] !== undefined,
  );
  const secret =
    present.OIDC_CLIENT_SECRET !== undefined ||
    present.OIDC_CLIENT_SECRET_FILE !== undefined;
  if (named.length === 0 && !secret) {
    if (present.LOCAL_SIGN_IN === "false")
      errors.push(
        "LOCAL_SIGN_IN=false needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET: otherwise no one could sign in",
      );
    return errors;
  }
  if (named.length < 2 || !secret)
    errors.push(
      "OIDC needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET (or OIDC_CLIENT_SECRET_FILE) together",
    );
  if (
    present.OIDC_CLIENT_SECRET !== undefined &&
    present.OIDC_CLIENT_SECRET_FILE !== undefined
  )
    errors.push(
      "set only one of OIDC_CLIENT_SECRET and OIDC_CLIENT_SECRET_FILE",
    );
  if (present.PUBLIC_ORIGIN === undefined)
    errors.push(
      "OIDC needs PUBLIC_ORIGIN: the provider sends people back to PUBLIC_ORIGIN/api/auth/oidc/callback, never to an address taken from a request",
    );
  if (
    present.OIDC_ISSUER?.startsWith("http:") &&
    !loopbackUrl(present.OIDC_ISSUER)
  )
    errors.push(
      "OIDC_ISSUER must be https (http only for a provider on this machine)",
    );
  return errors;
}

const loopbackUrl = (url: string) =>
  URL.canParse(url) &&
  isLoopbackHost(new URL(url).hostname.replace(/^\[|\]$/g, ""));

/**
 * Alert emails' SMTP server (ALERT_SMTP_URL, or ALERT_SMTP_URL_FILE when it holds a password)
 * and sender (ALERT_MAIL_FROM); unset: alert emails wait, unsent, until there is one.
 */
function readAlertMail(
  present: Record<string, string>,
): AlertMailEnv | { error: string } | undefined {
  const read = valueOrFile(present, "ALERT_SMTP_URL");
  if (read === undefined || "error" in read) return read;
  const smtpUrl = read.value;
  try {
    smtpServer(smtpUrl);
  } catch (error) {
    return { error: `ALERT_SMTP_URL: ${(error as Error).message}` };
  }
  const from = present.ALERT_MAIL_FROM?.trim();
  if (!from)
    return {
      error:
        'ALERT_SMTP_URL also needs ALERT_MAIL_FROM, the sender of alert emails (e.g. "VICS <vics@fleet.example>")',
    };
  return { smtpUrl, from };
}

export type EnvResult =
  { ok: true; env: ProxyEnv } | { ok: false; errors: string[] };

/** Parses an environment; every problem is reported at once, never the key itself. */
export function parseEnv(
  source: Record<string, string | undefined>,
): EnvResult {
  // An empty variable means "not set", as in most shells' `VAR= command`.
  const present: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value !== undefined && value !== "") present[name] = value;
  }
  const parsed = EnvSchema.safeParse(present);
  const errors = parsed.success
    ? []
    : parsed.error.issues.map(
        (issue) => `${issue.path.join(".")}: ${issue.message}`,
      );
  const apiKey = readApiKey(present);
  if ("error" in apiKey) errors.push(apiKey.error);
  const watchKey = readWatchKey(present);
  if (watchKey && "error" in watchKey) errors.push(watchKey.error);
  const alertMail = readAlertMail(present);
  if (alertMail && "error" in alertMail) errors.push(alertMail.error);
  const host = present.HOST?.trim() || "127.0.0.1";
  const remote = !isLoopbackHost(host);
  if (remote && !present.PUBLIC_ORIGIN?.startsWith("https://"))
    errors.push(publicOriginError(host));
  errors.push(...oidcErrors(present));
  const store = parseStoreEnv(present);
  // PORT and PUBLIC_ORIGIN are read by both: each problem is said once.
  if (!store.ok)
    errors.push(...store.errors.filter((error) => !errors.includes(error)));
  let oidcSecret = present.OIDC_CLIENT_SECRET;
  if (
    present.OIDC_CLIENT_SECRET_FILE !== undefined &&
    oidcSecret === undefined
  ) {
    const read = readFileValue(
      present.OIDC_CLIENT_SECRET_FILE,
      "OIDC_CLIENT_SECRET_FILE",
    );
    if ("error" in read) errors.push(read.error);
    else oidcSecret = read.value;
  }
  if (!parsed.success || "error" in apiKey || !store.ok || errors.length > 0) {
    return { ok: false, errors };
  }
  const raw = parsed.data;
  const oidc: OidcEnv | undefined =
    raw.OIDC_ISSUER && raw.OIDC_CLIENT_ID && oidcSecret
      ? {
          issuer: raw.OIDC_ISSUER,
          clientId: raw.OIDC_CLIENT_ID,
          clientSecret: oidcSecret,
          label: raw.OIDC_LABEL,
          allowedDomains: raw.OIDC_ALLOWED_DOMAINS,
          allowHttpIssuer: raw.OIDC_ISSUER.startsWith("http:"),
        }
      : undefined;
  return {
    ok: true,
    env: {
      host: raw.HOST,
      port: raw.PORT,
      upstreamUrl: raw.UPSTREAM_URL,
      apiKey: apiKey.key,
      apiKeyFile:
        present.UPSTREAM_API_KEY_FILE === undefined
          ? undefined
          : fromRoot(present.UPSTREAM_API_KEY_FILE),
      timeoutMs: raw.UPSTREAM_TIMEOUT_MS,
      shutdownGraceMs:
        raw.SHUTDOWN_GRACE_MS ??
        Math.min(raw.UPSTREAM_TIMEOUT_MS + 1000, MAX_TIMER_MS),
      publicOrigin: raw.PUBLIC_ORIGIN,
      trustedProxies: raw.TRUSTED_PROXIES,
      rateLimitUrl: raw.RATE_LIMIT_URL,
      webRoot: raw.WEB_DIST,
      logLevel: raw.LOG_LEVEL,
      logHashKey: raw.LOG_HASH_KEY,
      connectionLimits: {
        maxTotal: raw.MAX_CONNECTIONS,
        maxPerAddress: raw.MAX_CONNECTIONS_PER_ADDRESS,
        idleUnderPressureMs: raw.IDLE_TIMEOUT_UNDER_PRESSURE_MS,
      },
      store: store.env,
      remote,
      sessionTimes: {
        idleMs: raw.SESSION_IDLE_MINUTES * 60_000,
        absoluteMs: raw.SESSION_MAX_HOURS * 3_600_000,
      },
      localSignIn: raw.LOCAL_SIGN_IN === "true",
      oidc,
      firstAdminEmail: raw.FIRST_ADMIN_EMAIL,
      watchApiKey: watchKey && "key" in watchKey ? watchKey.key : undefined,
      watchRefreshLeadMinutes: raw.WATCH_REFRESH_LEAD_MINUTES,
      alertMail: alertMail && "error" in alertMail ? undefined : alertMail,
      fleetCaps: {
        maxFleets: raw.MAX_FLEETS,
        maxWatchedVehicles: raw.MAX_WATCHED_VEHICLES,
      },
      alertEmails: {
        domains: raw.ALERT_EMAIL_DOMAINS,
        maxExternal: raw.ALERT_RULE_MAX_EXTERNAL_EMAILS,
      },
      userLimits: {
        staff: raw.USER_LOOKUPS_PER_MINUTE_STAFF,
        fleet: raw.USER_LOOKUPS_PER_MINUTE_FLEET,
        admin: raw.USER_LOOKUPS_PER_MINUTE_ADMIN,
      },
    },
  };
}

/** Reads process.env; on any problem prints each one and exits 1. */
export function loadEnv(): ProxyEnv {
  const result = parseEnv(process.env);
  if (result.ok) return result.env;
  console.error("The proxy cannot start:");
  for (const error of result.errors) console.error(`  - ${error}`);
  process.exit(1);
}

/** What the proxy's store needs: read by the proxy and by `scripts/users`. */
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

const postgresUrl = z.string().trim().refine(isPostgresUrl, {
  error:
    "must be a postgres:// or postgresql:// URL, e.g. postgres://vics@db.internal:5432/vics (unset: the proxy's store is the SQLite file PROXY_DATABASE_PATH)",
});

const StoreEnvSchema = z.object({
  PROXY_DATABASE_PATH: z
    .string()
    .default("data/proxy.sqlite")
    .transform(fromRoot),
  DATABASE_URL: postgresUrl.optional(),
  MIGRATION_DATABASE_URL: postgresUrl.optional(),
  AUDIT_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(36_500, { error: "must be at most 36500 (a century)" })
    .default(400),
  PUBLIC_ORIGIN: EnvSchema.shape.PUBLIC_ORIGIN,
  PORT: EnvSchema.shape.PORT,
});

export function parseStoreEnv(
  source: Record<string, string | undefined>,
): { ok: true; env: StoreEnv } | { ok: false; errors: string[] } {
  const present = Object.fromEntries(
    Object.entries(source).filter(
      ([, value]) => value !== undefined && value !== "",
    ),
  );
  const parsed = StoreEnvSchema.safeParse(present);
  const errors = parsed.success
    ? []
    : parsed.error.issues.map(
        (issue) => `${issue.path.join(".")}: ${issue.message}`,
      );
  if (present.MIGRATION_DATABASE_URL && !present.DATABASE_URL)
    errors.push(
      "MIGRATION_DATABASE_URL needs DATABASE_URL, the role the proxy works as: it migrates a PostgreSQL store, and without DATABASE_URL the store is the SQLite file",
    );
  if (!parsed.success || errors.length > 0) return { ok: false, errors };
  const raw = parsed.data;
  return {
    ok: true,
    env: {
      databasePath: raw.PROXY_DATABASE_PATH,
      databaseUrl: raw.DATABASE_URL,
      migrationDatabaseUrl: raw.MIGRATION_DATABASE_URL,
      auditRetentionDays: raw.AUDIT_RETENTION_DAYS,
      linkOrigin: raw.PUBLIC_ORIGIN ?? `http://127.0.0.1:${raw.PORT}`,
    },
  };
}

/** Reads process.env for `scripts/users`; on any problem prints each one and exits 1. */
export function loadStoreEnv(): StoreEnv {
  const result = parseStoreEnv(process.env);
  if (result.ok) return result.env;
  console.error("scripts/users cannot start:");
  for (const error of result.errors) console.error(`  - ${error}`);
  process.exit(1);
}
