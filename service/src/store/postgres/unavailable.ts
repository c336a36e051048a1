import { DependencyUnavailableError } from "@vics/shared/server/dependency-unavailable";

// Node's socket errors for a server that is not there or went away.
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
]);

// SQLSTATE: admin_shutdown, crash_shutdown, cannot_connect_now (starting up, shutting down).
const SERVER_GOING_CODES = new Set(["57P01", "57P02", "57P03"]);

// pg's own words when a connection dies or never comes, which carry no code.
const PG_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is closed/i;

/**
 * Whether `error` says PostgreSQL cannot be reached or dropped the connection, as opposed to
 * a fault of the statement: the first is a 503 that clears once the server is back, the
 * second a bug.
 */
export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // A host name with several addresses fails with one error per address.
  if (error instanceof AggregateError)
    return error.errors.some((inner) => isConnectionFailure(inner));
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") {
    if (SOCKET_CODES.has(code) || SERVER_GOING_CODES.has(code)) return true;
    // Class 08: connection exception.
    if (/^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  return PG_MESSAGES.test(error.message);
}

/**
 * Runs one piece of store work; a lost or refused connection becomes the 503 the error
 * handler renders (DependencyUnavailableError). The pool drops the dead connection and opens
 * a new one for the next call, so the store recovers by itself once PostgreSQL is back.
 */
export async function reaching<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isConnectionFailure(error))
      throw new DependencyUnavailableError("database", error);
    throw error;
  }
}
