import {
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from "kysely";
import type { Database, Db } from "../kysely/database.ts";
import type { Sql } from "./database.ts";

/**
 * Kysely over the store's `Sql` (postgres/database.ts): each query one statement on the pool,
 * PostgreSQL down a DependencyUnavailableError, as for every other statement of the store.
 * The audit is given `Sql`, not the pool, so its Kysely is built on that.
 */
export function kyselyOnSql(sql: Sql): Db {
  return new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new SqlDriver(sql),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
}

class SqlConnection implements DatabaseConnection {
  readonly #sql: Sql;
  constructor(sql: Sql) {
    this.#sql = sql;
  }
  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const { rows, rowCount } = await this.#sql(query.sql, [
      ...query.parameters,
    ]);
    return {
      rows: rows as R[],
      ...(rowCount !== null && { numAffectedRows: BigInt(rowCount) }),
    };
  }
  // eslint-disable-next-line require-yield -- the audit reads whole pages; nothing streams.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("The audit's Kysely does not stream query results");
  }
}

const NO_TRANSACTION =
  "PostgreSQL audit: each statement runs on its own; the batch is one statement";

class SqlDriver implements Driver {
  readonly #connection: SqlConnection;
  constructor(sql: Sql) {
    this.#connection = new SqlConnection(sql);
  }
  async init() {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return this.#connection;
  }
  async releaseConnection() {}
  // Each statement may run on another of the pool's connections: a transaction cannot span two.
  async beginTransaction(): Promise<void> {
    throw new Error(NO_TRANSACTION);
  }
  async commitTransaction(): Promise<void> {
    throw new Error(NO_TRANSACTION);
  }
  async rollbackTransaction(): Promise<void> {
    throw new Error(NO_TRANSACTION);
  }
  async destroy() {}
}
