// The admins' sources page through the proxy: the live registers' state, forwarded with the
// proxy's key to admins only and held to the contract, as the data page's answers are.
import { afterEach, describe, expect, it } from "vitest";
import { ProblemSchema } from "@vics/shared";
import {
  ADMIN_REGISTERS_PATH,
  type Registers,
  RegistersSchema,
} from "@vics/shared/registers-admin";
import {
  createTestService,
  type TestService,
  type TestServiceOptions,
} from "@vics/service/testing";
import {
  createTestProxy,
  fakeUpstream,
  TEST_API_KEY,
} from "../test-support.ts";

const json = (body: unknown) =>
  new Response(JSON.stringify(body), {
    headers: { "Content-Type": "application/json" },
  });

const REGISTERS: Registers = {
  registers: [
    {
      source: "dvla-ves",
      on: true,
      baseUrl: "https://driver-vehicle-licensing.api.gov.uk/vehicle-enquiry",
      lastSuccessAt: "2026-11-29T10:02:00.000Z",
      lastError: null,
      requestsToday: { used: 1234, quota: 500_000 },
      staleFacts: 12,
    },
    {
      source: "dvsa-mot-history",
      on: false,
      baseUrl: null,
      lastSuccessAt: null,
      lastError: null,
      requestsToday: null,
      staleFacts: null,
    },
  ],
};

describe("the sources page's route", () => {
  it("asks the service with the proxy's key and passes its answer to an admin", async () => {
    const upstream = fakeUpstream(() => json(REGISTERS));
    const { app } = createTestProxy({ fetch: upstream.fetch });
    const response = await app.request(ADMIN_REGISTERS_PATH);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(REGISTERS);
    const sent = upstream.requests[0];
    expect(new URL(sent?.url ?? "").pathname).toBe("/v1/data/registers");
    expect(sent?.headers.get("X-API-Key")).toBe(TEST_API_KEY);
  });

  it.each(["staff", "fleet"] as const)(
    "refuses %s, and asks the service nothing",
    async (role) => {
      const upstream = fakeUpstream(() => json(REGISTERS));
      const { app } = createTestProxy({ fetch: upstream.fetch, role });
      const response = await app.request(ADMIN_REGISTERS_PATH);
      expect(response.status).toBe(403);
      expect(ProblemSchema.parse(await response.json()).code).toBe(
        "ROLE_REQUIRED",
      );
      expect(upstream.requests).toHaveLength(0);
    },
  );

  it("answers 502 when the service's answer is off the contract", async () => {
    const upstream = fakeUpstream(() =>
      json({ registers: [{ source: "dvla-ves", on: "yes" }] }),
    );
    const { app } = createTestProxy({ fetch: upstream.fetch });
    const response = await app.request(ADMIN_REGISTERS_PATH);
    expect(response.status).toBe(502);
    expect(ProblemSchema.parse(await response.json()).status).toBe(502);
  });
});

type LiveSources = ReturnType<NonNullable<TestServiceOptions["sources"]>>;
type PacedSource = LiveSources["refresher"]["sources"][number];

const unused = () => Promise.reject(new Error("not used by the sources page"));

/** DVSA's source as the service would run it, its requests counted as `used` today. */
function motHistory(used: number, secretExpires: string): PacedSource {
  return {
    source: {
      name: "dvsa-mot-history",
      kinds: ["mot", "vehicle"],
      baseUrl: "https://history.mot.api.gov.uk",
      lookUp: unused,
    },
    pacer: {
      acquire: unused,
      pauseFor: unused,
      failure: unused,
      success: unused,
      usedToday: () => Promise.resolve({ used, quota: 500_000 }),
    },
    freshForMs: 24 * 3_600_000,
    kinds: ["mot", "vehicle"],
    secretExpires,
    perSecond: 15,
  };
}

describe("the sources page's route to the real service", () => {
  let service: TestService;
  afterEach(() => service.close());

  const proxyTo = async (options: TestServiceOptions = {}) => {
    service = await createTestService(options);
    const key = await service.createKey("internal", "proxy");
    return createTestProxy({
      apiKey: key,
      fetch: (input, init) => service.app.fetch(new Request(input, init)),
    }).app;
  };

  it("says both registers are off when the service's environment turns none on", async () => {
    const app = await proxyTo();
    const response = await app.request(ADMIN_REGISTERS_PATH);
    expect(response.status).toBe(200);
    const answer = RegistersSchema.parse(await response.json());
    expect(answer.registers.map(({ source, on }) => [source, on])).toEqual([
      ["dvla-ves", false],
      ["dvsa-mot-history", false],
    ]);
    expect(answer.registers[0]).toMatchObject({
      baseUrl: null,
      requestsToday: null,
      staleFacts: null,
      lastError: null,
    });
  });

  it("passes on a register's last error, today's requests, stale facts and the secret's warning", async () => {
    const now = new Date("2026-11-29T10:30:00.000Z");
    const app = await proxyTo({
      now: () => now,
      sources: () => ({
        refresher: {
          sources: [motHistory(1234, "2026-12-12")],
          refresh: unused,
          queue: unused,
          freshNow: () => undefined,
          close: () => Promise.resolve(),
        },
        waitMs: 2_000,
        bulkWaitMs: 2_000,
      }),
    });
    await service.store.recordSourceOutcome({
      source: "dvsa-mot-history",
      at: "2026-11-29T10:02:00.000Z",
      ok: false,
      kind: "credentials",
      message: "DVSA refused the API key.",
    });
    const response = await app.request(ADMIN_REGISTERS_PATH);
    expect(response.status).toBe(200);
    const [ves, mot] = RegistersSchema.parse(await response.json()).registers;
    expect(ves).toMatchObject({ source: "dvla-ves", on: false });
    expect(mot).toMatchObject({
      source: "dvsa-mot-history",
      on: true,
      baseUrl: "https://history.mot.api.gov.uk",
      lastSuccessAt: null,
      lastError: {
        at: "2026-11-29T10:02:00.000Z",
        kind: "credentials",
        message: "DVSA refused the API key.",
      },
      requestsToday: { used: 1234, quota: 500_000 },
      secretExpires: "2026-12-12",
      secretExpiresSoon: true,
    });
    // The seeded fleet's vehicles were never fetched from DVSA: every one is stale.
    expect(mot?.staleFacts).toBeGreaterThan(0);
  });

  it("is refused by the service for a key that is not on the internal plan", async () => {
    service = await createTestService();
    const key = await service.createKey("standard");
    const { app } = createTestProxy({
      apiKey: key,
      fetch: (input, init) => service.app.fetch(new Request(input, init)),
    });
    const response = await app.request(ADMIN_REGISTERS_PATH);
    expect(response.status).toBe(403);
  });
});
