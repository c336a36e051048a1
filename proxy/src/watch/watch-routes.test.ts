import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  FLEET_PATHS,
  FleetStatusSchema,
  VehicleHistorySchema,
  WATCH_PATHS,
  WatchAdminSchema,
  type SavedFleet,
} from "@vics/shared";
import { registerFleetRoutes } from "../fleets/fleet-routes.ts";
import { jsonRequest, signedInApp } from "../test-support/signed-in-app.ts";
import type { WatchJobs } from "./jobs/watch-jobs.ts";
import { registerWatchRoutes } from "./watch-routes.ts";

const NOW = Date.parse("2026-11-27T06:00:00Z");

let harness: ReturnType<typeof signedInApp>;
let asked: (string[] | undefined)[];
let times: string[];
/** The job engine at its seam: what the routes asked of it. */
const jobs: WatchJobs = {
  start: async () => undefined,
  stop: async () => undefined,
  checkNow: async (registrations) => void asked.push(registrations),
  reschedule: async (time) => void times.push(time),
};

function withJobs(on: boolean) {
  registerFleetRoutes(harness.app, { store: harness.store, now: () => NOW });
  registerWatchRoutes(harness.app, {
    store: harness.store,
    now: () => NOW,
    jobs: on ? jobs : undefined,
  });
}

beforeEach(() => {
  harness = signedInApp();
  asked = [];
  times = [];
});
afterEach(() => harness.store.close());

async function savedFleet(cookie: string) {
  const response = await harness.app.request(
    FLEET_PATHS.fleets,
    jsonRequest(
      "POST",
      {
        name: "Vans",
        columns: ["Driver"],
        vehicles: [
          { registration: "AB12CDE", cells: ["Ann"] },
          { registration: "LP08SED", cells: ["Lee"] },
          { registration: "ER19ERR", cells: ["Kim"] },
        ],
      },
      cookie,
    ),
  );
  return (await response.json()) as SavedFleet;
}

describe("a fleet's status", () => {
  it("shows each vehicle's facts and open alerts, 'unknown since' for one not answered, and nothing before the first re-check", async () => {
    withJobs(true);
    const { cookie } = await harness.signedIn("fleet");
    const fleet = await savedFleet(cookie);
    await harness.store.recordRechecks([
      {
        registration: "LP08SED",
        at: NOW,
        facts: {
          found: true,
          insurance: { status: "not-insured", lastPolicy: null },
        },
        timeline: [
          {
            area: "insurance",
            before: null,
            after: { status: "not-insured", lastPolicy: null },
          },
        ],
        opened: [
          {
            kind: "not-insured",
            key: "never insured",
            detail: { how: "never" },
          },
        ],
        closed: [],
      },
      { registration: "ER19ERR", at: NOW, unknown: true },
    ]);
    const response = await harness.app.request(WATCH_PATHS.status(fleet.id), {
      headers: { Cookie: cookie },
    });
    const { vehicles } = FleetStatusSchema.parse(await response.json());
    expect(vehicles.map((v) => [v.registration, v.cells])).toEqual([
      ["AB12CDE", ["Ann"]],
      ["LP08SED", ["Lee"]],
      ["ER19ERR", ["Kim"]],
    ]);
    expect(vehicles[0]).toMatchObject({
      checkedAt: null,
      facts: null,
      alerts: [],
    });
    expect(vehicles[1]).toMatchObject({
      checkedAt: "2026-11-27T06:00:00.000Z",
      facts: { insurance: { status: "not-insured" } },
      alerts: [{ kind: "not-insured", detail: { how: "never" } }],
    });
    expect(vehicles[2]).toMatchObject({
      unknownSince: "2026-11-27T06:00:00.000Z",
      facts: null,
    });

    const history = VehicleHistorySchema.parse(
      await (
        await harness.app.request(WATCH_PATHS.vehicle("lp08 sed"), {
          headers: { Cookie: cookie },
        })
      ).json(),
    );
    expect(history.registration).toBe("LP08SED");
    expect(history.timeline).toEqual([
      {
        at: "2026-11-27T06:00:00.000Z",
        area: "insurance",
        before: null,
        after: { status: "not-insured", lastPolicy: null },
      },
    ]);
    expect(history.alerts).toHaveLength(1);
  });

  it("checks a fleet now with its vehicles; says in words when re-checks are off", async () => {
    withJobs(true);
    const { cookie } = await harness.signedIn("fleet");
    const fleet = await savedFleet(cookie);
    const now = await harness.app.request(WATCH_PATHS.checkNow(fleet.id), {
      method: "POST",
      headers: { Cookie: cookie },
    });
    expect(now.status).toBe(202);
    expect(asked).toEqual([["AB12CDE", "LP08SED", "ER19ERR"]]);
    const [event] = await harness.store.searchAudit({ limit: 1 });
    expect(event).toMatchObject({
      action: "fleet.check-now",
      detail: { fleet: "Vans", vehicles: 3 },
    });
  });

  it("is a 503 in words when the proxy has no key for re-checks", async () => {
    withJobs(false);
    const { cookie } = await harness.signedIn("fleet");
    const fleet = await savedFleet(cookie);
    const off = await harness.app.request(WATCH_PATHS.checkNow(fleet.id), {
      method: "POST",
      headers: { Cookie: cookie },
    });
    expect(off.status).toBe(503);
    expect(((await off.json()) as { detail: string }).detail).toMatch(
      /^Re-checks are off/,
    );
  });
});

describe("the admin's daily time", () => {
  it("is 06:00 until an admin sets another, which reschedules and is audited; a bad time is refused", async () => {
    withJobs(true);
    const { cookie } = await harness.signedIn("admin", "root@example.org");
    const read = async () =>
      WatchAdminSchema.parse(
        await (
          await harness.app.request(WATCH_PATHS.admin, {
            headers: { Cookie: cookie },
          })
        ).json(),
      );
    expect(await read()).toEqual({
      dailyTime: "06:00",
      reChecksOn: true,
      unknownForADay: 0,
      runs: [],
    });
    const set = await harness.app.request(
      WATCH_PATHS.admin,
      jsonRequest("PATCH", { dailyTime: "05:30" }, cookie),
    );
    expect(set.status).toBe(200);
    expect((await read()).dailyTime).toBe("05:30");
    expect(times).toEqual(["05:30"]);
    const [event] = await harness.store.searchAudit({ limit: 1 });
    expect(event).toMatchObject({
      action: "watch.schedule",
      userEmail: "root@example.org",
      detail: { from: "06:00", to: "05:30" },
    });
    const bad = await harness.app.request(
      WATCH_PATHS.admin,
      jsonRequest("PATCH", { dailyTime: "5.30pm" }, cookie),
    );
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { detail: string }).detail).toBe(
      'dailyTime: Give the time as HH:MM in UK time, such as "06:00"',
    );
  });

  it("is for admins only", async () => {
    withJobs(true);
    const { cookie } = await harness.signedIn("fleet");
    const refused = await harness.app.request(WATCH_PATHS.admin, {
      headers: { Cookie: cookie },
    });
    expect(refused.status).toBe(403);
  });
});
