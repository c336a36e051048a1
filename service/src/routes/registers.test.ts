// The registers' admin routes (docs/api.md, "The data behind the answers"): their state, and the
// refresh the watched fleets ask for ahead of their sweep.
import {
  RegisterRefreshQueuedSchema,
  RegistersSchema,
} from "@vics/shared/registers-admin";
import { ProblemSchema } from "@vics/shared";
import { silentLogger } from "@vics/server-kit/logger";
import { memoryLimitStore } from "@vics/server-kit/memory-rate-limiter";
import { afterEach, describe, expect, it } from "vitest";
import type { LiveSources } from "../app-deps.ts";
import { openSources } from "../sources/open-sources.ts";
import {
  createTestService,
  registerDown,
  type TestService,
} from "../testing/index.ts";
import type { Store } from "../store/store.ts";

let service: TestService;
afterEach(() => service.close());

/** The service's clock in the tests that read the date: a day in GMT, so UTC's date is the UK's. */
const NOW = new Date("2026-11-29T10:30:00.000Z");

async function start(
  sources?: (store: Store) => LiveSources,
  now?: () => Date,
) {
  service = await createTestService({
    sandbox: false,
    fleetSize: 20,
    ...(sources && { sources }),
    ...(now && { now }),
  });
  return service.createKey("internal");
}

/**
 * DVSA's MOT History on, as the environment would turn it on, its client secret expiring on
 * `secretExpires`, `used` of its requests counted today. Nothing here asks the register.
 */
const motHistoryOn =
  (secretExpires: string, used = 0) =>
  (store: Store): LiveSources => {
    const refresher = openSources(
      {
        mot: {
          baseUrl: "https://history.mot.api.gov.uk",
          apiKey: "the test's api key",
          clientId: "the test's client",
          clientSecret: "the test's secret",
          secretExpires,
          tokenUrl: "https://login.test/token",
          scope: "https://tapi.dvsa.gov.uk/.default",
          pace: {},
        },
        freshForMs: 24 * 3_600_000,
        waitMs: 2_000,
        bulkWaitMs: 2_000,
      },
      { store, limits: memoryLimitStore, now: () => NOW, logger: silentLogger },
    )!;
    refresher.sources[0]!.pacer.usedToday = () =>
      Promise.resolve({ used, quota: 500_000 });
    return { refresher, waitMs: 2_000, bulkWaitMs: 2_000 };
  };

const get = (key: string) =>
  service.app.fetch(
    new Request("http://service/v1/data/registers", {
      headers: { "X-API-Key": key },
    }),
  );

const refresh = (key: string, query = "") =>
  service.app.fetch(
    new Request(`http://service/v1/data/registers/refresh${query}`, {
      method: "POST",
      headers: { "X-API-Key": key, "Content-Type": "application/json" },
      body: JSON.stringify({ registrations: ["AB12CDE", "not a plate"] }),
    }),
  );

describe("GET /v1/data/registers", () => {
  it("lists both registers off by default, with nothing to count", async () => {
    const key = await start();
    const { registers } = RegistersSchema.parse(await (await get(key)).json());
    expect(registers).toEqual([
      expect.objectContaining({
        source: "dvla-ves",
        on: false,
        baseUrl: null,
        requestsToday: null,
        staleFacts: null,
      }),
      expect.objectContaining({ source: "dvsa-mot-history", on: false }),
    ]);
  });

  it("says a register that is on, where it calls, its last error and today's requests", async () => {
    const key = await start(registerDown(50));
    await service.app.fetch(
      new Request("http://service/v1/compliance/ZZ99ZZY", {
        headers: { "X-API-Key": key },
      }),
    );
    const { registers } = RegistersSchema.parse(await (await get(key)).json());
    expect(registers[0]).toMatchObject({
      source: "dvla-ves",
      on: true,
      baseUrl: "http://register.test",
      lastError: { kind: "unavailable" },
      requestsToday: { used: expect.any(Number), quota: 1_000_000 },
    });
    // Every held vehicle: none has been fetched from DVLA yet.
    expect(registers[0]?.staleFacts).toBe(
      (await service.store.dataInfo()).seeded?.vehicles,
    );
  });

  it("says a register's last error, today's requests and its stale facts", async () => {
    const key = await start(motHistoryOn("2027-06-01", 1234), () => NOW);
    await service.store.recordSourceOutcome({
      source: "dvsa-mot-history",
      at: "2026-11-29T10:02:00.000Z",
      ok: false,
      kind: "credentials",
      message: "DVSA refused the API key.",
    });
    const [ves, mot] = RegistersSchema.parse(
      await (await get(key)).json(),
    ).registers;
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
      secretExpires: "2027-06-01",
      secretExpiresSoon: false,
    });
    // The seeded fleet's vehicles were never fetched from DVSA: every one is stale.
    expect(mot?.staleFacts).toBe(
      (await service.store.dataInfo()).seeded?.vehicles,
    );
  });

  it.each([
    ["2026-12-28", 29, true],
    ["2026-12-29", 30, true],
    ["2026-12-30", 31, false],
  ])(
    "with a client secret that expires on %s, %i days ahead, warns: %s",
    async (secretExpires, _days, soon) => {
      const key = await start(motHistoryOn(secretExpires), () => NOW);
      const [, mot] = RegistersSchema.parse(
        await (await get(key)).json(),
      ).registers;
      expect(mot).toMatchObject({ secretExpires, secretExpiresSoon: soon });
    },
  );

  it("still answers when the pace's store cannot count, saying nothing of today's requests", async () => {
    const key = await start((store) => {
      const sources = registerDown()(store);
      const [paced] = sources.refresher.sources;
      paced!.pacer.usedToday = () => Promise.reject(new Error("Redis down"));
      return sources;
    });
    const answer = await get(key);
    expect(answer.status).toBe(200);
    const { registers } = RegistersSchema.parse(await answer.json());
    expect(registers[0]?.requestsToday).toBeNull();
  });
});

describe("POST /v1/data/registers/refresh", () => {
  it("says nothing was queued when no register is on, and which entries are not registrations", async () => {
    const key = await start();
    const answer = await refresh(key);
    expect(answer.status).toBe(202);
    expect(RegisterRefreshQueuedSchema.parse(await answer.json())).toEqual({
      on: false,
      queued: 0,
      fresh: 0,
      invalid: ["not a plate"],
    });
  });

  it.each([
    ["not an instant", "?until=tomorrow"],
    ["more than a day ahead", "?until=2999-01-01T00:00:00Z"],
  ])("refuses an until %s with a 400 in words", async (_case, query) => {
    const key = await start(registerDown());
    const answer = await refresh(key, query);
    expect(answer.status).toBe(400);
    const problem = ProblemSchema.parse(await answer.json());
    expect(problem.code).toBe("MALFORMED_REQUEST");
    expect(problem.detail).toMatch(
      /^until must be an instant with its offset within a day from now/,
    );
  });

  it("queues a vehicle's facts when asked about the coming sweep", async () => {
    const key = await start(registerDown());
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const answer = await refresh(key, `?until=${until}`);
    expect(answer.status).toBe(202);
    expect(
      RegisterRefreshQueuedSchema.parse(await answer.json()),
    ).toMatchObject({
      on: true,
      queued: 1,
      fresh: 0,
    });
  });
});
