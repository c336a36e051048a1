import { StatementSync } from "node:sqlite";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Store } from "../store.ts";
import { openSqliteStore } from "./sqlite-store.ts";

const stores: Store[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

describe("findVehicles", () => {
  it("runs the same four queries for one registration or a thousand", async () => {
    const store = openSqliteStore({
      path: ":memory:",
      seed: { fleetSize: 50, seed: 1, today: "2026-03-10" },
    });
    stores.push(store);
    const queries = vi.spyOn(StatementSync.prototype, "all");

    await store.findVehicles(["AB12CDE"]);
    expect(queries).toHaveBeenCalledTimes(4);

    queries.mockClear();
    const thousand = Array.from(
      { length: 1000 },
      (_, index) => `AB${String(index % 100).padStart(2, "0")}CDE`,
    );
    const found = await store.findVehicles(["FN19OUT", ...thousand]);
    expect(queries).toHaveBeenCalledTimes(4);
    expect(found.get("FN19OUT")?.fines).toHaveLength(3);
  });
});
