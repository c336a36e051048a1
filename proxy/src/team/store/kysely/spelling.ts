import type { Db, Flag } from "./database.ts";

/**
 * What the engines spell apart inside the queries they share: each engine's database.ts fills
 * it in, so no query here asks which engine it runs on.
 */
export interface Spelling {
  /** The later of two times: SQLite's two-argument max(), PostgreSQL's greatest(). */
  later: "max" | "greatest";
  /** Truth as the engine keeps it: 0 and 1 in SQLite, booleans in PostgreSQL. */
  flag(value: boolean): Flag;
  /** The named settings' table: `settings` in SQLite, `proxy_settings` in PostgreSQL. */
  settings: "settings" | "proxy_settings";
  /**
   * Whether users.email compares in any case by itself (SQLite's COLLATE NOCASE column);
   * otherwise both sides are lower()ed, as PostgreSQL's unique index on lower(email) is.
   */
  caselessEmail: boolean;
  /**
   * A JSON column's value as the engine returns it: SQLite's text is parsed, PostgreSQL's
   * jsonb comes parsed already (watch-rows' fromJson would parse a jsonb string a second time).
   */
  readJson(column: unknown): unknown;
}

/** An engine's Kysely and its spelling: what the shared queries are built on. */
export interface KyselyStore {
  db: Db;
  spelling: Spelling;
}
