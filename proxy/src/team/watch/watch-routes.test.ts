import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  CheckNowSchema,
  FLEET_PATHS,
  FleetStatusSchema,
  VehicleHistorySchema,
  WATCH_PATHS,
  WatchAdminSchema,
  type SavedFleet,
} from "@vics/shared";
import { memoryLogger } from "@vics/server-kit/testing/memory-logger";
import { registerFleetRoutes } from "../fleets/fleet-routes.ts";
import { jsonRequest, signedInApp } from "../../testing/signed-in-app.ts";
import type { Recheck } from "../store/watch-store.ts";
import type { FleetCheck, JobsState, WatchJobs } from "./jobs/watch-jobs.ts";
import { refreshOutcome } from "./jobs/refresh-job.ts";
import { registerWatchRoutes } from "./watch-routes.ts";

const NOW = Date.parse("2026-11-27T06:00:00Z");

let harness: ReturnType<typeof signedInApp>;
let asked: (string[] | undefined)[];
/** What each queued check was asked with. */
let checks: (FleetCheck | undefined)[];
let times: string[];
/** The fleets whose check the fake engine holds as under way. */
let underWay: Set<string>;
/** The job engine at its seam: what the routes asked of it. */
const jobs: WatchJobs = {
  start: async () => undefined,
  stop: async () => undefined,
  checkNow: async (fleet) => {
    // Vehicles just added are queued even behind a check of their fleet (review A2).
    if (fleet && !fleet.added && underWay.has(fleet.fleetId))
      return { alreadyRunning: true };
    if (fleet) underWay.add(fleet.fleetId);
    asked.push(fleet?.registrations);
    checks.push(fleet);
    return { alreadyRunning: false };
  },
  checking: async (fleetId) => underWay.has(fleetId),
  reschedule: async (time) => void times.push(time),
  deliverNow: async () => undefined,
  state: () => jobsState,
};
/** Whether the fake engine started. */
let jobsState: JobsState;

function withJobs(on: boolean, saveChecks = false) {
  registerFleetRoutes(harness.app, {
    store: harness.store,
    now: () => NOW,
    ...(saveChecks && on && { jobs }),
  });
  registerWatchRoutes(harness.app, {
    store: harness.store,
    now: () => NOW,
    jobs: on ? jobs : undefined,
  });
}

