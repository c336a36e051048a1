import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SavedRun, VehicleResult } from "../fleet-types.ts";
import {
  openRunStore,
  RunStoreUnavailableError,
  type RunStore,
} from "./run-store.ts";

function savedRun(
  id: string,
  createdAt: string,
  overrides: Partial<SavedRun> = {},
): SavedRun {
  return {
    id,
    name: `Fleet ${id}.csv`,
    createdAt,
    updatedAt: createdAt,
    status: "running",
    checkCompliance: false,
    registrationColumn: "Registration",
    extraColumns: ["Driver"],
    rows: [
      {
        line: 2,
        submitted: "AB12 CDE",
        extra: ["Ann"],
        registration: "AB12CDE",
      },
      {
        line: 3,
        submitted: "UN51NSD",
        extra: ["Bob"],
        registration: "UN51NSD",
      },
      {
        line: 4,
        submitted: "??",
        extra: ["Cy"],
        invalid: { reason: "Not a registration", suggestions: [] },
      },
    ],
    ...overrides,
  };
}

const insured = (registration: string): VehicleResult => ({
  registration,
  insurance: {
    status: "insured",
    policy: {
      number: "P1",
      insurer: "Acorn",
      type: "Comprehensive",
      validFrom: "2026-01-01",
      validTo: "2026-12-31",
    },
  },
  checkedAt: "2026-01-05T09:00:00.000Z",
});

const notChecked = (registration: string): VehicleResult => ({
  registration,
  insurance: {
    status: "not-checked",
    reason: "The vehicle service did not answer after 4 tries",
  },
  checkedAt: "2026-01-05T09:00:00.000Z",
});

/** "vics-fleet" as schema 2 left it: a record per result, keyed [runId, registration]. */
async function schemaTwoDatabase(
  run: SavedRun,
  results: VehicleResult[],
): Promise<void> {
  const done = (request: IDBRequest | IDBTransaction) =>
    new Promise<void>((resolve, reject) => {
      if (request instanceof IDBTransaction) {
        request.oncomplete = () => resolve();
        request.onerror = () => reject(request.error);
      } else {
        request.onsuccess = () => resolve();
        request.onerror = () => reject(request.error);
      }
    });
  const open = indexedDB.open("vics-fleet", 2);
  open.onupgradeneeded = () => {
    const db = open.result;
    db.createObjectStore("runs", { keyPath: "id" });
    db.createObjectStore("rows", { keyPath: "runId" });
    db.createObjectStore("results", { keyPath: ["runId", "registration"] });
    db.createObjectStore("drafts", { keyPath: "id" });
  };
  await done(open);
  const db = open.result;
  const tx = db.transaction(["runs", "rows", "results"], "readwrite");
  const { rows, ...summary } = run;
  tx.objectStore("runs").put({ ...summary, rowCount: rows.length });
  tx.objectStore("rows").put({ runId: run.id, rows });
  for (const result of results)
    tx.objectStore("results").put({ ...result, runId: run.id });
  await done(tx);
  db.close();
}

let store: RunStore;

beforeEach(async () => {
  // A fresh IndexedDB per test: nothing leaks between them.
  globalThis.indexedDB = new IDBFactory();
  store = await openRunStore();
});

afterEach(() => store.close());

