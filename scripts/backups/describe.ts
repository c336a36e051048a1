// A manifest's counts in an operator's words, for the backup's and the restore's last line.
import type { Manifest } from "./manifest.ts";

/** "1 saved fleet", "2 saved fleets", "50,010 vehicles". */
const many = (count: number, one: string, more = `${one}s`) =>
  `${count.toLocaleString("en-GB")} ${count === 1 ? one : more}`;

export function describeCounts({ counts }: Pick<Manifest, "counts">): string {
  const { service, proxy } = counts;
  const last = proxy.lastAuditEvent
    ? ` (the last #${proxy.lastAuditEvent.id} at ${proxy.lastAuditEvent.at})`
    : "";
  return (
    `the service's ${many(service.vehicles, "vehicle")} and ${many(service.apiKeys, "API key")}; ` +
    `the proxy's ${many(proxy.users, "user")}, ${many(proxy.auditEvents, "audit event")}${last}, ` +
    `${many(proxy.fleets, "saved fleet")} with ${many(proxy.fleetVehicles, "vehicle")}, and ${many(proxy.sessions, "session")}`
  );
}
