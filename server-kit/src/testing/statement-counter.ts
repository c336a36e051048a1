// `@vics/server-kit/testing/statement-counter`: a seam for tests that count what a store asks
// its database (the service's held data info, the proxy's audit group commit): the database or
// pool, wrapped, counting the runs of statements whose SQL matches a pattern. Everything else
// passes through. Test support.
import type { DatabaseSync } from "node:sqlite";
import type { PgPool } from "../postgres.ts";

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

/**
 * `db`, counting the runs of statements it prepares whose SQL matches `pattern`, and its
 * `exec` calls that match once they return (a COMMIT counts when it has committed).
 */
export function countingSqlite(
  db: DatabaseSync,
  pattern: RegExp,
): Counted<DatabaseSync> {
  let runs = 0;
  const counting =
    (call: (...args: unknown[]) => unknown) =>
    (...args: unknown[]) => {
      runs++;
      return call(...args);
    };
  const database = passing(db, (name, method) => {
    if (name === "exec")
      return (sql: string) => {
        method(sql);
        if (pattern.test(sql)) runs++;
      };
    if (name !== "prepare") return method;
    return (sql: string, ...rest: unknown[]) => {
      const statement = method(sql, ...rest) as object;
      if (!pattern.test(sql)) return statement;
      return passing(statement, (run, call) =>
        RUNS.has(run) ? counting(call) : call,
      );
    };
  });
  return { database, count: () => runs };
}

/** `pool`, counting its query() calls whose text matches `pattern`, once they have answered. */
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
          const answer = method(query, ...rest);
          if (!pattern.test(text)) return answer;
          return (answer as Promise<unknown>).then((result) => {
            runs++;
            return result;
          });
        },
  );
  return { database, count: () => runs };
}
