import { paths, type RecentCheckVerdict } from "@vics/shared";
import { ProblemError } from "@vics/shared/server/problem-error";
import { type Forward, forwardedJson } from "../forward/forward.ts";
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
 * What a single check found, for the person's recent checks: read from the answer, which the
 * forwarder has already parsed and checked against the contract. Undefined for a bulk check or
 * a failure. The forwarder's parse is reused: cloning the answer to parse it again cost a
 * second JSON parse, and took Node's answer off its fast path (a web stream per answer). Not
 * async: with the forwarder's parse at hand (every forwarded answer) it waits for nothing.
 */
function verdictOf(
  action: AuditAction,
  response: Response,
): RecentCheckVerdict | undefined | Promise<RecentCheckVerdict | undefined> {
  if (action !== "check.insurance" && action !== "check.compliance")
    return undefined;
  if (response.status === 404) return "not-found";
  if (response.status !== 200) return undefined;
  const judge = (answer: Record<string, unknown>): RecentCheckVerdict => {
    if (action === "check.insurance")
      return answer.insured === true ? "insured" : "not-insured";
    return answer.compliant === true ? "compliant" : "not-compliant";
  };
  const parsed = forwardedJson(response);
  if (parsed !== undefined) return judge(parsed as Record<string, unknown>);
  return response
    .clone()
    .json()
    .then(
      (answer) => judge(answer as Record<string, unknown>),
      () => undefined,
    );
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
    // A check on a past date, or as known at an instant, says so in its event (decision 041).
    const asked = {
      ...(upstream.pointInTime?.date && { date: upstream.pointInTime.date }),
      ...(upstream.pointInTime?.asKnownAt && {
        asKnownAt: upstream.pointInTime.asKnownAt,
      }),
    };
    const record = (outcome: string, verdict?: RecentCheckVerdict) => {
      const detail = { ...asked, ...(verdict && { verdict }) };
      return recordAudit(store, c, now(), {
        action,
        outcome,
        registrations: upstream.registrations ?? [],
        ...(Object.keys(detail).length > 0 && { detail }),
      });
    };
    let response: Response;
    try {
      response = await forward(c, upstream);
    } catch (error) {
      if (error instanceof ProblemError) await record(String(error.status));
      throw error;
    }
    const verdict = verdictOf(action, response);
    await record(
      String(response.status),
      verdict instanceof Promise ? await verdict : verdict,
    );
    return response;
  };
}
