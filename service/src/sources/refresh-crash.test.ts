// A refresh from a live register survives `kill -9` of the service in the middle of it (issue 35:
// "nothing fetched is lost on a crash mid-refresh"; decision 059: each answer is stored as it
// arrives, in its own transaction). Real processes: the service started as `node src/index.ts`
// on a real SQLite file, asking the VES stand-in in this process, killed with SIGKILL.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import {
  REGISTERS_REFRESH_PATH,
  RegisterRefreshQueuedSchema,
} from "@vics/shared/registers-admin";
import { killOnExit } from "@vics/shared/testing/kill-on-exit";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sqliteFetchedStore } from "../store/sqlite/fetched-writer.ts";
import {
  createKeyWithCli,
  integrityCheck,
  readDatabase,
  rowCount,
  startService,
  type ServiceProcess,
} from "../testing/service-process.ts";
import type { VesVehicle } from "./dvla-ves-vehicle.ts";
import {
  startVesStandIn,
  type VesRequest,
  type VesStandIn,
} from "../testing/sources/ves-stand-in.ts";

const VEHICLES = 300;
/** The stand-in waits this long before each answer, so many requests are in flight at once. */
const ANSWER_DELAY_MS = 40;
/**
 * The most answers the service can hold read but not yet written: one a worker, and the queue
 * runs min(32, the rate a second) workers (source-queue.ts), 32 at DVLA_VES_PER_SECOND 100.
 */
const IN_FLIGHT = 32;
/** Killed once the stand-in has this many requests: about half, the rest queued or in flight. */
const KILL_AFTER_REQUESTS = VEHICLES / 2;
const KINDS = ["mot", "tax", "vehicle"];
const LETTERS = "ABCDEFGHJKLMNPRSTUVWXYZ";

/** Plates of the current format no seeded fleet holds (the file starts empty anyway). */
const registrations = Array.from(
  { length: VEHICLES },
  (_, at) =>
    `CR${10 + Math.floor(at / LETTERS.length)}X${LETTERS[at % LETTERS.length]}Z`,
);

/** Each vehicle's own facts, so a row stored under the wrong plate shows. */
function vehicleFor(registration: string, at: number): VesVehicle {
  const day = String(1 + (at % 28)).padStart(2, "0");
  const month = String(1 + (at % 12)).padStart(2, "0");
  return {
    registrationNumber: registration,
    taxStatus: "Taxed",
    taxDueDate: `2027-${month}-${day}`,
    motStatus: "Valid",
    motExpiryDate: `2027-${String(1 + ((at + 5) % 12)).padStart(2, "0")}-${day}`,
    make: ["FORD", "VAUXHALL", "TOYOTA", "VOLKSWAGEN"][at % 4],
    colour: ["RED", "BLUE", "SILVER"][at % 3],
    yearOfManufacture: 2010 + (at % 15),
    monthOfFirstRegistration: `${2010 + (at % 15)}-${month}`,
  };
}

let dir: string;
let databasePath: string;
let standIn: VesStandIn;
const services: ServiceProcess[] = [];

function serviceOn(): ServiceProcess {
  const service = startService(databasePath, {
    SEED_SYNTHETIC_FLEET: "false",
    DVLA_VES_API_KEY_FILE: join(dir, "ves-key"),
    DVLA_VES_BASE_URL: standIn.url,
    // Fast enough to stay well under the test's time, slow enough that a kill lands mid-way.
    DVLA_VES_PER_SECOND: "100",
    DVLA_VES_BURST: "10",
  });
  killOnExit(service.child);
  services.push(service);
  return service;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "vics-refresh-crash-"));
  databasePath = join(dir, "vics.sqlite");
  writeFileSync(join(dir, "ves-key"), "ves-test-key\n");
  standIn = await startVesStandIn();
  standIn.delayMs = ANSWER_DELAY_MS;
  registrations.forEach((registration, at) =>
    standIn.vehicles.set(registration, vehicleFor(registration, at)),
  );
});

