// "Insured", "Not insured" or "Not yet on record" as a heading with an icon, and a one-line
// reason; "on 8 June 2026" when the check was about another day (decision 041).
import type { InsuranceRecord } from "@vics/shared";
import { StatusIcon } from "../../../components/status-icon.tsx";
import { describePolicyEnd, formatDate } from "../../../lib/dates.ts";
import { notYetOnRecord, recordDeadline } from "@vics/fleet";

interface InsuranceStatusProps {
  record: InsuranceRecord;
  /** The day the answer is about: today, or the date asked. */
  day: string;
  /** True when that day is not today: the words name it. */
  onADate: boolean;
  headingId: string;
}

/** The answer in words, for the heading, the tab title and the printed record. */
export function insuranceAnswerWords(
  record: InsuranceRecord,
  day: string,
): string {
  if (record.insured) return "Insured";
  return notYetOnRecord({ lastPolicy: record.policy, ...record }, day)
    ? "Not yet on record"
    : "Not insured";
}

function reason(
  { insured, policy, vehicle }: InsuranceRecord,
  day: string,
  onADate: boolean,
): string {
  const that = onADate ? "that day" : "today";
  if (insured && policy)
    return onADate
      ? `A policy covered that day: cover from ${formatDate(policy.validFrom)} to ${formatDate(policy.validTo)}.`
      : `A policy covers today. Cover ${describePolicyEnd(policy.validTo, day)}.`;
  if (insured) return `A policy covers ${that}.`;
  if (
    vehicle.firstRegistered &&
    notYetOnRecord({ lastPolicy: policy, vehicle }, day)
  )
    return `No policy is on record yet. The vehicle was first registered on ${formatDate(vehicle.firstRegistered)}, and its insurer has until ${formatDate(recordDeadline(vehicle.firstRegistered))} to put the policy on the record: ask for the certificate of insurance.`;
  if (policy)
    return onADate
      ? `No policy covered that day. The last policy before it ended on ${formatDate(policy.validTo)}.`
      : `No policy covers today. The last policy ${describePolicyEnd(policy.validTo, day)}, on ${formatDate(policy.validTo)}.`;
  return "No insurance policy on record for this vehicle.";
}

export function InsuranceStatus({
  record,
  day,
  onADate,
  headingId,
}: InsuranceStatusProps) {
  const words = insuranceAnswerWords(record, day);
  const status = record.insured
    ? "pass"
    : words === "Not yet on record"
      ? "warning"
      : "fail";
  return (
    <div className={`status-banner status-banner--${status}`}>
      <h2 id={headingId} className="status-banner__title">
        <StatusIcon status={status} />
        {onADate ? `${words} on ${formatDate(day)}` : words}
      </h2>
      <p className="status-banner__reason">{reason(record, day, onADate)}</p>
    </div>
  );
}
