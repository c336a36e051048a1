import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY_HEADER, paths, PLAN_LIMITS } from "@vics/shared";
import { freePort } from "@vics/shared/testing/free-port";
import type { Child } from "../../scripts/load/children.ts";
import { startMinimalService } from "./minimal-service.ts";
import { smallDatabase, startService, type SmallDatabase } from "./testing.ts";

let database: SmallDatabase;
let key = "";
let trialKey = "";
let floor: Child;
let service: Child;

beforeAll(async () => {
  database = smallDatabase();
  // Made before the floor starts: it reads the keys once.
  key = await database.key();
  trialKey = await database.key("trial");
  [floor, service] = await Promise.all([
    startMinimalService({ databasePath: database.databasePath }),
    freePort().then((port) => startService(database.databasePath, port)),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([floor?.stop(), service?.stop()]);
  rmSync(database.dir, { recursive: true, force: true });
});

const check = (server: Child, registration: string, apiKey?: string) =>
  fetch(server.url + paths.insurance(registration), {
    headers: apiKey === undefined ? {} : { [API_KEY_HEADER]: apiKey },
  });

const problemOf = async (response: Response) => {
  const { requestId, ...rest } = (await response.json()) as Record<
    string,
    unknown
  >;
  return { requestId, rest };
};

describe("the minimal service", () => {
  it("answers the fleet's checks with the service's JSON", async () => {
    const plates = database.registrations.filter((_, i) => i % 10 === 0);
    expect(plates.length).toBeGreaterThan(15);
    for (const plate of plates) {
      const [mine, theirs] = await Promise.all([
        check(floor, plate, key),
        check(service, plate, key),
      ]);
      expect(mine.status).toBe(200);
      expect(mine.headers.get("content-type")).toBe(
        theirs.headers.get("content-type"),
      );
      const body = await mine.text();
      expect(JSON.parse(body)).toEqual(await theirs.json());
      expect(Object.keys(JSON.parse(body))).toEqual([
        "registration",
        "insured",
        "policy",
        "vehicle",
        "lastUpdated",
        "dataAsOf",
      ]);
    }
  });

  it("normalises the registration, and refuses an invalid one with the service's 400", async () => {
    const plate = database.registrations[0]!;
    const spaced = `${plate.slice(0, 4)} ${plate.slice(4)}`.toLowerCase();
    const answer = await check(floor, spaced, key);
    expect(answer.status).toBe(200);
    expect(
      ((await answer.json()) as { registration: string }).registration,
    ).toBe(plate);
    const [mine, theirs] = await Promise.all([
      check(floor, "NOT-A-PLATE!", key),
      check(service, "NOT-A-PLATE!", key),
    ]);
    expect(mine.status).toBe(400);
    expect((await problemOf(mine)).rest).toEqual(
      (await problemOf(theirs)).rest,
    );
  });

  it("says 401 without a key or with an unknown one, in the service's words", async () => {
    for (const apiKey of [undefined, "vics_unknown"]) {
      const [mine, theirs] = await Promise.all([
        check(floor, database.registrations[0]!, apiKey),
        check(service, database.registrations[0]!, apiKey),
      ]);
      expect(mine.status).toBe(401);
      expect(mine.headers.get("content-type")).toBe("application/problem+json");
      expect((await problemOf(mine)).rest).toEqual(
        (await problemOf(theirs)).rest,
      );
    }
  });

  it("says 404 for a plate it does not hold, as the service does without look-alikes", async () => {
    const [mine, theirs] = await Promise.all([
      check(floor, "ZZ99ZZZ", key),
      check(service, "ZZ99ZZZ", key),
    ]);
    expect(mine.status).toBe(404);
    const problem = await problemOf(mine);
    expect(problem.requestId).toBeUndefined();
    expect(problem.rest).toEqual((await problemOf(theirs)).rest);
  });

  it("counts each key's requests per minute, with the rate-limit headers, and 429 past its plan", async () => {
    const limit = PLAN_LIMITS.trial;
    for (let sent = 1; sent <= limit; sent++) {
      const answer = await check(
        floor,
        database.registrations[sent]!,
        trialKey,
      );
      expect(answer.status).toBe(200);
      expect(answer.headers.get("x-ratelimit-limit")).toBe(String(limit));
      expect(answer.headers.get("x-ratelimit-remaining")).toBe(
        String(limit - sent),
      );
      expect(Number(answer.headers.get("x-ratelimit-reset"))).toBeGreaterThan(
        0,
      );
      await answer.body?.cancel();
    }
    const refused = await check(floor, database.registrations[0]!, trialKey);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await refused.json()) as { code: string }).code).toBe(
      "RATE_LIMITED",
    );
    // Another key has its own count.
    const other = await check(floor, database.registrations[0]!, key);
    expect(other.status).toBe(200);
    await other.body?.cancel();
  });
});
