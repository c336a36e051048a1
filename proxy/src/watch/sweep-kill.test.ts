// A sweep killed mid-run is redone by the next with no alert twice (decision 043: effects are
// idempotent through unique keys, not through the engine). A real service over HTTP; the sweep
// in a child process on the SQLite store in a temporary folder, SIGKILLed after a few of its
// batches are committed; then a second sweep to the end. Every (registration, kind, key) has one
// alert, and the second sweep opened only what the first had not recorded.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serve, type ServerType } from "@hono/node-server";
import { createTestService, type TestService } from "@vics/service/testing";
import { isValidRegistration } from "@vics/shared";
import { openSqliteProxyStore } from "../store/sqlite/sqlite-proxy-store.ts";

const SWEEP_PROCESS = join(
  import.meta.dirname,
  "../test-support/sweep-process.ts",
);
/** Watched vehicles, and registrations a request: about 150 batches, one at a time. */
const VEHICLES = 3000;
const CHUNK = 20;
/** Batches committed before the kill. */
const KILL_AFTER = 5;

/** The reference vehicles (an alert of each kind), then plates the service has never seen. */
function watchedRegistrations(): string[] {
  const reference = [
    ...["AB12CDE", "LP08SED", "MT15EXP", "EX26SON"],
    ...["TX19NON", "SR19ORN", "FN19OUT", "ER19NFD"],
  ];
  const unknown: string[] = [];
  const letters = "ABCDEFGHJKLMNOPRSTUVWXY";
  for (const a of letters)
    for (const b of letters)
      for (const age of ["21", "71"]) {
        const plate = `BD${age}K${a}${b}`;
        if (isValidRegistration(plate)) unknown.push(plate);
      }
  for (const a of letters)
    for (const b of letters)
      for (const age of ["22", "72", "23", "73"]) {
        const plate = `BF${age}K${a}${b}`;
        if (isValidRegistration(plate)) unknown.push(plate);
      }
  return [...reference, ...unknown].slice(0, VEHICLES);
}

let service: TestService;
let http: ServerType;
let upstreamUrl: string;
let key: string;
let folder: string;
beforeAll(async () => {
  service = await createTestService({
    sandbox: true,
    sandboxDelayMs: 0,
    fleetSize: 10,
  });
  key = await service.createKey("internal", "re-checks");
  http = serve({ fetch: service.app.fetch, hostname: "127.0.0.1", port: 0 });
  await once(http, "listening");
  upstreamUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  folder = mkdtempSync(join(tmpdir(), "vics-sweep-kill-"));
});
afterAll(async () => {
  await new Promise((done) => http?.close(done));
  await service?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** The sweep in a child process: its lines as they come, and how it ended. */
function sweepProcess(path: string) {
  const child = spawn(process.execPath, [SWEEP_PROCESS], {
    env: {
      PATH: process.env.PATH ?? "",
      PROXY_DATABASE_PATH: path,
      UPSTREAM_URL: upstreamUrl,
      WATCH_API_KEY: key,
      SWEEP_CHUNK: String(CHUNK),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout });
  const exited = once(child, "exit").then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
    stderr,
  }));
  return { child, lines, exited };
}

/** What the store holds: vehicles checked, runs, and alerts per (registration, kind, key). */
function recorded(path: string) {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const count = (sql: string) =>
      Number((db.prepare(sql).get() as { n: number }).n);
    return {
      checked: count(
        "SELECT count(*) AS n FROM watched_vehicles WHERE checked_at IS NOT NULL",
      ),
      alerts: count("SELECT count(*) AS n FROM vehicle_alerts"),
      twice: db
        .prepare(
          `SELECT registration, kind, key, count(*) AS n FROM vehicle_alerts
           GROUP BY registration, kind, key HAVING count(*) > 1`,
        )
        .all(),
      runs: db
        .prepare(
          "SELECT kind, finished_at IS NOT NULL AS ended, outcome FROM watch_runs ORDER BY id",
        )
        .all()
        .map((row) => ({ ...row })),
    };
  } finally {
    db.close();
  }
}

describe("a sweep killed mid-run", () => {
  it("is redone by the next run to the end, with no alert twice", async () => {
    const path = join(folder, "proxy.sqlite");
    const registrations = watchedRegistrations();
    expect(registrations).toHaveLength(VEHICLES);
    const store = openSqliteProxyStore({ path, auditRetentionDays: 30 });
    await store.createFleet(
      "Vans",
      {
        columns: [],
        vehicles: registrations.map((registration) => ({
          registration,
          cells: [],
        })),
      },
      { email: "ann@example.org", at: Date.now() },
    );
    await store.close();

    // The first sweep, killed once a few batches are committed.
    const first = sweepProcess(path);
    let batches = 0;
    for await (const line of first.lines) {
      if (!line.startsWith("recorded ")) continue;
      batches += 1;
      if (batches === KILL_AFTER) {
        first.child.kill("SIGKILL");
        break;
      }
    }
    expect(await first.exited).toMatchObject({ signal: "SIGKILL" });
    const killed = recorded(path);
    // Mid-run: some vehicles recorded, not all; its run never ended.
    expect(killed.checked).toBeGreaterThanOrEqual(KILL_AFTER * CHUNK);
    expect(killed.checked).toBeLessThan(VEHICLES);
    expect(killed.runs).toEqual([{ kind: "daily", ended: 0, outcome: null }]);

    // The next sweep, to the end.
    const second = sweepProcess(path);
    const said: string[] = [];
    for await (const line of second.lines) said.push(line);
    expect(await second.exited).toMatchObject({ code: 0 });
    const report = JSON.parse(said.at(-1)!) as {
      status: string;
      vehicles: number;
      unknown: number;
      opened: number;
    };
    expect(report).toMatchObject({
      status: "finished",
      vehicles: VEHICLES,
      unknown: 0,
    });

    const after = recorded(path);
    expect(after.checked).toBe(VEHICLES);
    expect(after.twice).toEqual([]);
    // Every vehicle alerts but AB12CDE (insured, taxed, MOT'd; the unknown plates as not
    // found); the second sweep opened only what the killed one had not recorded.
    expect(after.alerts).toBeGreaterThanOrEqual(VEHICLES - 1);
    expect(after.alerts).toBe(killed.alerts + report.opened);
    expect(killed.alerts).toBeGreaterThan(0);
    expect(after.runs).toEqual([
      { kind: "daily", ended: 0, outcome: null },
      { kind: "daily", ended: 1, outcome: "finished" },
    ]);
  }, 60_000);
});
