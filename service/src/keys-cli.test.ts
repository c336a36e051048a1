import { runCommand } from "./testing/run-command.ts";
import { execFile } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "./app.ts";
import { hashApiKey } from "./keys/api-key.ts";
import { openSqliteStore } from "./store/sqlite/sqlite-store.ts";
import { testAppDeps } from "./testing/index.ts";
import { call } from "./testing/requests.ts";

const run = promisify(execFile);
const CLI = join(import.meta.dirname, "keys-cli.ts");
/** The command README shows: the CLI without npm's lifecycle error lines. */
const WRAPPER = join(import.meta.dirname, "../../scripts/keys");
let dir: string;
let databasePath: string;

const keys = (...args: string[]) =>
  runCommand(process.execPath, [CLI, ...args], {
    ...process.env,
    DATABASE_PATH: databasePath,
  });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "vics-keys-"));
  databasePath = join(dir, "db", "vics.sqlite");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("keys CLI", { timeout: 60_000 }, () => {
  let key = "";

  it("refuses, creating nothing, when there is no database at DATABASE_PATH", async () => {
    const refused = await keys("list");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`No database at ${databasePath}`);
    expect(existsSync(databasePath)).toBe(false);
    // The service creates the database on its first start; here, the store does.
    mkdirSync(dirname(databasePath), { recursive: true });
    await openSqliteStore({
      path: databasePath,
      seed: { fleetSize: 0, seed: 1, today: "2026-03-10" },
    }).close();
  });

  it("prints the new key alone on the last line", async () => {
    const created = await keys(
      "create",
      "--plan",
      "trial",
      "--name",
      "fleet team",
    );
    expect(created.code).toBe(0);
    const lines = created.stdout.trimEnd().split("\n");
    key = lines.at(-1) ?? "";
    expect(key).toMatch(/^vics_[A-Za-z0-9_-]{43}$/);
  });

  it("keeps only the key's hash in the database", () => {
    const db = new DatabaseSync(databasePath, { readOnly: true });
    try {
      const rows = JSON.stringify(db.prepare("SELECT * FROM api_keys").all());
      expect(rows).toContain(hashApiKey(key));
      expect(rows).not.toContain(key.replace(/^vics_/, ""));
    } finally {
      db.close();
    }
  });

  it("lists name, plan, created and revoked, never the key or its hash", async () => {
    const listed = await keys("list");
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/NAME\s+PLAN\s+CREATED\s+REVOKED/);
    expect(listed.stdout).toMatch(
      /fleet team\s+trial\s+\d{4}-\d{2}-\d{2}T\S+\s+-/,
    );
    expect(listed.stdout).not.toContain(key);
    expect(listed.stdout).not.toContain(hashApiKey(key));
  });

  it.each([
    [
      ["create", "--plan", "gold", "--name", "x"],
      /--plan must be one of: trial, standard, fleet, internal/,
    ],
    [["create", "--plan", "trial"], /--name is required/],
    [["create", "--plan", "fleet", "--name", "fleet team"], /already exists/],
    [["revoke", "nobody"], /No key named "nobody"/],
    [["rotate"], /Unknown command "rotate"/],
  ])("fails clearly for %j", async (args, message) => {
    const result = await keys(...args);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(message);
  });

  it("scripts/keys, as README shows it, prints only the CLI's message on a failure", async () => {
    const failed = await run(WRAPPER, ["revoke", "nosuchkey"], {
      env: { ...process.env, DATABASE_PATH: databasePath },
    }).catch(
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect("code" in failed ? failed.code : 0).toBe(1);
    expect(failed.stdout).toBe("");
    expect(failed.stderr).toBe(
      'No key named "nosuchkey". See: scripts/keys list\n',
    );
  });

  it("refuses a damaged database file with one clear message and no stack", async () => {
    const damaged = join(dir, "damaged.sqlite");
    writeFileSync(damaged, "not a database\n".repeat(500));
    const result = await run(process.execPath, [CLI, "list"], {
      env: { ...process.env, DATABASE_PATH: damaged },
    }).catch((error: { code: number; stderr: string }) => error);
    expect("code" in result ? result.code : 0).toBe(1);
    const stderr = "stderr" in result ? result.stderr : "";
    expect(stderr).toContain(`Cannot open the database at ${damaged}`);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it("revokes a key so the service answers 401 for it", async () => {
    const store = openSqliteStore({
      path: databasePath,
      seed: { fleetSize: 0, seed: 1, today: "2026-03-10" },
    });
    try {
      const app = createApp(testAppDeps(store));
      expect(
        (await call({ app }, "/v1/compliance/AB12CDE", { key })).status,
      ).toBe(200);
      const revoked = await keys("revoke", "fleet team");
      expect(revoked.code).toBe(0);
      expect(revoked.stdout).toMatch(/Revoked key "fleet team"/);
      expect(
        (await call({ app }, "/v1/compliance/AB12CDE", { key })).status,
      ).toBe(401);
      expect((await keys("list")).stdout).toMatch(
        /fleet team\s+trial\s+\S+\s+\d{4}-\d{2}-\d{2}T/,
      );
      const again = await keys("revoke", "fleet team");
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(/was already revoked .*nothing changed/);
    } finally {
      await store.close();
    }
  });
});
