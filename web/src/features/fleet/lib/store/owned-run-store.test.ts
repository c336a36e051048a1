import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { beforeEach, describe, expect, it } from "vitest";
import { savedRun } from "../../testing/session.ts";
import { insured } from "../../testing/fleet-fixtures.ts";
import type { StoredDraft } from "../fleet-types.ts";
import { memoryRunStore } from "./memory-run-store.ts";
import { ownedRunStore } from "./owned-run-store.ts";
import { openRunStore, type RunStore } from "./run-store.ts";

const draft = (source: string): StoredDraft => ({
  table: { source, header: null, rows: [], columnCount: 1 },
  column: 0,
  rows: [],
  extraColumns: [],
  registrationColumn: null,
});

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});

describe.each([
  ["IndexedDB", () => openRunStore()],
  ["memory", async () => memoryRunStore()],
])(
  "each user's runs on a shared computer (%s)",
  (_, open: () => Promise<RunStore>) => {
    it("lists and opens only the runs a user made; another sees none of them", async () => {
      const store = await open();
      const ann = ownedRunStore(store, "ann");
      const bo = ownedRunStore(store, "bo");
      await ann.saveRun({ ...savedRun(["AB12CDE"]), id: "ann-run" });
      await ann.saveResults("ann-run", [insured("AB12CDE")]);
      await bo.saveRun({ ...savedRun(["UN51NSD"]), id: "bo-run" });

      expect(
        (await ann.listRuns()).map((run) => [run.id, run.ownerId]),
      ).toEqual([["ann-run", "ann"]]);
      expect((await bo.listRuns()).map((run) => run.id)).toEqual(["bo-run"]);
      expect(await bo.loadRun("ann-run")).toBeUndefined();
      expect((await ann.loadRun("ann-run"))?.results.size).toBe(1);
      store.close();
    });

    it("shows nobody the runs saved before sign-in existed", async () => {
      const store = await open();
      await store.saveRun({ ...savedRun(["AB12CDE"]), id: "old-run" });
      expect(await ownedRunStore(store, "ann").listRuns()).toEqual([]);
      expect(
        await ownedRunStore(store, "ann").loadRun("old-run"),
      ).toBeUndefined();
      store.close();
    });

    it("keeps each user's list being prepared apart", async () => {
      const store = await open();
      const ann = ownedRunStore(store, "ann");
      const bo = ownedRunStore(store, "bo");
      await ann.saveDraft(draft("ann.csv"));
      expect(await bo.loadDraft()).toBeUndefined();
      await bo.saveDraft(draft("bo.xlsx"));
      expect((await ann.loadDraft())?.table.source).toBe("ann.csv");
      await ann.clearDraft();
      expect(await ann.loadDraft()).toBeUndefined();
      expect((await bo.loadDraft())?.table.source).toBe("bo.xlsx");
      store.close();
    });
  },
);
