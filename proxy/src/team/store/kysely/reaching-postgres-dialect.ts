import {
  PostgresDialect,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from "kysely";
import { createHash } from "node:crypto";
import type { PoolClient } from "pg";
import type { PgPool } from "@vics/server-kit/postgres";
import { reachingPostgres } from "@vics/server-kit/postgres-errors";
import { isPrepared } from "./precompiled.ts";

/**
 * Kysely's PostgresDialect on the store's pool, where PostgreSQL down, at connect or mid-query,
 * rejects with DependencyUnavailableError as every other statement of the store does. Kysely's
 * destroy() would end the pool: the store ends it itself, after the audit drain.
 */
export class ReachingPostgresDialect extends PostgresDialect {
  constructor(pool: PgPool) {
    super({ pool: preparing(pool) });
  }
  override createDriver(): Driver {
    return new ReachingDriver(super.createDriver());
  }
}

/**
 * A statement as node-postgres is to send it: named after its text (the same name on every
 * connection and replica) when its text is marked prepared, unnamed otherwise.
 */
export const statement = (text: string, values?: unknown[]) =>
  isPrepared(text)
    ? {
        name: `vics_${createHash("sha256").update(text).digest("hex").slice(0, 20)}`,
        text,
        values,
      }
    : { text, values };

/**
 * The pool as Kysely sees it, where a text marked prepared (precompiled.ts: the session read on
 * every signed-in request, its touch, the audit search's shapes) runs as a named prepared
 * statement: each connection parses and plans it once, not each time (most of PostgreSQL's CPU
 * for such a read, and of a search over every partition). Only fixed texts are marked, so a
 * connection holds a bounded number of them.
 */
function preparing(pool: PgPool) {
  const clients = new WeakMap<PoolClient, PoolClient>();
  const prepare = (client: PoolClient): PoolClient => {
    const known = clients.get(client);
    if (known) return known;
    const wrapped = new Proxy(client, {
      get(target, key) {
        if (key !== "query") return Reflect.get(target, key, target);
        // A cursor (Kysely's streaming) is not text: it goes as it is.
        return (text: unknown, values?: unknown[]) =>
          typeof text === "string"
            ? target.query(statement(text, values))
            : target.query(text as string, values);
      },
    });
    clients.set(client, wrapped);
    return wrapped;
  };
  return new Proxy(pool, {
    get(target, key) {
      if (key !== "connect") return Reflect.get(target, key, target);
      return async () => prepare(await target.connect());
    },
  });
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
