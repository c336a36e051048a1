import { expect, it } from "vitest";
import { describeCounts } from "./describe.ts";

it("says each count in words, one or many, thousands separated, with the last audit event", () => {
  expect(
    describeCounts({
      counts: {
        service: { vehicles: 50_010, apiKeys: 1 },
        proxy: {
          users: 1,
          sessions: 0,
          auditEvents: 12_345,
          lastAuditEvent: { id: 12_345, at: "2026-11-30T17:20:54.892Z" },
          fleets: 2,
          fleetVehicles: 100_000,
        },
      },
    }),
  ).toBe(
    "the service's 50,010 vehicles and 1 API key; the proxy's 1 user, 12,345 audit events (the last #12345 at 2026-11-30T17:20:54.892Z), 2 saved fleets with 100,000 vehicles, and 0 sessions",
  );
});
