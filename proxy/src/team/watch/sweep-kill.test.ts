// A sweep killed mid-run is redone by the next with no alert twice (decision 043: effects are
// idempotent through unique keys, not through the engine). A real service over HTTP; the sweep
// in a child process on the SQLite store in a temporary folder, SIGKILLed after a few of its
// batches are committed; then a second sweep to the end. Its alerts, by (registration, kind,
// key), are those of one sweep uninterrupted on a store of its own, and the second sweep opened
// none for a vehicle the first had recorded.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestService, type TestService } from "@vics/service/testing";
import { isValidRegistration } from "@vics/shared";
import {
  serveOnLoopback,
  type LoopbackServer,
} from "@vics/server-kit/testing/loopback-server";
import { openSqliteProxyStore } from "../store/sqlite/sqlite-proxy-store.ts";
import {
  byMessage,
  startNode,
  type LogEvent,
} from "../../testing/child-processes.ts";

const SWEEP_PROCESS = join(
  import.meta.dirname,
  "../../testing/sweep-process.ts",
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
let http: LoopbackServer;
let key: string;
let folder: string;
beforeAll(async () => {
  service = await createTestService({
    sandbox: true,
    sandboxDelayMs: 0,
    fleetSize: 10,
  });
  key = await service.createKey("internal", "re-checks");
  http = await serveOnLoopback(service.app.fetch);
  folder = mkdtempSync(join(tmpdir(), "vics-sweep-kill-"));
});
afterAll(async () => {
  await http?.close();
  await service?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** The sweep in a child process (startNode): its JSON lines as they come, and how it ended. */
function sweepProcess(path: string) {
  return startNode(SWEEP_PROCESS, {
    PROXY_DATABASE_PATH: path,
    UPSTREAM_URL: http.base,
    WATCH_API_KEY: key,
    SWEEP_CHUNK: String(CHUNK),
  });
}

/** A store at `path` watching `registrations` as one fleet, never swept. */
async function storeWatching(path: string, registrations: string[]) {
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
}

/** The report a sweep process wrote last; opened is the registrations of its new alerts. */
function sweptReport(events: LogEvent[]) {
  return events.find(byMessage("swept")) as LogEvent & {
    status: string;
    vehicles: number;
    unknown: number;
    opened: string[];
  };
}

/** What the store holds: vehicles checked, runs, and alerts per (registration, kind, key). */
function recorded(path: string) {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const count = (sql: string) =>
      Number((db.prepare(sql).get() as { n: number }).n);
    return {
      checkedRegistrations: new Set(
        db
          .prepare(
            "SELECT registration FROM watched_vehicles WHERE checked_at IS NOT NULL",
          )
          .all()
          .map((row) => String(row.registration)),
      ),
      /** Every alert as "registration kind key", sorted. */
      alertKeys: db
        .prepare("SELECT registration, kind, key FROM vehicle_alerts")
        .all()
        .map((row) => `${row.registration} ${row.kind} ${row.key}`)
        .sort(),
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
    await storeWatching(path, registrations);

    // The first sweep, killed once a few batches are committed.
    const first = sweepProcess(path);
    let batches = 0;
    await first.waitFor(
      (event) => event.msg === "recorded" && ++batches === KILL_AFTER,
    );
    first.process.kill("SIGKILL");
    expect(await first.exited).toMatchObject({ signal: "SIGKILL" });
    const killed = recorded(path);
    // Mid-run: some vehicles recorded, not all; its run never ended.
    expect(killed.checked).toBeGreaterThanOrEqual(KILL_AFTER * CHUNK);
    expect(killed.checked).toBeLessThan(VEHICLES);
    expect(killed.runs).toEqual([{ kind: "daily", ended: 0, outcome: null }]);

    // The next sweep, to the end.
    const second = sweepProcess(path);
    expect(await second.exited).toMatchObject({ code: 0 });
    const report = sweptReport(second.events());
    expect(report).toMatchObject({
      status: "finished",
      vehicles: VEHICLES,
      unknown: 0,
    });

    // The control: the same fleet in a store of its own, swept once, uninterrupted.
    const controlPath = join(folder, "control.sqlite");
    await storeWatching(controlPath, registrations);
    const control = sweepProcess(controlPath);
    expect(await control.exited).toMatchObject({ code: 0 });
    expect(sweptReport(control.events())).toMatchObject({
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
    expect(after.alerts).toBe(killed.alerts + report.opened.length);
    expect(killed.alerts).toBeGreaterThan(0);
    expect(after.runs).toEqual([
      { kind: "daily", ended: 0, outcome: null },
      { kind: "daily", ended: 1, outcome: "finished" },
    ]);
    // Killed then resumed, the store holds the very alerts of one sweep uninterrupted...
    const uninterrupted = recorded(controlPath);
    expect(uninterrupted.alertKeys.length).toBeGreaterThanOrEqual(VEHICLES - 1);
    expect(after.alertKeys).toEqual(uninterrupted.alertKeys);
    // ...and the second sweep opened none for a vehicle the killed one had recorded.
    expect(report.opened.length).toBeGreaterThan(0);
    expect(
      report.opened.filter((registration) =>
        killed.checkedRegistrations.has(registration),
      ),
    ).toEqual([]);
  }, 60_000);
});
