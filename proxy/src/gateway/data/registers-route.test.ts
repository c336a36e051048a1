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
  registerDown,
  type TestService,
  type TestServiceOptions,
} from "@vics/service/testing";
import {
  createTestProxy,
  fakeUpstream,
  TEST_API_KEY,
} from "../../testing/index.ts";

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
      on: true,
      baseUrl: "https://history.mot.api.gov.uk",
      lastSuccessAt: null,
      lastError: {
        at: "2026-11-29T10:02:00.000Z",
        kind: "credentials",
        message: "DVSA refused the API key.",
      },
      requestsToday: { used: 0, quota: 500_000 },
      staleFacts: 20,
      secretExpires: "2026-12-12",
      secretExpiresSoon: true,
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

  // Its refusal of anyone but an admin: with the data page's, in data-routes.test.ts.

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

  // What each field says is the service's to test (service/src/routes/registers.test.ts).
  it("passes on the service's own answer for a register that is on", async () => {
    const now = new Date("2026-11-29T10:30:00.000Z");
    const app = await proxyTo({ now: () => now, sources: registerDown() });
    await service.store.recordSourceOutcome({
      source: "dvla-ves",
      at: "2026-11-29T10:02:00.000Z",
      ok: false,
      kind: "unavailable",
      message: "The test's register is down.",
    });
    const response = await app.request(ADMIN_REGISTERS_PATH);
    expect(response.status).toBe(200);
    const passed = RegistersSchema.parse(await response.json());
    expect(passed.registers[0]).toMatchObject({
      source: "dvla-ves",
      on: true,
      lastError: { kind: "unavailable" },
    });
    const key = await service.createKey("internal");
    const asked = await service.app.fetch(
      new Request("http://service/v1/data/registers", {
        headers: { "X-API-Key": key },
      }),
    );
    expect(passed).toEqual(await asked.json());
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
