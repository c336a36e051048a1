// How a staged import is applied, whatever the engine (docs/decisions/040-imports.md): in ONE
// write transaction, refuse what the file cannot hold, classify each row, refuse a snapshot
// that would remove too much (recording only the refusal), then keep the touched vehicles'
// versions, write the changes and record the import, and commit; or roll it all back for a
// dry run. Each engine says how in its own SQL (sqlite/import-writer.ts, postgres/...).
import {
  type ApplyResult,
  type ImportCounts,
  type ImportExamples,
  type ImportPlan,
  type NewImportRecord,
} from "./import-store.ts";
import type { ImportKind } from "@vics/shared/import/rows";

export interface ImportEngine {
  /** Opens the write transaction; imports into one database run one at a time. */
  begin(): Promise<void>;
  /** A savepoint: what comes before it (the rejects) outlives a dry run or a refusal. */
  mark(): Promise<void>;
  /** Undoes everything since mark(), keeping the transaction open. */
  undoToMark(): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  /** Moves to the rejects every line of a repeated key, then rows the store cannot take. */
  rejectUnfit(): Promise<void>;
  /**
   * Classifies each staged row; for a snapshot, finds the records the file leaves out. A tax or
   * MOT row or removal that would overrule a live register's newer fact is kept out (issue 35).
   */
  plan(plan: ImportPlan): Promise<void>;
  counts(rows: number): Promise<ImportCounts>;
  examples(): Promise<ImportExamples>;
  /** How many records of the kind there are, for a snapshot's share removed. */
  total(): Promise<number>;
  insertImport(record: NewImportRecord): Promise<number>;
  /**
   * Keeps each touched vehicle's version, writes the changes and notes the data's freshness;
   * a register's mark on a fact the file changed goes, the file's being newer.
   */
  write(importId: number, plan: ImportPlan): Promise<void>;
  /** Copies the file's rejects (the first REJECTS_KEPT) to the import, for the data page. */
  keepRejects(importId: number): Promise<void>;
}

function removalRefusal(
  counts: ImportCounts,
  total: number,
  plan: ImportPlan,
  noun: string,
): string | undefined {
  if (plan.mode !== "snapshot" || plan.force || counts.removed === 0)
    return undefined;
  const share = (counts.removed / total) * 100;
  if (share <= plan.maxDeletePct) return undefined;
  return `This snapshot would remove ${counts.removed.toLocaleString("en-GB")} of ${total.toLocaleString("en-GB")} ${noun} records (${share.toFixed(1)}%), more than --max-delete-pct ${plan.maxDeletePct}. Nothing was changed. If the file really is the whole truth, run it again with --force.`;
}

/**
 * The rejects (repeated keys, rows the store cannot take) are found first, in the staging's
 * own tables; everything after the savepoint is undone for a dry run or a refusal, so the
 * reject file and the data page still list every refused line.
 */
export async function applyImport(
  engine: ImportEngine,
  kind: ImportKind,
  noun: string,
  plan: ImportPlan,
): Promise<ApplyResult> {
  const record = (
    outcome: "applied" | "refused",
    message: string | null,
    counts: ImportCounts,
  ) =>
    engine.insertImport({
      kind,
      mode: plan.mode,
      file: plan.file,
      runBy: plan.runBy,
      dataAsOf: outcome === "applied" ? plan.dataAsOf : null,
      startedAt: plan.startedAt.toISOString(),
      finishedAt: plan.now().toISOString(),
      outcome,
      message,
      counts,
    });
  await engine.begin();
  try {
    await engine.rejectUnfit();
    await engine.mark();
    await engine.plan(plan);
    const counts = await engine.counts(plan.rows);
    const examples = await engine.examples();
    const refusal = removalRefusal(counts, await engine.total(), plan, noun);
    if (refusal) {
      // The refusal is recorded, with the rejects; nothing else of the import is kept.
      await engine.undoToMark();
      let importId: number | undefined;
      if (!plan.dryRun) {
        importId = await record("refused", refusal, counts);
        await engine.keepRejects(importId);
      }
      await engine.commit();
      return {
        outcome: "refused",
        importId,
        counts,
        examples,
        reason: refusal,
      };
    }
    const importId = await record("applied", null, counts);
    await engine.write(importId, plan);
    await engine.keepRejects(importId);
    if (plan.dryRun) {
      await engine.undoToMark();
      await engine.commit();
      return { outcome: "dry-run", counts, examples };
    }
    await engine.commit();
    return { outcome: "applied", importId, counts, examples };
  } catch (error) {
    await engine.rollback().catch(() => {});
    throw error;
  }
}
