// The checks with a live register behind them (docs/sources.md): the service on a real SQLite
// database, the DVLA VES adapter over real HTTP to our own stand-in, paced by a real pacer.
import { setTimeout as delay } from "node:timers/promises";
import {
  BulkComplianceResultSchema,
  ComplianceRecordSchema,
  paths,
  ProblemSchema,
} from "@vics/shared";
import { memoryLimitStore } from "@vics/server-kit/memory-rate-limiter";
import { silentLogger } from "@vics/server-kit/logger";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestService, type TestService } from "../testing/index.ts";
import type { LiveSources } from "../app-deps.ts";
import type { Store } from "../store/store.ts";
import { openSources } from "./open-sources.ts";
import type { SourceSettings } from "./source-settings.ts";
import {
  startVesStandIn,
  type VesStandIn,
} from "../testing/sources/ves-stand-in.ts";
import {
  type MotStandIn,
  STAND_IN_SCOPE,
  startMotStandIn,
} from "../testing/sources/mot-stand-in.ts";

const HOUR = 3_600_000;
/** Fast enough never to hold a test: the pacing has its own tests (pacer.test.ts). */
const FAST = { perSecond: 1000, burst: 1000, perDay: 1_000_000 };
/** A vehicle only the register knows: VICS's seeded fleet has no plate of this form. */
const ONLY_AT_DVLA = "LV24ZZA";

let clock: number;
const now = () => new Date(clock);
let standIn: VesStandIn;
let service: TestService;
let key: string;

/** The service's own wiring (index.ts): the sources the settings turn on, on the test's clock. */
function live(settings: Omit<SourceSettings, "freshForMs">) {
  return (store: Store): LiveSources => {
    const refresher = openSources(
      { freshForMs: 24 * HOUR, ...settings },
      { store, limits: memoryLimitStore, now, logger: silentLogger },
    );
    if (!refresher) throw new Error("The test's settings turn no source on.");
    return {
      refresher,
      waitMs: settings.waitMs,
      bulkWaitMs: settings.bulkWaitMs,
    };
  };
}

const vesSettings = () => ({
  baseUrl: standIn.url,
  apiKey: "ves-test-key",
  pace: FAST,
});

async function start(waitMs = 2000, bulkWaitMs = waitMs) {
  service = await createTestService({
    sandbox: false,
    fleetSize: 20,
    now,
    sources: live({ ves: vesSettings(), waitMs, bulkWaitMs }),
  });
  key = await service.createKey("internal");
}

const check = (registration: string) =>
  service.app.fetch(
    new Request(`http://service${paths.compliance(registration)}`, {
      headers: { "X-API-Key": key },
    }),
  );

beforeEach(async () => {
  clock = Date.parse("2026-11-27T10:02:00.000Z");
  standIn = await startVesStandIn({ now });
  standIn.vehicles.set(ONLY_AT_DVLA, {
    registrationNumber: ONLY_AT_DVLA,
    taxStatus: "Taxed",
    taxDueDate: "2027-03-01",
    motStatus: "Valid",
    motExpiryDate: "2027-05-14",
    make: "FORD",
    colour: "BLUE",
    yearOfManufacture: 2024,
    monthOfFirstRegistration: "2024-03",
  });
});

afterEach(async () => {
  await service?.close();
  await standIn.close();
});

