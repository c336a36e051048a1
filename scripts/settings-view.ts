// The effective settings as `scripts/config check` prints them: one line a setting, its path in
// the server's parsed environment and its value, with every secret hidden. A setting is hidden by
// its name (a key, secret, password or token) and a URL shows no password and no query, where a
// database or SMTP URL may carry one; whatever the shape of a new setting, these two rules apply.
import { redactedUrl } from "@vics/server-kit/postgres-url";

const SECRET_NAME = /(key|secret|password|token)$/i;
export const HIDDEN = "(set, hidden)";

function shown(value: unknown): string {
  if (value === undefined || value === null) return "(unset)";
  if (Array.isArray(value))
    return value.length === 0 ? "(none)" : value.map(shown).join(", ");
  if (typeof value === "string") {
    if (URL.canParse(value)) {
      const url = new URL(value);
      if (url.password !== "" || url.search !== "") return redactedUrl(value);
    }
    return value === "" ? '""' : value;
  }
  return String(value);
}

/** `[path, value]` for every setting, nested objects flattened to dotted paths, secrets hidden. */
export function settingLines(
  settings: object,
  prefix = "",
): [path: string, value: string][] {
  return Object.entries(settings).flatMap(([name, value]) => {
    const path = prefix + name;
    if (SECRET_NAME.test(name))
      return [[path, value === undefined ? "(unset)" : HIDDEN]];
    if (value !== null && typeof value === "object" && !Array.isArray(value))
      return settingLines(value, `${path}.`);
    return [[path, shown(value)]];
  });
}

/** The lines aligned in two columns, indented. */
export function formatSettings(settings: object): string {
  const lines = settingLines(settings);
  const width = Math.max(...lines.map(([path]) => path.length));
  return lines
    .map(([path, value]) => `  ${path.padEnd(width)}  ${value}`)
    .join("\n");
}

/** The variables VICS reads itself of OpenTelemetry's exporter's, shown with its settings. */
const READ_BY_VICS = new Set([
  "OTEL_EXPORTER_OTLP_ENDPOINT",
  "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
]);

/**
 * `[name, value]` for each OTEL_EXPORTER_OTLP_ variable in `source` that OpenTelemetry's exporter
 * reads itself (timeouts, compression, certificate files, headers): shown as set, since nothing
 * here checks them. A headers variable shows its headers' names only: their values are tokens.
 */
export function exporterLines(
  source: NodeJS.ProcessEnv,
): [name: string, value: string][] {
  return Object.entries(source)
    .filter(
      ([name, value]) =>
        name.startsWith("OTEL_EXPORTER_OTLP_") &&
        !READ_BY_VICS.has(name) &&
        value !== undefined &&
        value !== "",
    )
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => [
      name,
      name.endsWith("_HEADERS") ? headerNames(value!) : value!,
    ]);
}

/** "authorization=Bearer%20…,x-tenant=vics" as "(set, hidden: authorization, x-tenant)". */
function headerNames(value: string): string {
  const names = value
    .split(",")
    .map((pair) => pair.split("=")[0]!.trim())
    .filter((name) => name !== "");
  return `(set, hidden: ${names.join(", ")})`;
}
