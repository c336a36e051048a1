import type { QueryResult, QueryResultRow } from "pg";
import type { PgPool } from "@vics/shared/server/postgres";
import { storeError } from "@vics/shared/server/postgres-errors";

/** One statement on the pool; PostgreSQL being down rejects with DependencyUnavailableError. */
export type Sql = <Row extends QueryResultRow = QueryResultRow>(
  text: string,
  values?: unknown[],
) => Promise<QueryResult<Row>>;

export function sqlOn(pool: PgPool): Sql {
  return async (text, values) => {
    try {
      return await pool.query(text, values);
    } catch (error) {
      throw storeError(error);
    }
  };
}
