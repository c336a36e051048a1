// Runs the insurance check for one valid registration and shows its answer.
import type { InsuranceRecord } from "@vics/shared";
import { CheckLookup } from "../../../components/check-lookup.tsx";
import type { FocusRequest } from "../../../components/check-page.tsx";
import { useInsurance } from "../../../lib/get-insurance.ts";
import { lazyView, useLazyView } from "../../../lib/lazy-view.ts";

// Loads while the check runs: the first page of a visit does without it.
const resultView = lazyView(
  async () => (await import("./insurance-result.tsx")).InsuranceResult,
);
const InsuranceResult = resultView.View;

const outcome = (record: InsuranceRecord) =>
  record.insured ? "Insured" : "Not insured";

interface InsuranceLookupProps {
  registration: string;
  focus?: FocusRequest;
}

export function InsuranceLookup({ registration, focus }: InsuranceLookupProps) {
  const query = useInsurance(registration);
  const ready = useLazyView(resultView);
  return (
    <CheckLookup
      registration={registration}
      kind="insurance"
      title="Insurance check"
      query={query}
      focus={focus}
      ready={ready}
      outcome={outcome}
      verdict={(record) => (record.insured ? "insured" : "not-insured")}
      announcement={(record, display) =>
        `${display} is ${outcome(record).toLowerCase()}.`
      }
    >
      {(record) => (
        <InsuranceResult
          record={record}
          // The record has no time of its own: the check was made when this answer arrived.
          checkedAt={new Date(query.dataUpdatedAt).toISOString()}
          rechecking={query.isFetching}
          onCheckAgain={() => void query.refetch()}
        />
      )}
    </CheckLookup>
  );
}
