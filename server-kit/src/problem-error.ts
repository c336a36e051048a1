import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ProblemCode, ProblemExtensions } from "@vics/shared";

/**
 * An error the caller should see as a problem document. Handlers and middlewares of both apps
 * throw it, and the app's onError renders it (error-handlers.ts), so there is one place where
 * errors become answers and a middleware cannot forget a header the others set.
 */
export class ProblemError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: ProblemCode;
  readonly headers: Record<string, string>;
  readonly extensions: ProblemExtensions;

  constructor(
    status: ContentfulStatusCode,
    code: ProblemCode,
    detail: string,
    headers: Record<string, string> = {},
    extensions: ProblemExtensions = {},
  ) {
    super(detail);
    this.name = "ProblemError";
    this.status = status;
    this.code = code;
    this.headers = headers;
    this.extensions = extensions;
  }
}

/** A registration the shared parser refuses, in its words: both apps' 400 on a check's path. */
export const invalidRegistration = (detail: string) =>
  new ProblemError(400, "INVALID_REGISTRATION", detail);

/** A request the client must fix, in words that say how: both apps' 400 for a bad body. */
export const malformedRequest = (detail: string) =>
  new ProblemError(400, "MALFORMED_REQUEST", detail);

export const payloadTooLarge = (detail: string) =>
  new ProblemError(413, "PAYLOAD_TOO_LARGE", detail);
