// The registers' admin routes (docs/api.md, "The data behind the answers"): their state, and the
// refresh the watched fleets ask for ahead of their sweep.
import {
  RegisterRefreshQueuedSchema,
  RegistersSchema,
} from "@vics/shared/registers-admin";
import { ProblemSchema } from "@vics/shared";
import { afterEach, describe, expect, it } from "vitest";
import type { LiveSources } from "../app-deps.ts";
import {
  createTestService,
  registerDown,
  type TestService,
} from "../testing.ts";
import type { Store } from "../store/store.ts";

let service: TestService;
afterEach(() => service.close());

async function start(sources?: (store: Store) => LiveSources) {
  service = await createTestService({
    sandbox: false,
    fleetSize: 20,
    ...(sources && { sources }),
  });
  return service.createKey("internal");
}

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
