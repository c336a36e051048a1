import type { AuditStore } from "../proxy-store.ts";
import { auditDb } from "../kysely/audit-tables.ts";
import { searchAudit } from "../kysely/audit-search.ts";
import { groupCommit, type BatchObserver } from "../audit-group-commit.ts";
import { writeAuditBatch } from "./audit-batch.ts";
import type { Db } from "../kysely/database.ts";
import { POSTGRES, type Sql } from "./database.ts";

const DAY_MS = 86_400_000;

/** Events in one statement at most: a bound on its size when a backlog has built up. */
const MAX_BATCH = 500;

export interface PostgresAuditStore extends AuditStore {
  /** Resolves once every event appended so far is written (or refused): before closing. */
  drain(): Promise<void>;
}

/**
 * The audit in PostgreSQL: the search is the shared one, read partition by partition;
 * the append (one statement a batch) and the pruning (prune_audit, run as the owner) are
 * PostgreSQL's own: it works on the store's `Sql` (its batch and pruning) and its Kysely (its
 * search).
 */
export function auditQueries(
  sql: Sql,
  db: Db,
  retentionDays: number,
  /** Told of each batch written or failed (the metrics). */
  observer?: BatchObserver,
): PostgresAuditStore {
  const commits = groupCommit(writeAuditBatch(sql), MAX_BATCH, observer);
  return {
    appendAudit: commits.append,
    searchAudit: searchAudit(auditDb(db), "by-month", POSTGRES.readJson),
    async pruneAudit(now) {
      // prune_audit runs as the owner, and keeps what the database's own retention keeps.
      const { rows } = await sql<{ removed: number }>(
        "SELECT prune_audit($1) AS removed",
        [now - retentionDays * DAY_MS],
      );
      return rows[0]!.removed;
    },
    drain: commits.drain,
  };
}
