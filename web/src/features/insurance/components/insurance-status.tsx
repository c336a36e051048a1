// "Insured" or "Not insured" as a heading with an icon, and a one-line reason.
import type { InsuranceRecord } from "@vics/shared";
import { StatusIcon } from "../../../components/status-icon.tsx";
import { describePolicyEnd, formatDate } from "../../../lib/dates.ts";

interface InsuranceStatusProps {
  record: InsuranceRecord;
  today: string;
  headingId: string;
}

function reason({ insured, policy }: InsuranceRecord, today: string): string {
  if (insured && policy)
    return `A policy covers today. Cover ${describePolicyEnd(policy.validTo, today)}.`;
  if (insured) return "A policy covers today.";
  if (policy)
    return `No policy covers today. The last policy ${describePolicyEnd(policy.validTo, today)}, on ${formatDate(policy.validTo)}.`;
  return "No insurance policy on record for this vehicle.";
}

export function InsuranceStatus({
  record,
  today,
  headingId,
}: InsuranceStatusProps) {
  const status = record.insured ? "pass" : "fail";
  return (
    <div className={`status-banner status-banner--${status}`}>
      <h2 id={headingId} className="status-banner__title">
        <StatusIcon status={status} />
        {record.insured ? "Insured" : "Not insured"}
      </h2>
      <p className="status-banner__reason">{reason(record, today)}</p>
    </div>
  );
}
