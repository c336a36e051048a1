import {
  DEPENDENCY_RETRY_AFTER_SECONDS,
  RETRY_AFTER_HEADER,
} from "@vics/shared";
import { ProblemError } from "./problem-error.ts";

/** What a server cannot work without, in the words its 503 and its log line use. */
export type Dependency = "database" | "rate limiter";

export { DEPENDENCY_RETRY_AFTER_SECONDS };

/**
 * Thrown by a store or a limiter when PostgreSQL or Redis does not answer. The error handler
 * (error-handlers.ts) renders it as a 503 with Retry-After: the request did nothing, and the
 * same request will work once the dependency is back. Never an unlimited request, never a
 * hang (docs/decisions/036-fail-closed-without-redis.md).
 */
export class DependencyUnavailableError extends Error {
  readonly dependency: Dependency;

  constructor(dependency: Dependency, cause: unknown) {
    super(
      `The ${dependency} is not answering (${cause instanceof Error ? cause.message : String(cause)})`,
      { cause },
    );
    this.name = "DependencyUnavailableError";
    this.dependency = dependency;
  }
}

export function serviceUnavailable(dependency: Dependency): ProblemError {
  return new ProblemError(
    503,
    "SERVICE_UNAVAILABLE",
    `VICS cannot answer right now: its ${dependency} is not answering. Nothing was done; retry in ${DEPENDENCY_RETRY_AFTER_SECONDS} seconds.`,
    { [RETRY_AFTER_HEADER]: String(DEPENDENCY_RETRY_AFTER_SECONDS) },
  );
}
