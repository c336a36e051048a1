import type { DatabaseSync } from "node:sqlite";
import { Kysely } from "kysely";
import type { PgPool } from "@vics/shared/server/postgres";
import type { LinkPurpose, Role } from "../proxy-store.ts";
import { NodeSqliteDialect } from "./node-sqlite-dialect.ts";
import { ReachingPostgresDialect } from "./reaching-postgres-dialect.ts";

/**
 * A point in time the two engines keep differently: SQLite as ISO 8601 text, PostgreSQL as
 * timestamptz (a Date from pg). Written as ISO text to both.
 */
export type Instant = string | Date;

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  role: Role;
  password_hash: string | null;
  oidc_issuer: string | null;
  oidc_subject: string | null;
  disabled_at: Instant | null;
  created_at: Instant;
  signed_in_at: Instant | null;
  /** Epoch milliseconds. */
  oidc_link_allowed_until: number | null;
}

/** Times in epoch milliseconds (INTEGER in SQLite, bigint in PostgreSQL, read as numbers). */
export interface SessionsTable {
  id_hash: string;
  user_id: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  id_token: string | null;
}

export interface OneTimeLinksTable {
  token_hash: string;
  purpose: LinkPurpose;
  user_id: string;
  expires_at: number;
  used_at: number | null;
}

/** The team's tables as both engines' migrations make them: the one declaration of their types. */
export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  one_time_links: OneTimeLinksTable;
}

export type Db = Kysely<Database>;

/** Which engine a store module runs on, for the few statements each spells its own way. */
export type Engine = "sqlite" | "postgres";

export const sqliteKysely = (db: DatabaseSync): Db =>
  new Kysely<Database>({ dialect: new NodeSqliteDialect(db) });

export const postgresKysely = (pool: PgPool): Db =>
  new Kysely<Database>({ dialect: new ReachingPostgresDialect(pool) });
