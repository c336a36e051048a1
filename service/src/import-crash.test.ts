import { spawn } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { sharedPostgres } from "@vics/server-kit/testing/postgres-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "./store/sqlite/database.ts";
import { migrateSqlite } from "./store/sqlite/schema.ts";
import {
  integrityCheck,
  readDatabase,
  rowCount,
  tableChecksum,
} from "./testing/service-process.ts";

/**
 * `kill -9` in the middle of an import's one transaction: the file is sound and holds
 * exactly what it held before, and the same import run again applies whole.
 */
const CLI = join(import.meta.dirname, "import-cli.ts");
const VEHICLES = 200_000;
const TABLES = [
  "vehicles",
  "vehicle_history",
  "imports",
  "import_rejects",
  "meta",
];

let dir: string;
let databasePath: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "vics-import-crash-"));
  databasePath = join(dir, "real.sqlite");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function plate(index: number): string {
  const letters = "ABCDEFGHJKLMNOPRSTUVWXYZ";
  const at = (n: number) => letters[n % letters.length] ?? "A";
  return `${at(index)}${at(Math.floor(index / 24))}${String(index % 100).padStart(2, "0")}${at(Math.floor(index / 100))}${at(Math.floor(index / 2400))}${at(Math.floor(index / 57600))}`;
}

function vehiclesFile(name: string, colour: string, count: number): string {
  const path = join(dir, name);
  const lines = ["registration,make,model,year,colour,first_registered"];
  for (let index = 0; index < count; index++)
    lines.push(`${plate(index)},Ford,Focus,2019,${colour},2019-03-01`);
  writeFileSync(path, lines.join("\n") + "\n");
  return path;
}

const walBytes = () =>
  existsSync(`${databasePath}-wal`) ? statSync(`${databasePath}-wal`).size : 0;

function startImport(
  file: string,
  env: Record<string, string> = { DATABASE_PATH: databasePath },
) {
  const child = spawn(process.execPath, [CLI, "vehicles", file], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: "ignore",
  });
  return { child, exited: once(child, "exit") };
}

const checksums = () =>
  readDatabase(databasePath, (db) => {
    expect(integrityCheck(db)).toBe("ok");
    return Object.fromEntries(
      TABLES.map((table) => [table, tableChecksum(db, table)]),
    );
  });

describe(
  "kill -9 in the middle of an import into SQLite",
  { timeout: 180_000 },
  () => {
    it("leaves the database as it was, and the same import then applies whole", async () => {
      const db = openDatabase(databasePath);
      migrateSqlite(db);
      db.close();
      const first = startImport(vehiclesFile("blue.csv", "Blue", 1_000));
      expect((await first.exited)[0]).toBe(0);
      const before = checksums();
      const walBefore = walBytes();

      const red = vehiclesFile("red.csv", "Red", VEHICLES);
      const killed = startImport(red);
      const start = performance.now();
      // The one transaction has written a good part of its pages to the WAL.
      while (walBytes() < walBefore + 4 * 1024 * 1024) {
        if (performance.now() - start > 120_000)
          throw new Error("the import never wrote");
        await delay(5);
      }
      killed.child.kill("SIGKILL");
      expect((await killed.exited)[1]).toBe("SIGKILL");
      expect(checksums()).toEqual(before);

      const again = startImport(red);
      expect((await again.exited)[0]).toBe(0);
      readDatabase(databasePath, (after) => {
        expect(rowCount(after, "vehicles")).toBe(VEHICLES);
        expect(rowCount(after, "vehicle_history")).toBe(1_000);
        expect(
          after
            .prepare("SELECT count(*) AS n FROM vehicles WHERE color = 'Red'")
            .get()?.n,
        ).toBe(VEHICLES);
      });
    });
  },
);

describe(
  "kill -9 in the middle of an import into PostgreSQL",
  { timeout: 180_000 },
  () => {
    const server = sharedPostgres();

    const pgChecksums = async (database: string) =>
      Object.fromEntries(
        await Promise.all(
          TABLES.map(async (table) => [
            table,
            (
              await server().query(
                `SELECT count(*) AS n, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS sum FROM ${table} t`,
                database,
              )
            ).rows[0],
          ]),
        ),
      );
    /** The import's session is inside its one transaction, writing. */
    const applying = async (database: string) =>
      (
        await server().query(
          `SELECT count(*) AS n FROM pg_stat_activity
           WHERE application_name = 'vics-import' AND state = 'active'
             AND (query LIKE 'INSERT INTO pg_temp.plan%' OR query LIKE '%vehicle_history%'
               OR query LIKE 'INSERT INTO vehicles%' OR query LIKE 'UPDATE vehicles%')`,
          database,
        )
      ).rows[0]?.n > 0;

    it("leaves the database as it was, and the same import then applies whole", async () => {
      const url = await server().createDatabase("crash");
      const env = { DATABASE_URL: url };
      const first = startImport(
        vehiclesFile("pg-blue.csv", "Blue", 1_000),
        env,
      );
      expect((await first.exited)[0]).toBe(0);
      const before = await pgChecksums("crash");

      const red = vehiclesFile("pg-red.csv", "Red", VEHICLES);
      const killed = startImport(red, env);
      const start = performance.now();
      while (!(await applying("crash"))) {
        if (performance.now() - start > 120_000)
          throw new Error("the import never reached its transaction");
        await delay(5);
      }
      killed.child.kill("SIGKILL");
      expect((await killed.exited)[1]).toBe("SIGKILL");
      // PostgreSQL ends the orphaned session's transaction when it finds its client gone.
      while (
        Number(
          (
            await server().query(
              "SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'vics-import'",
              "crash",
            )
          ).rows[0]?.n,
        ) > 0
      )
        await delay(20);
      expect(await pgChecksums("crash")).toEqual(before);

      const again = startImport(red, env);
      expect((await again.exited)[0]).toBe(0);
      const counts = (
        await server().query(
          `SELECT (SELECT count(*) FROM vehicles) AS vehicles,
             (SELECT count(*) FROM vehicle_history) AS history,
             (SELECT count(*) FROM vehicles WHERE color = 'Red') AS red`,
          "crash",
        )
      ).rows[0];
      expect(counts).toEqual({
        vehicles: String(VEHICLES),
        history: "1000",
        red: String(VEHICLES),
      });
    });
  },
);
