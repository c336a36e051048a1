// scripts/backup and scripts/restore as an operator meets them when something is wrong: their
// refusals and exit codes, a damaged backup, another engine, and --replace over a store that
// moved on since the backup (the drill, scripts/backup-drill.test.ts, is the restore that works).
import { spawn } from "node:child_process";
import { once } from "node:events";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { setTimeout } from "node:timers/promises";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedPostgres } from "@vics/server-kit/testing/postgres-server";
import { runCommand } from "../service/src/testing/run-command.ts";
import { readManifest } from "./backups/manifest.ts";
import { cli } from "./backups/testing/cli.ts";

const ROOT = join(import.meta.dirname, "..");
const BACKUP = join(ROOT, "scripts/backup");
const RESTORE = join(ROOT, "scripts/restore");

const postgres = sharedPostgres();
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "vics-restore-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const command =
  (file: string) =>
  (env: Record<string, string>, ...args: string[]) =>
    runCommand(file, args, { PATH: process.env.PATH ?? "", ...env });
const backup = command(BACKUP);
const restore = command(RESTORE);

/** Both stores with data: the service's seeded with a key, the proxy's with `users` users. */
async function makeStores(env: Record<string, string>, users: number) {
  await cli("service/src/db-cli.ts", ["seed", "--vehicles", "20"], env);
  await cli(
    "service/src/keys-cli.ts",
    ["create", "--plan", "trial", "--name", "one"],
    env,
  );
  for (let user = 0; user < users; user++)
    await cli(
      "proxy/src/users-cli.ts",
      ["create", "--email", `u${user}@x.example`],
      env,
    );
}

const sqliteEnv = (folder: string) => ({
  DATABASE_PATH: join(dir, folder, "vics.sqlite"),
  PROXY_DATABASE_PATH: join(dir, folder, "proxy.sqlite"),
});

const folderOf = (stdout: string) => stdout.trim().split("\n").at(-1)!;