describe("a single compliance check with DVLA VES on", () => {
  it("answers a vehicle only the register knows, with its tax, MOT and where they came from", async () => {
    await start();
    const response = await check(ONLY_AT_DVLA);
    expect(response.status).toBe(200);
    const record = ComplianceRecordSchema.parse(await response.json());
    expect(record.details?.tax).toEqual({
      status: "taxed",
      dueDate: "2027-03-01",
    });
    expect(record.details?.mot).toEqual({
      status: "exempt",
      expiry: "2027-05-14",
    });
    expect(record.vehicle).toMatchObject({
      make: "FORD",
      color: "BLUE",
      year: 2024,
      firstRegistered: "2024-03-01",
    });
    expect(record.factSources).toEqual({
      tax: { source: "dvla-ves", asOf: "2026-11-27T10:02:00.000Z" },
      mot: { source: "dvla-ves", asOf: "2026-11-27T10:02:00.000Z" },
    });
  });

  it("uses the stored fact inside the window, and asks again after it", async () => {
    await start();
    await check(ONLY_AT_DVLA);
    clock += 23 * HOUR;
    await check(ONLY_AT_DVLA);
    expect(standIn.requests).toHaveLength(1);
    clock += 2 * HOUR;
    const record = ComplianceRecordSchema.parse(
      await (await check(ONLY_AT_DVLA)).json(),
    );
    expect(standIn.requests).toHaveLength(2);
    expect(record.factSources?.tax?.asOf).toBe(new Date(clock).toISOString());
  });

  it("shares one request among concurrent checks of one vehicle", async () => {
    await start();
    standIn.delayMs = 200;
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => check(ONLY_AT_DVLA)),
    );
    expect(answers.map((answer) => answer.status)).toEqual([
      200, 200, 200, 200, 200,
    ]);
    expect(standIn.requests).toHaveLength(1);
  });

  it("answers from the stored fact, marked stale, when the register is down", async () => {
    await start();
    await check(ONLY_AT_DVLA);
    clock += 30 * HOUR;
    await standIn.close();
    const response = await check(ONLY_AT_DVLA);
    expect(response.status).toBe(200);
    const record = ComplianceRecordSchema.parse(await response.json());
    expect(record.factSources?.tax).toEqual({
      source: "dvla-ves",
      asOf: "2026-11-27T10:02:00.000Z",
      stale: true,
    });
    const [state] = await service.store.sourceStates();
    expect(state?.lastError?.kind).toBe("unavailable");
    standIn = await startVesStandIn({ now });
  });

  it("answers 503 with Retry-After for a vehicle it never saw while the register is down", async () => {
    await start();
    standIn.vehicles.clear();
    await standIn.close();
    const response = await check(ONLY_AT_DVLA);
    expect(response.status).toBe(503);
    expect(Number(response.headers.get("Retry-After"))).toBeGreaterThan(0);
    const problem = ProblemSchema.parse(await response.json());
    expect(problem.code).toBe("SOURCE_UNAVAILABLE");
    expect(problem.detail).toContain("DVLA could not be asked just now");
    standIn = await startVesStandIn({ now });
  });

  it("answers 404 for a vehicle the register does not know either, and does not ask again at once", async () => {
    await start();
    expect((await check("ER19NFD")).status).toBe(404);
    expect((await check("ER19NFD")).status).toBe(404);
    expect(standIn.requests).toHaveLength(1);
  });

  it("waits at most its budget, then the refresh finishes in the background", async () => {
    await start(50);
    standIn.delayMs = 400;
    const first = await check(ONLY_AT_DVLA);
    expect(first.status).toBe(503);
    expect(ProblemSchema.parse(await first.json()).detail).toContain(
      "still on the way",
    );
    // The answer arrives in the background and is stored.
    for (let tries = 0; tries < 100; tries += 1) {
      const held = await service.store.findVehicle(ONLY_AT_DVLA);
      if (held) break;
      await delay(20);
    }
    standIn.delayMs = 0;
    const second = await check(ONLY_AT_DVLA);
    expect(second.status).toBe(200);
    expect(standIn.requests).toHaveLength(1);
  });

  it("does not ask the register about a past instant", async () => {
    await start();
    await check(ONLY_AT_DVLA);
    clock += 30 * HOUR;
    const response = await service.app.fetch(
      new Request(
        `http://service${paths.compliance(ONLY_AT_DVLA)}?asKnownAt=${new Date(clock - HOUR).toISOString()}`,
        { headers: { "X-API-Key": key } },
      ),
    );
    expect(response.status).toBe(200);
    expect(standIn.requests).toHaveLength(1);
  });
});

describe("a bulk compliance check with DVLA VES on", () => {
  it("carries each item's source, and marks a vehicle it could not fetch yet as unavailable", async () => {
    await start(2000, 100);
    const slow = "LV24ZZB";
    standIn.vehicles.set(slow, {
      ...standIn.vehicles.get(ONLY_AT_DVLA)!,
      registrationNumber: slow,
    });
    const response = await service.app.fetch(
      new Request(`http://service${paths.bulkCompliance()}`, {
        method: "POST",
        headers: { "X-API-Key": key, "Content-Type": "application/json" },
        body: JSON.stringify({
          registrations: [ONLY_AT_DVLA, "ER19NFD"],
        }),
      }),
    );
    expect(response.status).toBe(200);
    const result = BulkComplianceResultSchema.parse(await response.json());
    const [known, unknown] = result.results;
    expect(known?.factSources?.tax?.source).toBe("dvla-ves");
    expect(unknown?.error).toBe("Vehicle not found");

    standIn.delayMs = 1000;
    const waiting = BulkComplianceResultSchema.parse(
      await (
        await service.app.fetch(
          new Request(`http://service${paths.bulkCompliance()}`, {
            method: "POST",
            headers: { "X-API-Key": key, "Content-Type": "application/json" },
            body: JSON.stringify({ registrations: [slow] }),
          }),
        )
      ).json(),
    );
    expect(waiting.results[0]?.error).toBe(
      "Temporarily unavailable, retry later",
    );
  });
});

