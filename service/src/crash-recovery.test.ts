import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import {
  ComplianceRecordSchema,
  InsuranceRecordSchema,
  REFERENCE_REGISTRATIONS,
} from "@vics/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashApiKey } from "./keys/api-key.ts";
import { DEFAULT_FLEET_SEED, DEFAULT_FLEET_SIZE } from "./seed/fleet.ts";
import { openDatabase } from "./store/sqlite/database.ts";
import { migrateSqlite, readMeta } from "./store/sqlite/schema.ts";
import { ensureSeeded } from "./store/sqlite/seed-database.ts";
import {
  KEYS_CLI_PATH,
  createKeyWithCli,
  integrityCheck,
  readDatabase,
  rowCount,
  startService,
  tableChecksum,
  tableNames,
} from "./testing/service-process.ts";

/**
 * The database survives `kill -9` in the middle of a write, and the service restarts
 * clean. Real processes on a real file in WAL mode, killed with SIGKILL, never asked nicely.
 */

const KEY_WRITER = join(import.meta.dirname, "testing", "key-writer.ts");
const VEHICLE_TABLES = ["vehicles", "policies", "mot_tests", "fines"];
/** The WAL holds this much of the seeding's uncommitted pages: the write is well under way. */
const MID_SEEDING_WAL_BYTES = 1024 * 1024;
const FLEET_VEHICLES = DEFAULT_FLEET_SIZE + REFERENCE_REGISTRATIONS.length;

let dir: string;
let databasePath: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "vics-crash-"));
  databasePath = join(dir, "vics.sqlite");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const walBytes = () =>
  existsSync(`${databasePath}-wal`) ? statSync(`${databasePath}-wal`).size : 0;

/** Polls `ready` until true; fails (does not hang) after `boundMs`. */
async function until(ready: () => boolean, what: string, boundMs = 60_000) {
  const start = performance.now();
  while (!ready()) {
    if (performance.now() - start > boundMs) throw new Error(`never: ${what}`);
    await delay(10);
  }
}

async function checksReferencePlates(baseUrl: string, key: string) {
  for (const registration of REFERENCE_REGISTRATIONS) {
    const headers = { "X-API-Key": key };
    const insurance = await fetch(
      `${baseUrl}/v1/vehicle/${registration}/insurance`,
      { headers },
    );
    expect(insurance.status, registration).toBe(200);
    InsuranceRecordSchema.parse(await insurance.json());
    const compliance = await fetch(`${baseUrl}/v1/compliance/${registration}`, {
      headers,
    });
    expect(compliance.status, registration).toBe(200);
    ComplianceRecordSchema.parse(await compliance.json());
  }
}

