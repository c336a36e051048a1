// When a check was made, time first: "Checked at 10:15 on 22 November 2026". A printout
// needs it, since the answer is only true for that moment.
import { formatTimeOnDate } from "../lib/dates.ts";

interface CheckedAtProps {
  /** ISO timestamp of the check. */
  timestamp: string;
  className?: string;
}

export function CheckedAt({ timestamp, className }: CheckedAtProps) {
  return (
    <p className={className}>
      Checked at <time dateTime={timestamp}>{formatTimeOnDate(timestamp)}</time>
    </p>
  );
}
