// The data behind the answers, as the service tells the admins' data page: each source's
// freshness for any key; the imports and their refused rows for an internal key only.
import {
  DataSourcesSchema,
  ImportListSchema,
  ImportRejectsSchema,
} from "@vics/shared/data-admin";
import { API_KEY_HEADER, ProblemSchema } from "@vics/shared";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../app.ts";
import {
  type ImportHarness,
  importer,
  vehicle,
  VEHICLES,
} from "../testing/import-files.ts";
import { issueApiKey } from "../keys/api-key.ts";
import { openSqliteHarness } from "../testing/sqlite-harness.ts";
import { testAppDeps } from "../testing/index.ts";

let harness: ImportHarness;
beforeEach(() => {
  harness = openSqliteHarness();
});
afterEach(() => harness.close());
const files = importer(() => harness, new Date().toISOString());

async function client() {
  const app = createApp(testAppDeps(harness.store, { sandbox: false }));
  const keyOf = async (plan: "internal" | "standard") =>
    (await issueApiKey(harness.store, plan, `data-${plan}`, new Date())).key;
  const keys = {
    internal: await keyOf("internal"),
    standard: await keyOf("standard"),
  };
  return (path: string, plan: keyof typeof keys = "internal") =>
    app.fetch(
      new Request(`http://service.test${path}`, {
        headers: { [API_KEY_HEADER]: keys[plan] },
      }),
    );
}

describe("the data behind the answers", () => {
  it("says since when data is held and how fresh each source is, to any key", async () => {
    const get = await client();
    const empty = DataSourcesSchema.parse(
      await (await get("/v1/data/sources", "standard")).json(),
    );
    expect(empty).toEqual({ dataAsOf: {}, synthetic: false });
    await files.run("vehicles", [VEHICLES, vehicle("AB12CDE")]);
    const held = DataSourcesSchema.parse(
      await (await get("/v1/data/sources", "standard")).json(),
    );
    expect(held.since).toEqual(expect.any(String));
  });

  it("says the synthetic fleet is still there after a trial import over it", async () => {
    await harness.close();
    harness = openSqliteHarness({
      fleetSize: 20,
      seed: 20260101,
      today: "2026-03-10",
    });
    const get = await client();
    const sources = async () =>
      DataSourcesSchema.parse(
        await (await get("/v1/data/sources", "standard")).json(),
      );
    const seeded = await sources();
    expect(seeded.synthetic).toBe(true);
    expect(seeded.seededFleet).toEqual({
      vehicles: expect.any(Number),
      seededOn: "2026-03-10",
    });
    await files.run("vehicles", [VEHICLES, vehicle("ZZ26TRY")]);
    const trial = await sources();
    // No longer only the seed, but the seed is still there: the page must say so.
    expect(trial.synthetic).toBe(false);
    expect(trial.seededFleet).toEqual(seeded.seededFleet);
  });

  it("lists the imports and an import's refused rows to the internal key only", async () => {
    const get = await client();
    const report = await files.run("vehicles", [
      VEHICLES,
      vehicle("AB12CDE"),
      "=cmd,Ford,Focus,2019,Blue,2019-03-01",
    ]);
    const list = ImportListSchema.parse(
      await (await get("/v1/data/imports")).json(),
    );
    expect(list.imports).toEqual([
      expect.objectContaining({
        id: report.importId,
        kind: "vehicles",
        fileName: expect.stringMatching(/^vehicles-\d+\.csv$/),
        outcome: "applied",
        counts: expect.objectContaining({ added: 1, rejected: 1 }),
      }),
    ]);
    const rejects = ImportRejectsSchema.parse(
      await (await get(`/v1/data/imports/${report.importId}/rejects`)).json(),
    );
    expect(rejects).toMatchObject({
      fileName: expect.stringMatching(/^vehicles-\d+\.csv$/),
      rejectedRows: 1,
      truncated: false,
      rejects: [{ line: 3, column: "registration", value: "=cmd" }],
    });

    const refused = await get("/v1/data/imports", "standard");
    expect(refused.status).toBe(403);
    expect(ProblemSchema.parse(await refused.json()).code).toBe("FORBIDDEN");
    expect(
      (await get(`/v1/data/imports/${report.importId}/rejects`, "standard"))
        .status,
    ).toBe(403);
    const missing = await get("/v1/data/imports/999/rejects");
    expect(missing.status).toBe(404);
    expect(ProblemSchema.parse(await missing.json()).code).toBe("NOT_FOUND");
  });
});
