// Which alerts a watched vehicle's facts hold open on a UK date, and what a new re-check opens
// and closes. An alert is a fact with a date and a key that names it: the store keeps one open
// alert per (registration, kind, key), so a fact alerts once while it holds however often it is
// evaluated, and a job run twice alerts once; a fact that comes back after it closed alerts anew.
import {
  daysBetween,
  ENDING_THRESHOLDS,
  type AlertKind,
  type DueArea,
  type EndingThreshold,
} from "@vics/shared";
import type { PolicyFacts, VehicleFacts } from "./vehicle-facts.ts";

export type AlertDetail = Record<string, string | number | null>;

export interface AlertFact {
  kind: AlertKind;
  key: string;
  detail: AlertDetail;
  /** Opened already resolved: "insured again" and "fines paid" tell of an end. */
  resolved?: boolean;
}

export interface AlertRef {
  kind: AlertKind;
  key: string;
}

const sameAlert = (a: AlertRef, b: AlertRef) =>
  a.kind === b.kind && a.key === b.key;

/** The smallest threshold a date `daysLeft` away has reached; undefined beyond 30 days or past. */
export function endingThreshold(daysLeft: number): EndingThreshold | undefined {
  if (daysLeft < 0) return undefined;
  let reached: EndingThreshold | undefined;
  for (const threshold of ENDING_THRESHOLDS)
    if (daysLeft <= threshold) reached = threshold;
  return reached;
}

function dueDates(facts: VehicleFacts): [DueArea, string][] {
  const dates: [DueArea, string][] = [];
  if (facts.insurance?.status === "insured")
    dates.push(["insurance", facts.insurance.policy.validTo]);
  if (facts.mot?.status === "valid" && facts.mot.expiry)
    dates.push(["mot", facts.mot.expiry]);
  if (facts.tax?.status === "taxed" && facts.tax.dueDate)
    dates.push(["tax", facts.tax.dueDate]);
  return dates;
}

/** The key of an open alert of `kind`, when one is open: a state keeps the key it opened with. */
const openKey = (open: readonly AlertRef[], kind: AlertKind) =>
  open.find((alert) => alert.kind === kind)?.key;

/**
 * The "not insured" alert. `last` is the policy that ended; null when none ever was on the
 * record ("never"); undefined when the upstream did not say ("not told", which is no claim of
 * "never"). Told of no policy either way, it keeps the not-insured alert already open: the
 * vehicle has stayed uninsured, and an answer that tells less, or tells it otherwise, is no new
 * fact to alert again for.
 */
function notInsuredAlert(
  last: PolicyFacts | null | undefined,
  previous: VehicleFacts | undefined,
  open: readonly AlertRef[],
): AlertFact {
  if (!last)
    return {
      kind: "not-insured",
      key:
        openKey(open, "not-insured") ??
        (last === null ? "never insured" : "no policy told"),
      detail: {
        how: last === null ? "never" : "not told",
        policy: null,
        insurer: null,
        endedOn: null,
      },
    };
  const before =
    previous?.insurance?.status === "insured"
      ? previous.insurance.policy
      : undefined;
  const cancelled =
    before?.number === last.number && last.validTo < before.validTo;
  return {
    kind: "not-insured",
    key: `${last.number} to ${last.validTo}`,
    detail: {
      how: cancelled ? "cancelled" : "lapsed",
      policy: last.number,
      insurer: last.insurer,
      endedOn: last.validTo,
    },
  };
}

/**
 * The alerts `facts` hold on `today`. `previous` (the facts before) tells a cancellation from a
 * lapse; `open` lets a state without a date of its own (SORN, not found, not insured with no
 * policy told) keep its first key.
 */
export function activeAlerts(
  facts: VehicleFacts,
  today: string,
  previous: VehicleFacts | undefined,
  open: readonly AlertRef[],
): AlertFact[] {
  if (!facts.found)
    return [
      {
        kind: "not-found",
        key: openKey(open, "not-found") ?? `since ${today}`,
        detail: {},
      },
    ];
  const alerts: AlertFact[] = [];
  const insurance = facts.insurance;
  if (insurance?.status === "not-insured")
    alerts.push(notInsuredAlert(insurance.lastPolicy, previous, open));
  for (const [area, date] of dueDates(facts)) {
    const threshold = endingThreshold(daysBetween(today, date));
    if (threshold === undefined) continue;
    alerts.push({
      kind: "ending",
      key: `${area} ${date} at ${threshold}`,
      detail: { area, date, threshold },
    });
  }
  if (facts.mot?.status === "expired")
    alerts.push({
      kind: "mot-expired",
      key: facts.mot.expiry
        ? `expired ${facts.mot.expiry}`
        : (openKey(open, "mot-expired") ?? `expired since ${today}`),
      detail: { expiry: facts.mot.expiry },
    });
  if (facts.tax && facts.tax.status !== "taxed") {
    const { status, dueDate } = facts.tax;
    const kept = openKey(open, "untaxed");
    alerts.push({
      kind: "untaxed",
      key:
        kept?.startsWith(`${status} `) && dueDate === null
          ? kept
          : `${status} ${dueDate ?? `since ${today}`}`,
      detail: { status, dueDate },
    });
  }
  if (facts.fines && facts.fines.count > 0) {
    const { count, totalPence } = facts.fines;
    // More fines, or a larger total, than the re-check before: a new fine, alerted anew (even
    // when one was paid meanwhile). Fewer: some paid, the open alert stays as it is.
    const before = previous?.fines;
    const grew =
      before === undefined ||
      count > before.count ||
      totalPence > before.totalPence;
    const kept = openKey(open, "new-fine");
    alerts.push({
      kind: "new-fine",
      key: grew || !kept ? `${count} fines, ${totalPence}p on ${today}` : kept,
      detail: { count, totalPence },
    });
  }
  return alerts;
}

export interface AlertChange {
  /** New facts: the store inserts each once (an existing key is left as it is). */
  opened: AlertFact[];
  /** Open alerts the facts no longer hold. */
  closed: AlertRef[];
}

/** What a re-check's facts open and close, against the alerts open before it. */
export function alertChange(
  facts: VehicleFacts,
  today: string,
  previous: VehicleFacts | undefined,
  open: readonly AlertRef[],
): AlertChange {
  const active = activeAlerts(facts, today, previous, open);
  const opened = active.filter((a) => !open.some((o) => sameAlert(o, a)));
  const closed = open.filter((o) => !active.some((a) => sameAlert(a, o)));
  for (const ended of closed) {
    if (ended.kind === "not-insured" && facts.insurance?.status === "insured") {
      const { policy } = facts.insurance;
      opened.push({
        kind: "insured-again",
        key: `after ${ended.key}`,
        detail: {
          policy: policy.number,
          insurer: policy.insurer,
          validTo: policy.validTo,
        },
        resolved: true,
      });
    }
    if (ended.kind === "new-fine" && facts.fines?.count === 0)
      opened.push({
        kind: "fines-paid",
        key: `after ${ended.key}`,
        detail: {},
        resolved: true,
      });
  }
  return { opened, closed };
}
