import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { describe } from "vitest";
import { auditGroupCommitContract } from "../audit-store.contract.ts";
import { auditQueries } from "./audit-queries.ts";
import { openDatabase } from "./database.ts";
import { migrate } from "./schema.ts";

/** The file's handle, counting the COMMITs it has run (inTransaction's, once they return). */
function countingCommits(db: DatabaseSync) {
  let commits = 0;
  const counted = new Proxy(db, {
    get(target, name) {
      if (name === "exec")
        return (sql: string) => {
          target.exec(sql);
          if (sql === "COMMIT") commits++;
        };
      const value: unknown = Reflect.get(target, name);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db: counted, commits: () => commits };
}

describe("the SQLite audit", () => {
  auditGroupCommitContract(async () => {
    const folder = mkdtempSync(join(tmpdir(), "vics-audit-"));
    // A file opened as the store opens it (WAL, synchronous FULL): a commit is a sync.
    const file = openDatabase(join(folder, "proxy.db"));
    migrate(file);
    const { db, commits } = countingCommits(file);
    return {
      audit: auditQueries(db, 30),
      commits,
      async close() {
        file.close();
        rmSync(folder, { recursive: true, force: true });
      },
    };
  });
});
