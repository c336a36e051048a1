import type { Logger } from "@vics/server-kit/logger";
import type { AuditStore } from "../store/proxy-store.ts";

const DAY_MS = 86_400_000;

/**
 * Prunes the audit log at start and then once a day: events older than the retention period
 * (AUDIT_RETENTION_DAYS) go, and the store refuses to delete any younger one. Several
 * replicas pruning at once delete each event once. Returns a stop function.
 */
export function pruneAuditDaily(
  store: AuditStore,
  now: () => number,
  logger: Pick<Logger, "info" | "error">,
): () => void {
  const prune = async () => {
    try {
      const removed = await store.pruneAudit(now());
      if (removed > 0)
        logger.info("audit events past their retention removed", { removed });
    } catch (error) {
      logger.error("audit pruning failed; it is tried again tomorrow", {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  };
  void prune();
  const timer = setInterval(() => void prune(), DAY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
