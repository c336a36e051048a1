// The record of a check on a date, to print for an incident file: the vehicle, the date asked,
// the answer, how fresh the data was, when the check was made and its reference.
import { formatRegistration } from "@vics/shared";
import { dataAsOfWords } from "../../../components/data-as-of.tsx";
import { SummaryList } from "../../../components/summary-list.tsx";
import { formatDate, formatDateTime } from "../../../lib/dates.ts";
import type { InsuranceAnswer } from "../../../lib/get-insurance.ts";
import { insuranceAnswerWords } from "./insurance-status.tsx";

interface CheckRecordProps {
  record: InsuranceAnswer;
  /** The date asked ("YYYY-MM-DD"). */
  day: string;
  /** When the answer arrived (ISO timestamp). */
  checkedAt: string;
}

export function CheckRecord({ record, day, checkedAt }: CheckRecordProps) {
  const { make, model, color } = record.vehicle;
  return (
    <section className="check-record" aria-labelledby="check-record-heading">
      <h3 id="check-record-heading" className="heading-s">
        Record of this check
      </h3>
      <SummaryList
        rows={[
          {
            label: "Vehicle",
            value: `${formatRegistration(record.registration)}, ${color} ${make} ${model}`,
          },
          { label: "Date asked about", value: formatDate(day) },
          {
            label: "Answer",
            value: `${insuranceAnswerWords(record, day)} on ${formatDate(day)}`,
          },
          {
            label: "Insurance data as of",
            value: dataAsOfWords(record.dataAsOf?.insurance),
          },
          { label: "Checked at", value: formatDateTime(checkedAt) },
          { label: "Reference", value: record.reference ?? "Not given" },
        ]}
      />
      <button
        type="button"
        className="button button--secondary"
        onClick={() => window.print()}
      >
        Print this record
      </button>
    </section>
  );
}
