// When the check was made, and a button to make it again.
import { formatTimeOnDate } from "../../../lib/dates.ts";

interface CheckFreshnessProps {
  lastChecked: string;
  rechecking: boolean;
  onCheckAgain: () => void;
}

export function CheckFreshness({
  lastChecked,
  rechecking,
  onCheckAgain,
}: CheckFreshnessProps) {
  return (
    <div className="check-freshness">
      <p className="check-freshness__time">
        Checked at{" "}
        <time dateTime={lastChecked}>{formatTimeOnDate(lastChecked)}</time>
      </p>
      <button
        type="button"
        className="button button--secondary"
        // aria-disabled, not disabled, so keyboard focus stays on the button.
        onClick={rechecking ? undefined : onCheckAgain}
        aria-disabled={rechecking || undefined}
      >
        {rechecking ? "Checking again…" : "Check again"}
      </button>
    </div>
  );
}