beforeEach(() => {
  harness = signedInApp();
  asked = [];
  checks = [];
  times = [];
  underWay = new Set();
  jobsState = { running: true };
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
  it("starts a saved fleet's first check at once, and says 'checking' until it is done (issue 34, point 2)", async () => {
    withJobs(true, true);
    const { cookie } = await harness.signedIn("fleet");
    const fleet = await savedFleet(cookie);
    expect(asked).toEqual([["AB12CDE", "LP08SED", "ER19ERR"]]);
    const status = async () =>
      FleetStatusSchema.parse(
        await (
          await harness.app.request(WATCH_PATHS.status(fleet.id), {
            headers: { Cookie: cookie },
          })
        ).json(),
      );
    expect(await status()).toMatchObject({ checking: true });
    underWay.delete(fleet.id);
    expect(await status()).toMatchObject({ checking: false });

    // A new list's added vehicles are checked at once too; one that only removes is not.
    const update = async (registrations: string[], version: number) =>
      harness.app.request(
        `${FLEET_PATHS.fleets}/${fleet.id}/vehicles`,
        jsonRequest(
          "PUT",
          {
            version,
            columns: ["Driver"],
            vehicles: registrations.map((registration) => ({
              registration,
              cells: [""],
            })),
          },
          cookie,
        ),
      );
    expect((await update(["AB12CDE", "SW71UWJ"], 1)).status).toBe(200);
    expect(asked).toHaveLength(2);
    expect(asked[1]).toEqual(["SW71UWJ"]);
    underWay.delete(fleet.id);
    expect((await update(["AB12CDE"], 2)).status).toBe(200);
    expect(asked).toHaveLength(2);
  });

  it("checks only the vehicles a new list adds, even while a check of the fleet is under way (review A2)", async () => {
    withJobs(true, true);
    const { cookie } = await harness.signedIn("fleet");
    const fleet = await savedFleet(cookie);
    const addedAsked = () => checks.filter((check) => check?.added);
    expect(checks).toEqual([
      {
        fleetId: fleet.id,
        registrations: ["AB12CDE", "LP08SED", "ER19ERR"],
        added: true,
      },
    ]);
    // The first check is still under way when a list adds one vehicle to the three.
    expect(underWay.has(fleet.id)).toBe(true);
    const applied = await harness.app.request(
      FLEET_PATHS.vehicles(fleet.id),
      jsonRequest(
        "PUT",
        {
          version: 1,
          columns: ["Driver"],
          vehicles: [
            { registration: "AB12CDE", cells: ["Ann"] },
            { registration: "LP08SED", cells: ["Lee"] },
            { registration: "ER19ERR", cells: ["Kim"] },
            { registration: "SW71UWJ", cells: ["Sam"] },
          ],
        },
        cookie,
      ),
    );
    expect(applied.status).toBe(200);
    // Exactly the one vehicle added: not the fleet again.
    expect(addedAsked()).toHaveLength(2);
    expect(checks[1]).toEqual({
      fleetId: fleet.id,
      registrations: ["SW71UWJ"],
      added: true,
    });
    expect(asked[1]).toEqual(["SW71UWJ"]);

    // "Check this fleet now" meanwhile still starts no second check of the whole fleet.
    const now = await harness.app.request(WATCH_PATHS.checkNow(fleet.id), {
      method: "POST",
      headers: { Cookie: cookie },
    });
    expect(CheckNowSchema.parse(await now.json())).toEqual({
      queued: 4,
      alreadyRunning: true,
    });
    expect(checks).toHaveLength(2);
  });

  it("sends no vehicle already known to the jobs engine: one another fleet watches shows its facts at once (decision 054)", async () => {
    withJobs(true, true);
    const { cookie } = await harness.signedIn("fleet");
    const vans = await savedFleet(cookie);
    await harness.store.recordRechecks([
      {
        registration: "AB12CDE",
        at: NOW,
        facts: { found: true },
        timeline: [],
        opened: [],
        closed: [],
      },
    ]);
    underWay.delete(vans.id);
    const save = (name: string, registrations: string[]) =>
      harness.app.request(
        FLEET_PATHS.fleets,
        jsonRequest(
          "POST",
          {
            name,
            columns: [],
            vehicles: registrations.map((registration) => ({
              registration,
              cells: [],
            })),
          },
          cookie,
        ),
      );
    const cars = (await (
      await save("Cars", ["AB12CDE", "SW71UWJ"])
    ).json()) as SavedFleet;
    // Only the vehicle never checked is queued; LP08SED and ER19ERR still wait for theirs.
    expect(checks[1]).toEqual({
      fleetId: cars.id,
      registrations: ["SW71UWJ"],
      added: true,
    });
    // A fleet of vehicles all known asks the engine for nothing.
    expect((await save("Bikes", ["AB12CDE"])).status).toBe(201);
    expect(checks).toHaveLength(2);
  });

  it("logs a warning with the fleet's id, never its vehicles, when the first check cannot be queued; the save stands", async () => {
    const log = memoryLogger("info", "proxy");
    registerFleetRoutes(harness.app, {
      store: harness.store,
      now: () => NOW,
      logger: log,
      jobs: {
        ...jobs,
        checkNow: async () => {
          throw new Error("the job engine is not answering");
        },
      },
    });
    const { cookie } = await harness.signedIn("fleet");
    const fleet = await savedFleet(cookie);
    expect(fleet.vehicleCount).toBe(3);
    expect(log.events).toEqual([
      expect.objectContaining({
        level: "warn",
        msg: expect.stringMatching(/^could not queue the first check/),
        fleetId: fleet.id,
        vehicles: 3,
        error: "the job engine is not answering",
      }),
    ]);
    for (const registration of ["AB12CDE", "LP08SED", "ER19ERR"])
      expect(log.text()).not.toContain(registration);
  });

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

  it("shows a watched vehicle's timeline to fleet managers, not to staff", async () => {
    withJobs(true);
    const { cookie } = await harness.signedIn("staff");
    const refused = await harness.app.request(WATCH_PATHS.vehicle("LP08SED"), {
      headers: { Cookie: cookie },
    });
    expect(refused.status).toBe(403);
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
    expect(CheckNowSchema.parse(await now.json())).toEqual({
      queued: 3,
      alreadyRunning: false,
    });
    expect(asked).toEqual([["AB12CDE", "LP08SED", "ER19ERR"]]);
    const [event] = await harness.store.searchAudit({ limit: 1 });
    expect(event).toMatchObject({
      action: "fleet.check-now",
      detail: { fleet: "Vans", vehicles: 3 },
    });
  });

  it("starts no second check of a fleet while one is under way, and says so", async () => {
    withJobs(true);
    const { cookie } = await harness.signedIn("fleet");
    const fleet = await savedFleet(cookie);
    const checkNow = async () => {
      const response = await harness.app.request(
        WATCH_PATHS.checkNow(fleet.id),
        { method: "POST", headers: { Cookie: cookie } },
      );
      expect(response.status).toBe(202);
      return CheckNowSchema.parse(await response.json());
    };
    expect(await checkNow()).toEqual({ queued: 3, alreadyRunning: false });
    expect(await checkNow()).toEqual({ queued: 3, alreadyRunning: true });
    expect(asked).toHaveLength(1);
    const events = await harness.store.searchAudit({ limit: 10 });
    expect(
      events.filter((event) => event.action === "fleet.check-now"),
    ).toHaveLength(1);
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

describe("a fleet's changes since a UK date", () => {
  const answered = (at: string, timeline: Recheck[]) =>
    harness.store.recordRechecks(
      timeline.map((entry) => ({ ...entry, at: Date.parse(at) })),
    );
  const taxChange = (registration: string): Recheck => ({
    registration,
    at: 0,
    facts: { found: true, tax: { status: "untaxed", dueDate: null } },
    timeline: [
      {
        area: "tax",
        before: { status: "taxed", dueDate: "2026-06-01" },
        after: { status: "untaxed", dueDate: null },
      },
    ],
    opened: [],
    closed: [],
  });
  const status = async (cookie: string, id: string, query: string) =>
    harness.app.request(`${WATCH_PATHS.status(id)}${query}`, {
      headers: { Cookie: cookie },
    });

  it("gives each vehicle what moved from midnight in London that day, in summer time too", async () => {
    withJobs(true);
    const { cookie } = await harness.signedIn("fleet");
    const fleet = await savedFleet(cookie);
    // 23:59 on 9 June in London, then 00:00 on 10 June (BST: 23:00 UTC the evening before).
    await answered("2026-06-09T22:59:00Z", [taxChange("AB12CDE")]);
    await answered("2026-06-09T23:00:00Z", [taxChange("LP08SED")]);
    const response = await status(cookie, fleet.id, "?changedSince=2026-06-10");
    expect(response.status).toBe(200);
    const { vehicles } = FleetStatusSchema.parse(await response.json());
    expect(vehicles.map((v) => [v.registration, v.changes?.length])).toEqual([
      ["AB12CDE", 0],
      ["LP08SED", 1],
      ["ER19ERR", 0],
    ]);
    expect(vehicles[1]?.changes).toEqual([
      {
        at: "2026-06-09T23:00:00.000Z",
        area: "tax",
        before: { status: "taxed", dueDate: "2026-06-01" },
        after: { status: "untaxed", dueDate: null },
      },
    ]);
    // The day before takes both; without the question, no changes at all.
    const before = FleetStatusSchema.parse(
      await (await status(cookie, fleet.id, "?changedSince=2026-06-09")).json(),
    );
    expect(before.vehicles.map((v) => v.changes?.length)).toEqual([1, 1, 0]);
    const plain = FleetStatusSchema.parse(
      await (await status(cookie, fleet.id, "")).json(),
    );
    expect(plain.vehicles.every((v) => v.changes === undefined)).toBe(true);
  });

  it("is a 400 in words for a date that is not one", async () => {
    withJobs(true);
    const { cookie } = await harness.signedIn("fleet");
    const fleet = await savedFleet(cookie);
    for (const bad of ["2026-02-30", "10/06/2026", "yesterday", ""]) {
      const response = await status(
        cookie,
        fleet.id,
        `?changedSince=${encodeURIComponent(bad)}`,
      );
      expect(response.status).toBe(400);
      expect(((await response.json()) as { detail: string }).detail).toBe(
        "changedSince: Give a date as YYYY-MM-DD, such as 2026-11-24",
      );
    }
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

  it("lists the refresh ahead of the sweep beside the sweeps, its counts in words", async () => {
    withJobs(true);
    const { cookie } = await harness.signedIn("admin", "root@example.org");
    const outcome = refreshOutcome({
      on: true,
      sent: 12_000,
      queued: 11_800,
      fresh: 200,
      invalid: 0,
    });
    const id = await harness.store.startWatchRun("refresh", 1_000);
    await harness.store.finishWatchRun(id, {
      finishedAt: 2_000,
      outcome,
      vehicles: 12_000,
      unknown: 0,
      alerts: 0,
    });
    const answer = WatchAdminSchema.parse(
      await (
        await harness.app.request(WATCH_PATHS.admin, {
          headers: { Cookie: cookie },
        })
      ).json(),
    );
    expect(answer.runs).toEqual([
      {
        kind: "refresh",
        startedAt: "1970-01-01T00:00:01.000Z",
        finishedAt: "1970-01-01T00:00:02.000Z",
        outcome,
        vehicles: 12_000,
        unknown: 0,
        alerts: 0,
      },
    ]);
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

describe("whether the admin page says the re-checks are on", () => {
  const read = async (cookie: string) =>
    WatchAdminSchema.parse(
      await (
        await harness.app.request(WATCH_PATHS.admin, {
          headers: { Cookie: cookie },
        })
      ).json(),
    );

  it("says on only once the jobs run; off, in words, without a key or when they could not start", async () => {
    withJobs(true);
    const { cookie } = await harness.signedIn("admin");
    expect(await read(cookie)).toMatchObject({ reChecksOn: true });
    expect(await read(cookie)).not.toHaveProperty("reChecksOff");

    jobsState = { running: false, reason: "Re-checks are off: no database" };
    expect(await read(cookie)).toMatchObject({
      reChecksOn: false,
      reChecksOff: "Re-checks are off: no database",
    });
  });

  it("says off, and why, when the proxy has no key for them", async () => {
    withJobs(false);
    const { cookie } = await harness.signedIn("admin");
    const answer = await read(cookie);
    expect(answer.reChecksOn).toBe(false);
    expect(answer.reChecksOff).toMatch(
      /no key of their own.*WATCH_API_KEY_FILE/,
    );
  });
});
