import type { Hono } from "hono";
import { HEALTH_PATH, READY_PATH } from "@vics/shared";
import {
  type Dependency,
  DependencyUnavailableError,
} from "./dependency-unavailable.ts";
import type { ServerEnv } from "./server-env.ts";

/** How long a dependency may take to answer a readiness check before it counts as down. */
export const READY_TIMEOUT_MS = 2_000;

export type ReadinessChecks = Partial<Record<Dependency, () => Promise<void>>>;

/**
 * The probes of supervisors and load balancers, neither ever cached. GET /health: the process
 * answers (liveness), cheaply, asking no dependency. GET /ready: 200 when every dependency
 * answers within READY_TIMEOUT_MS, else the 503 problem of the first that does not
 * (DependencyUnavailableError, rendered by the error handler): a replica that cannot serve is
 * taken out.
 */
export function registerProbes<E extends ServerEnv>(
  app: Hono<E>,
  checks: ReadinessChecks,
): void {
  app.get(HEALTH_PATH, (c) =>
    c.json({ status: "ok" }, 200, { "Cache-Control": "no-store" }),
  );
  app.get(READY_PATH, async (c) => {
    await checkReady(checks);
    c.header("Cache-Control", "no-store");
    return c.json({ status: "ready" });
  });
}

/**
 * What GET /ready asks: resolves when every dependency answers within READY_TIMEOUT_MS, else
 * throws the DependencyUnavailableError of the first that does not.
 */
export async function checkReady(checks: ReadinessChecks): Promise<void> {
  await Promise.all(
    Object.entries(checks).map(async ([dependency, check]) => {
      try {
        await withTimeout(check!(), READY_TIMEOUT_MS);
      } catch (error) {
        // A limiter's ping already says which dependency failed, in the same words.
        if (error instanceof DependencyUnavailableError) throw error;
        throw new DependencyUnavailableError(dependency as Dependency, error);
      }
    }),
  );
}

async function withTimeout(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${ms} ms`)),
          ms,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
