import type { CheckAction, RecentCheckVerdict } from "@vics/shared";
import { ProblemError } from "@vics/server-kit/problem-error";
import type {
  Forward,
  UpstreamRequest,
} from "../../gateway/forward/forward.ts";
import type { CheckRule, Forwarded } from "../../gateway/forward/operation.ts";
import type { AuditStore } from "../store/proxy-store.ts";
import { type AuditFields, recordAudit } from "./audit-log.ts";

/**
 * What a single check found, for the person's recent checks: read from the answer the
 * forwarder has already parsed and checked against the contract, never parsed again.
 * Undefined for a bulk check (no verdict declared) or a failure.
 */
function verdictOf<Answer>(
  check: CheckRule<Answer>,
  { response, answer }: Forwarded<Answer>,
): RecentCheckVerdict | undefined {
  if (!check.verdict) return undefined;
  if (response.status === 404) return "not-found";
  return answer === undefined ? undefined : check.verdict(answer);
}

/**
 * A check's event. A check on a past date, or as known at an instant, says so in its detail
 * (decision 041), beside its verdict.
 */
function checkEvent(
  action: CheckAction,
  { pointInTime, registrations }: UpstreamRequest,
  outcome: string,
  verdict?: RecentCheckVerdict,
): AuditFields {
  const event: AuditFields = { action, outcome, registrations };
  const date = pointInTime?.date;
  const asKnownAt = pointInTime?.asKnownAt;
  if (!date && !asKnownAt && !verdict) return event;
  // Filled in place, in this order: one object for the detail, none made only to be spread.
  const detail: NonNullable<AuditFields["detail"]> = {};
  if (date) detail.date = date;
  if (asKnownAt) detail.asKnownAt = asKnownAt;
  if (verdict) detail.verdict = verdict;
  event.detail = detail;
  return event;
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
  return async (c, operation, upstream) => {
    const { check } = operation;
    if (check === undefined) return forward(c, operation, upstream);
    let forwarded;
    try {
      forwarded = await forward(c, operation, upstream);
    } catch (error) {
      if (error instanceof ProblemError)
        await recordAudit(
          store,
          c,
          now(),
          checkEvent(check.action, upstream, String(error.status)),
        );
      throw error;
    }
    await recordAudit(
      store,
      c,
      now(),
      checkEvent(
        check.action,
        upstream,
        String(forwarded.response.status),
        verdictOf(check, forwarded),
      ),
    );
    return forwarded;
  };
}
