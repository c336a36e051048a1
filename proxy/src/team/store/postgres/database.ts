import type { QueryResult, QueryResultRow } from "pg";
import type { PgPool } from "@vics/shared/server/postgres";
import { reachingPostgres } from "@vics/shared/server/postgres-errors";

/** One statement on the pool; PostgreSQL being down rejects with DependencyUnavailableError. */
export type Sql = <Row extends QueryResultRow = QueryResultRow>(
  text: string,
  values?: unknown[],
) => Promise<QueryResult<Row>>;

export const sqlOn =
  (pool: PgPool): Sql =>
  (text, values) =>
    reachingPostgres(() => pool.query(text, values));
