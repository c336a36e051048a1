import { paths } from "@vics/shared";
import { ProblemError } from "@vics/shared/server/problem-error";
import type { Forward } from "../forward/forward.ts";
import type { AuditAction, AuditStore } from "../store/proxy-store.ts";
import { recordAudit } from "./audit-log.ts";

/** The check an upstream path is, or undefined for what is not a check (the OpenAPI document). */
export function checkAction(path: string): AuditAction | undefined {
  if (path === paths.bulkInsurance()) return "check.bulk-insurance";
  if (path === paths.bulkCompliance()) return "check.bulk-compliance";
  if (/^\/v1\/vehicle\/[A-Z0-9]+\/insurance$/.test(path))
    return "check.insurance";
  if (/^\/v1\/compliance\/[A-Z0-9]+$/.test(path)) return "check.compliance";
  return undefined;
}

/**
 * Every check forwarded is one audit event, committed before its answer goes back: the
 * answer waits for the event, and a failed write is the proxy's 500 instead of an answer with
 * no record. A check the upstream failed is recorded too, with the proxy's status.
 */
export function auditedForward(
  forward: Forward,
  store: AuditStore,
  now: () => number,
): Forward {
  return async (c, upstream) => {
    const action = checkAction(upstream.path);
    if (action === undefined) return forward(c, upstream);
    const record = (outcome: string) =>
      recordAudit(store, c, now(), {
        action,
        outcome,
        registrations: upstream.registrations ?? [],
      });
    let response: Response;
    try {
      response = await forward(c, upstream);
    } catch (error) {
      if (error instanceof ProblemError) await record(String(error.status));
      throw error;
    }
    await record(String(response.status));
    return response;
  };
}
