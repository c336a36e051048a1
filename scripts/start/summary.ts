// What `npm start` prints once VICS runs: what started and where, and the URL, once.
import { isAbsolute, relative } from "node:path";
import type { KeyStatus } from "./proxy-key.ts";

export interface StartFacts {
  root: string;
  appUrl: string;
  serviceUrl: string;
  sandbox: boolean;
  databasePath: string;
  /** Set when this start created and seeded the database. */
  seededInMs: number | undefined;
  keyFile: string;
  keyStatus: KeyStatus;
  /** The watched fleets' re-checks' own key. */
  watchKeyFile: string;
  watchKeyStatus: KeyStatus;
  logFiles: string[];
  /** The metrics listeners' URLs, of those METRICS_PORT or SERVICE_METRICS_PORT turned on. */
  metricsUrls?: { service?: string | undefined; proxy?: string | undefined };
}

/** Paths inside the repository relative to it (data/vics.sqlite), others in full. */
export function shownPath(root: string, path: string): string {
  const inside = relative(root, path);
  return inside && !inside.startsWith("..") && !isAbsolute(inside)
    ? inside
    : path;
}

const KEY_NOTES: Record<KeyStatus, string> = {
  new: "new",
  reused: "reused",
  replaced: "new: the saved one is not accepted by this database",
};

export function startSummary(facts: StartFacts): string {
  const show = (path: string) => shownPath(facts.root, path);
  const database =
    facts.seededInMs === undefined
      ? "existing"
      : `created and seeded in ${(facts.seededInMs / 1000).toFixed(1)} s`;
  return [
    `Service   ${facts.serviceUrl} (sandbox ${facts.sandbox ? "on" : "off"})`,
    `Database  ${show(facts.databasePath)} (${database})`,
    `Demo key  ${show(facts.keyFile)} (${KEY_NOTES[facts.keyStatus]}; only the proxy reads it)`,
    `Watch key ${show(facts.watchKeyFile)} (${KEY_NOTES[facts.watchKeyStatus]}; only the watched fleets' re-checks spend it)`,
    `Logs      ${facts.logFiles.map(show).join(", ")} (warnings and errors also appear here)`,
    ...metricsLine(facts.metricsUrls),
    "",
    `VICS is running at ${facts.appUrl} — press Ctrl-C to stop.`,
  ].join("\n");
}

/** "Metrics   service <url>, proxy <url>", of those on; none when neither is. */
function metricsLine(urls: StartFacts["metricsUrls"]): string[] {
  const on = (["service", "proxy"] as const).flatMap((server) =>
    urls?.[server] === undefined ? [] : [`${server} ${urls[server]}`],
  );
  return on.length === 0
    ? []
    : [`Metrics   ${on.join(", ")} (never on the app's port)`];
}
