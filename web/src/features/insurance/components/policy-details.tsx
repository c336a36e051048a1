// The policy behind the answer: the current one, the last lapsed one, or none on record.
import type { Policy } from "@vics/shared";
import { StatusIcon } from "../../../components/status-icon.tsx";
import { SummaryList } from "../../../components/summary-list.tsx";
import {
  describePolicyEnd,
  formatDate,
  isExpiringSoon,
} from "../../../lib/dates.ts";

interface PolicyDetailsProps {
  policy: Policy | null;
  insured: boolean;
  today: string;
}

export function PolicyDetails({ policy, insured, today }: PolicyDetailsProps) {
  if (!policy) {
    return (
      <section className="result__section" aria-labelledby="policy-heading">
        <h3 id="policy-heading" className="heading-s">
          Policy
        </h3>
        <p>No insurance policy on record</p>
      </section>
    );
  }
  const expiringSoon = insured && isExpiringSoon(policy.validTo, today);
  return (
    <section className="result__section" aria-labelledby="policy-heading">
      <h3 id="policy-heading" className="heading-s">
        {insured ? "Policy" : "Last policy"}
      </h3>
      {expiringSoon && (
        <p className="inset-warning">
          <StatusIcon status="warning" />
          <strong>Expiring soon:</strong> this policy{" "}
          {describePolicyEnd(policy.validTo, today)}, on{" "}
          {formatDate(policy.validTo)}.
        </p>
      )}
      <SummaryList
        rows={[
          { label: "Insurer", value: policy.insurer },
          { label: "Policy number", value: policy.number },
          { label: "Cover type", value: policy.type },
          { label: "Valid from", value: formatDate(policy.validFrom) },
          {
            label: "Valid to",
            value: (
              <>
                {formatDate(policy.validTo)}{" "}
                <span className="policy-end">
                  ({describePolicyEnd(policy.validTo, today)})
                </span>
              </>
            ),
          },
        ]}
      />
    </section>
  );
}
