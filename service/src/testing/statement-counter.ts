// A seam for tests that count what a store asks its database: the database or pool, wrapped,
// counting the runs of statements whose SQL matches a pattern. Everything else passes through.
import type { DatabaseSync } from "node:sqlite";
import type { PgPool } from "@vics/server-kit/postgres";

export interface Counted<Database> {
  database: Database;
  /** Runs of matching statements so far. */
  count(): number;
}

const RUNS = new Set<PropertyKey>(["all", "get", "run", "iterate"]);

/** Calls on `target`, its methods bound to it, `wrap` deciding for each method. */
function passing<T extends object>(
  target: T,
  wrap: (name: PropertyKey, method: (...args: unknown[]) => unknown) => unknown,
): T {
  return new Proxy(target, {
    get(object, name) {
      const value: unknown = Reflect.get(object, name, object);
      return typeof value === "function"
        ? wrap(name, (...args) => Reflect.apply(value, object, args))
        : value;
    },
  });
}

/** `db`, counting the runs of statements it prepares whose SQL matches `pattern`. */
export function countingSqlite(
  db: DatabaseSync,
  pattern: RegExp,
): Counted<DatabaseSync> {
  let runs = 0;
  const database = passing(db, (name, method) =>
    name !== "prepare"
      ? method
      : (sql: string, ...rest: unknown[]) => {
          const statement = method(sql, ...rest) as object;
          if (!pattern.test(sql)) return statement;
          return passing(statement, (run, call) =>
            RUNS.has(run)
              ? (...args: unknown[]) => {
                  runs++;
                  return call(...args);
                }
              : call,
          );
        },
  );
  return { database, count: () => runs };
}

/** `pool`, counting its query() calls whose text matches `pattern`. */
export function countingPool(pool: PgPool, pattern: RegExp): Counted<PgPool> {
  let runs = 0;
  const database = passing(pool, (name, method) =>
    name !== "query"
      ? method
      : (query: unknown, ...rest: unknown[]) => {
          const text =
            typeof query === "string"
              ? query
              : String((query as { text?: unknown }).text);
          if (pattern.test(text)) runs++;
          return method(query, ...rest);
        },
  );
  return { database, count: () => runs };
}
