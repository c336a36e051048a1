// A GOV.UK-style summary list: a description list of label and value pairs.
import type { ReactNode } from "react";

export interface SummaryRow {
  label: string;
  value: ReactNode;
}

export function SummaryList({ rows }: { rows: SummaryRow[] }) {
  return (
    <dl className="summary-list">
      {rows.map((row) => (
        <div className="summary-list__row" key={row.label}>
          <dt className="summary-list__key">{row.label}</dt>
          <dd className="summary-list__value">{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}
