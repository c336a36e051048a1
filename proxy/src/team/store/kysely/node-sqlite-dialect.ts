import type { DatabaseSync, StatementSync } from "node:sqlite";
import {
  SqliteAdapter,
  type CompiledQuery,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from "kysely";

/**
 * Kysely over Node's own `node:sqlite` (DatabaseSync). Kysely's SqliteDialect is written for
 * better-sqlite3, whose statements take an array and say whether they read; node:sqlite's take
 * spread values and say so through columns(). The connection stays open after Kysely's
 * destroy(): the store that opened the file closes it.
 */
export class NodeSqliteDialect implements Dialect {
  readonly #db: DatabaseSync;
  constructor(db: DatabaseSync) {
    this.#db = db;
  }
  createDriver(): Driver {
    return new NodeSqliteDriver(this.#db);
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
  createAdapter() {
    return new SqliteAdapter();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new SqliteIntrospector(db);
  }
}

class NodeSqliteDriver implements Driver {
  readonly #connection: NodeSqliteConnection;

  constructor(db: DatabaseSync) {
    this.#connection = new NodeSqliteConnection(db);
  }
  async init() {}
  // One DatabaseSync, one connection: with no transactions every query runs whole at once.
  async acquireConnection(): Promise<DatabaseConnection> {
    return this.#connection;
  }
  async releaseConnection() {}
  // The store writes its transactions with inTransaction on the same DatabaseSync. A Kysely
  // transaction beside it would share that connection: a raw write made while it awaits would
  // be rolled back with it. So there is one way in, and this one is refused.
  async beginTransaction(): Promise<void> {
    throw new Error(REFUSED);
  }
  async commitTransaction(): Promise<void> {
    throw new Error(REFUSED);
  }
  async rollbackTransaction(): Promise<void> {
    throw new Error(REFUSED);
  }
  async destroy() {}
}

const REFUSED = "SQLite: use inTransaction, decision 063";

const MAX_STATEMENTS = 200;

type Value = null | number | bigint | string | NodeJS.ArrayBufferView;

/**
 * Runs compiled queries on the file at once, synchronously: Kysely's connection here, and the
 * store's own statements inside inTransaction (which cannot await). Kysely compiles the same
 * text for the same query shape, so each text is prepared once; whether it reads is known from
 * its columns().
 */
export function sqliteRunner(
  db: DatabaseSync,
): <R>(query: CompiledQuery) => QueryResult<R> {
  const statements = new Map<
    string,
    { statement: StatementSync; reads: boolean }
  >();
  const prepared = (sql: string) => {
    let entry = statements.get(sql);
    if (!entry) {
      const statement = db.prepare(sql);
      entry = { statement, reads: statement.columns().length > 0 };
      // A list of values (`IN (?, ?, ...)`) makes a text per length: the oldest goes first.
      if (statements.size >= MAX_STATEMENTS)
        statements.delete(statements.keys().next().value!);
      statements.set(sql, entry);
    }
    return entry;
  };
  return <R>(query: CompiledQuery) => {
    const { statement, reads } = prepared(query.sql);
    const values = query.parameters as readonly Value[];
    if (reads) return { rows: statement.all(...values) as R[] };
    const { changes, lastInsertRowid } = statement.run(...values);
    return {
      rows: [],
      numAffectedRows: BigInt(changes),
      insertId: BigInt(lastInsertRowid),
    };
  };
}

class NodeSqliteConnection implements DatabaseConnection {
  readonly #run: ReturnType<typeof sqliteRunner>;

  constructor(db: DatabaseSync) {
    this.#run = sqliteRunner(db);
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.#run<R>(query);
  }

  // eslint-disable-next-line require-yield -- the store reads whole answers; nothing streams.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("The SQLite store does not stream query results");
  }
}
