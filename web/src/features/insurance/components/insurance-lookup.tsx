// Runs the insurance check for one valid registration and shows its answer.
import { CheckLookup } from "../../../components/check-lookup.tsx";
import type { FocusRequest } from "../../../components/check-page.tsx";
import { formatDate, ukToday } from "../../../lib/dates.ts";
import {
  type InsuranceAnswer,
  useInsurance,
} from "../../../lib/get-insurance.ts";
import { lazyView, useLazyView } from "../../../lib/lazy-view.ts";
import { useNow } from "../../../lib/use-now.ts";
import { insuranceAnswerWords } from "./insurance-status.tsx";

// Loads while the check runs: the first page of a visit does without it.
const resultView = lazyView(
  async () => (await import("./insurance-result.tsx")).InsuranceResult,
);
const InsuranceResult = resultView.View;

interface InsuranceLookupProps {
  registration: string;
  focus?: FocusRequest;
  /** The day asked ("YYYY-MM-DD"), for "Check on a date"; undefined for today. */
  date?: string;
}

export function InsuranceLookup({
  registration,
  focus,
  date,
}: InsuranceLookupProps) {
  const query = useInsurance(registration, true, date);
  const ready = useLazyView(resultView);
  const now = useNow();
  const day = date ?? ukToday(now);
  const outcome = (record: InsuranceAnswer) => {
    const words = insuranceAnswerWords(record, day);
    return date === undefined ? words : `${words} on ${formatDate(date)}`;
  };
  return (
    <CheckLookup
      registration={registration}
      kind="insurance"
      title="Insurance check"
      query={query}
      focus={focus}
      date={date}
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
          date={date}
          // The record has no time of its own: the check was made when this answer arrived.
          checkedAt={new Date(query.dataUpdatedAt).toISOString()}
          rechecking={query.isFetching}
          onCheckAgain={() => void query.refetch()}
        />
      )}
    </CheckLookup>
  );
}
