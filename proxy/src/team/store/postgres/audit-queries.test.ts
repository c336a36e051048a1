import { describe } from "vitest";
import { openPgPool } from "@vics/server-kit/postgres";
import { countingPool } from "@vics/server-kit/testing/statement-counter";
import { sharedPostgres } from "@vics/server-kit/testing/postgres-server";
import { auditGroupCommitContract } from "../audit-store.contract.ts";
import { auditQueries } from "./audit-queries.ts";
import { postgresKysely, sqlOn } from "./database.ts";
import { openPostgresProxyStore } from "./postgres-proxy-store.ts";

const server = sharedPostgres();

let databases = 0;
describe("the PostgreSQL audit", () => {
  auditGroupCommitContract(async () => {
    const url = await server().createDatabase(`audit_${++databases}`);
    // Opening the store once migrates the database.
    await (
      await openPostgresProxyStore({
        url,
        auditRetentionDays: 30,
        applicationName: "vics-audit-test",
      })
    ).close();
    const pool = openPgPool({ url, applicationName: "vics-audit-test" });
    // The audit batches PostgreSQL has committed (each one statement, through the Sql).
    const counted = countingPool(pool, /INSERT INTO audit_events/);
    const audit = auditQueries(
      sqlOn(counted.database),
      postgresKysely(pool).db,
      30,
    );
    return {
      audit,
      commits: counted.count,
      async close() {
        await audit.drain();
        await pool.end();
      },
    };
  });
});
