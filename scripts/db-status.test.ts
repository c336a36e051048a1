import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { migratePg, openPgPool } from "@vics/server-kit/postgres";
import { migrateSqliteSteps } from "@vics/server-kit/sqlite-migrations";
import { sharedPostgres } from "@vics/server-kit/testing/postgres-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as proxyPostgres from "../proxy/src/team/store/postgres/schema.ts";
import { MIGRATIONS as PROXY_SQLITE_STEPS } from "../proxy/src/team/store/sqlite/schema.ts";
import { runCommand } from "../service/src/testing/run-command.ts";
import * as servicePostgres from "../service/src/store/postgres/migrations.ts";
import { STEPS as SERVICE_SQLITE_STEPS } from "../service/src/store/sqlite/schema.ts";

/** The command an operator runs. */
const DB = join(import.meta.dirname, "db");

let dir: string;
const postgres = sharedPostgres();
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "vics-db-status-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const db = (env: Record<string, string>, ...args: string[]) =>
  runCommand(DB, args, { PATH: process.env.PATH ?? "", ...env });

// Counted from the schemas, so a new step does not change what this test asks.
const last = (steps: readonly unknown[]) => steps.length;

describe("scripts/db status", { timeout: 120_000 }, () => {
  it("on SQLite: says neither file is made, creating none, then which steps each file ran", async () => {
    const env = {
      DATABASE_PATH: join(dir, "data", "vics.sqlite"),
      PROXY_DATABASE_PATH: join(dir, "data", "proxy.sqlite"),
    };
    const before = await db(env, "status");
    expect(before).toMatchObject({ code: 0, stderr: "" });
    expect(before.stdout).toBe(
      `The service's database at ${env.DATABASE_PATH} (SQLite) is not made yet: steps 1-${last(SERVICE_SQLITE_STEPS)} pending, run by \`scripts/db migrate\` or the service's next start.\n` +
        `The proxy's store at ${env.PROXY_DATABASE_PATH} (SQLite) is not made yet: steps 1-${last(PROXY_SQLITE_STEPS)} pending, run by the proxy's next start or \`scripts/users list\`.\n`,
    );
    expect(existsSync(env.DATABASE_PATH)).toBe(false);
    expect(existsSync(env.PROXY_DATABASE_PATH)).toBe(false);

    expect((await db(env, "migrate")).code).toBe(0);
    // The proxy's file as a release that knew three steps left it.
    const proxy = new DatabaseSync(env.PROXY_DATABASE_PATH);
    migrateSqliteSteps(proxy, PROXY_SQLITE_STEPS.slice(0, 3));
    proxy.close();

    const after = await db(env, "status");
    expect(after).toMatchObject({ code: 0, stderr: "" });
    expect(after.stdout.split("\n")).toEqual([
      `The service's database at ${env.DATABASE_PATH} (SQLite): ran steps 1-${last(SERVICE_SQLITE_STEPS)} of ${last(SERVICE_SQLITE_STEPS)}, none pending.`,
      `The proxy's store at ${env.PROXY_DATABASE_PATH} (SQLite): ran steps 1-3 of ${last(PROXY_SQLITE_STEPS)}; steps 4-${last(PROXY_SQLITE_STEPS)} pending, run by the proxy's next start or \`scripts/users list\`.`,
      "",
    ]);
  });

  it("on PostgreSQL: reads both servers' records of steps in DATABASE_URL's database", async () => {
    const url = await postgres().createDatabase("db_status");
    const place = url.replace(/:[^:@/]*@/, "@");
    const env = { DATABASE_URL: url };
    const before = await db(env, "status");
    expect(before).toMatchObject({ code: 0, stderr: "" });
    expect(before.stdout).toContain(
      `The service's database at ${place} (PostgreSQL) has no record of its steps there: it is not made yet, or the service's own DATABASE_URL names another database.`,
    );
    expect(before.stdout).toContain(
      `The proxy's store at ${place} (PostgreSQL) has no record of its steps there: it is not made yet, or the proxy's own DATABASE_URL names another database.`,
    );

    expect((await db(env, "migrate")).code).toBe(0);
    const pool = openPgPool({ url, applicationName: "test" });
    try {
      await migratePg(pool, {
        name: proxyPostgres.MIGRATIONS_NAME,
        steps: proxyPostgres.MIGRATIONS.slice(0, 1),
      });
    } finally {
      await pool.end();
    }
    const proxySteps = last(proxyPostgres.MIGRATIONS);
    const after = await db(env, "status");
    expect(after).toMatchObject({ code: 0, stderr: "" });
    expect(after.stdout.split("\n")).toEqual([
      `The service's database at ${place} (PostgreSQL): ran steps 1-${last(servicePostgres.MIGRATIONS)} of ${last(servicePostgres.MIGRATIONS)}, none pending.`,
      `The proxy's store at ${place} (PostgreSQL): ran step 1 of ${proxySteps}; steps 2-${proxySteps} pending, run by the proxy's next start or \`scripts/users list\`.`,
      "",
    ]);
  });

  it("names the database it cannot read, without the password, and exits 1; refuses an argument with 2", async () => {
    const url = `postgres://vics:s3cret@127.0.0.1:${postgres().port}/nowhere`;
    const failed = await db({ DATABASE_URL: url }, "status");
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(
      `Cannot open the database at postgres://vics@127.0.0.1:${postgres().port}/nowhere`,
    );
    expect(failed.stderr).not.toContain("s3cret");

    const refused = await db({}, "status", "now");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Unknown argument "now".\nUsage:');
  });
});