afterAll(async () => {
  for (const { child } of services)
    if (child.exitCode === null && child.signalCode === null)
      child.kill("SIGKILL");
  await Promise.all(services.map((service) => service.exited));
  await standIn?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** How long the test waits for the register's answers, polling every 25 ms. */
const WAIT = { timeout: 15_000, interval: 25 };

async function askForRefresh(baseUrl: string, key: string) {
  const response = await fetch(`${baseUrl}${REGISTERS_REFRESH_PATH}`, {
    method: "POST",
    headers: { "X-API-Key": key, "Content-Type": "application/json" },
    body: JSON.stringify({ registrations }),
  });
  expect(response.status).toBe(202);
  return RegisterRefreshQueuedSchema.parse(await response.json());
}

/** Requests the stand-in answers with the vehicle, sent or still in its delay. */
const answered = (requests: readonly VesRequest[]) =>
  requests.filter((request) => request.status === 200);

/** The registrations of the vehicles the file holds. */
const storedRegistrations = (db: DatabaseSync) =>
  db
    .prepare("SELECT registration FROM vehicles")
    .all()
    .map((row) => String(row.registration));

/** What the file holds of the register's vehicles, as rows a test can compare. */
function storedVehicles(db: DatabaseSync) {
  return db
    .prepare(
      `SELECT v.registration, v.make, v.color, v.year, v.first_registered, v.tax_due, v.sorn,
              (SELECT group_concat(expires_on) FROM mot_tests m WHERE m.vehicle_id = v.id) AS mot
         FROM vehicles v ORDER BY v.registration`,
    )
    .all()
    .map((row) => ({ ...row }));
}

function expectedRow(registration: string) {
  const vehicle = standIn.vehicles.get(registration)!;
  return {
    registration,
    make: vehicle.make,
    color: vehicle.colour,
    year: vehicle.yearOfManufacture,
    first_registered: `${vehicle.monthOfFirstRegistration}-01`,
    tax_due: vehicle.taxDueDate,
    sorn: 0,
    mot: vehicle.motExpiryDate,
  };
}

/** Registrations that have a mark of each kind; and any mark whose vehicle is not held. */
function marks(db: DatabaseSync) {
  const byRegistration = new Map<string, string[]>();
  for (const row of db
    .prepare(
      "SELECT registration, kind FROM fetched_facts ORDER BY registration, kind",
    )
    .all())
    byRegistration.set(String(row.registration), [
      ...(byRegistration.get(String(row.registration)) ?? []),
      String(row.kind),
    ]);
  return byRegistration;
}

/** Every vehicle the file holds is whole: the stand-in's facts and all three marks, no more. */
function expectWhole(db: DatabaseSync): string[] {
  const rows = storedVehicles(db);
  const held = rows.map((row) => String(row.registration));
  expect(rows).toEqual(held.map(expectedRow));
  const marked = marks(db);
  // No vehicle without its freshness marks, no mark without its vehicle.
  expect([...marked.keys()]).toEqual(held);
  for (const registration of held)
    expect(marked.get(registration), registration).toEqual(KINDS);
  return held;
}

describe(
  "kill -9 in the middle of a refresh from DVLA's register",
  { timeout: 60_000 },
  () => {
    it("keeps every answer it had stored, whole; a restart asks only for the rest, and ends with all", async () => {
      const first = serviceOn();
      const baseUrl = await first.url;
      // Told not to seed: the CLI seeds the synthetic fleet into a file with no vehicles, and this
      // file must hold only what the register gave.
      const key = await createKeyWithCli(databasePath, "refresh-crash", {
        SEED_SYNTHETIC_FLEET: "false",
      });
      expect(await askForRefresh(baseUrl, key)).toEqual({
        on: true,
        queued: VEHICLES,
        fresh: 0,
        invalid: [],
      });

      // Half the vehicles asked for, and some of their answers stored: then kill. What a
      // connection of the test's own read in the file just before the kill was committed, so it
      // must all be there after it. Read, not timed: no margin of time is safe on a loaded
      // machine, and an answer read but not yet written may be lost, as any in flight.
      let mustBeStored: string[] = [];
      await vi.waitFor(() => {
        expect(
          answered(standIn.requests).length,
          "answers sent",
        ).toBeGreaterThanOrEqual(KILL_AFTER_REQUESTS);
        mustBeStored = readDatabase(databasePath, storedRegistrations);
        expect(mustBeStored.length, "answers stored").toBeGreaterThan(0);
      }, WAIT);
      first.child.kill("SIGKILL");
      expect(await first.exited).toEqual({ code: null, signal: "SIGKILL" });
      const firstRun = [...standIn.requests];
      expect(firstRun.length).toBeLessThanOrEqual(VEHICLES);

      // Opened here, not with readDatabase: the store's reads are async, the file stays open.
      const db = new DatabaseSync(databasePath);
      let stored: string[];
      try {
        expect(integrityCheck(db)).toBe("ok");
        const held = expectWhole(db);
        // Only vehicles the register was asked for and knew; and all read before the kill.
        const sent = new Set(answered(firstRun).map((r) => r.registration));
        expect(held.filter((registration) => !sent.has(registration))).toEqual(
          [],
        );
        expect(mustBeStored.filter((one) => !held.includes(one))).toEqual([]);
        // Stored as each arrives, not in batches: of the answers the register gave (or was
        // about to), only those in the workers' hands at the kill are missing.
        expect(
          answered(firstRun).filter(
            (request) => !held.includes(String(request.registration)),
          ).length,
        ).toBeLessThanOrEqual(IN_FLIGHT);
        // The store reads the marks as the service will: from DVLA, after the request came.
        const freshness = await sqliteFetchedStore(db).freshness(mustBeStored);
        for (const request of firstRun.filter((one) =>
          mustBeStored.includes(String(one.registration)),
        ))
          for (const kind of ["tax", "mot", "vehicle"] as const) {
            const mark = freshness.get(String(request.registration))?.[kind];
            expect(mark?.source, `${request.registration} ${kind}`).toBe(
              "dvla-ves",
            );
            expect(Date.parse(mark!.fetchedAt)).toBeGreaterThanOrEqual(
              request.at.getTime(),
            );
          }
        stored = held;
      } finally {
        db.close();
      }
      const missing = registrations.filter((one) => !stored.includes(one));
      // Killed in the middle: some were not stored, so the restart has work.
      expect(missing.length).toBeGreaterThan(0);

      // The restart, asked again, fetches exactly the vehicles not stored.
      const second = serviceOn();
      const secondUrl = await second.url;
      expect(await askForRefresh(secondUrl, key)).toEqual({
        on: true,
        queued: missing.length,
        fresh: stored.length,
        invalid: [],
      });
      // Every vehicle's three marks: all stored after the restart.
      await vi.waitFor(
        () =>
          expect(
            readDatabase(databasePath, (db) => rowCount(db, "fetched_facts")),
          ).toBe(VEHICLES * KINDS.length),
        WAIT,
      );
      second.child.kill("SIGTERM");
      expect((await second.exited).code).toBe(0);

      const secondRun = standIn.requests.slice(firstRun.length);
      expect(secondRun.map((request) => request.registration).sort()).toEqual(
        [...missing].sort(),
      );
      readDatabase(databasePath, (db) => {
        expect(integrityCheck(db)).toBe("ok");
        expect(expectWhole(db)).toEqual([...registrations].sort());
      });
    });
  },
);
