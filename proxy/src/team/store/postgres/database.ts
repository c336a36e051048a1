import { Kysely } from "kysely";
import type { QueryResult, QueryResultRow } from "pg";
import type { PgPool } from "@vics/server-kit/postgres";
import { reachingPostgres } from "@vics/server-kit/postgres-errors";
import type { Database } from "../kysely/database.ts";
import {
  ReachingPostgresDialect,
  statement,
} from "../kysely/reaching-postgres-dialect.ts";
import type { KyselyStore, Spelling } from "../kysely/spelling.ts";

/**
 * One statement on the pool, prepared once per connection when its text is marked so
 * (precompiled.ts); PostgreSQL being down rejects with DependencyUnavailableError.
 */
export type Sql = <Row extends QueryResultRow = QueryResultRow>(
  text: string,
  values?: unknown[],
) => Promise<QueryResult<Row>>;

export const sqlOn =
  (pool: PgPool): Sql =>
  (text, values) =>
    reachingPostgres(() => pool.query(statement(text, values)));

export const POSTGRES: Spelling = {
  later: "greatest",
  flag: (value) => value,
  settings: "proxy_settings",
  caselessEmail: false,
  readJson: (value) => value,
};

/** Kysely on the store's pool, with PostgreSQL's spelling for the shared queries. */
export const postgresKysely = (pool: PgPool): KyselyStore => ({
  db: new Kysely<Database>({ dialect: new ReachingPostgresDialect(pool) }),
  spelling: POSTGRES,
});
