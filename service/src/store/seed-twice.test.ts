import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  readDatabase,
  rowCount,
  tableChecksum,
  tableNames,
} from "../testing/service-process.ts";
import { openStoreOrExit, type Announce } from "./open-store.ts";

/** Seeding run twice changes nothing, on a real file, through the entry points' code. */

const dir = mkdtempSync(join(tmpdir(), "vics-seed-twice-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function snapshot(databasePath: string) {
  return readDatabase(databasePath, (db) =>
    Object.fromEntries(
      tableNames(db).map((table) => [
        table,
        { rows: rowCount(db, table), checksum: tableChecksum(db, table) },
      ]),
    ),
  );
}

describe("opening the database a second time", { timeout: 60_000 }, () => {
  it("seeds nothing: every table's rows and checksum are as the first start left them, even a day later", async () => {
    const databasePath = join(dir, "vics.sqlite");
    const heard: string[] = [];
    const announce: Announce = (message) => heard.push(message);

    const first = await openStoreOrExit(
      { path: databasePath },
      new Date("2026-03-10T12:00:00Z"),
      announce,
    );
    await first.close();
    expect(heard).toEqual([
      "creating and seeding the database (first start)",
      "database created and seeded",
    ]);
    const seeded = snapshot(databasePath);
    expect(Object.keys(seeded).sort()).toEqual([
      "api_keys",
      "fetched_facts",
      "fines",
      "import_rejects",
      "imports",
      "meta",
      "mot_tests",
      "policies",
      "source_outcomes",
      "vehicle_history",
      "vehicles",
    ]);
    expect(seeded.vehicles?.rows).toBeGreaterThan(50_000);

    // The next day, when the seed would date everything differently.
    const second = await openStoreOrExit(
      { path: databasePath },
      new Date("2026-03-11T12:00:00Z"),
      announce,
    );
    await second.close();
    expect(heard).toHaveLength(2);
    expect(snapshot(databasePath)).toEqual(seeded);
  });
});
