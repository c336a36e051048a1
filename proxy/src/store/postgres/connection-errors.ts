import { DependencyUnavailableError } from "@vics/shared/server/dependency-unavailable";

/** Node's socket errors that mean the server is not there (or went away mid-query). */
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

/**
 * SQLSTATEs of a server that is going or not yet back: admin_shutdown, crash_shutdown,
 * cannot_connect_now (starting up or shutting down). Class 08 is every connection exception.
 */
const SERVER_GONE = new Set(["57P01", "57P02", "57P03"]);

/** node-postgres says these in words, with no code, when the connection ends under it. */
const GONE_WORDS =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended/i;

/** Whether an error from pg means PostgreSQL cannot be reached, not that the query is wrong. */
export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // A host name with several addresses fails as one AggregateError of each attempt.
  if (error instanceof AggregateError)
    return error.errors.some((inner) => isConnectionError(inner));
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") {
    if (SOCKET_CODES.has(code) || SERVER_GONE.has(code)) return true;
    if (/^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  return GONE_WORDS.test(error.message);
}

/**
 * What a store method throws: DependencyUnavailableError when PostgreSQL is down (the error
 * handler's 503 with Retry-After), else the error itself (a bug, or a refusal such as the
 * audit log's triggers, is a 500 and a stack in the log).
 */
export function storeError(error: unknown): unknown {
  if (error instanceof DependencyUnavailableError) return error;
  return isConnectionError(error)
    ? new DependencyUnavailableError("database", error)
    : error;
}