describe("kill -9", { timeout: 180_000 }, () => {
  let seededChecksums: Record<string, string>;

  it("in the middle of the first-start seeding: nothing half-written is visible, and the restart seeds afresh, whole, and answers", async () => {
    const first = startService(databasePath);
    await until(
      () => walBytes() > MID_SEEDING_WAL_BYTES,
      "the seeding writes to the WAL",
    );
    // Still inside the one seeding transaction: it has not reported the end of it.
    expect(first.events().map((event) => event.msg)).not.toContain(
      "database created and seeded",
    );
    first.child.kill("SIGKILL");
    expect(await first.exited).toEqual({ code: null, signal: "SIGKILL" });
    expect(walBytes()).toBeGreaterThan(MID_SEEDING_WAL_BYTES);

    // What a reader sees of the killed write: a sound file and no fleet, not part of one.
    readDatabase(databasePath, (db) => {
      expect(integrityCheck(db)).toBe("ok");
      expect(readMeta(db, "fleet")).toBeUndefined();
      for (const table of tableNames(db))
        expect(rowCount(db, table), table).toBe(0);
    });

    const second = startService(databasePath);
    const baseUrl = await second.url;
    // Said, not done silently: a restart that seeds takes seconds.
    expect(second.events().map((event) => event.msg)).toEqual([
      "seeding the database: it holds no vehicles yet (an earlier seeding did not finish)",
      "database created and seeded",
      "listening",
    ]);
    const key = await createKeyWithCli(databasePath, "after-the-crash");
    await checksReferencePlates(baseUrl, key);
    second.child.kill("SIGTERM");
    expect((await second.exited).code).toBe(0);

    const seededOn = readDatabase(databasePath, (db) => {
      expect(integrityCheck(db)).toBe("ok");
      expect(
        String(db.prepare("PRAGMA journal_mode").get()?.journal_mode),
      ).toBe("wal");
      expect(rowCount(db, "vehicles")).toBe(FLEET_VEHICLES);
      expect(readMeta(db, "vehicle_count")).toBe(String(FLEET_VEHICLES));
      seededChecksums = Object.fromEntries(
        VEHICLE_TABLES.map((table) => [table, tableChecksum(db, table)]),
      );
      return readMeta(db, "seeded_on") ?? "";
    });
    // Seeded afresh means the same fleet a database that never crashed holds.
    const clean = openDatabase(":memory:");
    migrateSqlite(clean);
    ensureSeeded(clean, {
      fleetSize: DEFAULT_FLEET_SIZE,
      seed: DEFAULT_FLEET_SEED,
      today: seededOn,
    });
    for (const table of VEHICLE_TABLES)
      expect(seededChecksums[table], table).toBe(tableChecksum(clean, table));
    clean.close();
  });

  it.each([40, 400, 2000])(
    "while a process writes keys one after another (killed after %i): every key it reported is there whole, at most one more, and nothing else changed",
    async (reported) => {
      const before = readDatabase(databasePath, (db) =>
        rowCount(db, "api_keys"),
      );
      const prefix = `writer-${reported}`;
      const writer = spawn(
        process.execPath,
        [KEY_WRITER, databasePath, prefix],
        {
          stdio: ["ignore", "pipe", "inherit"],
        },
      );
      let printed = "";
      writer.stdout.on(
        "data",
        (chunk: Buffer) => (printed += chunk.toString()),
      );
      const names = () => printed.split("\n").filter(Boolean);
      await until(() => names().length >= reported, `${reported} keys written`);
      writer.kill("SIGKILL");
      // "close", not "exit": a key printed just before the kill may still be in the pipe when
      // the process has exited, and names() would miss it (a loaded machine showed 204 keys
      // in the file against 200 read).
      await new Promise((resolve) => writer.on("close", resolve));

      readDatabase(databasePath, (db) => {
        expect(integrityCheck(db)).toBe("ok");
        const rows = db
          .prepare("SELECT * FROM api_keys WHERE name LIKE ? ORDER BY id")
          .all(`${prefix}-%`);
        const written = rows.map((row) => String(row.name));
        expect(written.slice(0, names().length)).toEqual(names());
        // The write under way when the kill came either committed whole or left no trace.
        expect(written.length - names().length).toBeGreaterThanOrEqual(0);
        expect(written.length - names().length).toBeLessThanOrEqual(1);
        for (const row of rows) {
          expect(String(row.key_hash)).toMatch(/^[0-9a-f]{64}$/);
          expect(row).toMatchObject({ plan: "trial", revoked_at: null });
          expect(Number.isNaN(Date.parse(String(row.created_at)))).toBe(false);
        }
        expect(rowCount(db, "api_keys")).toBe(before + written.length);
        for (const table of VEHICLE_TABLES)
          expect(tableChecksum(db, table), table).toBe(seededChecksums[table]);
      });
    },
  );

  it("while `scripts/keys create` runs in a loop, killed at 20 moments: the keys it printed work, the file stays sound, and a 21st create finishes", async () => {
    const printedKeys: string[] = [];
    for (let round = 0; round < 20; round++) {
      const cli = spawn(
        process.execPath,
        [KEYS_CLI_PATH, "create", "--plan", "trial", "--name", `cli-${round}`],
        {
          env: { PATH: process.env.PATH ?? "", DATABASE_PATH: databasePath },
          stdio: ["ignore", "pipe", "ignore"],
        },
      );
      let stdout = "";
      cli.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      // "close": its output is all read by then, so a key it printed is not missed.
      const exited = new Promise((resolve) => cli.on("close", resolve));
      // From start-up to past the write (a create takes about half a second), over the rounds.
      await delay(round * 35);
      cli.kill("SIGKILL");
      await exited;
      const key = stdout.trimEnd().split("\n").at(-1) ?? "";
      if (key.startsWith("vics_")) printedKeys.push(key);
    }
    // And one left to finish: the file the kills left behind still takes a key, so the checks
    // below always have at least one key to try, however slow the machine made the rounds.
    const last = spawnSync(
      process.execPath,
      [KEYS_CLI_PATH, "create", "--plan", "trial", "--name", "cli-last"],
      {
        env: { PATH: process.env.PATH ?? "", DATABASE_PATH: databasePath },
        encoding: "utf8",
      },
    );
    expect(last.status).toBe(0);
    printedKeys.push(last.stdout.trimEnd().split("\n").at(-1) ?? "");
    expect(printedKeys.at(-1)).toMatch(/^vics_/);
    readDatabase(databasePath, (db) => {
      expect(integrityCheck(db)).toBe("ok");
      const names = db
        .prepare("SELECT name FROM api_keys WHERE name LIKE 'cli-%'")
        .all()
        .map((row) => String(row.name));
      expect(names.length).toBeGreaterThanOrEqual(printedKeys.length);
      const hashes = db.prepare("SELECT 1 FROM api_keys WHERE key_hash = ?");
      for (const key of printedKeys)
        expect(hashes.get(hashApiKey(key))).toBeDefined();
    });

    // The service starts on the file as it was left, and every key the CLI printed works.
    const service = startService(databasePath);
    const baseUrl = await service.url;
    expect(service.events().map((event) => event.msg)).toEqual(["listening"]);
    for (const key of printedKeys) {
      const response = await fetch(`${baseUrl}/v1/compliance/AB12CDE`, {
        headers: { "X-API-Key": key },
      });
      expect(response.status).toBe(200);
    }
    service.child.kill("SIGTERM");
    expect((await service.exited).code).toBe(0);
  });
});
