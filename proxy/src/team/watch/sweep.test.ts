// A sweep against the real service (its app, no port), through the v1 bulk routes with the
// re-checks' own key: the reference vehicles open the alerts they should, once; a vehicle in two
// fleets is asked once; one the service cannot answer is unknown, not green; a vehicle removed
// from every fleet is no longer asked about.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHttpFleetClient } from "@vics/fleet";
import { createTestService, type TestService } from "@vics/service/testing";
import type { FleetVehicle } from "@vics/shared";
import type { ProxyStore } from "../store/proxy-store.ts";
import { openSqliteProxyStore } from "../store/sqlite/sqlite-proxy-store.ts";
import { sweepHandler } from "./jobs/sweep-job.ts";
import { sweepWatchedVehicles, type SweepDeps } from "./sweep.ts";

let service: TestService;
let store: ProxyStore;
let deps: SweepDeps;
let asked: string[][];

const NOW = Date.now();
const ann = { email: "ann@example.org", at: NOW };
const vehicles = (...registrations: string[]): FleetVehicle[] =>
  registrations.map((registration) => ({ registration, cells: [] }));

beforeEach(async () => {
  service = await createTestService({ sandbox: true, sandboxDelayMs: 0 });
  store = openSqliteProxyStore({ path: ":memory:", auditRetentionDays: 30 });
  const key = await service.createKey("standard", "re-checks");
  asked = [];
  deps = {
    store,
    now: () => NOW,
    client: createHttpFleetClient({
      baseUrl: "http://service.internal",
      headers: { "X-API-Key": key },
      fetch: async (input, init) => {
        const request = new Request(input, init);
        if (request.method === "POST")
          asked.push(
            ((await request.clone().json()) as { registrations: string[] })
              .registrations,
          );
        return service.app.fetch(request);
      },
    }),
    // No real waiting between the retries of the vehicle the service cannot answer.
    tuning: { sleep: async () => undefined, maxAttempts: 2 },
  };
});
afterEach(async () => {
  await store.close();
  await service.close();
});

const opened = (report: Awaited<ReturnType<typeof sweepWatchedVehicles>>) =>
  report.opened.map((alert) => [alert.registration, alert.kind]).sort();

describe("a sweep of the watched vehicles", () => {
  it("opens each reference vehicle's alerts once, and asks a vehicle in two fleets once", async () => {
    await store.createFleet(
      "Vans",
      {
        columns: [],
        vehicles: vehicles("AB12CDE", "LP08SED", "MT15EXP", "EX26SON"),
      },
      ann,
    );
    await store.createFleet(
      "Cars",
      {
        columns: [],
        vehicles: vehicles(
          "AB12CDE",
          "TX19NON",
          "SR19ORN",
          "FN19OUT",
          "ER19NFD",
        ),
      },
      ann,
    );

    const first = await sweepWatchedVehicles(deps);
    expect(first).toMatchObject({
      vehicles: 8,
      unknown: 0,
      status: "finished",
    });
    // One bulk compliance request answers both (its items carry the policy: decision 021).
    expect(asked.flat().filter((r) => r === "AB12CDE")).toHaveLength(1);
    expect(opened(first)).toEqual([
      ["ER19NFD", "not-found"],
      ["EX26SON", "ending"],
      ["FN19OUT", "new-fine"],
      ["LP08SED", "not-insured"],
      ["MT15EXP", "mot-expired"],
      ["SR19ORN", "untaxed"],
      ["TX19NON", "untaxed"],
    ]);
    const lapsed = first.opened.find((a) => a.registration === "LP08SED");
    expect(lapsed?.detail).toMatchObject({ how: "lapsed" });
    const ending = first.opened.find((a) => a.registration === "EX26SON");
    expect(ending?.detail).toMatchObject({ area: "insurance", threshold: 14 });

    // The same day again (a job run twice): nothing new.
    const again = await sweepWatchedVehicles(deps);
    expect(again.opened).toEqual([]);
    expect(await store.vehicleAlerts("LP08SED")).toHaveLength(1);
    // The timeline starts with what the first sweep found, once.
    const timeline = await store.vehicleTimeline("AB12CDE");
    expect(timeline.map((entry) => entry.area).sort()).toEqual([
      "fines",
      "found",
      "insurance",
      "mot",
      "tax",
    ]);
  });

  it("marks a vehicle the service cannot answer unknown, with no alert and no stale facts", async () => {
    await store.createFleet(
      "Vans",
      { columns: [], vehicles: vehicles("AB12CDE", "ER19ERR") },
      ann,
    );
    const report = await sweepWatchedVehicles(deps);
    expect(report.unknown).toBe(1);
    expect(opened(report)).toEqual([]);
    const [known, unknown] = await store.watchStates(["AB12CDE", "ER19ERR"]);
    expect(known).toMatchObject({ checkedAt: NOW, unknownSince: undefined });
    expect(unknown).toMatchObject({ facts: undefined, unknownSince: NOW });
  });

  it("no longer asks about a vehicle removed from every fleet", async () => {
    const fleet = await store.createFleet(
      "Vans",
      { columns: [], vehicles: vehicles("AB12CDE", "LP08SED") },
      ann,
    );
    await store.replaceFleetVehicles(
      fleet.id,
      1,
      { columns: [], vehicles: vehicles("AB12CDE") },
      ann,
    );
    const report = await sweepWatchedVehicles(deps);
    expect(report.vehicles).toBe(1);
    expect(asked.flat()).not.toContain("LP08SED");
    expect(await store.vehicleAlerts("LP08SED")).toEqual([]);
  });

  it("makes a fleet's first check its baseline: one summary per fleet, not a notification per vehicle (issue 34, point 3)", async () => {
    await store.createFleet(
      "Vans",
      { columns: [], vehicles: vehicles("AB12CDE", "LP08SED", "MT15EXP") },
      ann,
    );
    const report = await sweepHandler(deps)({ kind: "daily" });
    // Open, for the fleet's page and the run's count.
    expect(opened(report)).toEqual([
      ["LP08SED", "not-insured"],
      ["MT15EXP", "mot-expired"],
    ]);
    const page = await store.notificationPage({
      userId: "ann",
      page: 0,
      pageSize: 10,
      groupAlerts: 10,
    });
    expect(page.rows).toMatchObject([
      {
        type: "first-check",
        baseline: { fleetName: "Vans", vehicles: 3, attention: 2 },
        read: false,
      },
    ]);
    expect(await store.unreadCount("ann")).toBe(1);
    // Delivered to nobody one by one.
    expect(await store.unplannedAlerts(10)).toEqual([]);
  });
});
