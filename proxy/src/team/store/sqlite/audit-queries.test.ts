import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { countingSqlite } from "@vics/server-kit/testing/statement-counter";
import { describe } from "vitest";
import { auditGroupCommitContract } from "../audit-store.contract.ts";
import { auditQueries } from "./audit-queries.ts";
import { openDatabase } from "./database.ts";
import { migrate } from "./schema.ts";

describe("the SQLite audit", () => {
  auditGroupCommitContract(async () => {
    const folder = mkdtempSync(join(tmpdir(), "vics-audit-"));
    // A file opened as the store opens it (WAL, synchronous FULL): a commit is a sync.
    const file = openDatabase(join(folder, "proxy.db"));
    migrate(file);
    // The COMMITs it has run (inTransaction's, once they return).
    const counted = countingSqlite(file, /^COMMIT$/);
    return {
      audit: auditQueries(counted.database, 30),
      commits: counted.count,
      async close() {
        file.close();
        rmSync(folder, { recursive: true, force: true });
      },
    };
  });
});
