// The proxy's settings by their variables' names, as `scripts/config check` prints them: each
// variable of the schema as parsed (defaults applied), those read beside it (keys, key files,
// the alert mail's), what the proxy works out where one is unset (the grace period, the spans'
// name), and its SQLite file as unused when DATABASE_URL is set. Secrets are hidden by the
// printer, by name; a key file's contents never come here, only its path, resolved as the proxy
// resolves it.
import {
  schemaVariables,
  UNUSED_WITH_DATABASE_URL,
} from "@vics/server-kit/env-fields";
import { fromRoot } from "./paths.ts";

/** Variables the proxy reads beside its schema (env.ts): keys, their files, the alert mail's. */
const READ_BESIDE = [
  "UPSTREAM_API_KEY",
  "UPSTREAM_API_KEY_FILE",
  "WATCH_API_KEY",
  "WATCH_API_KEY_FILE",
  "OIDC_CLIENT_SECRET",
  "OIDC_CLIENT_SECRET_FILE",
  "ALERT_SMTP_URL",
  "ALERT_SMTP_URL_FILE",
  "ALERT_MAIL_FROM",
] as const;

/** Every variable of `schema` (unset ones too), then those read beside it. */
export function variablesInEffect(
  schema: readonly string[],
  parsed: Record<string, unknown>,
  present: Record<string, string>,
  worked: {
    /** The grace period the proxy works out (SHUTDOWN_GRACE_MS, or its timeout's default). */
    shutdownGraceMs: number;
    /** The name its spans carry (OTEL_SERVICE_NAME, or its default). */
    traceName: string;
  },
): Record<string, unknown> {
  const variables = schemaVariables(schema, parsed);
  for (const name of READ_BESIDE) {
    if (name in variables) continue;
    const value = present[name];
    variables[name] = name.endsWith("_FILE") && value ? fromRoot(value) : value;
  }
  variables.SHUTDOWN_GRACE_MS = worked.shutdownGraceMs;
  variables.OTEL_SERVICE_NAME = worked.traceName;
  if (parsed.DATABASE_URL !== undefined)
    variables.PROXY_DATABASE_PATH = UNUSED_WITH_DATABASE_URL;
  return variables;
}
