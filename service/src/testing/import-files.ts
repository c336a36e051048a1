// An operator's import files as the service's tests write them (docs/import.md): the column
// lines, a row of each, and an importer that writes a file and runs it on a store with a clock
// of its own. Used by the import contract, the routes' and the store's tests alike.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import type { ImportKind } from "@vics/shared/import/rows";
import type { ImportStore } from "../store/import-store.ts";
import type { Store } from "../store/store.ts";
import {
  type ImportOptions,
  type ImportReport,
  runImport,
} from "../import/run-import.ts";

export interface ImportHarness {
  imports: ImportStore;
  store: Store;
  /** Rows in a table of the engine's own (vehicles, vehicle_history, imports...). */
  count(table: string): Promise<number>;
  meta(key: string): Promise<string | undefined>;
  close(): Promise<void>;
}

export const VEHICLES = "registration,make,model,year,colour,first_registered";
export const POLICIES =
  "registration,policy_number,insurer,cover_type,valid_from,valid_to";

export const vehicle = (registration: string, colour = "Blue") =>
  `${registration},Ford,Focus,2019,${colour},2019-03-01`;
export const policy = (
  registration: string,
  number: string,
  validTo = "2027-01-31",
  validFrom = "2026-02-01",
) =>
  `${registration},${number},Northwind,Comprehensive,${validFrom},${validTo}`;

/** Imports `lines` as a file, on `harness`, with a clock that moves a second per reading. */
export function importer(
  harness: () => Pick<ImportHarness, "imports">,
  start: string,
) {
  let dir = "";
  let clock = 0;
  let files = 0;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "vics-import-"));
    clock = Date.parse(start);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  return {
    /** The clock's instant now, as the store keeps instants. */
    instant: () => new Date(clock).toISOString(),
    /** Moves the clock to `instant`: the next import runs just after it. */
    at(instant: string) {
      clock = Date.parse(instant);
    },
    /** `lines` joined by \n, or the file's bytes as they are. */
    async run<K extends ImportKind>(
      kind: K,
      lines: string[] | Uint8Array,
      options: Partial<ImportOptions<K>> = {},
    ): Promise<ImportReport> {
      const extension = options.format === "jsonl" ? "jsonl" : "csv";
      const path = join(dir, `${kind}-${++files}.${extension}`);
      writeFileSync(
        path,
        lines instanceof Uint8Array ? lines : lines.join("\n") + "\n",
      );
      return runImport(
        harness().imports,
        {
          kind,
          path,
          mode: "upsert",
          maxDeletePct: 10,
          force: false,
          dryRun: false,
          rejectsPath: `${path}.rejects.csv`,
          runBy: "ops",
          ...options,
        },
        () => new Date((clock += 1000)),
      );
    },
  };
}

export const rejectFile = (report: ImportReport) =>
  readFileSync(
    "rejectsPath" in report ? (report.rejectsPath ?? "") : "",
    "utf8",
  );
