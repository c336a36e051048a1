/**
 * `@vics/server-kit/socket-errors`: what a failed HTTP request says about its connection,
 * for undici's own errors (the code on the error) and fetch's (the code on its cause).
 */

/** The socket's error code: on fetch's cause first, else on the error itself. */
export function socketErrorCode(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const cause = error.cause as { code?: unknown } | undefined;
  if (typeof cause?.code === "string") return cause.code;
  const { code } = error as { code?: unknown };
  return typeof code === "string" ? code : undefined;
}

/** The failures that mean the other side closed the connection under a request. */
const CLOSED_UNDER_REQUEST = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET"]);

/**
 * Whether the connection was closed under the request before its answer (nginx's reload
 * closes its idle kept-alive connections; a replica draining does too): a GET that failed so
 * may be sent once more (RFC 9110 9.2.2). An abort or a time-out is not such a failure.
 */
export const closedUnderRequest = (error: unknown): boolean =>
  CLOSED_UNDER_REQUEST.has(socketErrorCode(error) ?? "");