describe("scripts/backup and scripts/restore", { timeout: 120_000 }, () => {
  it("say how they are used, and refuse a wrong command line with exit 2", async () => {
    const help = await backup({}, "--help");
    expect(help).toMatchObject({ code: 0, stderr: "" });
    expect(help.stdout).toContain("Usage: scripts/backup <folder>");
    expect((await restore({}, "--help")).stdout).toContain(
      "Exit 0 when restored",
    );
    expect(await backup({})).toMatchObject({ code: 2 });
    expect((await restore({})).stderr).toContain(
      "Say which backup folder to restore.",
    );
    expect((await backup({}, join(dir, "x"), "--keep", "none")).code).toBe(2);
    // An unknown option in one line, not Node's paragraph about positionals.
    const unknown = await restore({}, join(dir, "x"), "--force");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.split("\n")[0]).toBe("Unknown option --force.");
    // A folder that is not there is said so, not taken for a damaged backup.
    const missing = await restore({}, join(dir, "no-such-backup"));
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe(
      `Not restored: ${join(dir, "no-such-backup")} does not exist: name a backup's folder.`,
    );
  });

  it("on SQLite: a missing database is no backup, and leaves no folder", async () => {
    const out = join(dir, "missing-out");
    const result = await backup(sqliteEnv("missing"), out);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `There is no database at ${sqliteEnv("missing").DATABASE_PATH}`,
    );
    expect(readdirSync(out)).toEqual([]);
  });

  it("on SQLite: refuses a store with data (exit 3, nothing changed), a damaged backup and another engine; --replace puts the backup's moment back", async () => {
    const live = sqliteEnv("live");
    await makeStores(live, 2);
    const made = await backup(live, join(dir, "backups"), "--keep", "1");
    expect(made).toMatchObject({ code: 0, stderr: "" });
    const folder = folderOf(made.stdout);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(statSync(join(folder, "proxy.sqlite")).mode & 0o777).toBe(0o600);
    // The invitations' links are left out of the copy.
    expect(readManifest(folder).leftOut.oneTimeLinks).toBe(2);
    const copy = new DatabaseSync(join(folder, "proxy.sqlite"), {
      readOnly: true,
    });
    expect(
      copy.prepare("SELECT count(*) AS n FROM one_time_links").get(),
    ).toEqual({ n: 0 });
    copy.close();

    // The live store moves on: a third user.
    await cli(
      "proxy/src/users-cli.ts",
      ["create", "--email", "late@x.example"],
      live,
    );
    const before = readFileSync(live.PROXY_DATABASE_PATH);
    const refused = await restore(live, folder);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain("already hold data");
    expect(readFileSync(live.PROXY_DATABASE_PATH).equals(before)).toBe(true);

    const onPostgres = await restore(
      {
        ...sqliteEnv("elsewhere"),
        DATABASE_URL: "postgres://vics@127.0.0.1:1/vics",
      },
      folder,
    );
    expect(onPostgres.code).toBe(1);
    expect(onPostgres.stderr).toContain(
      "a backup is restored onto the engine it was taken on",
    );

    // A server still has the proxy's file open (here, a connection as its store makes one):
    // --replace is refused, and the file is the one the server has, still holding three users.
    const server = new DatabaseSync(live.PROXY_DATABASE_PATH);
    server.exec("PRAGMA journal_mode = WAL");
    const file = statSync(live.PROXY_DATABASE_PATH).ino;
    const held = await restore(live, folder, "--replace");
    expect(held.code).toBe(3);
    expect(held.stderr).toContain(
      `Not restored: ${live.PROXY_DATABASE_PATH} is open in a running server. Stop every server that uses it, then run again.`,
    );
    expect(statSync(live.PROXY_DATABASE_PATH).ino).toBe(file);
    const reader = new DatabaseSync(live.PROXY_DATABASE_PATH, {
      readOnly: true,
    });
    expect(reader.prepare("SELECT count(*) AS n FROM users").get()).toEqual({
      n: 3,
    });
    reader.close();
    server.close();

    const replaced = await restore(live, folder, "--replace");
    expect(replaced).toMatchObject({ code: 0, stderr: "" });
    expect(replaced.stdout).toContain("2 users");
    const store = new DatabaseSync(live.PROXY_DATABASE_PATH, {
      readOnly: true,
    });
    expect(
      store.prepare("SELECT email FROM users ORDER BY email").all(),
    ).toEqual([{ email: "u0@x.example" }, { email: "u1@x.example" }]);
    store.close();

    appendFileSync(join(folder, "service.sqlite"), "x");
    const damaged = await restore(sqliteEnv("fresh"), folder);
    expect(damaged.code).toBe(1);
    expect(damaged.stderr).toContain("it is damaged");
    expect(existsSync(sqliteEnv("fresh").PROXY_DATABASE_PATH)).toBe(false);

    // A backup killed outright two days ago left its .partial folder; one is under way now.
    const killed = join(
      dir,
      "backups",
      "vics-backup-2026-11-27T02-30-00Z.partial",
    );
    const underWay = join(
      dir,
      "backups",
      "vics-backup-2026-11-29T02-30-00Z-1.partial",
    );
    for (const partial of [killed, underWay])
      mkdirSync(partial, { mode: 0o700 });
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    utimesSync(killed, twoDaysAgo, twoDaysAgo);

    // --keep 1: a second backup deletes the first, and the killed one's folder.
    const second = await backup(live, join(dir, "backups"), "--keep", "1");
    expect(second.code).toBe(0);
    expect(existsSync(folder)).toBe(false);
    expect(second.stdout).toContain(
      `Deleted ${killed}, a backup that never finished`,
    );
    expect(readdirSync(join(dir, "backups")).sort()).toEqual(
      [basename(folderOf(second.stdout)), basename(underWay)].sort(),
    );
  });

  it("on PostgreSQL, both stores in one database: one dump, --replace empties the database before it restores, and a backup stopped by SIGTERM leaves nothing", async () => {
    const url = await postgres().createDatabase("restore_shared");
    const live = { DATABASE_URL: url };
    await makeStores(live, 1);
    const made = await backup(live, join(dir, "pg-backups"));
    expect(made).toMatchObject({ code: 0, stderr: "" });
    const folder = folderOf(made.stdout);
    expect(readManifest(folder).files).toEqual([
      expect.objectContaining({
        name: "database.dump",
        engine: "postgresql",
        stores: ["service", "proxy"],
      }),
    ]);

    // Since the backup: a user, a schema of its own and a partitioned table (as pg-boss makes).
    await cli(
      "proxy/src/users-cli.ts",
      ["create", "--email", "late@x.example"],
      live,
    );
    await postgres().query(
      `CREATE SCHEMA later; CREATE TABLE later.t (id int);
       CREATE TABLE parts (at int) PARTITION BY RANGE (at);
       CREATE TABLE parts_1 PARTITION OF parts FOR VALUES FROM (0) TO (10);`,
      "restore_shared",
    );
    expect((await restore(live, folder)).code).toBe(3);

    // The dump's SQL goes beside the backup, never into the system's temporary folder (here
    // one that does not exist), and is removed.
    const replaced = await restore(
      { ...live, TMPDIR: join(dir, "no-such-folder") },
      folder,
      "--replace",
    );
    expect(replaced).toMatchObject({ code: 0, stderr: "" });
    expect(readdirSync(join(dir, "pg-backups"))).toEqual([basename(folder)]);
    const { rows } = await postgres().query(
      `SELECT (SELECT count(*) FROM users)::int AS users,
              to_regclass('parts') IS NULL AS no_parts,
              to_regnamespace('later') IS NULL AS no_later`,
      "restore_shared",
    );
    expect(rows).toEqual([{ users: 1, no_parts: true, no_later: true }]);

    // Stopped by SIGTERM (systemctl stop) while pg_dump runs: no folder is left, and pg_dump
    // (here one that only waits) is stopped too.
    const bin = join(dir, "slow-pg-bin");
    mkdirSync(bin);
    const dumping = join(bin, "pg_dump.pid");
    writeFileSync(
      join(bin, "pg_dump"),
      `#!/bin/sh\necho $$ > ${dumping}.new && mv ${dumping}.new ${dumping}\nexec sleep 60\n`,
      { mode: 0o700 },
    );
    const out = join(dir, "pg-stopped");
    const stopped = spawn(BACKUP, [out], {
      env: { PATH: process.env.PATH ?? "", ...live, PG_BIN: bin },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let said = "";
    stopped.stderr.on("data", (chunk: Buffer) => (said += chunk.toString()));
    const exited = once(stopped, "exit");
    while (!existsSync(dumping)) await setTimeout(50);
    expect(readdirSync(out)).toEqual([expect.stringMatching(/\.partial$/)]);
    stopped.kill("SIGTERM");
    expect(await exited).toEqual([143, null]);
    expect(said).toContain("Stopped by SIGTERM: no backup was made.");
    expect(readdirSync(out)).toEqual([]);
    const dump = `/proc/${readFileSync(dumping, "utf8").trim()}/stat`;
    const running = () =>
      existsSync(dump) && !/^\d+ \(.*\) Z/.test(readFileSync(dump, "utf8"));
    for (let wait = 0; running() && wait < 100; wait++) await setTimeout(50);
    expect(running()).toBe(false);
  });
});
