/**
 * `@vics/server-kit/postgres-errors`: which errors from pg mean PostgreSQL is not there, for
 * both apps' PostgreSQL stores. Apart from postgres.ts so that importing it never loads pg.
 */
import { DependencyUnavailableError } from "./dependency-unavailable.ts";

/** Node's socket errors: the server is not there, or went away mid-query. */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** SQLSTATE admin_shutdown, crash_shutdown, cannot_connect_now (starting or stopping). */
const SERVER_GOING = new Set(["57P01", "57P02", "57P03"]);

/** pg says these in words, with no code, when a connection dies or never comes. */
const PG_WORDS =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended|Connection is closed/i;

/**
 * Whether `error` says PostgreSQL cannot be reached or dropped the connection (a 503 that
 * clears once the server is back), as opposed to a fault of the statement (a bug, or a refusal
 * such as the audit log's triggers).
 */
export function isPostgresUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // A host name with several addresses fails with one error per address.
  if (error instanceof AggregateError)
    return error.errors.some((inner) => isPostgresUnreachable(inner));
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") {
    if (SOCKET_CODES.has(code) || SERVER_GOING.has(code)) return true;
    // Class 08: connection exception.
    if (/^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  return PG_WORDS.test(error.message);
}

/** What a store throws: the database's DependencyUnavailableError when unreachable, else `error`. */
export function storeError(error: unknown): unknown {
  if (error instanceof DependencyUnavailableError) return error;
  return isPostgresUnreachable(error)
    ? new DependencyUnavailableError("database", error)
    : error;
}

/**
 * Runs one piece of store work, throwing storeError's answer. The pool drops a dead connection
 * and opens a new one for the next call, so the store recovers by itself once PostgreSQL is back.
 */
export async function reachingPostgres<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw storeError(error);
  }
}
