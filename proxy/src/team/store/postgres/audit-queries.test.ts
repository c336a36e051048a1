import type { QueryResultRow } from "pg";
import { afterAll, beforeAll, describe } from "vitest";
import { openPgPool } from "@vics/server-kit/postgres";
import {
  startPostgres,
  type PostgresServer,
} from "@vics/server-kit/testing/postgres-server";
import { auditGroupCommitContract } from "../audit-store.contract.ts";
import { auditQueries } from "./audit-queries.ts";
import { postgresKysely, sqlOn, type Sql } from "./database.ts";
import { openPostgresProxyStore } from "./postgres-proxy-store.ts";

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(() => server?.close(), 60_000);

/** The store's Sql, counting the audit batches PostgreSQL has committed (each one statement). */
function countingCommits(sql: Sql) {
  let commits = 0;
  const counted: Sql = async <Row extends QueryResultRow>(
    text: string,
    values?: unknown[],
  ) => {
    const result = await sql<Row>(text, values);
    if (text.includes("INSERT INTO audit_events")) commits++;
    return result;
  };
  return { sql: counted, commits: () => commits };
}

let databases = 0;
describe("the PostgreSQL audit", () => {
  auditGroupCommitContract(async () => {
    const url = await server.createDatabase(`audit_${++databases}`);
    // Opening the store once migrates the database.
    await (
      await openPostgresProxyStore({
        url,
        auditRetentionDays: 30,
        applicationName: "vics-audit-test",
      })
    ).close();
    const pool = openPgPool({ url, applicationName: "vics-audit-test" });
    const { sql, commits } = countingCommits(sqlOn(pool));
    const audit = auditQueries(sql, postgresKysely(pool).db, 30);
    return {
      audit,
      commits,
      async close() {
        await audit.drain();
        await pool.end();
      },
    };
  });
});
