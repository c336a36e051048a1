// The head of every printed record (a single check's answer, the fleet report): who made the
// check, when, and when the page was printed, so a sheet in a file says who stands behind it and
// how old it is. Shown on paper only (styles/print.css).
import { formatDateTime } from "../lib/dates.ts";
import { useSessionUser } from "../lib/session-user.ts";
import { usePrintedAt } from "../lib/use-printed-at.ts";
import { SummaryList } from "./summary-list.tsx";

interface PrintedByProps {
  /** When the check was made (ISO); left out where the record already says it. */
  checkedAt?: string;
}

export function PrintedBy({ checkedAt }: PrintedByProps) {
  const user = useSessionUser();
  const printedAt = usePrintedAt();
  const rows = [
    ...(user
      ? [
          {
            label: "Checked by",
            value: user.name ? `${user.name} (${user.email})` : user.email,
          },
        ]
      : []),
    ...(checkedAt
      ? [{ label: "Checked on", value: formatDateTime(checkedAt) }]
      : []),
    { label: "Printed on", value: formatDateTime(printedAt.toISOString()) },
  ];
  return (
    <div className="printed-by">
      <SummaryList rows={rows} />
    </div>
  );
}
