import {
  PostgresDialect,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from "kysely";
import type { PgPool } from "@vics/server-kit/postgres";
import { reachingPostgres } from "@vics/server-kit/postgres-errors";

/**
 * Kysely's PostgresDialect on the store's pool, where PostgreSQL down, at connect or mid-query,
 * rejects with DependencyUnavailableError as every other statement of the store does. Kysely's
 * destroy() would end the pool: the store ends it itself, after the audit drain.
 */
export class ReachingPostgresDialect extends PostgresDialect {
  constructor(pool: PgPool) {
    super({ pool });
  }
  override createDriver(): Driver {
    return new ReachingDriver(super.createDriver());
  }
}

class ReachingConnection implements DatabaseConnection {
  readonly inner: DatabaseConnection;
  constructor(inner: DatabaseConnection) {
    this.inner = inner;
  }
  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return reachingPostgres(() => this.inner.executeQuery<R>(query));
  }
  streamQuery<R>(query: CompiledQuery, chunkSize: number) {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

const innerOf = (connection: DatabaseConnection) =>
  (connection as ReachingConnection).inner;

class ReachingDriver implements Driver {
  readonly #inner: Driver;
  constructor(inner: Driver) {
    this.#inner = inner;
  }
  init() {
    return this.#inner.init();
  }
  async acquireConnection() {
    return new ReachingConnection(
      await reachingPostgres(() => this.#inner.acquireConnection()),
    );
  }
  releaseConnection(connection: DatabaseConnection) {
    return this.#inner.releaseConnection(innerOf(connection));
  }
  // Nothing in the store opens a Kysely transaction (its writes use the pool's clients): these
  // only pass the call on.
  beginTransaction(
    connection: DatabaseConnection,
    settings: TransactionSettings,
  ) {
    return this.#inner.beginTransaction(innerOf(connection), settings);
  }
  commitTransaction(connection: DatabaseConnection) {
    return this.#inner.commitTransaction(innerOf(connection));
  }
  rollbackTransaction(connection: DatabaseConnection) {
    return this.#inner.rollbackTransaction(innerOf(connection));
  }
  async destroy() {}
}
