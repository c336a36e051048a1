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

/** What the trace exporter reads itself (VICS reads the endpoints), each also as _TRACES_. */
const EXPORTER_OWN = [
  "HEADERS",
  "TIMEOUT",
  "COMPRESSION",
  "CERTIFICATE",
  "CLIENT_CERTIFICATE",
  "CLIENT_KEY",
].flatMap((name) => [
  `OTEL_EXPORTER_OTLP_${name}`,
  `OTEL_EXPORTER_OTLP_TRACES_${name}`,
]);

/**
 * `[name, value]` for each variable in `source` that OpenTelemetry's trace exporter reads itself
 * (timeouts, compression, certificate files, headers): shown as set, since nothing here checks
 * them. A headers variable shows its headers' names only, their values being tokens, and counts
 * the pairs the exporter drops (no `=`), which it does not show either.
 */
export function exporterLines(
  source: NodeJS.ProcessEnv,
): [name: string, value: string][] {
  return EXPORTER_OWN.filter((name) => (source[name] ?? "") !== "")
    .sort()
    .map((name) => {
      const value = source[name]!;
      return [
        name,
        name.endsWith("_HEADERS") ? headerNames(value) : shown(value),
      ];
    });
}

/** "authorization=Bearer%20…,x-tenant=vics" as "(set, hidden: authorization, x-tenant)". */
function headerNames(value: string): string {
  const pairs = value
    .split(",")
    .map((pair) => pair.trim())
    .filter((pair) => pair !== "");
  const names = pairs
    .filter((pair) => pair.includes("="))
    .map((pair) => pair.slice(0, pair.indexOf("=")).trim());
  const dropped = pairs.length - names.length;
  return `(set, hidden: ${names.length > 0 ? names.join(", ") : "no header"}${dropped > 0 ? `; ${dropped} without "=", dropped` : ""})`;
}
