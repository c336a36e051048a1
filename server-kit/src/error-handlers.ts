import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { Logger } from "./logger.ts";
import {
  DependencyUnavailableError,
  serviceUnavailable,
} from "./dependency-unavailable.ts";
import { ProblemError } from "./problem-error.ts";
import { problemResponse } from "./problem-response.ts";
import type { ServerEnv } from "./server-env.ts";

export interface ErrorHandlerOptions {
  logger: Logger;
  /** The app's own 500, in its own words: what an error nobody expected becomes. */
  internal: () => ProblemError;
  /** Headers on every problem the app answers (the proxy's Cache-Control: no-store). */
  headers?: Record<string, string>;
  /**
   * An error the app knows but did not throw as a problem (the service's simulated sandbox
   * failure): the problem it becomes, once the app has logged it in its own way. Undefined
   * for any other error, which is then logged as unhandled.
   */
  expected?: (error: Error, c: Context<ServerEnv>) => ProblemError | undefined;
}

/**
 * The one place where errors become answers (`app.onError`). A ProblemError is rendered as
 * it is; an HTTPException under 500 is Hono's own word for a client's mistake; anything else
 * is logged with its stack and becomes the app's INTERNAL 500, whose words show nothing of it.
 */
export function errorHandler(options: ErrorHandlerOptions): ErrorHandler {
  const { logger, headers } = options;
  return (error, c) => {
    const context = c as Context<ServerEnv>;
    const answer = (problem: ProblemError) =>
      problemResponse(context, problem, headers);
    if (error instanceof ProblemError) return answer(error);
    if (error instanceof HTTPException && error.status < 500)
      return answer(
        new ProblemError(
          error.status,
          "MALFORMED_REQUEST",
          error.message || "The request is malformed.",
        ),
      );
    if (error instanceof DependencyUnavailableError) {
      // Expected while PostgreSQL or Redis restarts: one line, no stack, and a 503 to retry.
      logger.warn("dependency unavailable", {
        requestId: context.get("requestId"),
        dependency: error.dependency,
        error: error.message,
      });
      return answer(serviceUnavailable(error.dependency));
    }
    const expected = options.expected?.(error, context);
    if (expected) return answer(expected);
    logger.error("unhandled error", {
      requestId: context.get("requestId"),
      error: error.stack ?? error.message,
    });
    return answer(options.internal());
  };
}

/** For `app.notFound`: throws the app's problem, so onError renders it like every other. */
export function notFoundHandler(problem: () => ProblemError): NotFoundHandler {
  return () => {
    throw problem();
  };
}