describe("a compliance check with both registers on", () => {
  let mot: MotStandIn;
  afterEach(async () => {
    await mot?.close();
  });

  /** DVLA for tax and the vehicle, DVSA's MOT History for the MOT (decision 059). */
  async function startBoth() {
    // Registered in 2020: due its MOT, which DVSA's history then answers.
    standIn.vehicles.set(ONLY_AT_DVLA, {
      ...standIn.vehicles.get(ONLY_AT_DVLA)!,
      yearOfManufacture: 2020,
      monthOfFirstRegistration: "2020-03",
    });
    // Its tokens outlast the test's clock jumps, so only expireTokens() ends one early.
    mot = await startMotStandIn({
      now: () => clock,
      tokenLifetimeSeconds: 30 * 24 * 3600,
    });
    mot.vehicles.set(ONLY_AT_DVLA, {
      registration: ONLY_AT_DVLA,
      make: "FORD",
      model: "FIESTA",
      primaryColour: "Blue",
      registrationDate: "2020-03-01",
      manufactureDate: "2020-02-01",
      motTests: [
        {
          completedDate: "2026-02-20T10:00:00.000Z",
          testResult: "PASSED",
          expiryDate: "2027-02-19",
        },
        {
          completedDate: "2026-02-19T10:00:00.000Z",
          testResult: "FAILED",
        },
      ],
    });
    service = await createTestService({
      sandbox: false,
      fleetSize: 20,
      now,
      sources: live({
        ves: vesSettings(),
        mot: {
          baseUrl: mot.baseUrl,
          apiKey: "stand-in-api-key",
          clientId: "stand-in-client",
          clientSecret: "stand-in-secret",
          tokenUrl: mot.tokenUrl,
          scope: STAND_IN_SCOPE,
          pace: FAST,
        },
        waitMs: 2000,
        bulkWaitMs: 2000,
      }),
    });
    key = await service.createKey("internal");
  }

  it("takes the road tax from DVLA and the MOT from DVSA's history, and says so", async () => {
    await startBoth();
    const record = ComplianceRecordSchema.parse(
      await (await check(ONLY_AT_DVLA)).json(),
    );
    expect(record.details?.tax.status).toBe("taxed");
    // DVSA's passed test, not DVLA's expiry (2027-05-14): DVLA's MOT is not stored.
    expect(record.details?.mot).toEqual({
      status: "valid",
      expiry: "2027-02-19",
    });
    expect(record.factSources).toEqual({
      tax: { source: "dvla-ves", asOf: "2026-11-27T10:02:00.000Z" },
      mot: { source: "dvsa-mot-history", asOf: "2026-11-27T10:02:00.000Z" },
    });
    // DVSA gives the model DVLA does not.
    expect(record.vehicle?.make).toBe("FORD");
  });

  it("stores DVSA's MOT history and not DVLA's MOT expiry", async () => {
    await startBoth();
    expect((await check(ONLY_AT_DVLA)).status).toBe(200);
    // Both registers answered this vehicle.
    expect(standIn.requests).toHaveLength(1);
    expect(
      mot.requests.filter((request) => request.path.startsWith("/v1/trade/")),
    ).toHaveLength(1);
    // DVLA's expiry (2027-05-14) would be kept as a test of its own beside DVSA's.
    const held = await service.store.findVehicle(ONLY_AT_DVLA);
    expect(held?.motTests).toEqual([
      { testedOn: "2026-02-20", expiresOn: "2027-02-19" },
    ]);
    const freshness = await service.store.freshness([ONLY_AT_DVLA]);
    expect(freshness.get(ONLY_AT_DVLA)).toEqual({
      tax: { source: "dvla-ves", fetchedAt: "2026-11-27T10:02:00.000Z" },
      vehicle: expect.anything(),
      mot: {
        source: "dvsa-mot-history",
        fetchedAt: "2026-11-27T10:02:00.000Z",
      },
    });
  });

  it("asks for one new token when DVSA's expires between refreshes, and no check fails", async () => {
    await startBoth();
    expect((await check(ONLY_AT_DVLA)).status).toBe(200);
    mot.expireTokens();
    clock += 25 * HOUR;
    expect((await check(ONLY_AT_DVLA)).status).toBe(200);
    expect(mot.tokensIssued).toBe(2);
    const lookUps = mot.requests.filter((request) =>
      request.path.startsWith("/v1/trade/"),
    );
    expect(lookUps.map((request) => request.status)).toEqual([200, 401, 200]);
  });

  it("keeps serving the stored MOT, marked stale, when DVSA revokes the key, and tells the admin why", async () => {
    await startBoth();
    await check(ONLY_AT_DVLA);
    mot.keyRevoked = true;
    clock += 25 * HOUR;
    const record = ComplianceRecordSchema.parse(
      await (await check(ONLY_AT_DVLA)).json(),
    );
    expect(record.details?.mot.status).toBe("valid");
    expect(record.factSources?.mot).toMatchObject({
      source: "dvsa-mot-history",
      stale: true,
    });
    const states = await service.store.sourceStates();
    expect(
      states.find((state) => state.source === "dvsa-mot-history")?.lastError
        ?.kind,
    ).toBe("credentials");
  });
});
