import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  FLEET_PATHS,
  type FleetDifference,
  type SavedFleet,
} from "@vics/shared";
import { jsonRequest, signedInApp } from "../../testing/signed-in-app.ts";
import { registerFleetRoutes } from "./fleet-routes.ts";

let harness: ReturnType<typeof signedInApp>;
beforeEach(() => {
  harness = signedInApp();
  registerFleetRoutes(harness.app, { store: harness.store, now: Date.now });
});
afterEach(() => harness.store.close());

interface Problem {
  status: number;
  code: string;
  detail: string;
}

const depot = {
  name: "North depot",
  columns: ["Fleet no", "Driver"],
  vehicles: [
    { registration: "sw71 uwj", cells: ["17", "Sam"] },
    { registration: "AB12CDE", cells: ["4"] },
  ],
};

async function saveDepot(cookie: string) {
  const response = await harness.app.request(
    FLEET_PATHS.fleets,
    jsonRequest("POST", depot, cookie),
  );
  expect(response.status).toBe(201);
  return (await response.json()) as SavedFleet;
}

describe("/api/fleets", () => {
  it("is for the fleet role and above: staff get ROLE_REQUIRED, the signed-out SIGN_IN_REQUIRED", async () => {
    const staff = await harness.signedIn("staff");
    const refused = await harness.app.request(FLEET_PATHS.fleets, {
      headers: { Cookie: staff.cookie },
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as Problem).code).toBe("ROLE_REQUIRED");
    const anonymous = await harness.app.request(FLEET_PATHS.fleets);
    expect(((await anonymous.json()) as Problem).code).toBe("SIGN_IN_REQUIRED");
    for (const role of ["fleet", "admin"] as const) {
      const { cookie } = await harness.signedIn(role);
      const listed = await harness.app.request(FLEET_PATHS.fleets, {
        headers: { Cookie: cookie },
      });
      expect(listed.status).toBe(200);
    }
  });

  it("saves a fleet with normalised registrations and padded cells, which the whole team sees, and audits it", async () => {
    const ann = await harness.signedIn("fleet", "ann@example.org");
    const saved = await saveDepot(ann.cookie);
    expect(saved).toMatchObject({
      name: "North depot",
      vehicleCount: 2,
      version: 1,
      created: { by: "ann@example.org" },
    });

    // Fleets belong to the team: another fleet user reads it whole.
    const bob = await harness.signedIn("fleet", "bob@example.org");
    const read = (await (
      await harness.app.request(FLEET_PATHS.fleet(saved.id), {
        headers: { Cookie: bob.cookie },
      })
    ).json()) as SavedFleet;
    expect(read.vehicles.map((v) => [v.registration, v.cells])).toEqual([
      ["SW71UWJ", ["17", "Sam"]],
      ["AB12CDE", ["4", ""]],
    ]);

    const [event] = await harness.store.searchAudit({ limit: 1 });
    expect(event).toMatchObject({
      action: "fleet.create",
      userEmail: "ann@example.org",
      outcome: "ok",
      detail: { fleet: "North depot", vehicles: 2 },
    });
  });

  it("refuses a list with a bad or repeated registration, naming the vehicle, and saves nothing", async () => {
    const { cookie } = await harness.signedIn("fleet");
    const response = await harness.app.request(
      FLEET_PATHS.fleets,
      jsonRequest(
        "POST",
        {
          name: "Vans",
          columns: [],
          vehicles: [
            { registration: "AB12CDE", cells: [] },
            { registration: "ab12 cde", cells: [] },
          ],
        },
        cookie,
      ),
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as Problem).detail).toBe(
      'Vehicle 2 ("ab12 cde") repeats vehicle 1: a fleet holds each vehicle once',
    );
    const bad = await harness.app.request(
      FLEET_PATHS.fleets,
      jsonRequest(
        "POST",
        {
          name: "Vans",
          columns: [],
          vehicles: [
            { registration: "!!", cells: [] },
            { registration: "AB12CDE", cells: [] },
            { registration: "??", cells: [] },
          ],
        },
        cookie,
      ),
    );
    expect(((await bad.json()) as Problem).detail).toBe(
      'Vehicle 1 ("!!") is not a valid registration (and 1 more problem)',
    );
    expect(await harness.store.listFleets()).toEqual([]);
  });

  it("refuses a second fleet of the same name with 409 in words", async () => {
    const { cookie } = await harness.signedIn("fleet");
    await saveDepot(cookie);
    const again = await harness.app.request(
      FLEET_PATHS.fleets,
      jsonRequest("POST", { ...depot, name: "north DEPOT" }, cookie),
    );
    expect(again.status).toBe(409);
    expect(((await again.json()) as Problem).detail).toBe(
      'A fleet named "north DEPOT" already exists: choose another name.',
    );
  });

  it("refuses a fleet past the team's caps with 409 in words that say the cap and what to do, and saves nothing", async () => {
    const capped = signedInApp();
    registerFleetRoutes(capped.app, {
      store: capped.store,
      now: Date.now,
      caps: { maxFleets: 1, maxWatchedVehicles: 3 },
    });
    try {
      const { cookie } = await capped.signedIn("fleet");
      const post = (body: object) =>
        capped.app.request(
          FLEET_PATHS.fleets,
          jsonRequest("POST", body, cookie),
        );
      expect((await post(depot)).status).toBe(201);
      const second = await post({ ...depot, name: "South depot" });
      expect(second.status).toBe(409);
      expect(await second.json()).toMatchObject({
        code: "CONFLICT",
        detail:
          "The team already keeps 1 fleet, the most it may (MAX_FLEETS). Delete a fleet it no longer needs, or ask an operator to raise the cap.",
      });
      const [saved] = await capped.store.listFleets();
      const tooMany = await capped.app.request(
        FLEET_PATHS.vehicles(saved!.id),
        jsonRequest(
          "PUT",
          {
            version: 1,
            columns: [],
            vehicles: ["AB12CDE", "SW71UWJ", "LP08SED", "YY19ABC"].map(
              (registration) => ({ registration, cells: [] }),
            ),
          },
          cookie,
        ),
      );
      expect(tooMany.status).toBe(409);
      expect(await tooMany.json()).toMatchObject({
        code: "CONFLICT",
        detail:
          "The team's fleets may hold 3 vehicles together (MAX_WATCHED_VEHICLES; a vehicle in two fleets counts twice), and this list would take them past it. Remove vehicles from this list or from another fleet, or ask an operator to raise the cap.",
      });
      expect(await capped.store.listFleets()).toMatchObject([
        { name: "North depot", version: 1, vehicleCount: 2 },
      ]);
    } finally {
      capped.store.close();
    }
  });

  it("shows the difference of a new file first, then applies it at that version only", async () => {
    const { cookie } = await harness.signedIn("fleet", "ann@example.org");
    const saved = await saveDepot(cookie);
    const next = {
      columns: ["Fleet no", "Driver"],
      vehicles: [
        { registration: "AB12CDE", cells: ["4", "Lee"] },
        { registration: "LP08SED", cells: ["22", "Kim"] },
      ],
    };
    const shown = (await (
      await harness.app.request(
        FLEET_PATHS.difference(saved.id),
        jsonRequest("POST", next, cookie),
      )
    ).json()) as FleetDifference;
    expect(shown).toEqual({
      version: 1,
      added: ["LP08SED"],
      removed: ["SW71UWJ"],
      changed: ["AB12CDE"],
      unchanged: 0,
      columnsChanged: false,
    });
    // Looking changed nothing.
    expect((await harness.store.findFleet(saved.id))?.version).toBe(1);

    const applied = await harness.app.request(
      FLEET_PATHS.vehicles(saved.id),
      jsonRequest("PUT", { ...next, version: 1 }, cookie),
    );
    expect(applied.status).toBe(200);
    expect(await applied.json()).toEqual(shown);
    expect(
      (await harness.store.fleetVehicles(saved.id)).map((v) => v.registration),
    ).toEqual(["AB12CDE", "LP08SED"]);
    const [event] = await harness.store.searchAudit({ limit: 1 });
    expect(event).toMatchObject({
      action: "fleet.update",
      registrations: ["LP08SED", "SW71UWJ"],
      detail: { fleet: "North depot", added: 1, removed: 1, changed: 1 },
    });

    // The same list sent against the old version: someone changed it since. Nothing changes.
    const stale = await harness.app.request(
      FLEET_PATHS.vehicles(saved.id),
      jsonRequest("PUT", { ...depot, version: 1 }, cookie),
    );
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as Problem).detail).toMatch(
      /^Someone changed this fleet after its difference was shown/,
    );
    expect((await harness.store.findFleet(saved.id))?.version).toBe(2);
  });

  it("renames and deletes, each audited; an unknown fleet is a 404 in words", async () => {
    const { cookie } = await harness.signedIn("fleet");
    const saved = await saveDepot(cookie);
    const renamed = await harness.app.request(
      FLEET_PATHS.fleet(saved.id),
      jsonRequest("PATCH", { name: "  Leeds depot " }, cookie),
    );
    expect(((await renamed.json()) as SavedFleet).name).toBe("Leeds depot");
    const deleted = await harness.app.request(FLEET_PATHS.fleet(saved.id), {
      method: "DELETE",
      headers: { Cookie: cookie },
    });
    expect(deleted.status).toBe(204);
    expect(
      (await harness.store.searchAudit({ limit: 2 })).map((e) => e.action),
    ).toEqual(["fleet.delete", "fleet.rename"]);
    const gone = await harness.app.request(FLEET_PATHS.fleet(saved.id), {
      headers: { Cookie: cookie },
    });
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as Problem).detail).toMatch(
      /^There is no such fleet/,
    );
  });
});
