// A manifest's counts in an operator's words, for the backup's and the restore's last line.
import type { Manifest } from "./manifest.ts";

export function describeCounts({ counts }: Pick<Manifest, "counts">): string {
  const { service, proxy } = counts;
  const last = proxy.lastAuditEvent
    ? ` (the last #${proxy.lastAuditEvent.id} at ${proxy.lastAuditEvent.at})`
    : "";
  return (
    `the service's ${service.vehicles} vehicles and ${service.apiKeys} API keys; ` +
    `the proxy's ${proxy.users} users, ${proxy.auditEvents} audit events${last}, ` +
    `${proxy.fleets} saved fleets with ${proxy.fleetVehicles} vehicles, and ${proxy.sessions} sessions`
  );
}
