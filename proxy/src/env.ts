// The only module that reads process.env (docs/architecture.md). Each concern's variables and
// checks are in env/: the gateway's (gateway-env.ts), the API keys (upstream-key.ts), sign-in
// (sign-in-env.ts), the team's limits (team-env.ts), alert mail (alert-mail.ts) and the store
// (store-env.ts); this module puts them together and reports every problem at once.
import { z } from "zod";
import type { ConnectionLimits } from "@vics/server-kit/connection-guard";
import {
  issueLines,
  crossFieldProblems,
  MAX_TIMER_MS,
  presentOnly,
} from "@vics/server-kit/env-fields";
import type { LogLevel } from "@vics/server-kit/logger";
import {
  type TracingSettings,
  tracingSettings,
} from "@vics/server-kit/tracing-settings";
import { isLoopbackHost } from "./gateway/edges/loopback.ts";
import type { UserLimits } from "./team/limits/user-limits.ts";
import type { AlertEmailPolicy } from "./team/notify/email-domains.ts";
import type { FleetCaps } from "./team/store/fleet-store.ts";
import { type AlertMailEnv, readAlertMail } from "./env/alert-mail.ts";
import { GATEWAY_ENV_SHAPE, publicOriginError } from "./env/gateway-env.ts";
import { fromRoot } from "./env/paths.ts";
import { variablesInEffect } from "./env/variables-view.ts";
import {
  type OidcEnv,
  oidcErrors,
  oidcOf,
  readOidcSecret,
  SIGN_IN_ENV_SHAPE,
} from "./env/sign-in-env.ts";
import {
  parseStoreEnv,
  STORE_ENV_SHAPE,
  type StoreEnv,
  storeEnvOf,
  storeErrors,
} from "./env/store-env.ts";
import { TEAM_ENV_SHAPE } from "./env/team-env.ts";
import { readApiKey, readWatchKey } from "./env/upstream-key.ts";

export { REPO_ROOT } from "./env/paths.ts";

/** The name the proxy's spans carry unless OTEL_SERVICE_NAME says. */
const PROXY_TRACE_NAME = "vics-proxy";

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
  /** The Prometheus metrics' own listener (METRICS_HOST, METRICS_PORT); unset: none. */
  metrics?: { host: string; port: number };
  /** Traces (the OTEL_* variables, tracing-settings.ts); unset: off. */
  tracing?: TracingSettings;
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

const EnvSchema = z.object({
  ...GATEWAY_ENV_SHAPE,
  ...STORE_ENV_SHAPE,
  ...SIGN_IN_ENV_SHAPE,
  ...TEAM_ENV_SHAPE,
});

export type EnvResult =
  | {
      ok: true;
      env: ProxyEnv;
      /** The same settings by their variables' names, as `scripts/config check` shows them. */
      variables: Record<string, unknown>;
    }
  | { ok: false; errors: string[] };

/** Parses an environment; every problem is reported at once, never the key itself. */
export function parseEnv(
  source: Record<string, string | undefined>,
): EnvResult {
  const present = presentOnly(source);
  const parsed = EnvSchema.safeParse(present);
  const errors = parsed.success ? [] : issueLines(parsed.error.issues);
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
  errors.push(...storeErrors(present));
  errors.push(...crossFieldProblems(present, EnvSchema.shape.PORT));
  const oidcSecret = readOidcSecret(present);
  if (oidcSecret && "error" in oidcSecret) errors.push(oidcSecret.error);
  if (!parsed.success || "error" in apiKey || errors.length > 0) {
    return { ok: false, errors };
  }
  const raw = parsed.data;
  const env: ProxyEnv = {
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
    tracing: tracingSettings(raw, PROXY_TRACE_NAME),
    metrics:
      raw.METRICS_PORT === undefined
        ? undefined
        : { host: raw.METRICS_HOST, port: raw.METRICS_PORT },
    logHashKey: raw.LOG_HASH_KEY,
    connectionLimits: {
      maxTotal: raw.MAX_CONNECTIONS,
      maxPerAddress: raw.MAX_CONNECTIONS_PER_ADDRESS,
      idleUnderPressureMs: raw.IDLE_TIMEOUT_UNDER_PRESSURE_MS,
    },
    store: storeEnvOf(raw),
    remote,
    sessionTimes: {
      idleMs: raw.SESSION_IDLE_MINUTES * 60_000,
      absoluteMs: raw.SESSION_MAX_HOURS * 3_600_000,
    },
    localSignIn: raw.LOCAL_SIGN_IN === "true",
    oidc: oidcOf(
      raw,
      oidcSecret && "value" in oidcSecret ? oidcSecret.value : undefined,
    ),
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
  };
  return {
    ok: true,
    env,
    variables: variablesInEffect(Object.keys(EnvSchema.shape), raw, present, {
      shutdownGraceMs: env.shutdownGraceMs,
      traceName: raw.OTEL_SERVICE_NAME ?? PROXY_TRACE_NAME,
    }),
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

/** Reads process.env for `scripts/users`; on any problem prints each one and exits 1. */
export function loadStoreEnv(): StoreEnv {
  const result = parseStoreEnv(process.env);
  if (result.ok) return result.env;
  console.error("scripts/users cannot start:");
  for (const error of result.errors) console.error(`  - ${error}`);
  process.exit(1);
}
