import { runCommand } from "./testing/run-command.ts";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { startPostgres } from "@vics/server-kit/testing/postgres-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
/** The command an operator runs. */
const IMPORT = join(import.meta.dirname, "../../scripts/import");

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "vics-import-cli-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const importCommand = (env: Record<string, string>, ...args: string[]) =>
  runCommand(IMPORT, args, { PATH: process.env.PATH ?? "", ...env });

describe("scripts/import", { timeout: 60_000 }, () => {
  it("imports into an empty database, says what it did, refuses what it must, and lists it all", async () => {
    const env = { DATABASE_PATH: join(dir, "real.sqlite") };
    const vehicles = join(dir, "vehicles.csv");
    writeFileSync(
      vehicles,
      "# dates: DD/MM/YYYY\r\nRegistration,Make,Model,Year,Colour,First Registered,Depot\r\nAB12CDE,Ford,Focus,2019,Blue,01/03/2019,Leeds\r\nnot a plate,Ford,Focus,2019,Blue,01/03/2019,Leeds\r\n",
    );
    const imported = await importCommand(
      env,
      "vehicles",
      vehicles,
      "--by",
      "ops",
    );
    expect(imported).toMatchObject({ code: 0, stderr: "" });
    expect(imported.stdout).toMatch(
      /^Imported .+vehicles\.csv \(vehicles\) as import 1\.\n/,
    );
    expect(imported.stdout).toContain(
      "2 rows read: 1 added, 0 changed, 0 unchanged, 0 removed, 1 refused.",
    );
    expect(imported.stdout).toContain("Columns not imported: Depot.");
    expect(readFileSync(`${vehicles}.rejects.csv`, "utf8")).toContain(
      "4,registration,not a plate,",
    );

    const again = await importCommand(env, "vehicles", vehicles);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("Nothing to do:");

    const snapshot = join(dir, "snapshot.csv");
    writeFileSync(
      snapshot,
      "registration,make,model,year,colour,first_registered\n",
    );
    const refused = await importCommand(
      env,
      "vehicles",
      snapshot,
      "--mode",
      "snapshot",
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("would remove 1 of 1 vehicle records");

    const history = await importCommand(env, "history");
    expect(history.code).toBe(0);
    const lines = history.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^id\s+finished \(UTC\)\s+kind\s+mode\s+file/);
    expect(lines.slice(1).map((line) => line.split(/\s{2,}/)[6])).toEqual([
      "refused",
      "already-imported",
      "applied",
    ]);
    expect(lines[3]).toMatch(
      /vehicles\s+upsert\s+vehicles\.csv\s+[0-9a-f]{12}\s+applied\s+2\s+1\s+0\s+0\s+0\s+1\s+ops$/,
    );
  });

  it("will not mix real data with the synthetic fleet unless told", async () => {
    const env = { DATABASE_PATH: join(dir, "sandbox.sqlite") };
    await run(
      join(import.meta.dirname, "../../scripts/db"),
      ["seed", "--vehicles", "10"],
      {
        env: { PATH: process.env.PATH ?? "", ...env },
      },
    );
    const file = join(dir, "one.csv");
    writeFileSync(
      file,
      "registration,make,model,year,colour,first_registered\nAB12CDF,Ford,Focus,2019,Blue,2019-03-01\n",
    );
    const refused = await importCommand(env, "vehicles", file);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("holds the synthetic fleet");
    const trial = await importCommand(
      env,
      "vehicles",
      file,
      "--over-synthetic",
    );
    expect(trial.code).toBe(0);
  });

  it("imports into DATABASE_URL's PostgreSQL, migrating it first, and lists the import", async () => {
    const server = await startPostgres();
    try {
      const env = { DATABASE_URL: await server.createDatabase("cli") };
      const file = join(dir, "pg-vehicles.csv");
      writeFileSync(
        file,
        "registration,make,model,year,colour,first_registered\nAB12CDE,Ford,Focus,2019,Blue,2019-03-01\n",
      );
      const imported = await importCommand(
        env,
        "vehicles",
        file,
        "--as-of",
        "2026-11-24T06:00:00Z",
      );
      expect(imported).toMatchObject({ code: 0, stderr: "" });
      expect(imported.stdout).toContain("1 added");
      const held = await server.query(
        "SELECT value FROM meta WHERE key = 'fleet'",
        "cli",
      );
      expect(held.rows).toEqual([{ value: "imported" }]);
      const history = await importCommand(env, "history");
      expect(history.stdout.trim().split("\n")).toHaveLength(2);
      const future = await importCommand(
        env,
        "vehicles",
        file,
        "--as-of",
        "2999-01-01T00:00:00Z",
      );
      expect(future).toMatchObject({ code: 2 });
      expect(future.stderr).toContain(
        "--as-of 2999-01-01T00:00:00Z is in the future",
      );
    } finally {
      await server.close();
    }
  });

  it("says how to use it when the kind or an option is wrong", async () => {
    const env = { DATABASE_PATH: join(dir, "usage.sqlite") };
    const unknown = await importCommand(env, "cars", "x.csv");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^Unknown kind "cars"\.\nUsage:/);
    const badMode = await importCommand(
      env,
      "vehicles",
      "x.csv",
      "--mode",
      "replace",
    );
    expect(badMode.code).toBe(2);
    expect(badMode.stderr).toContain("--mode must be one of upsert, snapshot");
  });
});
