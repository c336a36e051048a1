// The proxy's settings by their variables' names, as `scripts/config check` prints them: each
// variable of the schema as parsed (defaults applied), those read beside it (keys, key files,
// the alert mail's), the grace period it works out when SHUTDOWN_GRACE_MS is unset, and its
// SQLite file as unused when DATABASE_URL is set. Secrets are hidden by the printer, by name; a
// key file's contents never come here, only its path.
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
  /** The grace period the proxy works out (SHUTDOWN_GRACE_MS, or its timeout's default). */
  shutdownGraceMs: number,
): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  for (const name of schema) variables[name] = parsed[name];
  for (const name of READ_BESIDE)
    if (!(name in variables)) variables[name] = present[name];
  variables.SHUTDOWN_GRACE_MS = shutdownGraceMs;
  if (parsed.DATABASE_URL !== undefined)
    variables.PROXY_DATABASE_PATH = "(not used: DATABASE_URL is set)";
  return variables;
}