describe("the saved runs", () => {
  it("opens on an empty database, creating its stores (upgrade from nothing)", async () => {
    await expect(store.listRuns()).resolves.toEqual([]);
    await expect(store.loadRun("nope")).resolves.toBeUndefined();
  });

  it("keeps a run and its results across a reopen, as after a reload", async () => {
    const run = savedRun("r1", "2026-01-05T09:00:00.000Z");
    await store.saveRun(run);
    await store.saveResults("r1", [insured("AB12CDE")]);
    store.close();

    store = await openRunStore();
    const loaded = await store.loadRun("r1");
    expect(loaded?.run).toEqual({ ...run, updatedAt: expect.any(String) });
    expect(loaded?.results).toEqual(new Map([["AB12CDE", insured("AB12CDE")]]));
  });

  it("adds batches, and a later result for the same registration replaces the earlier one", async () => {
    await store.saveRun(savedRun("r1", "2026-01-05T09:00:00.000Z"));
    await store.saveResults("r1", [notChecked("AB12CDE")]);
    await store.saveResults("r1", [notChecked("UN51NSD")]);
    await store.saveResults("r1", [insured("AB12CDE")]);

    const loaded = await store.loadRun("r1");
    expect(loaded?.results).toEqual(
      new Map([
        ["AB12CDE", insured("AB12CDE")],
        ["UN51NSD", notChecked("UN51NSD")],
      ]),
    );
    expect((await store.listRuns())[0]?.answered).toBe(2);
  });

  it("numbers batches on from those saved before a reload, so the newest result still wins", async () => {
    await store.saveRun(savedRun("r1", "2026-01-05T09:00:00.000Z"));
    await store.saveResults("r1", [notChecked("AB12CDE")]);
    store.close();

    store = await openRunStore();
    await store.saveResults("r1", [insured("AB12CDE")]);
    expect((await store.loadRun("r1"))?.results.get("AB12CDE")).toEqual(
      insured("AB12CDE"),
    );
    expect((await store.listRuns())[0]?.answered).toBe(1);
  });

  it("upgrades a database of schema 2 (a record per result), keeping every run's results", async () => {
    store.close();
    globalThis.indexedDB = new IDBFactory();
    const run = savedRun("r1", "2026-01-05T09:00:00.000Z");
    const answers = Array.from({ length: 1500 }, (_, index) =>
      insured(`AB${String(index).padStart(4, "0")}`),
    );
    await schemaTwoDatabase(run, answers);

    store = await openRunStore();
    const loaded = await store.loadRun("r1");
    expect(loaded?.run).toEqual(run);
    expect(loaded?.results).toEqual(
      new Map(answers.map((answer) => [answer.registration, answer])),
    );
    expect((await store.listRuns())[0]?.answered).toBe(1500);
    await store.saveResults("r1", [notChecked("AB0000")]);
    expect((await store.loadRun("r1"))?.results.get("AB0000")).toEqual(
      notChecked("AB0000"),
    );
  });

  it("refuses results for a run that is gone (deleted in another tab), writing none of them", async () => {
    await expect(
      store.saveResults("gone", [insured("AB12CDE")]),
    ).rejects.toThrow("No saved run gone");
    await store.saveRun(savedRun("gone", "2026-01-05T09:00:00.000Z"));
    expect((await store.loadRun("gone"))?.results.size).toBe(0);
  });

  it("lists runs newest first, with their counts and without their rows", async () => {
    await store.saveRun(savedRun("old", "2026-01-01T09:00:00.000Z"));
    await store.saveRun(
      savedRun("new", "2026-01-03T09:00:00.000Z", { checkCompliance: true }),
    );
    await store.saveRun(
      savedRun("mid", "2026-01-02T09:00:00.000Z", { status: "finished" }),
    );
    await store.saveResults("mid", [insured("AB12CDE"), insured("UN51NSD")]);

    const runs = await store.listRuns();
    expect(runs.map((run) => run.id)).toEqual(["new", "mid", "old"]);
    expect(runs[1]).toEqual({
      id: "mid",
      name: "Fleet mid.csv",
      createdAt: "2026-01-02T09:00:00.000Z",
      updatedAt: expect.any(String),
      status: "finished",
      rows: 3,
      answered: 2,
      checkCompliance: false,
    });
    expect(runs[0]).toMatchObject({ checkCompliance: true, answered: 0 });
  });

  it("updates a run's status and rows", async () => {
    const run = savedRun("r1", "2026-01-05T09:00:00.000Z");
    await store.saveRun(run);
    const rows = [
      ...run.rows,
      { line: 5, submitted: "LP08SED", extra: ["Di"], registration: "LP08SED" },
    ];
    await store.updateRun("r1", {
      status: "paused",
      updatedAt: "2026-01-05T10:00:00.000Z",
      rows,
    });

    const loaded = await store.loadRun("r1");
    expect(loaded?.run).toMatchObject({
      status: "paused",
      updatedAt: "2026-01-05T10:00:00.000Z",
      rows,
    });
    expect((await store.listRuns())[0]?.rows).toBe(4);
    await expect(store.updateRun("gone", { status: "paused" })).rejects.toThrow(
      "No saved run gone",
    );
  });

  it("deletes a run with its rows and results, and leaves the others alone", async () => {
    await store.saveRun(savedRun("r1", "2026-01-05T09:00:00.000Z"));
    await store.saveRun(savedRun("r2", "2026-01-05T09:00:00.000Z"));
    await store.saveResults("r1", [insured("AB12CDE")]);
    await store.saveResults("r2", [insured("AB12CDE")]);

    await store.deleteRun("r1");
    expect(await store.loadRun("r1")).toBeUndefined();
    // Saving the same id again starts with no results: the old ones went with the run.
    await store.saveRun(savedRun("r1", "2026-01-06T09:00:00.000Z"));
    expect((await store.loadRun("r1"))?.results.size).toBe(0);
    expect((await store.loadRun("r2"))?.results.size).toBe(1);
  });

  it("says in words when the browser offers no IndexedDB (some private windows)", async () => {
    const saved = globalThis.indexedDB;
    // @ts-expect-error: a browser without IndexedDB
    delete globalThis.indexedDB;
    try {
      const refusal = openRunStore("elsewhere");
      await expect(refusal).rejects.toBeInstanceOf(RunStoreUnavailableError);
      await expect(refusal).rejects.toThrow(
        /^Runs cannot be saved in this browser: /,
      );
    } finally {
      globalThis.indexedDB = saved;
    }
  });
});
