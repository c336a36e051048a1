import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isValidRegistration } from "@vics/shared";
import {
  importPlates,
  runImport,
  writePolicies,
  writeVehicles,
} from "./imports.ts";

let dir = "";
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the bench's import files", () => {
  it("give every row its own valid plate, never one of the synthetic fleet's (ages 90-99)", () => {
    const plates = importPlates();
    const taken = Array.from(
      { length: 50_000 },
      () => plates.next().value ?? "",
    );
    expect(new Set(taken).size).toBe(taken.length);
    expect(taken.every((plate) => isValidRegistration(plate))).toBe(true);
    expect(taken.every((plate) => Number(plate.slice(2, 4)) >= 90)).toBe(true);
  });

  it("import whole, vehicles then their policies, and the command's memory is read", async () => {
    dir = mkdtempSync(join(tmpdir(), "vics-bench-import-"));
    await writeVehicles(join(dir, "v.csv"), 2_000);
    await writePolicies(join(dir, "p.csv"), 2_000);
    expect(readFileSync(join(dir, "p.csv"), "utf8").split("\n")[1]).toMatch(
      /^[A-Z]{2}9\d[A-Z]{3},POL-0,Northwind Mutual,"Third Party, Fire and Theft",/,
    );
    const env = {
      DATABASE_PATH: join(dir, "bench.sqlite"),
      SEED_SYNTHETIC_FLEET: "false",
    };
    for (const [kind, file] of [
      ["vehicles", "v.csv"],
      ["policies", "p.csv"],
    ] as const) {
      const run = await runImport([kind, join(dir, file)], env);
      expect(run.seconds).toBeGreaterThan(0);
      expect(run.peakRssMb).toBeGreaterThan(20);
    }
    await expect(
      runImport(["vehicles", join(dir, "missing.csv")], env),
    ).rejects.toThrow(/exited/);
  }, 60_000);
});
