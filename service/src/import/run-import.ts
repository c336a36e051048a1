// One import run (docs/import.md): hash the file, skip it when this kind already has it,
// stream its rows into the store's staging, apply them in one transaction (or roll back: a
// dry run, a refusal), write the reject file, and say what happened.
import { createReadStream } from "node:fs";
import { fileDigest } from "@vics/server-kit/file-digest";
import { basename } from "node:path";
import type { DateFormat } from "@vics/shared/import/dates";
import type { ImportKind } from "@vics/shared/import/rows";
import {
  type ApplyResult,
  type ImportCounts,
  type ImportMode,
  type ImportRecord,
  type ImportStore,
  NO_COUNTS,
  type RejectLine,
  type StagedRow,
} from "../store/import-store.ts";
import type { Encoding } from "./decode.ts";
import { FileRefused } from "./file-refused.ts";
import { type FileFormat, readImportFile } from "./read-rows.ts";
import { writeRejectFile } from "./reject-file.ts";

export interface ImportOptions<K extends ImportKind> {
  kind: K;
  path: string;
  mode: ImportMode;
  maxDeletePct: number;
  force: boolean;
  dryRun: boolean;
  dates?: DateFormat;
  encoding?: Encoding;
  /** CSV (default) or JSON Lines. */
  format?: FileFormat;
  /** Where the reject file goes; written only when a row is refused. */
  rejectsPath: string;
  runBy: string;
  /** When the file's data was current at its source; default: when the import starts. */
  dataAsOf?: Date;
}

export type ImportReport =
  | (ApplyResult & { rejectsPath?: string; ignoredColumns: string[] })
  | { outcome: "already-imported"; importId: number; earlier: ImportRecord };

/** Rows go to the store in batches of this many: memory stays flat, whatever the file. */
const BATCH = 2_000;

export async function runImport<K extends ImportKind>(
  store: ImportStore,
  options: ImportOptions<K>,
  now: () => Date,
): Promise<ImportReport> {
  const startedAt = now();
  const file = {
    name: basename(options.path),
    ...(await fileDigest(options.path)),
  };
  const record = (
    outcome: ImportRecord["outcome"],
    message: string | null,
    counts: ImportCounts = NO_COUNTS,
    rejects: readonly RejectLine[] = [],
  ) =>
    store.recordImport(
      {
        kind: options.kind,
        mode: options.mode,
        file,
        runBy: options.runBy,
        dataAsOf: null,
        startedAt: startedAt.toISOString(),
        finishedAt: now().toISOString(),
        outcome,
        message,
        counts,
      },
      rejects,
    );
  const earlier = await store.appliedImport(options.kind, file.sha256);
  if (earlier) {
    const message = `The same file (SHA-256 ${file.sha256.slice(0, 12)}…) was imported on ${earlier.finishedAt} as import ${earlier.id}: nothing to do.`;
    const importId = options.dryRun
      ? earlier.id
      : await record("already-imported", message);
    return { outcome: "already-imported", importId, earlier };
  }

  const staging = await store.startImport(options.kind);
  try {
    const reading = readImportFile(createReadStream(options.path), options);
    let rows = 0;
    let batch: StagedRow<K>[] = [];
    let rejects: RejectLine[] = [];
    const flush = async () => {
      await staging.stage(batch);
      await staging.reject(rejects);
      batch = [];
      rejects = [];
    };
    try {
      for await (const item of reading.rows) {
        rows++;
        if (item.ok) batch.push({ line: item.line, row: item.row });
        else
          rejects.push(
            ...item.problems.map((problem) => ({
              line: item.line,
              ...problem,
            })),
          );
        if (batch.length + rejects.length >= BATCH) await flush();
      }
      await flush();
    } catch (error) {
      if (!(error instanceof FileRefused)) throw error;
      return await refuseFile(error, rows);
    }
    const facts = reading.facts();
    if (facts.sha256 !== file.sha256)
      return await refuseFile(
        new FileRefused(
          0,
          "The file changed while it was being read. Import it again once whatever writes it has finished.",
        ),
        rows,
      );
    const result = await staging.apply({
      mode: options.mode,
      maxDeletePct: options.maxDeletePct,
      force: options.force,
      dryRun: options.dryRun,
      file,
      runBy: options.runBy,
      startedAt,
      dataAsOf: (options.dataAsOf ?? startedAt).toISOString(),
      rows,
      now,
    });
    const rejectsPath =
      result.counts.rejected > 0
        ? (await writeRejectFile(options.rejectsPath, staging.rejects()),
          options.rejectsPath)
        : undefined;
    return { ...result, rejectsPath, ignoredColumns: facts.ignoredColumns };
  } finally {
    await staging.close();
  }

  async function refuseFile(
    error: FileRefused,
    rows: number,
  ): Promise<ImportReport> {
    const reject: RejectLine = {
      line: error.line,
      column: "",
      value: "",
      reason: `${error.message} The whole file was refused: nothing was imported.`,
    };
    const counts = { ...NO_COUNTS, rows, rejected: rows };
    await writeRejectFile(
      options.rejectsPath,
      (async function* () {
        yield reject;
      })(),
    );
    const importId = options.dryRun
      ? undefined
      : await record("refused", reject.reason, counts, [reject]);
    return {
      outcome: "refused",
      importId,
      counts,
      examples: { added: [], changed: [], removed: [], kept: [], keptCount: 0 },
      reason: reject.reason,
      rejectsPath: options.rejectsPath,
      ignoredColumns: [],
    };
  }
}
