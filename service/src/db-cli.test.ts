import { runCommand } from "./testing/run-command.ts";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { REFERENCE_REGISTRATIONS } from "@vics/shared";
import { sharedPostgres } from "@vics/server-kit/testing/postgres-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "./store/open-store.ts";

const run = promisify(execFile);
const CLI = join(import.meta.dirname, "db-cli.ts");
/** The command an operator runs: the CLI without npm's lifecycle error lines. */
const WRAPPER = join(import.meta.dirname, "../../scripts/db");

let dir: string;
const server = sharedPostgres();
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "vics-db-cli-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const db = (env: Record<string, string>, ...args: string[]) =>
  runCommand(process.execPath, [CLI, ...args], {
    PATH: process.env.PATH ?? "",
    ...env,
  });

describe("scripts/db", { timeout: 120_000 }, () => {
  it.each(["SQLite", "PostgreSQL"])(
    "on %s: migrates once, seeds once, and says so",
    async (engine) => {
      const env: Record<string, string> =
        engine === "SQLite"
          ? { DATABASE_PATH: join(dir, "new", "vics.sqlite") }
          : { DATABASE_URL: await server().createDatabase("db_cli") };
      const migrated = await db(env, "migrate");
      expect(migrated.code).toBe(0);
      // Each engine's own count of steps: SQLite's second is the imports' (decision 040) and
      // its third the data's range and freshness (041); PostgreSQL's second holds both. The
      // next is the facts fetched from live sources (issue 35), and the last the index that
      // counts their fresh marks (countStale, issue 35's review).
      const steps = engine === "SQLite" ? "5 steps" : "4 steps";
      expect(migrated.stdout).toMatch(
        new RegExp(`^Migrated the database at .+: ${steps} run\\.\\n$`),
      );
      expect((await db(env, "migrate")).stdout).toMatch(/is up to date\.\n$/);

      const seeded = await db(env, "seed", "--vehicles", "300");
      expect(seeded.code).toBe(0);
      expect(seeded.stderr).toContain(
        "Seeding 300 vehicles and the reference ones",
      );
      expect(seeded.stdout).toMatch(
        /^Seeded the synthetic fleet into .+ in [\d.]+ s\.\n$/,
      );
      const again = await db(env, "seed");
      expect(again).toMatchObject({ code: 0, stderr: "" });
      expect(again.stdout).toContain("already holds the synthetic fleet");

      const store = await openStore(
        { url: env.DATABASE_URL, path: env.DATABASE_PATH ?? "" },
        new Date(),
      );
      try {
        expect(await store.holdsSyntheticFleet()).toBe(true);
        const found = await store.findVehicles([...REFERENCE_REGISTRATIONS]);
        expect(found.size).toBe(REFERENCE_REGISTRATIONS.length);
      } finally {
        await store.close();
      }
    },
  );

  it("names the database it cannot reach, without the password, and exits 1", async () => {
    const url = `postgres://vics:s3cret@127.0.0.1:${server().port}/nowhere`;
    const failed = await db({ DATABASE_URL: url }, "migrate");
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(
      `Cannot open the database at postgres://vics@127.0.0.1:${server().port}/nowhere`,
    );
    expect(failed.stderr).not.toContain("s3cret");
  });

  it("refuses a bad command or count with the usage, and touches nothing", async () => {
    const path = join(dir, "untouched.sqlite");
    const refusals = await Promise.all(
      [
        ["drop"],
        ["seed", "--vehicles", "many"],
        ["migrate", "--vehicles", "5"],
        ["status"],
      ].map((args) => db({ DATABASE_PATH: path }, ...args)),
    );
    expect(refusals.map((refused) => refused.code)).toEqual([2, 2, 2, 2]);
    expect(refusals[0]?.stderr).toContain('Unknown command "drop".\nUsage:');
    // status is the wrapper's own: the CLI sends the operator there.
    expect(refusals[3]?.stderr).toContain("run `scripts/db status`");
    expect(existsSync(path)).toBe(false);
    const { stdout } = await run(WRAPPER, ["--help"]);
    expect(stdout).toContain("scripts/db seed [--vehicles <n>]");
    expect(stdout).toContain("scripts/db status");
  });
});
