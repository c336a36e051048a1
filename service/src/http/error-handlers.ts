import type { ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { Logger } from "../logger.ts";
import { SandboxFailure } from "../sandbox.ts";
import type { AppEnv } from "./app-env.ts";
import { ProblemError, problems } from "./problem-error.ts";
import { problemResponse } from "./problem-response.ts";

const INTERNAL_DETAIL =
  "The service hit an unexpected problem. Please retry later.";

/** The one place errors become responses. Unknown errors are logged, never shown. */
export function errorHandler(logger: Logger): ErrorHandler<AppEnv> {
  return (error, c) => {
    if (error instanceof ProblemError)
      return problemResponse(
        c,
        error.status,
        error.code,
        error.message,
        error.headers,
        error.extensions,
      );
    if (error instanceof HTTPException && error.status < 500)
      return problemResponse(
        c,
        error.status,
        "MALFORMED_REQUEST",
        error.message || "The request is malformed.",
      );
    if (error instanceof SandboxFailure) {
      logger.info("sandbox: simulated failure", {
        requestId: c.get("requestId"),
      });
      return problemResponse(c, 500, "INTERNAL", INTERNAL_DETAIL);
    }
    logger.error("unhandled error", {
      requestId: c.get("requestId"),
      error:
        error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    return problemResponse(c, 500, "INTERNAL", INTERNAL_DETAIL);
  };
}

export const notFoundHandler: NotFoundHandler<AppEnv> = () => {
  // Thrown, so onError renders it like every other problem.
  throw problems.routeNotFound();
};
